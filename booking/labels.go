package booking

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/pricing"
)

// lineLabels are the labels of a quote's lines in each locale, by line
// code; {percent} and {code} are filled in.
var lineLabels = map[string]map[string]string{
	pricing.LineWeeklyDiscount: {
		"en": "Weekly discount ({percent}%)",
		"fr": "Réduction à la semaine ({percent} %)"},
	pricing.LineMonthlyDiscount: {
		"en": "Monthly discount ({percent}%)",
		"fr": "Réduction au mois ({percent} %)"},
	pricing.LineCoupon: {
		"en": "Coupon {code}",
		"fr": "Code promo {code}"},
	pricing.LineCleaningFee: {
		"en": "Cleaning fee",
		"fr": "Frais de ménage"},
	pricing.LineExtraGuestFee: {
		"en": "Extra guest fee",
		"fr": "Supplément par voyageur"},
	pricing.LineTouristTax: {
		"en": "Tourist tax",
		"fr": "Taxe de séjour"},
}

// labelQuote words the labels of q's lines in locale ("fr" or "en"; any
// other is the organisation's default), as the guest reads them.
func labelQuote(q *pricing.Quote, org *Organization, p *Property, locale string) {
	if locale != "fr" && locale != "en" {
		locale = org.DefaultLocale
	}
	if locale != "fr" && locale != "en" {
		locale = "en"
	}
	for _, lines := range [][]pricing.Line{q.Discounts, q.Fees, q.Taxes} {
		for i := range lines {
			t, ok := lineLabels[lines[i].Code][locale]
			if !ok {
				continue
			}
			var pct decimal.Decimal
			switch lines[i].Code {
			case pricing.LineWeeklyDiscount:
				pct = p.Rates.WeeklyDiscountPercent
			case pricing.LineMonthlyDiscount:
				pct = p.Rates.MonthlyDiscountPercent
			}
			percent := pct.String()
			if locale == "fr" {
				percent = strings.Replace(percent, ".", ",", 1)
			}
			lines[i].Label = strings.NewReplacer("{percent}", percent, "{code}", q.CouponCode).Replace(t)
		}
	}
}
