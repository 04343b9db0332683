package jobs

import (
	"testing"
	"time"

	"github.com/staykit/staykit/store/storetest"
)

// The store conformance suite passes on both stores with their job
// engine's hook installed: every ledger entry, outbox event and delivery
// the suite records inserts its job in the same transaction.
func TestStoreConformanceWithJobs(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d driver) {
		storetest.Run(t, func(t *testing.T) storetest.Stores {
			s := d.open(t, d.database(t))
			if _, err := d.workers(s, options(s, time.Second)); err != nil {
				t.Fatal(err)
			}
			return storetest.Stores{Stores: s.Stores, FeedStore: s.host.FeedStore, ReadModelStore: s.holds, Records: s.host.Records}
		})
	})
}
