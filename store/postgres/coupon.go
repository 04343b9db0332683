package postgres

import (
	"context"
	"strconv"
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
	id, err := sqlflow.Get(ctx, db.run, "create coupon", func(q querier) (int64, error) {
		args, err := rowmap.CouponArgs(codec{}, c)
		if err != nil {
			return 0, err
		}
		id, err := sqlflow.Value[int64](ctx, q, nil, `INSERT INTO coupons (org_id, `+rowmap.CouponDataColumns+`)
			VALUES (`+params(1, len(args)+1)+`) RETURNING id`, append([]any{c.OrgID}, args...)...)
		switch {
		case sqlState(err) == uniqueViolation:
			return 0, codeTaken(c.Code)
		case sqlState(err) == foreignKeyViolation:
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
	err := db.run(ctx, "update coupon", func(q querier) error {
		args, err := rowmap.CouponArgs(codec{}, c)
		if err != nil {
			return err
		}
		n := len(args)
		err = sqlflow.Exec(ctx, q, rowmap.CouponNotFound(), `UPDATE coupons SET `+assignments(rowmap.CouponDataColumns, 1)+`
			WHERE id = $`+strconv.Itoa(n+1)+` AND org_id = $`+strconv.Itoa(n+2), append(args, c.ID, c.OrgID)...)
		if sqlState(err) == uniqueViolation {
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
	return sqlflow.Get(ctx, db.run, "coupon by code", func(q querier) (*coupon.Coupon, error) {
		return sqlflow.One(ctx, q, rowmap.ScanCoupon, rowmap.CouponNotFound(),
			`SELECT `+rowmap.CouponColumns+` FROM coupons WHERE org_id = $1 AND code = $2`, orgID, coupon.Normalize(code))
	})
}

// CouponRedemptions counts the bookings holding the coupon at now
// (requested, confirmed, and unexpired pending).
func (db *DB) CouponRedemptions(ctx context.Context, couponID int64, now time.Time) (int, error) {
	return sqlflow.Get(ctx, db.run, "coupon redemptions", func(q querier) (int, error) {
		return couponHolders(ctx, q, couponID, now)
	})
}

// couponHolders counts the bookings holding a coupon at now.
func couponHolders(ctx context.Context, q querier, couponID int64, now time.Time) (int, error) {
	return sqlflow.Value[int](ctx, q, nil, `SELECT count(*) FROM bookings WHERE coupon_id = $1 AND `+holdsDates(2),
		couponID, now)
}
