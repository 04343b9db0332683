package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
)

// refundEntry is a pending refund of b's intent under key.
func refundEntry(b *booking.Booking, key string, amount int64) ledger.Entry {
	return ledger.Entry{BookingID: b.ID, Kind: ledger.KindRefund, IntentID: "pi_" + b.Token, Amount: amount,
		Currency: "EUR", Key: key, Reason: ledger.ReasonCancelled, Status: ledger.StatusPending}
}

var ledgerScenarios = []scenario{
	{"Ledger/RecordAndList", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		got, err := s.RecordLedger(t.Context(), []ledger.Entry{refundEntry(b, "k1", 1234)}, t0)
		must(t, err)
		if len(got) != 1 || got[0].ID == 0 || !got[0].CreatedAt.Equal(t0) || !got[0].NextAttemptAt.Equal(t0) {
			t.Fatalf("recorded %+v, want an ID and CreatedAt = NextAttemptAt = %v", got, t0)
		}
		list, err := s.LedgerEntries(t.Context(), b.ID)
		must(t, err)
		sameJSON(t, "entries", list, got)
	}},
	{"Ledger/SameKeyStoredOnce", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		first, err := s.RecordLedger(t.Context(), []ledger.Entry{refundEntry(b, "k1", 1234)}, t0)
		must(t, err)
		again, err := s.RecordLedger(t.Context(), []ledger.Entry{refundEntry(b, "k1", 999)}, t0.Add(time.Minute))
		must(t, err)
		if again[0].ID != first[0].ID || again[0].Amount != 1234 {
			t.Errorf("second record of key k1 = %+v, want the first entry (ID %d, amount 1234)", again[0], first[0].ID)
		}
		list, err := s.LedgerEntries(t.Context(), b.ID)
		must(t, err)
		if len(list) != 1 {
			t.Errorf("%d entries, want 1", len(list))
		}
	}},
	{"Ledger/ErrNoKeyOrBooking", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		_, err := s.RecordLedger(t.Context(), []ledger.Entry{refundEntry(b, "", 1)}, t0)
		wantCode(t, err, booking.CodeInvalid)
		e := refundEntry(b, "k", 1)
		e.BookingID = 999_999
		_, err = s.RecordLedger(t.Context(), []ledger.Entry{e}, t0)
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Ledger/WrittenWithTransition", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		e := refundEntry(b, "with-transition", 500)
		e.BookingID = 0 // filled in by the store
		_, err := s.Transition(t.Context(), b.ID, booking.Transition{From: []booking.Status{booking.StatusPending},
			To: booking.StatusCancelled, At: t0, Record: []ledger.Entry{e}})
		must(t, err)
		list, err := s.LedgerEntries(t.Context(), b.ID)
		must(t, err)
		if len(list) != 1 || list[0].Key != "with-transition" || list[0].BookingID != b.ID {
			t.Fatalf("entries %+v, want the one recorded with the transition", list)
		}
	}},
	{"Ledger/NotWrittenWhenTransitionRefused", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		_, err := s.Transition(t.Context(), b.ID, booking.Transition{From: []booking.Status{booking.StatusConfirmed},
			To: booking.StatusCancelled, At: t0, Record: []ledger.Entry{refundEntry(b, "refused", 500)}})
		wantCode(t, err, booking.CodeConflict)
		list, err := s.LedgerEntries(t.Context(), b.ID)
		must(t, err)
		if len(list) != 0 {
			t.Fatalf("entries %+v written by a refused transition", list)
		}
	}},
	{"Ledger/ClaimLeasesDueEntries", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		later := refundEntry(b, "later", 1)
		later.NextAttemptAt = t0.Add(time.Hour)
		done := refundEntry(b, "done", 1)
		done.Status = ledger.StatusSucceeded
		_, err := s.RecordLedger(t.Context(), []ledger.Entry{refundEntry(b, "due", 1), later, done}, t0)
		must(t, err)
		lease := t0.Add(2 * time.Minute)
		got, err := s.ClaimLedgerEntries(t.Context(), t0, lease, 10)
		must(t, err)
		if len(got) != 1 || got[0].Key != "due" || !got[0].NextAttemptAt.Equal(lease) {
			t.Fatalf("claimed %+v, want only the due entry, leased until %v", got, lease)
		}
		again, err := s.ClaimLedgerEntries(t.Context(), t0.Add(time.Minute), lease, 10)
		must(t, err)
		if len(again) != 0 {
			t.Fatalf("claimed %+v again before its lease ended", again)
		}
		after, err := s.ClaimLedgerEntries(t.Context(), t0.Add(time.Hour), t0.Add(time.Hour+time.Minute), 10)
		must(t, err)
		if len(after) != 2 {
			t.Fatalf("claimed %d entries after the lease and the later entry came due, want 2", len(after))
		}
	}},
	{"Ledger/UpdateAndFindByProviderID", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		got, err := s.RecordLedger(t.Context(), []ledger.Entry{refundEntry(b, "k", 700)}, t0)
		must(t, err)
		e := got[0]
		e.Status, e.ProviderID, e.Attempts, e.LastError = ledger.StatusSubmitted, "re_123", 2, "timeout"
		e.NextAttemptAt, e.UpdatedAt = t0.Add(time.Minute), t0.Add(time.Second)
		must(t, s.UpdateLedgerEntry(t.Context(), &e))
		found, err := s.LedgerEntryByProviderID(t.Context(), "re_123")
		must(t, err)
		sameJSON(t, "entry", *found, e)
		_, err = s.LedgerEntryByProviderID(t.Context(), "re_unknown")
		wantCode(t, err, booking.CodeNotFound)
		missing := e
		missing.ID = 999_999
		wantCode(t, s.UpdateLedgerEntry(t.Context(), &missing), booking.CodeNotFound)
	}},
}

var ledgerRaceScenarios = []scenario{
	{"Race/LedgerClaimsNeverOverlap", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		const entries, workers = 40, 8
		var batch []ledger.Entry
		for i := range entries {
			batch = append(batch, refundEntry(b, fmt.Sprintf("k%d", i), 1))
		}
		_, err := s.RecordLedger(t.Context(), batch, t0)
		must(t, err)
		var (
			mu      sync.Mutex
			claimed = map[int64]int{}
		)
		counts := race(workers, func(int) error {
			got, err := s.ClaimLedgerEntries(t.Context(), t0, t0.Add(time.Minute), 7)
			mu.Lock()
			defer mu.Unlock()
			for _, e := range got {
				claimed[e.ID]++
			}
			return err
		})
		wantCounts(t, counts, map[string]int{"": workers})
		for id, n := range claimed {
			if n != 1 {
				t.Errorf("entry %d claimed %d times", id, n)
			}
		}
		if len(claimed) != entries {
			t.Errorf("%d entries claimed, want all %d (8 workers × 7 ≥ 40)", len(claimed), entries)
		}
	}},
}
