package booking

import (
	"fmt"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// PriceStay prices st at property p of org as a guest's quote would be
// on today (rates, fees, taxes, payment mode), its lines labelled in
// locale; no coupon, no availability check. It serves previews: a host
// sees a rate change's quote before saving it.
func PriceStay(org *Organization, p *Property, st Stay, today civil.Date, locale string) (pricing.Quote, error) {
	q, err := pricing.Compute(pricingStay(org, p, st, today))
	if err != nil {
		return pricing.Quote{}, fmt.Errorf("price stay at property %d: %w", p.ID, err)
	}
	labelQuote(&q, org, p, locale)
	return q, nil
}
