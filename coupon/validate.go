package coupon

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
)

// Use is what a coupon is checked against: when it is being redeemed and,
// optionally, for which property and stay.
type Use struct {
	// Today is the organisation's current date; it is compared with the
	// booking window [ValidFrom, ValidUntil]. It is required.
	Today civil.Date
	// PropertyID is the property booked; 0 means not given, which skips
	// the property condition.
	PropertyID int64
	// CheckIn is the first night of the stay; the zero Date means no stay
	// is given, which skips the stay conditions (dates, nights, amount).
	CheckIn civil.Date
	// Nights is the length of the stay.
	Nights int
	// Amount is the discount base: accommodation less the length-of-stay
	// discount (pricing.Quote.CouponBase).
	Amount decimal.Decimal
	// Redemptions is the number of bookings already holding the coupon.
	Redemptions int
}

// stayGiven reports whether u describes a stay.
func (u Use) stayGiven() bool { return !u.CheckIn.IsZero() }

// Validate reports whether c may be redeemed for u. It checks, in this order,
// and returns an *Error for the first condition that fails:
//
//	CodeInactive     c.Active is false
//	CodeNotYetValid  u.Today is before c.ValidFrom
//	CodeExpired      u.Today is after c.ValidUntil
//	CodeExhausted    c.MaxRedemptions > 0 and u.Redemptions >= c.MaxRedemptions
//	CodeProperty     c.PropertyIDs is not empty and u.PropertyID (if given) is not in it
//	CodeStayDates    u.CheckIn (if given) is before c.StayFrom or after c.StayUntil
//	CodeMinNights    a stay is given and u.Nights < c.MinNights
//	CodeMinAmount    a stay is given, c.MinAmount > 0 and u.Amount < c.MinAmount
//
// All date bounds are inclusive and a zero bound is open. The "min" param of
// CodeMinAmount is the exact amount with no currency: an integer as is
// ("200"), a fraction with at least two decimals ("150.50").
//
// Validate does not check the coupon's own configuration; see
// [Coupon.Validate] for that.
func Validate(c Coupon, u Use) error {
	if !c.Active {
		return &Error{Code: CodeInactive, Message: "This coupon is not active."}
	}
	if !c.ValidFrom.IsZero() && u.Today.Before(c.ValidFrom) {
		return &Error{
			Code:    CodeNotYetValid,
			Message: fmt.Sprintf("This coupon is valid from %s.", c.ValidFrom),
			Params:  map[string]string{"date": c.ValidFrom.String()},
		}
	}
	if !c.ValidUntil.IsZero() && u.Today.After(c.ValidUntil) {
		return &Error{
			Code:    CodeExpired,
			Message: fmt.Sprintf("This coupon expired on %s.", c.ValidUntil),
			Params:  map[string]string{"date": c.ValidUntil.String()},
		}
	}
	if c.MaxRedemptions > 0 && u.Redemptions >= c.MaxRedemptions {
		return &Error{Code: CodeExhausted, Message: "This coupon has reached its usage limit."}
	}
	if u.PropertyID != 0 && !c.AppliesTo(u.PropertyID) {
		return &Error{Code: CodeProperty, Message: "This coupon does not apply to this property."}
	}
	if !u.stayGiven() {
		return nil
	}
	if (!c.StayFrom.IsZero() && u.CheckIn.Before(c.StayFrom)) ||
		(!c.StayUntil.IsZero() && u.CheckIn.After(c.StayUntil)) {
		return stayDatesError(c)
	}
	if u.Nights < c.MinNights {
		noun := "nights"
		if c.MinNights == 1 {
			noun = "night"
		}
		return &Error{
			Code:    CodeMinNights,
			Message: fmt.Sprintf("This coupon requires a stay of at least %d %s.", c.MinNights, noun),
			Params:  map[string]string{"min": strconv.Itoa(c.MinNights)},
		}
	}
	if c.MinAmount.IsPositive() && u.Amount.LessThan(c.MinAmount) {
		minimum := formatAmount(c.MinAmount)
		return &Error{
			Code:    CodeMinAmount,
			Message: fmt.Sprintf("This coupon requires a stay amount of at least %s.", minimum),
			Params:  map[string]string{"min": minimum},
		}
	}
	return nil
}

// stayDatesError describes the check-in window of c, whose bounds may be
// open on either side (but not both, or no check-in would fall outside).
func stayDatesError(c Coupon) *Error {
	e := &Error{Code: CodeStayDates, Params: map[string]string{}}
	switch {
	case !c.StayFrom.IsZero() && !c.StayUntil.IsZero():
		e.Message = fmt.Sprintf("This coupon applies to check-ins from %s to %s.", c.StayFrom, c.StayUntil)
	case !c.StayFrom.IsZero():
		e.Message = fmt.Sprintf("This coupon applies to check-ins from %s onwards.", c.StayFrom)
	default:
		e.Message = fmt.Sprintf("This coupon applies to check-ins until %s.", c.StayUntil)
	}
	if !c.StayFrom.IsZero() {
		e.Params["from"] = c.StayFrom.String()
	}
	if !c.StayUntil.IsZero() {
		e.Params["until"] = c.StayUntil.String()
	}
	return e
}

// formatAmount writes an amount without knowing its currency: integers as
// is, fractions with at least two decimals, never rounded.
func formatAmount(d decimal.Decimal) string {
	s := d.String()
	if d.IsInteger() {
		return s
	}
	if i := strings.IndexByte(s, '.'); i >= 0 && len(s)-i-1 < 2 {
		return d.StringFixed(2)
	}
	return s
}

// AppliesTo reports whether c may be used for the property: always when
// PropertyIDs is empty, else only for the properties it lists.
func (c Coupon) AppliesTo(propertyID int64) bool {
	return len(c.PropertyIDs) == 0 || slices.Contains(c.PropertyIDs, propertyID)
}
