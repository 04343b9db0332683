package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

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
	err = db.inWriteTx(ctx, "record ledger", func(tx *sql.Tx) error {
		return recordLedger(ctx, tx, entries)
	})
	if err != nil {
		return nil, err
	}
	return entries, nil
}

// recordLedger inserts prepared entries unless their key is recorded, and
// sets each to the stored row.
func recordLedger(ctx context.Context, tx *sql.Tx, entries []ledger.Entry) error {
	for i := range entries {
		e := &entries[i]
		_, err := tx.ExecContext(ctx, `INSERT INTO ledger_entries (booking_id, kind, intent_id, amount, currency, key,
			reason, status, provider_id, attempts, next_attempt_at, last_error, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
			e.BookingID, string(e.Kind), e.IntentID, e.Amount, e.Currency, e.Key, e.Reason, string(e.Status),
			e.ProviderID, e.Attempts, e.NextAttemptAt.UnixMilli(), e.LastError, e.CreatedAt.UnixMilli(), e.UpdatedAt.UnixMilli())
		if err != nil {
			if isForeignKeyViolation(err) {
				return booking.Errorf(booking.CodeNotFound, "This booking does not exist.")
			}
			return fmt.Errorf("sqlite: record ledger entry %q: %w", e.Key, err)
		}
		stored, err := scanLedger(tx.QueryRowContext(ctx, `SELECT `+rowmap.LedgerColumns+` FROM ledger_entries WHERE key = ?`, e.Key))
		if err != nil {
			return fmt.Errorf("sqlite: record ledger entry %q: %w", e.Key, err)
		}
		*e = *stored
	}
	return nil
}

// LedgerEntries lists a booking's entries, oldest first.
func (db *DB) LedgerEntries(ctx context.Context, bookingID int64) ([]ledger.Entry, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+rowmap.LedgerColumns+` FROM ledger_entries WHERE booking_id = ? ORDER BY id`, bookingID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: ledger entries of booking %d: %w", bookingID, err)
	}
	return collectLedger(rows)
}

// LedgerEntryByProviderID finds the entry of a provider's refund or
// dispute.
func (db *DB) LedgerEntryByProviderID(ctx context.Context, providerID string) (*ledger.Entry, error) {
	if providerID == "" {
		return nil, ledgerNotFound()
	}
	e, err := scanLedger(db.read.QueryRowContext(ctx, `SELECT `+rowmap.LedgerColumns+` FROM ledger_entries WHERE provider_id = ?`, providerID))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, ledgerNotFound()
	case err != nil:
		return nil, fmt.Errorf("sqlite: ledger entry of %s: %w", providerID, err)
	}
	return e, nil
}

// ClaimLedgerEntries leases due pending entries in one write transaction.
func (db *DB) ClaimLedgerEntries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]ledger.Entry, error) {
	var out []ledger.Entry
	err := db.inWriteTx(ctx, "claim ledger entries", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+rowmap.LedgerColumns+` FROM ledger_entries
			WHERE status = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
			string(ledger.StatusPending), now.UnixMilli(), limit)
		if err != nil {
			return fmt.Errorf("sqlite: claim ledger entries: %w", err)
		}
		if out, err = collectLedger(rows); err != nil {
			return err
		}
		for i := range out {
			out[i].NextAttemptAt = leaseUntil
			if _, err := tx.ExecContext(ctx, `UPDATE ledger_entries SET next_attempt_at = ? WHERE id = ?`,
				leaseUntil.UnixMilli(), out[i].ID); err != nil {
				return fmt.Errorf("sqlite: claim ledger entry %d: %w", out[i].ID, err)
			}
		}
		return nil
	})
	return out, err
}

// UpdateLedgerEntry saves what sending an entry changed.
func (db *DB) UpdateLedgerEntry(ctx context.Context, e *ledger.Entry) error {
	return db.inWriteTx(ctx, "update ledger entry", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE ledger_entries SET status = ?, provider_id = ?, attempts = ?,
			next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ?`,
			string(e.Status), e.ProviderID, e.Attempts, e.NextAttemptAt.UnixMilli(), e.LastError, e.UpdatedAt.UnixMilli(), e.ID)
		if err != nil {
			return fmt.Errorf("sqlite: update ledger entry %d: %w", e.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ledgerNotFound()
		}
		return nil
	})
}

func ledgerNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This ledger entry does not exist.")
}

type rowScanner interface{ Scan(dest ...any) error }

func scanLedger(row rowScanner) (*ledger.Entry, error) {
	return rowmap.ScanLedger(codec{}, row)
}

func collectLedger(rows *sql.Rows) ([]ledger.Entry, error) {
	defer rows.Close()
	var out []ledger.Entry
	for rows.Next() {
		e, err := scanLedger(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: scan ledger entry: %w", err)
		}
		out = append(out, *e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: ledger entries: %w", err)
	}
	return out, nil
}
