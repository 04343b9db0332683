package stripe

import (
	"fmt"
	"math"
	"strings"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// stripeUnit is how Stripe counts a currency whose amounts it does not
// take in ISO 4217 minor units (the engine's unit, see pricing.MinorUnits):
// an amount is sent as an integer of decimals decimals, of which only the
// first charged may be other than 0.
type stripeUnit struct {
	decimals, charged int32
}

// stripeUnits are the currencies of Stripe's "Supported currencies" page
// (https://docs.stripe.com/currencies) whose units differ from ISO 4217;
// the engine's amounts of every other currency are sent as they are.
//   - ISK and UGX ("special cases"): zero-decimal, as in ISO 4217, but
//     Stripe keeps them two-decimal "for backwards compatibility": 5 ISK is
//     sent as 500, and an amount must be evenly divisible by 100.
//   - MGA ("zero-decimal currencies"): two ISO decimals, none at Stripe.
//   - BHD, JOD, KWD, OMR and TND ("three-decimal currencies"): counted in
//     thousandths as in ISO 4217, but the last digit must be 0.
//
// The other zero-decimal currencies (BIF, CLP, DJF, GNF, JPY, KMF, KRW,
// PYG, RWF, VND, VUV, XAF, XOF, XPF) are zero-decimal in ISO 4217 too. HUF
// and TWD, the other special cases, are two-decimal for charges and refunds
// as in ISO 4217; only payouts, which the engine does not make, are whole
// units.
var stripeUnits = map[string]stripeUnit{
	"ISK": {decimals: 2, charged: 0},
	"UGX": {decimals: 2, charged: 0},
	"MGA": {decimals: 0, charged: 0},
	"BHD": {decimals: 3, charged: 2},
	"JOD": {decimals: 3, charged: 2},
	"KWD": {decimals: 3, charged: 2},
	"OMR": {decimals: 3, charged: 2},
	"TND": {decimals: 3, charged: 2},
}

// unitOf returns the ISO minor units of the upper-case currency and how
// Stripe counts it.
func unitOf(cur string) (iso int32, u stripeUnit) {
	iso = pricing.MinorUnits(cur)
	u, ok := stripeUnits[cur]
	if !ok {
		u = stripeUnit{decimals: iso, charged: iso}
	}
	return iso, u
}

// pow10 is 10^n for 0 <= n <= 3, the widest shift between the two units.
func pow10(n int32) int64 {
	p := int64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

// stripeAmount converts an amount in ISO minor units into Stripe's units,
// exactly, in integers: 1000 UGX is 100000, 1500.00 MGA (150000) is 1500,
// 12.340 KWD is 12340. It fails with payment.ErrInvalid when Stripe cannot
// take the amount (2.345 KWD, 10.50 MGA) or it overflows Stripe's units.
func stripeAmount(iso int64, currency string) (int64, error) {
	cur := strings.ToUpper(currency)
	places, u := unitOf(cur)
	if u.charged < places && iso%pow10(places-u.charged) != 0 {
		return 0, fmt.Errorf("%w: %s %s cannot be charged at Stripe, which takes %s to %d decimals",
			payment.ErrInvalid, pricing.FromMinor(iso, cur), cur, cur, u.charged)
	}
	switch shift := u.decimals - places; {
	case shift > 0:
		f := pow10(shift)
		if iso > math.MaxInt64/f || iso < math.MinInt64/f {
			return 0, fmt.Errorf("%w: %s %s is too large for Stripe", payment.ErrInvalid, pricing.FromMinor(iso, cur), cur)
		}
		return iso * f, nil
	case shift < 0:
		// Exact: iso is a multiple of 10^(places-charged), and charged <=
		// decimals.
		return iso / pow10(-shift), nil
	}
	return iso, nil
}

// stripeFee converts a Connect application fee in ISO minor units into
// Stripe's units, rounded down to an amount Stripe takes: the platform
// never keeps more than its fee, and the fee never exceeds the charge it
// is taken from. fee must be a part of an amount stripeAmount accepted.
func stripeFee(fee int64, currency string) int64 {
	cur := strings.ToUpper(currency)
	places, u := unitOf(cur)
	if u.charged < places {
		fee -= fee % pow10(places-u.charged)
	}
	units, err := stripeAmount(fee, cur)
	if err != nil { // cannot happen for a part of a chargeable amount
		return 0
	}
	return units
}

// isoAmount converts an amount in Stripe's units back into ISO minor
// units. Every amount the engine sends comes back exactly (100000 UGX is
// 1000); Stripe refuses the others (ISK and UGX amounts must be divisible
// by 100 in every call), so a remainder below the ISO minor unit, which
// only an amount from before Stripe's rule could have, is dropped.
func isoAmount(stripe int64, currency string) int64 {
	cur := strings.ToUpper(currency)
	places, u := unitOf(cur)
	switch shift := places - u.decimals; {
	case shift > 0:
		return stripe * pow10(shift)
	case shift < 0:
		return stripe / pow10(-shift)
	}
	return stripe
}

// CheckAmount reports whether Stripe can charge amount ISO minor units of
// the currency: at least its minimum (see MinimumAmount) and expressible in
// its units. Errors: payment.ErrInvalid.
func (p *Provider) CheckAmount(amount int64, currency string) error {
	return validateCreate(payment.CreateParams{Amount: amount, Currency: currency})
}

// ChargeDecimals returns the decimals Stripe can charge in the currency
// when they are fewer than its ISO minor units: 2 for BHD, JOD, KWD, OMR
// and TND (amounts must end in 0), 0 for MGA.
func (p *Provider) ChargeDecimals(currency string) (int32, bool) {
	places, u := unitOf(strings.ToUpper(currency))
	return u.charged, u.charged < places
}
