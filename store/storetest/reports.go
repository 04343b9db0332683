package storetest

import (
	"testing"
	"time"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/reports"
)

// reportsStore is the store under test as package reports' Store.
func reportsStore(t *testing.T, s Stores) reports.Store {
	t.Helper()
	r, ok := s.Records.(reports.Store)
	if !ok {
		t.Fatalf("storetest: Records (%T) is no reports.Store", s.Records)
	}
	return r
}

var reportScenarios = []scenario{
	{"Reports/LedgerEntriesMoved", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newOrg(t, s, "other")
		otherProp := newProperty(t, s, other.ID)
		moved := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		still := newPending(t, s, w.prop, "2026-06-10", "2026-06-12", t0.Add(time.Hour))
		elsewhere := newPending(t, s, otherProp, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		from, to := t0.Add(24*time.Hour), t0.Add(48*time.Hour)
		at := func(b int64, key string, updated time.Time) ledger.Entry {
			return ledger.Entry{BookingID: b, Kind: ledger.KindCharge, IntentID: "pi_" + key, Amount: 100, Currency: "EUR",
				Key: key, Reason: ledger.ReasonPaid, Status: ledger.StatusSucceeded, CreatedAt: t0, UpdatedAt: updated}
		}
		_, err := s.RecordLedger(t.Context(), []ledger.Entry{
			at(moved.ID, "before", t0),          // earlier entry of a booking whose money moved: listed
			at(moved.ID, "first", from),         // at from: in
			at(still.ID, "at-to", to),           // at to: out
			at(still.ID, "older", t0),           // nothing of still moved
			at(elsewhere.ID, "other-org", from), // another organisation's
		}, t0)
		must(t, err)
		got, err := reportsStore(t, s).LedgerEntriesMoved(t.Context(), w.org.ID, from, to)
		must(t, err)
		var keys []string
		for _, e := range got {
			keys = append(keys, e.Key)
			if e.PropertyID != w.prop.ID || e.BookingID != moved.ID {
				t.Errorf("entry %s: property %d of booking %d, want property %d of booking %d", e.Key, e.PropertyID, e.BookingID, w.prop.ID, moved.ID)
			}
		}
		if len(keys) != 2 || keys[0] != "before" || keys[1] != "first" {
			t.Fatalf("entries moved = %v, want [before first] (the booking's entries by ID)", keys)
		}
		if !got[1].UpdatedAt.Equal(from) || got[1].Amount != 100 || got[1].Kind != ledger.KindCharge {
			t.Errorf("entry = %+v, want the stored entry", got[1].Entry)
		}
	}},
}
