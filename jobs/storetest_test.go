package jobs

import (
	"testing"
	"time"

	"github.com/staykit/staykit/store/postgres/pgtest"
	"github.com/staykit/staykit/store/storetest"
)

// The store conformance suite passes on both stores with their job
// engine's hook installed: every ledger entry, outbox event and delivery
// the suite records inserts its job in the same transaction. It runs the
// scenarios whose methods insert jobs (ledger entries, outbox events and
// deliveries, the transitions that record them, their races, and the
// host's units of work); the others do not meet the hook.
func TestStoreConformanceWithJobs(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d driver) {
		open := func(t *testing.T) store { return d.open(t, d.database(t)) }
		if d.name == "postgres" {
			// A schema per scenario, from a pool: emptied, not migrated
			// again.
			var pool pgtest.Pool
			t.Cleanup(func() {
				if err := pool.Close(); err != nil {
					t.Error(err)
				}
			})
			open = func(t *testing.T) store { return storeOf(pool.Open(t)) }
		}
		storetest.Run(t, func(t *testing.T) storetest.Stores {
			s := open(t)
			if _, err := d.workers(s, options(s, time.Second)); err != nil {
				t.Fatal(err)
			}
			return storetest.Stores{Stores: s.Stores, FeedStore: s.host.FeedStore, ReadModelStore: s.holds, Records: s.host.Records}
		}, storetest.Only("Ledger", "Outbox", "Transition", "Race", "Events", "Host"))
	})
}
