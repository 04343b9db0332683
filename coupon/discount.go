package coupon

import "github.com/staykit/staykit/pricing"

// Discount returns the money side of c, for pricing.Stay.Coupon. The code is
// in its canonical (Normalize) form.
func (c Coupon) Discount() pricing.CouponDiscount {
	return pricing.CouponDiscount{Code: Normalize(c.Code), Kind: c.Kind, Value: c.Value}
}
