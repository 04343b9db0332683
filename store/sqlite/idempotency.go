package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
)

// idempotencyWindow is how long CreateBooking honours an idempotency key: a
// retry after it is a new request (SPEC §6, 24 h).
const idempotencyWindow = booking.IdempotencyWindow

// keyConflict is the error for a key recorded already.
func keyConflict(existing booking.IdempotencyRecord) error {
	return &booking.Error{
		Code:    booking.CodeConflict,
		Message: "This Idempotency-Key has been used already.",
		Err:     &booking.IdempotencyConflict{Existing: existing},
	}
}

// claimKey forgets the record of r's key created before notBefore and
// returns the one left, nil when there is none.
func claimKey(ctx context.Context, tx querier, r booking.IdempotencyRecord, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	if _, err := tx.ExecContext(ctx, qForgetStaleKey, r.OrgID, r.Scope, r.Key, notBefore.UnixMilli()); err != nil {
		return nil, fmt.Errorf("forget stale idempotency key: %w", err)
	}
	existing, err := findKey(ctx, tx, r.OrgID, r.Scope, r.Key, notBefore)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("idempotency key: %w", err)
	}
	return existing, nil
}

// insertKey records r.
func insertKey(ctx context.Context, tx querier, r booking.IdempotencyRecord) error {
	if _, err := tx.ExecContext(ctx, qInsertKey,
		r.OrgID, r.Scope, r.Key, r.RequestHash, nullID(r.BookingID), r.CreatedAt.UnixMilli()); err != nil {
		return fmt.Errorf("record idempotency key: %w", err)
	}
	return nil
}

// findKey returns the record of a key created at or after notBefore, or
// sql.ErrNoRows.
func findKey(ctx context.Context, q querier, orgID int64, scope, key string, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	var (
		r         booking.IdempotencyRecord
		bookingID sql.NullInt64
		created   int64
	)
	err := q.QueryRowContext(ctx, qFindKey,
		orgID, scope, key, notBefore.UnixMilli()).
		Scan(&r.OrgID, &r.Scope, &r.Key, &r.RequestHash, &bookingID, &created)
	if err != nil {
		return nil, err
	}
	r.BookingID = bookingID.Int64
	r.CreatedAt = time.UnixMilli(created).UTC()
	return &r, nil
}

// IdempotencyRecord finds the record of a key within a scope, ignoring
// records created before notBefore. Errors: CodeNotFound.
func (db *DB) IdempotencyRecord(ctx context.Context, orgID int64, scope, key string, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	r, err := findKey(ctx, db.reads(), orgID, scope, key, notBefore)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "Idempotency key not found.")
	case err != nil:
		return nil, fmt.Errorf("sqlite: idempotency record: %w", err)
	}
	return r, nil
}

// SaveIdempotencyRecord stores r (r.CreatedAt must be set), replacing a
// record of the key created before notBefore, and returns it. When the key
// is recorded after notBefore it returns the existing record and a
// CodeConflict *booking.Error whose Err is a *booking.IdempotencyConflict.
func (db *DB) SaveIdempotencyRecord(ctx context.Context, r *booking.IdempotencyRecord, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	var existing *booking.IdempotencyRecord
	err := db.inWriteTx(ctx, "save idempotency record", func(tx *sql.Tx) error {
		var err error
		q := db.writesIn(tx)
		if existing, err = claimKey(ctx, q, *r, notBefore); err != nil {
			return fmt.Errorf("sqlite: save idempotency record: %w", err)
		}
		if existing != nil {
			return keyConflict(*existing)
		}
		if err := insertKey(ctx, q, *r); err != nil {
			return fmt.Errorf("sqlite: save idempotency record: %w", err)
		}
		return nil
	})
	if existing != nil {
		return existing, err
	}
	if err != nil {
		return nil, err
	}
	saved := *r
	return &saved, nil
}

// MarkEventProcessed records a provider event id. It reports false when the
// id was recorded already.
func (db *DB) MarkEventProcessed(ctx context.Context, eventID string, at time.Time) (bool, error) {
	var added bool
	err := db.inWriteTx(ctx, "mark event processed", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO payment_events (event_id, processed_at) VALUES (?, ?)
			ON CONFLICT (event_id) DO NOTHING`, eventID, at.UnixMilli())
		if err != nil {
			return fmt.Errorf("sqlite: mark event processed: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("sqlite: mark event processed: %w", err)
		}
		added = n == 1
		return nil
	})
	return added, err
}

// EventProcessed reports whether an event id is recorded.
func (db *DB) EventProcessed(ctx context.Context, eventID string) (bool, error) {
	found, err := exists(ctx, db.read, `SELECT 1 FROM payment_events WHERE event_id = ?`, eventID)
	if err != nil {
		return false, fmt.Errorf("sqlite: event processed: %w", err)
	}
	return found, nil
}
