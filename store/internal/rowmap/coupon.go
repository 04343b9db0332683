package rowmap

import (
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
)

// CouponColumns are the columns of coupons, in the order ScanCoupon reads
// them.
const CouponColumns = `id, org_id, code, label, kind, value, active, valid_from, valid_until,
	stay_from, stay_until, min_nights, min_amount, max_redemptions, property_ids`

// CouponDataColumns are CouponColumns after id and org_id, in the order of
// CouponArgs.
var CouponDataColumns = strings.TrimPrefix(CouponColumns, "id, org_id, ")

// CouponArgs returns cp's columns after id and org_id, in CouponDataColumns
// order, with the code normalised.
func CouponArgs(c Codec, cp *coupon.Coupon) ([]any, error) {
	ids, err := JSONArg(c, cp.PropertyIDs)
	if err != nil {
		return nil, err
	}
	return []any{coupon.Normalize(cp.Code), cp.Label, string(cp.Kind), c.MoneyArg(cp.Value),
		cp.Active, Date(cp.ValidFrom), Date(cp.ValidUntil), Date(cp.StayFrom), Date(cp.StayUntil),
		cp.MinNights, c.MoneyArg(cp.MinAmount), cp.MaxRedemptions, ids}, nil
}

// ScanCoupon reads a row of CouponColumns.
func ScanCoupon(c Codec, s Scanner) (*coupon.Coupon, error) {
	var cp coupon.Coupon
	if err := Scan(s, &cp.ID, &cp.OrgID, &cp.Code, &cp.Label, (*string)(&cp.Kind),
		c.Money(&cp.Value), &cp.Active, c.Date(&cp.ValidFrom), c.Date(&cp.ValidUntil),
		c.Date(&cp.StayFrom), c.Date(&cp.StayUntil), &cp.MinNights, c.Money(&cp.MinAmount),
		&cp.MaxRedemptions, JSON(c, &cp.PropertyIDs)); err != nil {
		return nil, err
	}
	return &cp, nil
}

// CouponNotFound is the error for a coupon that is not there.
func CouponNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "Coupon not found.")
}
