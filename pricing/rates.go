package pricing

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
)

// NightPrice returns the price of the night starting on d: its override,
// else the rate of the first season covering it, else WeekendRate when d is
// one of WeekendNights, else BaseRate. It does not round and does not
// allocate: calendars call it for every day of a year.
func (p RatePlan) NightPrice(d civil.Date) decimal.Decimal {
	for i := range p.Overrides {
		if p.Overrides[i].Date == d {
			return p.Overrides[i].Price
		}
	}
	if s := p.season(d); s != nil {
		return s.Rate
	}
	if p.WeekendRate != nil && p.isWeekendNight(d.Weekday()) {
		return *p.WeekendRate
	}
	return p.BaseRate
}

// SeasonMinStay returns the minimum stay of the first season covering d, 0
// when none does or it sets none.
func (p RatePlan) SeasonMinStay(d civil.Date) int {
	if s := p.season(d); s != nil && s.MinStayNights > 0 {
		return s.MinStayNights
	}
	return 0
}

// season returns the first season with Start <= d <= End, or nil.
func (p RatePlan) season(d civil.Date) *Season {
	for i := range p.Seasons {
		s := &p.Seasons[i]
		if !d.Before(s.Start) && !d.After(s.End) {
			return s
		}
	}
	return nil
}

// isWeekendNight reports whether a night starting on wd is a weekend night.
func (p RatePlan) isWeekendNight(wd time.Weekday) bool {
	if p.WeekendNights == nil {
		return wd == time.Friday || wd == time.Saturday
	}
	for _, w := range p.WeekendNights {
		if w == wd {
			return true
		}
	}
	return false
}

// Validate checks a rate plan (rates not negative, seasons not inverted,
// discount percents within 0–100, one override per date, weekend nights
// real weekdays) and returns the first failure as one of ErrNegativeRate,
// ErrInvalidSeason, ErrPercentOutOfRange, ErrDuplicateOverride or
// ErrInvalidWeekday, whose message is the reason code.
func (p RatePlan) Validate() error {
	if p.BaseRate.IsNegative() || (p.WeekendRate != nil && p.WeekendRate.IsNegative()) {
		return ErrNegativeRate
	}
	for _, s := range p.Seasons {
		if s.Rate.IsNegative() {
			return ErrNegativeRate
		}
	}
	for _, o := range p.Overrides {
		if o.Price.IsNegative() {
			return ErrNegativeRate
		}
	}
	for _, s := range p.Seasons {
		if s.Start.IsZero() || s.End.IsZero() || s.End.Before(s.Start) || s.MinStayNights < 0 {
			return ErrInvalidSeason
		}
	}
	if !validPercent(p.WeeklyDiscountPercent) || !validPercent(p.MonthlyDiscountPercent) {
		return ErrPercentOutOfRange
	}
	seen := make(map[civil.Date]struct{}, len(p.Overrides))
	for _, o := range p.Overrides {
		if _, dup := seen[o.Date]; dup {
			return ErrDuplicateOverride
		}
		seen[o.Date] = struct{}{}
	}
	for _, w := range p.WeekendNights {
		if w < time.Sunday || w > time.Saturday {
			return ErrInvalidWeekday
		}
	}
	return nil
}

var hundred = decimal.NewFromInt(100)

// validPercent reports whether 0 <= v <= 100.
func validPercent(v decimal.Decimal) bool {
	return !v.IsNegative() && !v.GreaterThan(hundred)
}
