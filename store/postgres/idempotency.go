package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

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

// claimKey records r, after forgetting the record of its key created before
// notBefore, and returns nil; when the key is recorded already it returns
// that record and writes nothing. A transaction recording the same key at
// the same time makes the insert wait for its outcome: if it commits, its
// record is returned; if it rolls back, r is recorded.
func claimKey(ctx context.Context, tx pgx.Tx, r booking.IdempotencyRecord, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	if _, err := tx.Exec(ctx, `DELETE FROM idempotency_keys
		WHERE org_id = $1 AND scope = $2 AND key = $3 AND created_at < $4`,
		r.OrgID, r.Scope, r.Key, notBefore); err != nil {
		return nil, fmt.Errorf("forget stale idempotency key: %w", err)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO idempotency_keys
		(org_id, scope, key, request_hash, booking_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (org_id, scope, key) DO NOTHING`,
		r.OrgID, r.Scope, r.Key, r.RequestHash, nullID(r.BookingID), r.CreatedAt)
	if err != nil {
		return nil, fmt.Errorf("record idempotency key: %w", err)
	}
	if tag.RowsAffected() == 1 {
		return nil, nil
	}
	// READ COMMITTED: this statement sees the record that made the insert
	// do nothing, committed by then.
	existing, err := findKey(ctx, tx, r.OrgID, r.Scope, r.Key, time.Time{})
	if err != nil {
		return nil, fmt.Errorf("idempotency key: %w", err)
	}
	return existing, nil
}

// findKey returns the record of a key created at or after notBefore (any,
// when notBefore is zero), or pgx.ErrNoRows.
func findKey(ctx context.Context, q querier, orgID int64, scope, key string, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	var (
		r         booking.IdempotencyRecord
		bookingID pgtype.Int8
		created   pgtype.Timestamptz
	)
	err := q.QueryRow(ctx, `SELECT org_id, scope, key, request_hash, booking_id, created_at
		FROM idempotency_keys WHERE org_id = $1 AND scope = $2 AND key = $3
		AND ($4::timestamptz IS NULL OR created_at >= $4)`,
		orgID, scope, key, instant(notBefore)).
		Scan(&r.OrgID, &r.Scope, &r.Key, &r.RequestHash, &bookingID, &created)
	if err != nil {
		return nil, err
	}
	r.BookingID = bookingID.Int64
	r.CreatedAt = fromInstant(created)
	return &r, nil
}

// IdempotencyRecord finds the record of a key within a scope, ignoring
// records created before notBefore. Errors: CodeNotFound.
func (db *DB) IdempotencyRecord(ctx context.Context, orgID int64, scope, key string, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	r, err := findKey(ctx, db.pool, orgID, scope, key, notBefore)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "Idempotency key not found.")
	case err != nil:
		return nil, fmt.Errorf("postgres: idempotency record: %w", err)
	}
	return r, nil
}

// SaveIdempotencyRecord stores r (r.CreatedAt must be set), replacing a
// record of the key created before notBefore, and returns it. When the key
// is recorded after notBefore it returns the existing record and a
// CodeConflict *booking.Error whose Err is a *booking.IdempotencyConflict.
func (db *DB) SaveIdempotencyRecord(ctx context.Context, r *booking.IdempotencyRecord, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	var existing *booking.IdempotencyRecord
	err := db.inTx(ctx, "save idempotency record", func(tx pgx.Tx) error {
		var err error
		if existing, err = claimKey(ctx, tx, *r, notBefore); err != nil {
			return fmt.Errorf("postgres: save idempotency record: %w", err)
		}
		if existing != nil {
			return keyConflict(*existing)
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
	tag, err := db.pool.Exec(ctx, `INSERT INTO payment_events (event_id, processed_at) VALUES ($1, $2)
		ON CONFLICT (event_id) DO NOTHING`, eventID, at)
	if err != nil {
		return false, fmt.Errorf("postgres: mark event processed: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// EventProcessed reports whether an event id is recorded.
func (db *DB) EventProcessed(ctx context.Context, eventID string) (bool, error) {
	found, err := exists(ctx, db.pool, `SELECT 1 FROM payment_events WHERE event_id = $1`, eventID)
	if err != nil {
		return false, fmt.Errorf("postgres: event processed: %w", err)
	}
	return found, nil
}

// setKeyBooking points the record of r's key at a booking.
func setKeyBooking(ctx context.Context, tx pgx.Tx, r booking.IdempotencyRecord, bookingID int64) error {
	if _, err := tx.Exec(ctx, `UPDATE idempotency_keys SET booking_id = $1
		WHERE org_id = $2 AND scope = $3 AND key = $4`, bookingID, r.OrgID, r.Scope, r.Key); err != nil {
		return fmt.Errorf("record idempotency key: %w", err)
	}
	return nil
}
