package postgres

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
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
func claimKey(ctx context.Context, q querier, r booking.IdempotencyRecord, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	if err := sqlflow.Exec(ctx, q, nil, `DELETE FROM idempotency_keys
		WHERE org_id = $1 AND scope = $2 AND key = $3 AND created_at < $4`,
		r.OrgID, r.Scope, r.Key, notBefore); err != nil {
		return nil, err
	}
	n, err := q.Exec(ctx, `INSERT INTO idempotency_keys (`+rowmap.IdempotencyColumns+`) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (org_id, scope, key) DO NOTHING`,
		r.OrgID, r.Scope, r.Key, r.RequestHash, rowmap.NullID(r.BookingID), r.CreatedAt)
	if err != nil || n == 1 {
		return nil, err
	}
	// READ COMMITTED: this statement sees the record that made the insert
	// do nothing, committed by then.
	return findKey(ctx, q, r.OrgID, r.Scope, r.Key, time.Time{}, sqlflow.ErrNoRow)
}

// findKey returns the record of a key created at or after notBefore (any,
// when notBefore is zero), or the error none.
func findKey(ctx context.Context, q querier, orgID int64, scope, key string, notBefore time.Time, none error) (*booking.IdempotencyRecord, error) {
	return sqlflow.One(ctx, q, rowmap.ScanIdempotencyRecord, none, `SELECT `+rowmap.IdempotencyColumns+`
		FROM idempotency_keys WHERE org_id = $1 AND scope = $2 AND key = $3
		AND ($4::timestamptz IS NULL OR created_at >= $4)`,
		orgID, scope, key, instant(notBefore))
}

// IdempotencyRecord finds the record of a key within a scope, ignoring
// records created before notBefore. Errors: CodeNotFound.
func (db *DB) IdempotencyRecord(ctx context.Context, orgID int64, scope, key string, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	return sqlflow.Get(ctx, db.run, "idempotency record", func(q querier) (*booking.IdempotencyRecord, error) {
		return findKey(ctx, q, orgID, scope, key, notBefore, booking.Errorf(booking.CodeNotFound, "Idempotency key not found."))
	})
}

// SaveIdempotencyRecord stores r (r.CreatedAt must be set), replacing a
// record of the key created before notBefore, and returns it. When the key
// is recorded after notBefore it returns the existing record and a
// CodeConflict *booking.Error whose Err is a *booking.IdempotencyConflict.
func (db *DB) SaveIdempotencyRecord(ctx context.Context, r *booking.IdempotencyRecord, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	var existing *booking.IdempotencyRecord
	err := db.tx(ctx, "save idempotency record", func(q querier) (err error) {
		if existing, err = claimKey(ctx, q, *r, notBefore); err == nil && existing != nil {
			return keyConflict(*existing)
		}
		return err
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
	return sqlflow.Get(ctx, db.run, "mark event processed", func(q querier) (bool, error) {
		n, err := q.Exec(ctx, `INSERT INTO payment_events (event_id, processed_at) VALUES ($1, $2)
			ON CONFLICT (event_id) DO NOTHING`, eventID, at)
		return n == 1, err
	})
}

// EventProcessed reports whether an event id is recorded.
func (db *DB) EventProcessed(ctx context.Context, eventID string) (bool, error) {
	return sqlflow.Get(ctx, db.run, "event processed", func(q querier) (bool, error) {
		return sqlflow.Exists(ctx, q, `SELECT 1 FROM payment_events WHERE event_id = $1`, eventID)
	})
}
