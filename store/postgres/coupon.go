package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// codeTaken is the error for a code an organisation has already.
func codeTaken(code string) error {
	return booking.Errorf(booking.CodeConflict, "The coupon code %q exists already.", coupon.Normalize(code))
}

// CreateCoupon stores c with its code normalised (c.Code is updated) and
// sets its ID. Errors: CodeConflict when the organisation has that code
// already; CodeNotFound (organisation).
func (db *DB) CreateCoupon(ctx context.Context, c *coupon.Coupon) error {
	args, err := rowmap.CouponArgs(codec{}, c)
	if err != nil {
		return fmt.Errorf("postgres: create coupon: %w", err)
	}
	var id int64
	err = db.pool.QueryRow(ctx, `INSERT INTO coupons (org_id, `+rowmap.CouponDataColumns+`)
		VALUES (`+params(1, len(args)+1)+`) RETURNING id`, append([]any{c.OrgID}, args...)...).Scan(&id)
	switch {
	case sqlState(err) == uniqueViolation:
		return codeTaken(c.Code)
	case sqlState(err) == foreignKeyViolation:
		return rowmap.OrganizationNotFound()
	case err != nil:
		return fmt.Errorf("postgres: create coupon: %w", err)
	}
	c.ID, c.Code = id, coupon.Normalize(c.Code)
	return nil
}

// UpdateCoupon replaces the coupon with c.ID of organisation c.OrgID, code
// normalised. Errors: CodeNotFound; CodeConflict when another coupon of the
// organisation has the code.
func (db *DB) UpdateCoupon(ctx context.Context, c *coupon.Coupon) error {
	args, err := rowmap.CouponArgs(codec{}, c)
	if err != nil {
		return fmt.Errorf("postgres: update coupon: %w", err)
	}
	n := len(args)
	tag, err := db.pool.Exec(ctx, `UPDATE coupons SET `+assignments(rowmap.CouponDataColumns, 1)+`
		WHERE id = $`+strconv.Itoa(n+1)+` AND org_id = $`+strconv.Itoa(n+2), append(args, c.ID, c.OrgID)...)
	switch {
	case sqlState(err) == uniqueViolation:
		return codeTaken(c.Code)
	case err != nil:
		return fmt.Errorf("postgres: update coupon: %w", err)
	case tag.RowsAffected() == 0:
		return rowmap.CouponNotFound()
	}
	c.Code = coupon.Normalize(c.Code)
	return nil
}

// CouponByCode finds a coupon by code, case-insensitively. Errors:
// CodeNotFound.
func (db *DB) CouponByCode(ctx context.Context, orgID int64, code string) (*coupon.Coupon, error) {
	c, err := rowmap.ScanCoupon(codec{}, db.pool.QueryRow(ctx,
		`SELECT `+rowmap.CouponColumns+` FROM coupons WHERE org_id = $1 AND code = $2`, orgID, coupon.Normalize(code)))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, rowmap.CouponNotFound()
	case err != nil:
		return nil, fmt.Errorf("postgres: coupon %q: %w", code, err)
	}
	return c, nil
}

// CouponRedemptions counts the bookings holding the coupon at now
// (requested, confirmed, and unexpired pending).
func (db *DB) CouponRedemptions(ctx context.Context, couponID int64, now time.Time) (int, error) {
	n, err := couponHolders(ctx, db.pool, couponID, now)
	if err != nil {
		return 0, fmt.Errorf("postgres: coupon redemptions: %w", err)
	}
	return n, nil
}

// couponHolders counts the bookings holding a coupon at now.
func couponHolders(ctx context.Context, q querier, couponID int64, now time.Time) (int, error) {
	var n int
	err := q.QueryRow(ctx, `SELECT count(*) FROM bookings WHERE coupon_id = $1 AND `+holdsDates(2),
		couponID, now).Scan(&n)
	return n, err
}

// lockCoupon locks a coupon's row until the transaction ends, so that the
// checkouts counting its holders take turns. Errors: CodeNotFound.
func lockCoupon(ctx context.Context, tx pgx.Tx, couponID int64) error {
	found, err := exists(ctx, tx, `SELECT 1 FROM coupons WHERE id = $1 FOR NO KEY UPDATE`, couponID)
	if err != nil {
		return fmt.Errorf("lock coupon %d: %w", couponID, err)
	}
	if !found {
		return rowmap.CouponNotFound()
	}
	return nil
}
