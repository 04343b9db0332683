package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/staykit/staykit/ledger"
)

// SendLedgerEntry is the job engine's step for one entry of the payments
// ledger (package jobs runs it): when the entry is pending and due, it
// sends it as ProcessPayments would, with its idempotency key. It returns
// when the entry is due again: zero when nothing is left to do (settled,
// or not pending), the entry's NextAttemptAt while it is pending (not due
// yet, or retried after a backoff). An error means the outcome could not
// be read or saved; the job is retried.
func (s *Service) SendLedgerEntry(ctx context.Context, bookingID, entryID int64) (time.Time, error) {
	e, err := s.ledgerEntry(ctx, bookingID, entryID)
	if err != nil || e == nil || e.Status != ledger.StatusPending {
		return time.Time{}, err
	}
	if e.NextAttemptAt.After(s.clock.Now()) {
		return e.NextAttemptAt, nil
	}
	now := s.clock.Now()
	_, err = s.send(ctx, e)
	switch {
	case e.Status != ledger.StatusPending:
		if err != nil {
			// Settled, but what follows failed (a refund owed again):
			// logged as ProcessPayments does; the entry is not sent again.
			s.logger.ErrorContext(ctx, "settle ledger entry", "entry", e.ID, "err", err)
		}
		return time.Time{}, nil
	case e.NextAttemptAt.After(now):
		if err != nil {
			s.logger.WarnContext(ctx, "send ledger entry; retried later", "entry", e.ID, "err", err)
		}
		return e.NextAttemptAt, nil
	case err != nil:
		return time.Time{}, err // not saved: the job's retry
	}
	return e.NextAttemptAt, nil
}

// ledgerEntry finds an entry of a booking; nil when there is none (the
// booking or the entry is gone).
func (s *Service) ledgerEntry(ctx context.Context, bookingID, entryID int64) (*ledger.Entry, error) {
	entries, err := s.store.LedgerEntries(ctx, bookingID)
	if err != nil {
		return nil, fmt.Errorf("ledger of booking %d: %w", bookingID, err)
	}
	for i := range entries {
		if entries[i].ID == entryID {
			return &entries[i], nil
		}
	}
	return nil, nil
}
