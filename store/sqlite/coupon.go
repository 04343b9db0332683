package sqlite

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// codeTaken is the error for a code an organisation has already.
func codeTaken(code string) error {
	return booking.Errorf(booking.CodeConflict, "The coupon code %q exists already.", coupon.Normalize(code))
}

// CreateCoupon stores c with its code normalised (c.Code is updated) and
// sets its ID. Errors: CodeConflict when the organisation has that code
// already; CodeNotFound (organisation).
func (db *DB) CreateCoupon(ctx context.Context, c *coupon.Coupon) error {
	id, err := sqlflow.Get(ctx, db.tx, "create coupon", func(q querier) (int64, error) {
		args, err := rowmap.CouponArgs(codec{}, c)
		if err != nil {
			return 0, err
		}
		id, err := sqlflow.Value[int64](ctx, q, nil, `INSERT INTO coupons (org_id, `+rowmap.CouponDataColumns+`)
			VALUES (`+placeholders(len(args)+1)+`) RETURNING id`, append([]any{c.OrgID}, args...)...)
		switch {
		case isUniqueViolation(err):
			return 0, codeTaken(c.Code)
		case isForeignKeyViolation(err):
			return 0, rowmap.OrganizationNotFound()
		}
		return id, err
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
	err := db.tx(ctx, "update coupon", func(q querier) error {
		args, err := rowmap.CouponArgs(codec{}, c)
		if err != nil {
			return err
		}
		err = sqlflow.Exec(ctx, q, rowmap.CouponNotFound(), `UPDATE coupons SET `+assignments(rowmap.CouponDataColumns)+`
			WHERE id = ? AND org_id = ?`, append(args, c.ID, c.OrgID)...)
		if isUniqueViolation(err) {
			return codeTaken(c.Code)
		}
		return err
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
	return sqlflow.Get(ctx, db.hotRun, "coupon by code", func(q querier) (*coupon.Coupon, error) {
		return sqlflow.One(ctx, q, rowmap.ScanCoupon, rowmap.CouponNotFound(), qCouponByCode, orgID, coupon.Normalize(code))
	})
}

// CouponRedemptions counts the bookings holding the coupon at now
// (requested, confirmed, and unexpired pending).
func (db *DB) CouponRedemptions(ctx context.Context, couponID int64, now time.Time) (int, error) {
	return sqlflow.Get(ctx, db.hotRun, "coupon redemptions", func(q querier) (int, error) {
		return couponHolders(ctx, q, couponID, now)
	})
}

// couponHolders counts the bookings holding a coupon at now.
func couponHolders(ctx context.Context, q querier, couponID int64, now time.Time) (int, error) {
	return sqlflow.Value[int](ctx, q, nil, qCouponHolders, couponID, now.UnixMilli())
}
