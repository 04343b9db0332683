package enqueue

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
)

type hook struct{ name string }

func (*hook) EnqueueSQLTx(context.Context, *sql.Tx, []Work) error { return nil }

func TestSlot(t *testing.T) {
	var s Slot[SQLHook]
	if s.Get() != nil {
		t.Fatalf("zero Slot holds %v, want none", s.Get())
	}
	h := &hook{"a"}
	s.Set(h)
	if s.Get() != SQLHook(h) {
		t.Fatalf("Get after Set = %v, want %v", s.Get(), h)
	}
	s.Set(nil)
	if s.Get() != nil {
		t.Fatalf("Get after Set(nil) = %v, want none", s.Get())
	}
}

func TestWorkOfRecords(t *testing.T) {
	at := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	entries := []ledger.Entry{
		{ID: 1, BookingID: 7, Status: ledger.StatusPending, NextAttemptAt: at},
		{ID: 2, BookingID: 7, Status: ledger.StatusSucceeded},
	}
	if got := LedgerWork(entries); len(got) != 1 || got[0] != (Work{Kind: LedgerEntry, ID: 1, Parent: 7, At: at}) {
		t.Errorf("LedgerWork = %+v, want the pending entry only", got)
	}
	events := []outbox.Event{
		{ID: 3, OrgID: 9, NextAttemptAt: at},
		{ID: 4, OrgID: 9, DispatchedAt: at},
	}
	if got := EventWork(events); len(got) != 1 || got[0] != (Work{Kind: OutboxEvent, ID: 3, Parent: 9, At: at}) {
		t.Errorf("EventWork = %+v, want the undispatched event only", got)
	}
}
