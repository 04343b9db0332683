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
		return fmt.Errorf("sqlite: create coupon: %w", err)
	}
	var id int64
	err = db.inWriteTx(ctx, "create coupon", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO coupons (`+rowmap.CouponColumns+`)
			VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			append([]any{c.OrgID}, args...)...).Scan(&id)
		switch {
		case isUniqueViolation(err):
			return codeTaken(c.Code)
		case isForeignKeyViolation(err):
			return rowmap.OrganizationNotFound()
		case err != nil:
			return fmt.Errorf("sqlite: create coupon: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
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
		return fmt.Errorf("sqlite: update coupon: %w", err)
	}
	err = db.inWriteTx(ctx, "update coupon", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE coupons SET code = ?, label = ?, kind = ?, value = ?,
			active = ?, valid_from = ?, valid_until = ?, stay_from = ?, stay_until = ?,
			min_nights = ?, min_amount = ?, max_redemptions = ?, property_ids = ?
			WHERE id = ? AND org_id = ?`, append(args, c.ID, c.OrgID)...)
		switch {
		case isUniqueViolation(err):
			return codeTaken(c.Code)
		case err != nil:
			return fmt.Errorf("sqlite: update coupon: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("sqlite: update coupon: %w", err)
		} else if n == 0 {
			return rowmap.CouponNotFound()
		}
		return nil
	})
	if err != nil {
		return err
	}
	c.Code = coupon.Normalize(c.Code)
	return nil
}

// CouponByCode finds a coupon by code, case-insensitively. Errors:
// CodeNotFound.
func (db *DB) CouponByCode(ctx context.Context, orgID int64, code string) (*coupon.Coupon, error) {
	c, err := rowmap.ScanCoupon(codec{}, db.reads().QueryRowContext(ctx, qCouponByCode, orgID, coupon.Normalize(code)))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, rowmap.CouponNotFound()
	case err != nil:
		return nil, fmt.Errorf("sqlite: coupon %q: %w", code, err)
	}
	return c, nil
}

// CouponRedemptions counts the bookings holding the coupon at now
// (requested, confirmed, and unexpired pending).
func (db *DB) CouponRedemptions(ctx context.Context, couponID int64, now time.Time) (int, error) {
	n, err := couponHolders(ctx, db.reads(), couponID, now)
	if err != nil {
		return 0, fmt.Errorf("sqlite: coupon redemptions: %w", err)
	}
	return n, nil
}

// couponHolders counts the bookings holding a coupon at now.
func couponHolders(ctx context.Context, q querier, couponID int64, now time.Time) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, qCouponHolders, couponID, now.UnixMilli()).Scan(&n)
	return n, err
}
