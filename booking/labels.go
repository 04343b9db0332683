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
	pricing.LineEarlyBird: {
		"en": "Early booking discount ({percent}%)",
		"fr": "Réduction réservation anticipée ({percent} %)"},
	pricing.LineLastMinute: {
		"en": "Last-minute discount ({percent}%)",
		"fr": "Réduction dernière minute ({percent} %)"},
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
	for _, lines := range [][]pricing.Line{q.Discounts, q.Fees, q.Taxes, q.IncludedTaxes} {
		for i := range lines {
			l := &lines[i]
			texts, ok := lineLabels[l.Code]
			if !ok {
				// A host's fee or tax carries its own labels.
				if t := l.Labels[locale]; t != "" {
					l.Label = t
				}
				continue
			}
			var pct decimal.Decimal
			switch l.Code {
			case pricing.LineWeeklyDiscount:
				pct = p.Rates.WeeklyDiscountPercent
			case pricing.LineMonthlyDiscount:
				pct = p.Rates.MonthlyDiscountPercent
			case pricing.LineEarlyBird:
				pct = p.Rates.EarlyBird.Percent
			case pricing.LineLastMinute:
				pct = p.Rates.LastMinute.Percent
			}
			l.Labels = make(map[string]string, 2)
			for _, loc := range []string{"fr", "en"} {
				percent := pct.String()
				if loc == "fr" {
					percent = strings.Replace(percent, ".", ",", 1)
				}
				// {percent} first: a percentage never holds "{code}", and
				// a coupon code holding "{percent}" stays as it is, as
				// with one pass. (A strings.Replacer per line cost a
				// sixth of a quote.)
				l.Labels[loc] = strings.ReplaceAll(strings.ReplaceAll(texts[loc], "{percent}", percent), "{code}", q.CouponCode)
			}
			l.Label = l.Labels[locale]
		}
	}
}
