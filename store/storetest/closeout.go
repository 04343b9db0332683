package storetest

import (
	"testing"
	"time"

	"github.com/staykit/staykit/closeout"
)

var closeoutScenarios = []scenario{
	{"Closeout/ThresholdPerOrganisation", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newOrg(t, s, "other-closeout")
		c := capabilityOf[closeout.Store](t, s)
		want := func(orgID int64, d time.Duration) {
			t.Helper()
			got, err := c.SyncCloseout(t.Context(), orgID)
			must(t, err)
			if got != d {
				t.Errorf("SyncCloseout(%d) = %v, want %v", orgID, got, d)
			}
		}
		want(w.org.ID, 0)
		must(t, c.SetSyncCloseout(t.Context(), w.org.ID, 6*time.Hour))
		want(w.org.ID, 6*time.Hour)
		want(other.ID, 0)
		must(t, c.SetSyncCloseout(t.Context(), w.org.ID, 90*time.Minute))
		want(w.org.ID, 90*time.Minute)
		must(t, c.SetSyncCloseout(t.Context(), w.org.ID, 0))
		want(w.org.ID, 0)
		must(t, c.SetSyncCloseout(t.Context(), w.org.ID, 0))
		want(w.org.ID, 0)
	}},
}
