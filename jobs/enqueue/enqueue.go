// Package enqueue is the seam between the stores and the job engine
// (package jobs): a store that records work to do later (a ledger entry to
// send, an outbox event to fan out, a delivery to make) hands it to a Hook
// inside the transaction that records it, so the job is committed, or
// rolled back, with the change that needs it.
//
// A store without a hook keeps working: jobs' safety-net sweep finds the
// due rows that have no job (DueWork) and enqueues them.
package enqueue

import (
	"context"
	"database/sql"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
)

// Kind names what a Work item is about.
type Kind string

// The kinds of work a store hands over.
const (
	// LedgerEntry is a pending payments-ledger entry to send; ID is the
	// entry's, Parent its booking's.
	LedgerEntry Kind = "ledger_entry"
	// OutboxEvent is an outbox event to fan out into deliveries; ID is
	// the event's.
	OutboxEvent Kind = "outbox_event"
	// OutboxDelivery is an outbox delivery (an e-mail or a webhook) to
	// make; ID is the delivery's, Parent its webhook endpoint's (0 for an
	// e-mail).
	OutboxDelivery Kind = "outbox_delivery"
	// Feed is an iCal feed to poll; ID is the feed's, Parent its
	// organisation's.
	Feed Kind = "feed"
)

// Work is one row that needs a job.
type Work struct {
	Kind   Kind
	ID     int64
	Parent int64
	// At is when the row is due; zero or past: now.
	At time.Time
}

// SQLHook enqueues jobs in a database/sql transaction (store/sqlite).
type SQLHook interface {
	EnqueueSQLTx(ctx context.Context, tx *sql.Tx, work []Work) error
}

// PgxHook enqueues jobs in a pgx transaction (store/postgres).
type PgxHook interface {
	EnqueuePgxTx(ctx context.Context, tx pgx.Tx, work []Work) error
}

// LedgerWork is the work of the pending entries among entries.
func LedgerWork(entries []ledger.Entry) []Work {
	var out []Work
	for _, e := range entries {
		if e.Status == ledger.StatusPending {
			out = append(out, Work{Kind: LedgerEntry, ID: e.ID, Parent: e.BookingID, At: e.NextAttemptAt})
		}
	}
	return out
}

// EventWork is the work of the undispatched events among events.
func EventWork(events []outbox.Event) []Work {
	var out []Work
	for _, e := range events {
		if e.DispatchedAt.IsZero() {
			out = append(out, Work{Kind: OutboxEvent, ID: e.ID, Parent: e.OrgID, At: e.NextAttemptAt})
		}
	}
	return out
}

// Slot holds a store's hook (H is SQLHook or PgxHook), set once the job
// engine starts and read by every write transaction. The zero Slot holds
// none. It is safe for concurrent use.
type Slot[H comparable] struct {
	p atomic.Pointer[H]
}

// Set installs h; the zero H (nil) removes the hook.
func (s *Slot[H]) Set(h H) {
	var none H
	if h == none {
		s.p.Store(nil)
		return
	}
	s.p.Store(&h)
}

// Get returns the hook, or the zero H when there is none.
func (s *Slot[H]) Get() H {
	if p := s.p.Load(); p != nil {
		return *p
	}
	var none H
	return none
}
