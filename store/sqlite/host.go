package sqlite

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

func apiKeyNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "API key not found.")
}

// CreateAPIKey stores k and sets its ID.
func (db *DB) CreateAPIKey(ctx context.Context, k *host.APIKey) error {
	id, err := sqlflow.Get(ctx, db.tx, "create api key", func(q querier) (int64, error) {
		id, err := sqlflow.Value[int64](ctx, q, nil, `INSERT INTO api_keys (org_id, name, prefix, hash, created_at)
			VALUES (?, ?, ?, ?, ?) RETURNING id`, k.OrgID, k.Name, k.Prefix, k.Hash, k.CreatedAt.UnixMilli())
		switch {
		case isForeignKeyViolation(err):
			return 0, booking.Errorf(booking.CodeNotFound, "Organisation not found.")
		case isUniqueViolation(err):
			return 0, booking.Errorf(booking.CodeConflict, "This API key exists already.")
		}
		return id, err
	})
	if err != nil {
		return err
	}
	k.ID = id
	return nil
}

// APIKeyByHash finds a key by the SHA-256 of its secret.
func (db *DB) APIKeyByHash(ctx context.Context, hash string) (*host.APIKey, error) {
	return sqlflow.Get(ctx, db.run, "api key", func(q querier) (*host.APIKey, error) {
		return sqlflow.One(ctx, q, rowmap.ScanAPIKey, apiKeyNotFound(),
			`SELECT `+rowmap.APIKeyColumns+` FROM api_keys WHERE hash = ?`, hash)
	})
}

// APIKeys lists an organisation's keys by ID.
func (db *DB) APIKeys(ctx context.Context, orgID int64) ([]host.APIKey, error) {
	return sqlflow.Get(ctx, db.run, "api keys", func(q querier) ([]host.APIKey, error) {
		return sqlflow.All(ctx, q, rowmap.ScanAPIKey, `SELECT `+rowmap.APIKeyColumns+` FROM api_keys WHERE org_id = ? ORDER BY id`, orgID)
	})
}

// RevokeAPIKey revokes a key of orgID (once) and returns it.
func (db *DB) RevokeAPIKey(ctx context.Context, orgID, id int64, at time.Time) (*host.APIKey, error) {
	return sqlflow.Get(ctx, db.tx, "revoke api key", func(q querier) (*host.APIKey, error) {
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE api_keys SET revoked_at = ? WHERE id = ? AND org_id = ? AND revoked_at IS NULL`,
			at.UnixMilli(), id, orgID); err != nil {
			return nil, err
		}
		return sqlflow.One(ctx, q, rowmap.ScanAPIKey, apiKeyNotFound(),
			`SELECT `+rowmap.APIKeyColumns+` FROM api_keys WHERE id = ? AND org_id = ?`, id, orgID)
	})
}

// TouchAPIKey records a use of a key.
func (db *DB) TouchAPIKey(ctx context.Context, id int64, at time.Time) error {
	return db.tx(ctx, "touch api key", func(q querier) error {
		return sqlflow.Exec(ctx, q, nil, `UPDATE api_keys SET last_used_at = ?
			WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`, at.UnixMilli(), id, at.UnixMilli())
	})
}

// RecordAudit stores an audit entry and sets its ID.
func (db *DB) RecordAudit(ctx context.Context, e *host.AuditEntry) error {
	id, err := sqlflow.Get(ctx, db.tx, "record audit", func(q querier) (int64, error) {
		return sqlflow.Value[int64](ctx, q, nil, `INSERT INTO audit_log (org_id, actor, actor_name, action, target, before, after, at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			e.OrgID, e.Actor, e.ActorName, e.Action, e.Target, jsonOrNull(e.Before), jsonOrNull(e.After), e.At.UnixMilli())
	})
	if err != nil {
		return err
	}
	e.ID = id
	return nil
}

// jsonOrNull is raw JSON as text, "null" when empty.
func jsonOrNull(b []byte) string {
	if len(b) == 0 {
		return "null"
	}
	return string(b)
}

// AuditLog lists audit entries newest first.
func (db *DB) AuditLog(ctx context.Context, orgID, before int64, limit int) ([]host.AuditEntry, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	return sqlflow.Get(ctx, db.run, "audit log", func(q querier) ([]host.AuditEntry, error) {
		return sqlflow.All(ctx, q, rowmap.ScanAuditEntry, `SELECT id, org_id, actor, actor_name, action, target, before, after, at
			FROM audit_log WHERE org_id = ? AND id < ? ORDER BY id DESC LIMIT ?`, orgID, before, limit)
	})
}

// ReserveHostRequest records a host request under way unless its key is
// recorded (after notBefore).
func (db *DB) ReserveHostRequest(ctx context.Context, r *host.Request, notBefore time.Time) (*host.Request, error) {
	var existing *host.Request
	err := db.tx(ctx, "reserve host request", func(q querier) error {
		got, err := sqlflow.One(ctx, q, rowmap.ScanHostRequest, nil,
			`SELECT `+rowmap.HostRequestColumns+` FROM host_requests WHERE org_id = ? AND key = ?`, r.OrgID, r.Key)
		switch {
		case err != nil:
			return err
		case got != nil && got.CreatedAt.UnixMilli() >= notBefore.UnixMilli():
			existing = got
			return booking.Errorf(booking.CodeConflict, "This idempotency key is recorded already.")
		}
		err = sqlflow.Exec(ctx, q, nil, `INSERT INTO host_requests (org_id, key, request_hash, status, body, created_at)
			VALUES (?, ?, ?, 0, NULL, ?) ON CONFLICT (org_id, key) DO UPDATE SET
			request_hash = excluded.request_hash, status = 0, body = NULL, created_at = excluded.created_at,
			booking_id = NULL, erased = 0`,
			r.OrgID, r.Key, r.RequestHash, r.CreatedAt.UnixMilli())
		if isForeignKeyViolation(err) {
			return booking.Errorf(booking.CodeNotFound, "Organisation not found.")
		}
		return err
	})
	return existing, err
}

// CompleteHostRequest stores the response of a reserved request and the
// booking whose guest it may show.
func (db *DB) CompleteHostRequest(ctx context.Context, orgID int64, key string, status int, body []byte, bookingID int64) error {
	return db.tx(ctx, "complete host request", func(q querier) error {
		return sqlflow.Exec(ctx, q, nil, `UPDATE host_requests SET status = ?, body = ?, booking_id = ? WHERE org_id = ? AND key = ?`,
			status, body, rowmap.NullID(bookingID), orgID, key)
	})
}

// ForgetHostRequest deletes a reserved request.
func (db *DB) ForgetHostRequest(ctx context.Context, orgID int64, key string) error {
	return db.tx(ctx, "forget host request", func(q querier) error {
		return sqlflow.Exec(ctx, q, nil, `DELETE FROM host_requests WHERE org_id = ? AND key = ?`, orgID, key)
	})
}

// PurgeHostRequests deletes the host requests created before before.
func (db *DB) PurgeHostRequests(ctx context.Context, before time.Time) (int, error) {
	return sqlflow.Get(ctx, db.tx, "purge host requests", func(q querier) (int, error) {
		n, err := q.Exec(ctx, `DELETE FROM host_requests WHERE created_at < ?`, before.UnixMilli())
		return int(n), err
	})
}

// Coupons lists an organisation's coupons by code.
func (db *DB) Coupons(ctx context.Context, orgID int64) ([]coupon.Coupon, error) {
	return sqlflow.Get(ctx, db.run, "coupons", func(q querier) ([]coupon.Coupon, error) {
		return sqlflow.All(ctx, q, rowmap.ScanCoupon, `SELECT `+rowmap.CouponColumns+` FROM coupons WHERE org_id = ? ORDER BY code`, orgID)
	})
}

// CouponByID finds a coupon of an organisation.
func (db *DB) CouponByID(ctx context.Context, orgID, id int64) (*coupon.Coupon, error) {
	return sqlflow.Get(ctx, db.run, "coupon", func(q querier) (*coupon.Coupon, error) {
		return sqlflow.One(ctx, q, rowmap.ScanCoupon, rowmap.CouponNotFound(),
			`SELECT `+rowmap.CouponColumns+` FROM coupons WHERE org_id = ? AND id = ?`, orgID, id)
	})
}
