// Package coupon decides whether a promo code applies to a stay. It is pure:
// the caller passes the coupon, the stay and the current date.
package coupon

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// Coupon is a promo code of one organisation.
type Coupon struct {
	ID    int64  `json:"id"`
	OrgID int64  `json:"org_id"`
	Code  string `json:"code"`
	// Label is shown to the guest on the quote, e.g. "Welcome offer".
	Label  string               `json:"label"`
	Kind   pricing.DiscountKind `json:"kind"`
	Value  decimal.Decimal      `json:"value"`
	Active bool                 `json:"active"`
	// ValidFrom and ValidUntil (inclusive; zero = open) bound the day the
	// booking is made, in the organisation's time zone.
	ValidFrom  civil.Date `json:"valid_from"`
	ValidUntil civil.Date `json:"valid_until"`
	// StayFrom and StayUntil (inclusive; zero = open) bound the check-in day.
	StayFrom  civil.Date `json:"stay_from"`
	StayUntil civil.Date `json:"stay_until"`
	// MinNights (0 = none) is the shortest stay the coupon applies to.
	MinNights int `json:"min_nights"`
	// MinAmount (zero = none) is the smallest discount base (accommodation
	// less the length-of-stay discount) the coupon applies to.
	MinAmount decimal.Decimal `json:"min_amount"`
	// MaxRedemptions (0 = unlimited) caps the bookings holding the coupon.
	MaxRedemptions int `json:"max_redemptions"`
	// PropertyIDs, when not empty, restricts the coupon to those properties.
	PropertyIDs []int64 `json:"property_ids"`
}

// Normalize returns the canonical form of a code: codes are compared
// case-insensitively and without surrounding space.
func Normalize(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }
