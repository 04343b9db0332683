package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/pricing"
)

const couponColumns = `id, org_id, code, label, kind, value, active, valid_from, valid_until,
	stay_from, stay_until, min_nights, min_amount, max_redemptions, property_ids`

// couponDataColumns are couponColumns after id and org_id.
var couponDataColumns = strings.TrimPrefix(couponColumns, "id, org_id, ")

// couponArgs returns c's columns after id and org_id, in couponColumns
// order, with the code normalised.
func couponArgs(c *coupon.Coupon) ([]any, error) {
	ids, err := toJSON(c.PropertyIDs)
	if err != nil {
		return nil, err
	}
	return []any{coupon.Normalize(c.Code), c.Label, string(c.Kind), c.Value, c.Active,
		date(c.ValidFrom), date(c.ValidUntil), date(c.StayFrom), date(c.StayUntil), c.MinNights,
		c.MinAmount, c.MaxRedemptions, ids}, nil
}

func scanCoupon(s scanner) (*coupon.Coupon, error) {
	var (
		c                                      coupon.Coupon
		kind                                   string
		value, minAmount                       decimal.Decimal
		ids                                    []byte
		validFrom, validUntil, stayFrom, until pgtype.Date
	)
	if err := s.Scan(&c.ID, &c.OrgID, &c.Code, &c.Label, &kind, &value, &c.Active, &validFrom,
		&validUntil, &stayFrom, &until, &c.MinNights, &minAmount, &c.MaxRedemptions, &ids); err != nil {
		return nil, err
	}
	c.Kind = pricing.DiscountKind(kind)
	c.Value, c.MinAmount = value, minAmount
	c.ValidFrom, c.ValidUntil = fromDate(validFrom), fromDate(validUntil)
	c.StayFrom, c.StayUntil = fromDate(stayFrom), fromDate(until)
	if err := fromJSON(ids, &c.PropertyIDs); err != nil {
		return nil, err
	}
	return &c, nil
}

// codeTaken is the error for a code an organisation has already.
func codeTaken(code string) error {
	return booking.Errorf(booking.CodeConflict, "The coupon code %q exists already.", coupon.Normalize(code))
}

// CreateCoupon stores c with its code normalised (c.Code is updated) and
// sets its ID. Errors: CodeConflict when the organisation has that code
// already; CodeNotFound (organisation).
func (db *DB) CreateCoupon(ctx context.Context, c *coupon.Coupon) error {
	args, err := couponArgs(c)
	if err != nil {
		return fmt.Errorf("postgres: create coupon: %w", err)
	}
	var id int64
	err = db.pool.QueryRow(ctx, `INSERT INTO coupons (org_id, `+couponDataColumns+`)
		VALUES (`+params(1, len(args)+1)+`) RETURNING id`, append([]any{c.OrgID}, args...)...).Scan(&id)
	switch {
	case sqlState(err) == uniqueViolation:
		return codeTaken(c.Code)
	case sqlState(err) == foreignKeyViolation:
		return booking.Errorf(booking.CodeNotFound, "Organization not found.")
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
	args, err := couponArgs(c)
	if err != nil {
		return fmt.Errorf("postgres: update coupon: %w", err)
	}
	n := len(args)
	tag, err := db.pool.Exec(ctx, `UPDATE coupons SET `+assignments(couponDataColumns, 1)+`
		WHERE id = $`+strconv.Itoa(n+1)+` AND org_id = $`+strconv.Itoa(n+2), append(args, c.ID, c.OrgID)...)
	switch {
	case sqlState(err) == uniqueViolation:
		return codeTaken(c.Code)
	case err != nil:
		return fmt.Errorf("postgres: update coupon: %w", err)
	case tag.RowsAffected() == 0:
		return booking.Errorf(booking.CodeNotFound, "Coupon not found.")
	}
	c.Code = coupon.Normalize(c.Code)
	return nil
}

// CouponByCode finds a coupon by code, case-insensitively. Errors:
// CodeNotFound.
func (db *DB) CouponByCode(ctx context.Context, orgID int64, code string) (*coupon.Coupon, error) {
	c, err := scanCoupon(db.pool.QueryRow(ctx,
		`SELECT `+couponColumns+` FROM coupons WHERE org_id = $1 AND code = $2`, orgID, coupon.Normalize(code)))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "Coupon not found.")
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
		return booking.Errorf(booking.CodeNotFound, "Coupon not found.")
	}
	return nil
}
