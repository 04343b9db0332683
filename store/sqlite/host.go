package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// CreateAPIKey stores k and sets its ID.
func (db *DB) CreateAPIKey(ctx context.Context, k *booking.APIKey) error {
	err := db.write.QueryRowContext(ctx, `INSERT INTO api_keys (org_id, name, prefix, hash, created_at)
		VALUES (?, ?, ?, ?, ?) RETURNING id`, k.OrgID, k.Name, k.Prefix, k.Hash, k.CreatedAt.UnixMilli()).Scan(&k.ID)
	switch {
	case isForeignKeyViolation(err):
		return booking.Errorf(booking.CodeNotFound, "Organisation not found.")
	case isUniqueViolation(err):
		return booking.Errorf(booking.CodeConflict, "This API key exists already.")
	case err != nil:
		return fmt.Errorf("sqlite: create api key: %w", err)
	}
	return nil
}

// APIKeyByHash finds a key by the SHA-256 of its secret.
func (db *DB) APIKeyByHash(ctx context.Context, hash string) (*booking.APIKey, error) {
	k, err := rowmap.ScanAPIKey(codec{}, db.read.QueryRowContext(ctx, `SELECT `+rowmap.APIKeyColumns+` FROM api_keys WHERE hash = ?`, hash))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "API key not found.")
	case err != nil:
		return nil, fmt.Errorf("sqlite: api key: %w", err)
	}
	return k, nil
}

// APIKeys lists an organisation's keys by ID.
func (db *DB) APIKeys(ctx context.Context, orgID int64) ([]booking.APIKey, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+rowmap.APIKeyColumns+` FROM api_keys WHERE org_id = ? ORDER BY id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: api keys: %w", err)
	}
	defer rows.Close()
	var list []booking.APIKey
	for rows.Next() {
		k, err := rowmap.ScanAPIKey(codec{}, rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: api keys: %w", err)
		}
		list = append(list, *k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: api keys: %w", err)
	}
	return list, nil
}

// RevokeAPIKey revokes a key of orgID (once) and returns it.
func (db *DB) RevokeAPIKey(ctx context.Context, orgID, id int64, at time.Time) (*booking.APIKey, error) {
	var k *booking.APIKey
	err := db.inWriteTx(ctx, "revoke api key", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE api_keys SET revoked_at = ? WHERE id = ? AND org_id = ? AND revoked_at IS NULL`,
			at.UnixMilli(), id, orgID); err != nil {
			return fmt.Errorf("sqlite: revoke api key: %w", err)
		}
		var err error
		k, err = rowmap.ScanAPIKey(codec{}, tx.QueryRowContext(ctx, `SELECT `+rowmap.APIKeyColumns+` FROM api_keys WHERE id = ? AND org_id = ?`, id, orgID))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return booking.Errorf(booking.CodeNotFound, "API key not found.")
		case err != nil:
			return fmt.Errorf("sqlite: revoke api key: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// TouchAPIKey records a use of a key.
func (db *DB) TouchAPIKey(ctx context.Context, id int64, at time.Time) error {
	if _, err := db.write.ExecContext(ctx, `UPDATE api_keys SET last_used_at = ?
		WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`, at.UnixMilli(), id, at.UnixMilli()); err != nil {
		return fmt.Errorf("sqlite: touch api key: %w", err)
	}
	return nil
}

// RecordAudit stores an audit entry and sets its ID.
func (db *DB) RecordAudit(ctx context.Context, e *booking.AuditEntry) error {
	before, after := jsonOrNull(e.Before), jsonOrNull(e.After)
	err := db.write.QueryRowContext(ctx, `INSERT INTO audit_log (org_id, actor, actor_name, action, target, before, after, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		e.OrgID, e.Actor, e.ActorName, e.Action, e.Target, before, after, e.At.UnixMilli()).Scan(&e.ID)
	if err != nil {
		return fmt.Errorf("sqlite: record audit: %w", err)
	}
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
func (db *DB) AuditLog(ctx context.Context, orgID, before int64, limit int) ([]booking.AuditEntry, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	rows, err := db.read.QueryContext(ctx, `SELECT id, org_id, actor, actor_name, action, target, before, after, at
		FROM audit_log WHERE org_id = ? AND id < ? ORDER BY id DESC LIMIT ?`, orgID, before, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: audit log: %w", err)
	}
	defer rows.Close()
	var list []booking.AuditEntry
	for rows.Next() {
		var (
			e    booking.AuditEntry
			b, a string
			at   int64
		)
		if err := rows.Scan(&e.ID, &e.OrgID, &e.Actor, &e.ActorName, &e.Action, &e.Target, &b, &a, &at); err != nil {
			return nil, fmt.Errorf("sqlite: audit log: %w", err)
		}
		e.Before, e.After, e.At = []byte(b), []byte(a), time.UnixMilli(at).UTC()
		list = append(list, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: audit log: %w", err)
	}
	return list, nil
}

// ReserveHostRequest records a host request under way unless its key is
// recorded (after notBefore).
func (db *DB) ReserveHostRequest(ctx context.Context, r *booking.HostRequest, notBefore time.Time) (*booking.HostRequest, error) {
	var existing *booking.HostRequest
	err := db.inWriteTx(ctx, "reserve host request", func(tx *sql.Tx) error {
		var (
			got     booking.HostRequest
			body    []byte
			created int64
		)
		err := tx.QueryRowContext(ctx, `SELECT org_id, key, request_hash, status, body, created_at
			FROM host_requests WHERE org_id = ? AND key = ?`, r.OrgID, r.Key).
			Scan(&got.OrgID, &got.Key, &got.RequestHash, &got.Status, &body, &created)
		switch {
		case err == nil && created >= notBefore.UnixMilli():
			got.Body, got.CreatedAt = body, time.UnixMilli(created).UTC()
			existing = &got
			return booking.Errorf(booking.CodeConflict, "This idempotency key is recorded already.")
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("sqlite: reserve host request: %w", err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO host_requests (org_id, key, request_hash, status, body, created_at)
			VALUES (?, ?, ?, 0, NULL, ?) ON CONFLICT (org_id, key) DO UPDATE SET
			request_hash = excluded.request_hash, status = 0, body = NULL, created_at = excluded.created_at`,
			r.OrgID, r.Key, r.RequestHash, r.CreatedAt.UnixMilli())
		if err != nil {
			if isForeignKeyViolation(err) {
				return booking.Errorf(booking.CodeNotFound, "Organisation not found.")
			}
			return fmt.Errorf("sqlite: reserve host request: %w", err)
		}
		return nil
	})
	return existing, err
}

// CompleteHostRequest stores the response of a reserved request.
func (db *DB) CompleteHostRequest(ctx context.Context, orgID int64, key string, status int, body []byte) error {
	if _, err := db.write.ExecContext(ctx, `UPDATE host_requests SET status = ?, body = ? WHERE org_id = ? AND key = ?`,
		status, body, orgID, key); err != nil {
		return fmt.Errorf("sqlite: complete host request: %w", err)
	}
	return nil
}

// ForgetHostRequest deletes a reserved request.
func (db *DB) ForgetHostRequest(ctx context.Context, orgID int64, key string) error {
	if _, err := db.write.ExecContext(ctx, `DELETE FROM host_requests WHERE org_id = ? AND key = ?`, orgID, key); err != nil {
		return fmt.Errorf("sqlite: forget host request: %w", err)
	}
	return nil
}

// PurgeHostRequests deletes the host requests created before before.
func (db *DB) PurgeHostRequests(ctx context.Context, before time.Time) (int, error) {
	res, err := db.write.ExecContext(ctx, `DELETE FROM host_requests WHERE created_at < ?`, before.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("sqlite: purge host requests: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("sqlite: purge host requests: %w", err)
	}
	return int(n), nil
}

// Coupons lists an organisation's coupons by code.
func (db *DB) Coupons(ctx context.Context, orgID int64) ([]coupon.Coupon, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+rowmap.CouponColumns+` FROM coupons WHERE org_id = ? ORDER BY code`, orgID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: coupons: %w", err)
	}
	defer rows.Close()
	var list []coupon.Coupon
	for rows.Next() {
		c, err := rowmap.ScanCoupon(codec{}, rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: coupons: %w", err)
		}
		list = append(list, *c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: coupons: %w", err)
	}
	return list, nil
}

// CouponByID finds a coupon of an organisation.
func (db *DB) CouponByID(ctx context.Context, orgID, id int64) (*coupon.Coupon, error) {
	c, err := rowmap.ScanCoupon(codec{}, db.read.QueryRowContext(ctx, `SELECT `+rowmap.CouponColumns+` FROM coupons WHERE org_id = ? AND id = ?`, orgID, id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, rowmap.CouponNotFound()
	case err != nil:
		return nil, fmt.Errorf("sqlite: coupon %d: %w", id, err)
	}
	return c, nil
}
