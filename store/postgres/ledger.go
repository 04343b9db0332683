package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// RecordLedger stores entries whose key is new, in one transaction.
func (db *DB) RecordLedger(ctx context.Context, entries []ledger.Entry, now time.Time) ([]ledger.Entry, error) {
	entries, err := booking.PrepareLedger(entries, 0, now)
	if err != nil {
		return nil, err
	}
	err = db.inTx(ctx, "record ledger", func(tx pgx.Tx) error {
		return recordLedger(ctx, tx, entries)
	})
	if err != nil {
		return nil, err
	}
	return entries, nil
}

// recordLedger inserts prepared entries unless their key is recorded, and
// sets each to the stored row.
func recordLedger(ctx context.Context, tx pgx.Tx, entries []ledger.Entry) error {
	for i := range entries {
		e := &entries[i]
		_, err := tx.Exec(ctx, `INSERT INTO ledger_entries (booking_id, kind, intent_id, amount, currency, key,
			reason, status, provider_id, attempts, next_attempt_at, last_error, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (key) DO NOTHING`,
			e.BookingID, string(e.Kind), e.IntentID, e.Amount, e.Currency, e.Key, e.Reason, string(e.Status),
			e.ProviderID, e.Attempts, e.NextAttemptAt, e.LastError, e.CreatedAt, e.UpdatedAt)
		if err != nil {
			if sqlState(err) == foreignKeyViolation {
				return booking.Errorf(booking.CodeNotFound, "This booking does not exist.")
			}
			return fmt.Errorf("postgres: record ledger entry %q: %w", e.Key, err)
		}
		stored, err := scanLedger(tx.QueryRow(ctx, `SELECT `+rowmap.LedgerColumns+` FROM ledger_entries WHERE key = $1`, e.Key))
		if err != nil {
			return fmt.Errorf("postgres: record ledger entry %q: %w", e.Key, err)
		}
		*e = *stored
	}
	return nil
}

// LedgerEntries lists a booking's entries, oldest first.
func (db *DB) LedgerEntries(ctx context.Context, bookingID int64) ([]ledger.Entry, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+rowmap.LedgerColumns+` FROM ledger_entries WHERE booking_id = $1 ORDER BY id`, bookingID)
	if err != nil {
		return nil, fmt.Errorf("postgres: ledger entries of booking %d: %w", bookingID, err)
	}
	return collectLedger(rows)
}

// LedgerEntryByProviderID finds the entry of a provider's refund or
// dispute.
func (db *DB) LedgerEntryByProviderID(ctx context.Context, providerID string) (*ledger.Entry, error) {
	if providerID == "" {
		return nil, ledgerNotFound()
	}
	e, err := scanLedger(db.pool.QueryRow(ctx, `SELECT `+rowmap.LedgerColumns+` FROM ledger_entries WHERE provider_id = $1`, providerID))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, ledgerNotFound()
	case err != nil:
		return nil, fmt.Errorf("postgres: ledger entry of %s: %w", providerID, err)
	}
	return e, nil
}

// ClaimLedgerEntries leases due pending entries; SKIP LOCKED lets two
// replicas claim at once without taking the same entry.
func (db *DB) ClaimLedgerEntries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]ledger.Entry, error) {
	rows, err := db.pool.Query(ctx, `UPDATE ledger_entries SET next_attempt_at = $3 WHERE id IN (
			SELECT id FROM ledger_entries WHERE status = $1 AND next_attempt_at <= $2
			ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
		RETURNING `+rowmap.LedgerColumns, string(ledger.StatusPending), now, leaseUntil, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: claim ledger entries: %w", err)
	}
	return collectLedger(rows)
}

// UpdateLedgerEntry saves what sending an entry changed.
func (db *DB) UpdateLedgerEntry(ctx context.Context, e *ledger.Entry) error {
	tag, err := db.pool.Exec(ctx, `UPDATE ledger_entries SET status = $1, provider_id = $2, attempts = $3,
		next_attempt_at = $4, last_error = $5, updated_at = $6 WHERE id = $7`,
		string(e.Status), e.ProviderID, e.Attempts, e.NextAttemptAt, e.LastError, e.UpdatedAt, e.ID)
	if err != nil {
		return fmt.Errorf("postgres: update ledger entry %d: %w", e.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return ledgerNotFound()
	}
	return nil
}

func ledgerNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This ledger entry does not exist.")
}

func scanLedger(row pgx.Row) (*ledger.Entry, error) {
	return rowmap.ScanLedger(codec{}, row)
}

func collectLedger(rows pgx.Rows) ([]ledger.Entry, error) {
	defer rows.Close()
	var out []ledger.Entry
	for rows.Next() {
		e, err := scanLedger(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: scan ledger entry: %w", err)
		}
		out = append(out, *e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: ledger entries: %w", err)
	}
	return out, nil
}
