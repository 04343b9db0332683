package reports

import (
	"cmp"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

// TouristTaxRow is what a host declares of the tourist tax for one
// municipality (commune) and month, as the French "état récapitulatif"
// asks it (CGCT art. R2333-51): stays, nights, guests, exempt guests and
// the amount collected.
type TouristTaxRow struct {
	Month Month
	// Country, MunicipalityCode and PostalCode are the properties'
	// (booking.Property); City is the first property's. Properties
	// without a MunicipalityCode are grouped by country, postal code and
	// city instead.
	Country, MunicipalityCode, PostalCode, City string
	// Stays are the confirmed bookings with a night in the month;
	// Nights their nights there (a night of each stay, whatever its
	// guests).
	Stays, Nights int
	// Arrivals are the stays whose check-in is in the month; Guests their
	// guests (adults and children: infants and pets are no guests,
	// pricing.Party.Guests), ExemptGuests those of them in a category
	// the property exempts (pricing.TouristTax.Exempt).
	Arrivals, Guests, ExemptGuests int
	// GuestNights are the nights of the month times each stay's guests
	// (the "nuitées"); ExemptGuestNights those of exempt guests, plus
	// every guest-night beyond the property's taxed nights
	// (pricing.TouristTax.MaxNights), which pays no tax either.
	GuestNights, ExemptGuestNights int
	// Amount is the tourist tax of the stored quotes
	// (pricing.LineTouristTax), spread evenly over each stay's nights as
	// the other taxes are.
	Amount decimal.Decimal
}

// VATRow is a percentage tax (VAT and the like) at one rate for one
// month: Amount, and the Base it was charged on. The rate is the one the
// property's pricing.PercentTax of the same code has when the report is
// made (the stored quote keeps the amount, not the rate); zero, with a
// zero Base, when the property has no such tax any more. An inclusive
// tax's Base is the prices net of it (Amount × 100 / rate, rounded to
// minor units); an exclusive one's the prices it was added to.
type VATRow struct {
	Month     Month
	Code      string
	Label     string
	Labels    map[string]string
	Rate      decimal.Decimal
	Inclusive bool
	Base      decimal.Decimal
	Amount    decimal.Decimal
}

// declarations returns the tourist tax per month and municipality and
// the percentage taxes per month and rate of the confirmed bookings of
// in (the package doc's taxes, grouped for the authorities).
func declarations(in Input) ([]TouristTaxRow, []VATRow) {
	props := map[int64]*booking.Property{}
	for i := range in.Properties {
		props[in.Properties[i].ID] = &in.Properties[i]
	}
	span := in.Span.Range()
	type ttKey struct {
		month Month
		place string
	}
	tourist := map[ttKey]*TouristTaxRow{}
	type vatKey struct {
		month     Month
		code      string
		rate      string
		inclusive bool
	}
	vat := map[vatKey]*VATRow{}
	for i := range in.Bookings {
		b := &in.Bookings[i]
		p := props[b.PropertyID]
		if p == nil || b.Status != booking.StatusConfirmed || b.Currency != in.Currency {
			continue
		}
		guests, exempt := partyOf(b, p.Tax)
		rates := map[string]pricing.PercentTax{}
		for _, t := range p.Fees.Taxes {
			rates[t.Code] = t
		}
		seen := map[Month]bool{}
		for ni, n := range spreadStay(b, in.Currency) {
			if !span.Contains(n.date) {
				continue
			}
			m := MonthOf(n.date)
			k := ttKey{m, placeKey(p)}
			row := tourist[k]
			if row == nil {
				row = &TouristTaxRow{Month: m, Country: p.Country, MunicipalityCode: p.MunicipalityCode, PostalCode: p.PostalCode,
					City: p.City, Amount: decimal.Zero}
				tourist[k] = row
			}
			if !seen[m] {
				seen[m] = true
				row.Stays++
			}
			row.Nights++
			row.GuestNights += guests
			if p.Tax.MaxNights > 0 && ni >= p.Tax.MaxNights {
				row.ExemptGuestNights += guests
			} else {
				row.ExemptGuestNights += exempt
			}
			for _, t := range n.taxes {
				if t.Code == pricing.LineTouristTax && !t.Inclusive {
					row.Amount = row.Amount.Add(t.Amount)
					continue
				}
				rate := rates[t.Code].Percent
				vk := vatKey{m, t.Code, rate.String(), t.Inclusive}
				v := vat[vk]
				if v == nil {
					v = &VATRow{Month: m, Code: t.Code, Label: t.Label, Labels: t.Labels, Rate: rate, Inclusive: t.Inclusive,
						Amount: decimal.Zero, Base: decimal.Zero}
					if l := rates[t.Code].Labels; l != (pricing.Labels{}) {
						v.Labels = l.Map()
					}
					vat[vk] = v
				}
				v.Amount = v.Amount.Add(t.Amount)
			}
		}
		if span.Contains(b.CheckIn) {
			k := ttKey{MonthOf(b.CheckIn), placeKey(p)}
			if row := tourist[k]; row != nil {
				row.Arrivals++
				row.Guests += guests
				row.ExemptGuests += exempt
			}
		}
	}
	tt := make([]TouristTaxRow, 0, len(tourist))
	for _, r := range tourist {
		tt = append(tt, *r)
	}
	slices.SortFunc(tt, func(a, b TouristTaxRow) int {
		return cmp.Or(cmp.Compare(a.Month.String(), b.Month.String()), cmp.Compare(a.Country, b.Country),
			cmp.Compare(a.MunicipalityCode, b.MunicipalityCode), cmp.Compare(a.PostalCode, b.PostalCode), cmp.Compare(a.City, b.City))
	})
	vs := make([]VATRow, 0, len(vat))
	for _, v := range vat {
		if v.Rate.IsPositive() {
			// Amount = Base × rate / 100, Base being the prices net of
			// the tax whether it was in them or added to them.
			v.Base = pricing.Round(v.Amount.Mul(decimal.NewFromInt(100)).Div(v.Rate), in.Currency)
		}
		vs = append(vs, *v)
	}
	slices.SortFunc(vs, func(a, b VATRow) int {
		return cmp.Or(cmp.Compare(a.Month.String(), b.Month.String()), cmp.Compare(a.Code, b.Code), a.Rate.Cmp(b.Rate),
			cmp.Compare(boolKey(a.Inclusive), boolKey(b.Inclusive)))
	})
	return tt, vs
}

// placeKey groups properties by municipality: its official code, or
// without one its postal code and city.
func placeKey(p *booking.Property) string {
	if p.MunicipalityCode != "" {
		return p.Country + "|" + p.MunicipalityCode
	}
	return p.Country + "||" + p.PostalCode + "|" + strings.ToLower(p.City)
}

// partyOf is a stay's guests (adults and children) and how many of them
// the property's tourist tax exempts. A quote without its party counts
// the booking's guests as adults.
func partyOf(b *booking.Booking, tax pricing.TouristTax) (guests, exempt int) {
	party := b.Quote.Party
	if party == (pricing.Party{}) {
		party.Adults = b.Guests
	}
	for c, n := range map[string]int{pricing.CategoryAdults: party.Adults, pricing.CategoryChildren: party.Children} {
		if slices.Contains(tax.Exempt, c) {
			exempt += n
		}
	}
	return party.Guests(), exempt
}
