package sqlite

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/jobs/enqueue"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// RecordLedger stores entries whose key is new, in one transaction.
func (db *DB) RecordLedger(ctx context.Context, entries []ledger.Entry, now time.Time) ([]ledger.Entry, error) {
	entries, err := booking.PrepareLedger(entries, 0, now)
	if err != nil {
		return nil, err
	}
	if err := db.tx(ctx, "record ledger", func(q querier) error { return recordLedger(ctx, q, entries) }); err != nil {
		return nil, err
	}
	return entries, nil
}

// recordLedger inserts prepared entries unless their key is recorded, and
// sets each to the stored row.
func recordLedger(ctx context.Context, q querier, entries []ledger.Entry) error {
	for i := range entries {
		e := &entries[i]
		err := sqlflow.Exec(ctx, q, nil, `INSERT INTO ledger_entries (booking_id, kind, intent_id, amount, currency, key,
			reason, status, provider_id, attempts, next_attempt_at, last_error, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
			e.BookingID, string(e.Kind), e.IntentID, e.Amount, e.Currency, e.Key, e.Reason, string(e.Status),
			e.ProviderID, e.Attempts, e.NextAttemptAt.UnixMilli(), e.LastError, e.CreatedAt.UnixMilli(), e.UpdatedAt.UnixMilli())
		if isForeignKeyViolation(err) {
			return booking.Errorf(booking.CodeNotFound, "This booking does not exist.")
		}
		if err != nil {
			return err
		}
		stored, err := sqlflow.One(ctx, q, rowmap.ScanLedger, sqlflow.ErrNoRow,
			`SELECT `+rowmap.LedgerColumns+` FROM ledger_entries WHERE key = ?`, e.Key)
		if err != nil {
			return err
		}
		*e = *stored
	}
	return enqueueWork(ctx, q, enqueue.LedgerWork(entries)...)
}

// LedgerEntries lists a booking's entries, oldest first.
func (db *DB) LedgerEntries(ctx context.Context, bookingID int64) ([]ledger.Entry, error) {
	return sqlflow.Get(ctx, db.run, "ledger entries", func(q querier) ([]ledger.Entry, error) {
		return sqlflow.All(ctx, q, rowmap.ScanLedger,
			`SELECT `+rowmap.LedgerColumns+` FROM ledger_entries WHERE booking_id = ? ORDER BY id`, bookingID)
	})
}

// LedgerEntryByProviderID finds the entry of a provider's refund or
// dispute.
func (db *DB) LedgerEntryByProviderID(ctx context.Context, providerID string) (*ledger.Entry, error) {
	if providerID == "" {
		return nil, ledgerNotFound()
	}
	return sqlflow.Get(ctx, db.run, "ledger entry by provider id", func(q querier) (*ledger.Entry, error) {
		return sqlflow.One(ctx, q, rowmap.ScanLedger, ledgerNotFound(),
			`SELECT `+rowmap.LedgerColumns+` FROM ledger_entries WHERE provider_id = ?`, providerID)
	})
}

// ClaimLedgerEntries leases due pending entries in one write transaction.
func (db *DB) ClaimLedgerEntries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]ledger.Entry, error) {
	return sqlflow.Get(ctx, db.tx, "claim ledger entries", func(q querier) ([]ledger.Entry, error) {
		out, err := sqlflow.All(ctx, q, rowmap.ScanLedger, `SELECT `+rowmap.LedgerColumns+` FROM ledger_entries
			WHERE status = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
			string(ledger.StatusPending), now.UnixMilli(), limit)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].NextAttemptAt = leaseUntil
			if err := sqlflow.Exec(ctx, q, nil, `UPDATE ledger_entries SET next_attempt_at = ? WHERE id = ?`, leaseUntil.UnixMilli(), out[i].ID); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// UpdateLedgerEntry saves what sending an entry changed.
func (db *DB) UpdateLedgerEntry(ctx context.Context, e *ledger.Entry) error {
	return db.tx(ctx, "update ledger entry", func(q querier) error { return updateLedgerEntry(ctx, q, e) })
}

// updateLedgerEntry writes what sending an entry changed. Errors:
// CodeNotFound.
func updateLedgerEntry(ctx context.Context, q querier, e *ledger.Entry) error {
	return sqlflow.Exec(ctx, q, ledgerNotFound(), `UPDATE ledger_entries SET status = ?, provider_id = ?, attempts = ?,
		next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ?`,
		string(e.Status), e.ProviderID, e.Attempts, e.NextAttemptAt.UnixMilli(), e.LastError, e.UpdatedAt.UnixMilli(), e.ID)
}

func ledgerNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This ledger entry does not exist.")
}
