package stripe

import (
	"fmt"
	"strings"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// stripeDecimals is the number of decimals in which Stripe counts an
// amount of the currency, where it differs from ISO 4217's minor units (the
// engine's unit, see pricing.MinorUnits). From Stripe's "Supported
// currencies" page (https://docs.stripe.com/currencies):
//   - ISK is zero-decimal in ISO 4217 but two-decimal at Stripe, "for
//     backwards compatibility", with the decimals always 00;
//   - MGA has two ISO decimals but is zero-decimal at Stripe.
//
// Everything else agrees, three-decimal currencies included.
var stripeDecimals = map[string]int32{
	"ISK": 2,
	"MGA": 0,
}

// stripeStep is the step, in Stripe's units, that an amount of the currency
// must be a multiple of: the three-decimal currencies (BHD, JOD, KWD, OMR,
// TND) "must end in 0", and ISK's two Stripe decimals are always 00.
var stripeStep = map[string]int64{
	"BHD": 10, "JOD": 10, "KWD": 10, "OMR": 10, "TND": 10,
	"ISK": 100,
}

// stripeAmount converts an amount in ISO minor units into Stripe's units.
// It fails with payment.ErrInvalid when Stripe cannot express the amount
// (2.345 KWD, 10.50 MGA).
func stripeAmount(iso int64, currency string) (int64, error) {
	cur := strings.ToUpper(currency)
	amount := iso
	if d, ok := stripeDecimals[cur]; ok {
		shift := d - pricing.MinorUnits(cur)
		for ; shift > 0; shift-- {
			amount *= 10
		}
		for ; shift < 0; shift++ {
			if amount%10 != 0 {
				return 0, fmt.Errorf("%w: %s %d minor units is not chargeable at Stripe, which counts whole units", payment.ErrInvalid, cur, iso)
			}
			amount /= 10
		}
	}
	if step := stripeStep[cur]; step > 1 && amount%step != 0 {
		return 0, fmt.Errorf("%w: %s amounts at Stripe must be a multiple of %d of its units, not %d", payment.ErrInvalid, cur, step, amount)
	}
	return amount, nil
}

// isoAmount converts an amount in Stripe's units back into ISO minor units.
func isoAmount(stripe int64, currency string) int64 {
	cur := strings.ToUpper(currency)
	d, ok := stripeDecimals[cur]
	if !ok {
		return stripe
	}
	amount := stripe
	for shift := d - pricing.MinorUnits(cur); shift > 0; shift-- {
		amount /= 10
	}
	for shift := d - pricing.MinorUnits(cur); shift < 0; shift++ {
		amount *= 10
	}
	return amount
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
	cur := strings.ToUpper(currency)
	places := pricing.MinorUnits(cur)
	if d, ok := stripeDecimals[cur]; ok && d < places {
		places = d
	}
	if step := stripeStep[cur]; step == 10 {
		places--
	}
	return places, places < pricing.MinorUnits(cur)
}
