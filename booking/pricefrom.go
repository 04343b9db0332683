package booking

import (
	"slices"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// priceFromMemo is a property's PriceFrom on one day, with the rates it was
// computed from.
type priceFromMemo struct {
	today civil.Date
	rates pricing.RatePlan
	price decimal.Decimal
}

// priceFrom returns p's lowest nightly price of the priceFromDays from
// today. The price depends only on the rates and the day, so it is
// computed once per property, day and rate plan rather than walking a year
// of nights per request: comparing the rates costs a few comparisons per
// season and override.
func (s *Service) priceFrom(p *Property, today civil.Date) decimal.Decimal {
	if v, ok := s.lowest.Load(p.ID); ok {
		if m := v.(*priceFromMemo); m.today == today && sameRates(m.rates, p.Rates) {
			return m.price
		}
	}
	price := p.priceFrom(today, priceFromDays)
	s.lowest.Store(p.ID, &priceFromMemo{today: today, rates: cloneRates(p.Rates), price: price})
	return price
}

// cloneRates copies a rate plan, so that the memo does not share slices
// with a caller that may change them.
func cloneRates(r pricing.RatePlan) pricing.RatePlan {
	r.WeekendNights = slices.Clone(r.WeekendNights)
	r.Seasons = slices.Clone(r.Seasons)
	r.Overrides = slices.Clone(r.Overrides)
	if r.WeekendRate != nil {
		w := *r.WeekendRate
		r.WeekendRate = &w
	}
	return r
}

// sameRates reports whether two rate plans price every night alike.
func sameRates(a, b pricing.RatePlan) bool {
	if !a.BaseRate.Equal(b.BaseRate) || (a.WeekendRate == nil) != (b.WeekendRate == nil) ||
		(a.WeekendRate != nil && !a.WeekendRate.Equal(*b.WeekendRate)) ||
		(a.WeekendNights == nil) != (b.WeekendNights == nil) || !slices.Equal(a.WeekendNights, b.WeekendNights) {
		return false
	}
	if !slices.EqualFunc(a.Seasons, b.Seasons, func(x, y pricing.Season) bool {
		return x.Start == y.Start && x.End == y.End && x.Rate.Equal(y.Rate)
	}) {
		return false
	}
	return slices.EqualFunc(a.Overrides, b.Overrides, func(x, y pricing.DateOverride) bool {
		return x.Date == y.Date && x.Price.Equal(y.Price)
	})
}
