package reports

import (
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/pricing"
)

// Figures are the numbers of one period for one property, or summed over
// several: what the package doc defines.
type Figures struct {
	// NightsBooked are the nights of confirmed stays; NightsAvailable
	// the nights not closed by the host.
	NightsBooked, NightsAvailable int
	// RoomRevenue is the nights' prices less their discounts.
	RoomRevenue decimal.Decimal
	// Fees are the stays' fees (cleaning, extra guests, extras).
	Fees decimal.Decimal
	// CancellationRevenue is what cancelled bookings kept.
	CancellationRevenue decimal.Decimal
	// Collected is the money received less the money refunded.
	Collected decimal.Decimal
}

// RevenueBooked is room revenue + fees + cancellation revenue (taxes
// added to the price excluded).
func (f Figures) RevenueBooked() decimal.Decimal {
	return f.RoomRevenue.Add(f.Fees).Add(f.CancellationRevenue)
}

// Occupancy is booked nights / available nights as a percent with one
// decimal; ok is false without available nights.
func (f Figures) Occupancy() (percent decimal.Decimal, ok bool) {
	if f.NightsAvailable <= 0 {
		return decimal.Decimal{}, false
	}
	return decimal.NewFromInt(int64(f.NightsBooked)*100).DivRound(decimal.NewFromInt(int64(f.NightsAvailable)), 1), true
}

// ADR is room revenue / booked nights, rounded to the currency's minor
// units; ok is false without booked nights.
func (f Figures) ADR(currency string) (decimal.Decimal, bool) {
	return per(f.RoomRevenue, f.NightsBooked, currency)
}

// RevPAR is room revenue / available nights, rounded to the currency's
// minor units; ok is false without available nights.
func (f Figures) RevPAR(currency string) (decimal.Decimal, bool) {
	return per(f.RoomRevenue, f.NightsAvailable, currency)
}

func per(amount decimal.Decimal, nights int, currency string) (decimal.Decimal, bool) {
	if nights <= 0 {
		return decimal.Decimal{}, false
	}
	return pricing.Round(amount.DivRound(decimal.NewFromInt(int64(nights)), 8), currency), true
}

// add adds o to f.
func (f *Figures) add(o Figures) {
	f.NightsBooked += o.NightsBooked
	f.NightsAvailable += o.NightsAvailable
	f.RoomRevenue = f.RoomRevenue.Add(o.RoomRevenue)
	f.Fees = f.Fees.Add(o.Fees)
	f.CancellationRevenue = f.CancellationRevenue.Add(o.CancellationRevenue)
	f.Collected = f.Collected.Add(o.Collected)
}

// MonthFigures are the figures of one month.
type MonthFigures struct {
	Month Month
	Figures
}

// PropertyReport is one property's figures per month of the span, and
// over the whole span.
type PropertyReport struct {
	ID     int64
	Name   string
	Months []MonthFigures
	Total  Figures
}

// TaxLine is a tax's amount: the tourist tax (pricing.LineTouristTax) or
// a percentage tax, exclusive (added to the price) or inclusive (part of
// it).
type TaxLine struct {
	Code string
	// Label is the quote's label (English); Labels the labels by locale,
	// when the tax has them.
	Label     string
	Labels    map[string]string
	Inclusive bool
	Amount    decimal.Decimal
}

// TaxRow is a tax's amount for one property and month.
type TaxRow struct {
	Month        Month
	PropertyID   int64
	PropertyName string
	TaxLine
}

// Report is an organisation's figures over a span of months: per
// property and month, per month over all properties, and in total; and
// its taxes per month and property, and in total per tax.
type Report struct {
	Currency   string
	Span       Span
	Properties []PropertyReport
	Months     []MonthFigures
	Total      Figures
	Taxes      []TaxRow
	TaxTotals  []TaxLine
	// TouristTax is the tourist tax per month and municipality, VAT the
	// percentage taxes per month and rate: what the host declares
	// (TouristTaxRow, VATRow).
	TouristTax []TouristTaxRow
	VAT        []VATRow
}
