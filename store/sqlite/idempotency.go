package sqlite

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

// claimKey forgets the record of r's key created before notBefore and
// returns the one left, nil when there is none.
func claimKey(ctx context.Context, q querier, r booking.IdempotencyRecord, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	if err := sqlflow.Exec(ctx, q, nil, qForgetStaleKey, r.OrgID, r.Scope, r.Key, notBefore.UnixMilli()); err != nil {
		return nil, err
	}
	return findKey(ctx, q, r.OrgID, r.Scope, r.Key, notBefore, nil)
}

// insertKey records r.
func insertKey(ctx context.Context, q querier, r booking.IdempotencyRecord) error {
	return sqlflow.Exec(ctx, q, nil, qInsertKey, r.OrgID, r.Scope, r.Key, r.RequestHash, rowmap.NullID(r.BookingID), r.CreatedAt.UnixMilli())
}

// findKey returns the record of a key created at or after notBefore, or
// the error none.
func findKey(ctx context.Context, q querier, orgID int64, scope, key string, notBefore time.Time, none error) (*booking.IdempotencyRecord, error) {
	return sqlflow.One(ctx, q, rowmap.ScanIdempotencyRecord, none, qFindKey, orgID, scope, key, notBefore.UnixMilli())
}

// IdempotencyRecord finds the record of a key within a scope, ignoring
// records created before notBefore. Errors: CodeNotFound.
func (db *DB) IdempotencyRecord(ctx context.Context, orgID int64, scope, key string, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	return sqlflow.Get(ctx, db.hotRun, "idempotency record", func(q querier) (*booking.IdempotencyRecord, error) {
		return findKey(ctx, q, orgID, scope, key, notBefore, booking.Errorf(booking.CodeNotFound, "Idempotency key not found."))
	})
}

// SaveIdempotencyRecord stores r (r.CreatedAt must be set), replacing a
// record of the key created before notBefore, and returns it. When the key
// is recorded after notBefore it returns the existing record and a
// CodeConflict *booking.Error whose Err is a *booking.IdempotencyConflict.
func (db *DB) SaveIdempotencyRecord(ctx context.Context, r *booking.IdempotencyRecord, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	var existing *booking.IdempotencyRecord
	err := db.hotTx(ctx, "save idempotency record", func(q querier) (err error) {
		if existing, err = claimKey(ctx, q, *r, notBefore); err != nil {
			return err
		}
		if existing != nil {
			return keyConflict(*existing)
		}
		return insertKey(ctx, q, *r)
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
	return sqlflow.Get(ctx, db.tx, "mark event processed", func(q querier) (bool, error) {
		n, err := q.Exec(ctx, `INSERT INTO payment_events (event_id, processed_at) VALUES (?, ?)
			ON CONFLICT (event_id) DO NOTHING`, eventID, at.UnixMilli())
		return n == 1, err
	})
}

// EventProcessed reports whether an event id is recorded.
func (db *DB) EventProcessed(ctx context.Context, eventID string) (bool, error) {
	return sqlflow.Get(ctx, db.run, "event processed", func(q querier) (bool, error) {
		return sqlflow.Exists(ctx, q, `SELECT 1 FROM payment_events WHERE event_id = ?`, eventID)
	})
}
