package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// CreateAPIKey stores k and sets its ID.
func (db *DB) CreateAPIKey(ctx context.Context, k *booking.APIKey) error {
	err := db.pool.QueryRow(ctx, `INSERT INTO api_keys (org_id, name, prefix, hash, created_at)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`, k.OrgID, k.Name, k.Prefix, k.Hash, instant(k.CreatedAt)).Scan(&k.ID)
	switch {
	case sqlState(err) == foreignKeyViolation:
		return booking.Errorf(booking.CodeNotFound, "Organisation not found.")
	case sqlState(err) == uniqueViolation:
		return booking.Errorf(booking.CodeConflict, "This API key exists already.")
	case err != nil:
		return fmt.Errorf("postgres: create api key: %w", err)
	}
	return nil
}

// APIKeyByHash finds a key by the SHA-256 of its secret.
func (db *DB) APIKeyByHash(ctx context.Context, hash string) (*booking.APIKey, error) {
	k, err := rowmap.ScanAPIKey(codec{}, db.pool.QueryRow(ctx, `SELECT `+rowmap.APIKeyColumns+` FROM api_keys WHERE hash = $1`, hash))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "API key not found.")
	case err != nil:
		return nil, fmt.Errorf("postgres: api key: %w", err)
	}
	return k, nil
}

// APIKeys lists an organisation's keys by ID.
func (db *DB) APIKeys(ctx context.Context, orgID int64) ([]booking.APIKey, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+rowmap.APIKeyColumns+` FROM api_keys WHERE org_id = $1 ORDER BY id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("postgres: api keys: %w", err)
	}
	defer rows.Close()
	var list []booking.APIKey
	for rows.Next() {
		k, err := rowmap.ScanAPIKey(codec{}, rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: api keys: %w", err)
		}
		list = append(list, *k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: api keys: %w", err)
	}
	return list, nil
}

// RevokeAPIKey revokes a key of orgID (once) and returns it.
func (db *DB) RevokeAPIKey(ctx context.Context, orgID, id int64, at time.Time) (*booking.APIKey, error) {
	k, err := rowmap.ScanAPIKey(codec{}, db.pool.QueryRow(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3)
		WHERE id = $1 AND org_id = $2 RETURNING `+rowmap.APIKeyColumns, id, orgID, instant(at)))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "API key not found.")
	case err != nil:
		return nil, fmt.Errorf("postgres: revoke api key: %w", err)
	}
	return k, nil
}

// TouchAPIKey records a use of a key.
func (db *DB) TouchAPIKey(ctx context.Context, id int64, at time.Time) error {
	if _, err := db.pool.Exec(ctx, `UPDATE api_keys SET last_used_at = $2
		WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)`, id, instant(at)); err != nil {
		return fmt.Errorf("postgres: touch api key: %w", err)
	}
	return nil
}

// RecordAudit stores an audit entry and sets its ID.
func (db *DB) RecordAudit(ctx context.Context, e *booking.AuditEntry) error {
	err := db.pool.QueryRow(ctx, `INSERT INTO audit_log (org_id, actor, actor_name, action, target, before, after, at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		e.OrgID, e.Actor, e.ActorName, e.Action, e.Target, jsonOrNull(e.Before), jsonOrNull(e.After), instant(e.At)).Scan(&e.ID)
	if err != nil {
		return fmt.Errorf("postgres: record audit: %w", err)
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
	rows, err := db.pool.Query(ctx, `SELECT id, org_id, actor, actor_name, action, target, before::text, after::text, at
		FROM audit_log WHERE org_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, orgID, before, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: audit log: %w", err)
	}
	defer rows.Close()
	var list []booking.AuditEntry
	for rows.Next() {
		var (
			e    booking.AuditEntry
			b, a string
			at   pgtype.Timestamptz
		)
		if err := rows.Scan(&e.ID, &e.OrgID, &e.Actor, &e.ActorName, &e.Action, &e.Target, &b, &a, &at); err != nil {
			return nil, fmt.Errorf("postgres: audit log: %w", err)
		}
		e.Before, e.After, e.At = []byte(b), []byte(a), fromInstant(at)
		list = append(list, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: audit log: %w", err)
	}
	return list, nil
}

// ReserveHostRequest records a host request under way unless its key is
// recorded (after notBefore). The insert, or the replacement of a record
// older than notBefore, is one statement, so two replicas cannot both
// reserve a key.
func (db *DB) ReserveHostRequest(ctx context.Context, r *booking.HostRequest, notBefore time.Time) (*booking.HostRequest, error) {
	tag, err := db.pool.Exec(ctx, `INSERT INTO host_requests (org_id, key, request_hash, status, body, created_at)
		VALUES ($1, $2, $3, 0, NULL, $4) ON CONFLICT (org_id, key) DO UPDATE SET
		request_hash = EXCLUDED.request_hash, status = 0, body = NULL, created_at = EXCLUDED.created_at
		WHERE host_requests.created_at < $5`, r.OrgID, r.Key, r.RequestHash, instant(r.CreatedAt), instant(notBefore))
	switch {
	case sqlState(err) == foreignKeyViolation:
		return nil, booking.Errorf(booking.CodeNotFound, "Organisation not found.")
	case err != nil:
		return nil, fmt.Errorf("postgres: reserve host request: %w", err)
	case tag.RowsAffected() == 1:
		return nil, nil
	}
	var (
		got     booking.HostRequest
		created pgtype.Timestamptz
	)
	err = db.pool.QueryRow(ctx, `SELECT org_id, key, request_hash, status, body, created_at
		FROM host_requests WHERE org_id = $1 AND key = $2`, r.OrgID, r.Key).
		Scan(&got.OrgID, &got.Key, &got.RequestHash, &got.Status, &got.Body, &created)
	if err != nil {
		return nil, fmt.Errorf("postgres: reserve host request: %w", err)
	}
	got.CreatedAt = fromInstant(created)
	return &got, booking.Errorf(booking.CodeConflict, "This idempotency key is recorded already.")
}

// CompleteHostRequest stores the response of a reserved request.
func (db *DB) CompleteHostRequest(ctx context.Context, orgID int64, key string, status int, body []byte) error {
	if _, err := db.pool.Exec(ctx, `UPDATE host_requests SET status = $3, body = $4 WHERE org_id = $1 AND key = $2`,
		orgID, key, status, body); err != nil {
		return fmt.Errorf("postgres: complete host request: %w", err)
	}
	return nil
}

// ForgetHostRequest deletes a reserved request.
func (db *DB) ForgetHostRequest(ctx context.Context, orgID int64, key string) error {
	if _, err := db.pool.Exec(ctx, `DELETE FROM host_requests WHERE org_id = $1 AND key = $2`, orgID, key); err != nil {
		return fmt.Errorf("postgres: forget host request: %w", err)
	}
	return nil
}

// PurgeHostRequests deletes the host requests created before before.
func (db *DB) PurgeHostRequests(ctx context.Context, before time.Time) (int, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM host_requests WHERE created_at < $1`, instant(before))
	if err != nil {
		return 0, fmt.Errorf("postgres: purge host requests: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// Coupons lists an organisation's coupons by code.
func (db *DB) Coupons(ctx context.Context, orgID int64) ([]coupon.Coupon, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+rowmap.CouponColumns+` FROM coupons WHERE org_id = $1 ORDER BY code`, orgID)
	if err != nil {
		return nil, fmt.Errorf("postgres: coupons: %w", err)
	}
	defer rows.Close()
	var list []coupon.Coupon
	for rows.Next() {
		c, err := rowmap.ScanCoupon(codec{}, rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: coupons: %w", err)
		}
		list = append(list, *c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: coupons: %w", err)
	}
	return list, nil
}

// CouponByID finds a coupon of an organisation.
func (db *DB) CouponByID(ctx context.Context, orgID, id int64) (*coupon.Coupon, error) {
	c, err := rowmap.ScanCoupon(codec{}, db.pool.QueryRow(ctx, `SELECT `+rowmap.CouponColumns+` FROM coupons WHERE org_id = $1 AND id = $2`, orgID, id))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, rowmap.CouponNotFound()
	case err != nil:
		return nil, fmt.Errorf("postgres: coupon %d: %w", id, err)
	}
	return c, nil
}
