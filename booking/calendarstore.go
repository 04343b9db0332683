package booking

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/rules"
)

// CalendarDay is a host's settings for one date of a property: they win
// over the property's rate plan and stay rules for that date. A nil or
// false field sets nothing.
type CalendarDay struct {
	Date civil.Date `json:"date"`
	// Price of the night starting on Date.
	Price *decimal.Decimal `json:"price,omitempty"`
	// Closed: the night cannot be booked.
	Closed bool `json:"closed,omitempty"`
	// MinStayNights and MaxStayNights of a check-in on Date.
	MinStayNights *int `json:"min_stay_nights,omitempty"`
	MaxStayNights *int `json:"max_stay_nights,omitempty"`
	// ClosedToArrival: no stay starts on Date; ClosedToDeparture: none ends.
	ClosedToArrival   bool `json:"closed_to_arrival,omitempty"`
	ClosedToDeparture bool `json:"closed_to_departure,omitempty"`
}

// IsEmpty reports whether d sets nothing: storing it clears the date.
func (d CalendarDay) IsEmpty() bool {
	return d.Price == nil && !d.Closed && d.MinStayNights == nil && d.MaxStayNights == nil &&
		!d.ClosedToArrival && !d.ClosedToDeparture
}

// CheckCalendarDays reports CodeInvalid when a day has no date, a date
// appears twice, a price is negative or a stay limit is below one (or the
// maximum below the minimum). Stores call it before writing.
func CheckCalendarDays(days []CalendarDay) error {
	f := FieldErrors{}
	seen := make(map[civil.Date]bool, len(days))
	for _, d := range days {
		switch {
		case d.Date.IsZero() || seen[d.Date]:
			f.Add("days", "invalid_date")
		case d.Price != nil && d.Price.IsNegative():
			f.Add("days", "negative_price")
		case d.MinStayNights != nil && *d.MinStayNights < 1,
			d.MaxStayNights != nil && (*d.MaxStayNights < 1 || (d.MinStayNights != nil && *d.MaxStayNights < *d.MinStayNights)):
			f.Add("days", "out_of_range")
		}
		seen[d.Date] = true
	}
	return f.Err()
}

// CalendarStore keeps the per-day settings of properties (issue #16).
type CalendarStore interface {
	// SetCalendarDays stores days for a property in one atomic step,
	// replacing the settings of each date given; an empty day (IsEmpty)
	// clears its date. Errors: CodeNotFound (property), CodeInvalid (as
	// CheckCalendarDays).
	SetCalendarDays(ctx context.Context, propertyID int64, days []CalendarDay) error
	// CalendarDays lists a property's settings for the dates from from
	// to to (half-open), by date.
	CalendarDays(ctx context.Context, propertyID int64, from, to civil.Date) ([]CalendarDay, error)
}

// OrgCalendarStore is what a store may offer beside its CalendarStore so
// that a read model refreshes the per-day calendars of an organisation's
// properties in one query rather than one per property (a search sorted
// by price rates thousands of them).
type OrgCalendarStore interface {
	// OrgCalendarDays returns CalendarDays(p, from, to) of every
	// property p of the organisation, each with its property, ordered by
	// property then date.
	OrgCalendarDays(ctx context.Context, orgID int64, from, to civil.Date) ([]PropertyCalendarDay, error)
}

// PropertyCalendarDay is a CalendarDay of a property.
type PropertyCalendarDay struct {
	PropertyID int64
	CalendarDay
}

// withCalendar returns a copy of p whose rate plan and stay rules carry
// the per-day settings stored for [from, to): prices become overrides and
// the rest rules.Day entries, both replacing what the plan says for those
// dates.
func (s *Service) withCalendar(ctx context.Context, p *Property, from, to civil.Date) (*Property, error) {
	days, err := s.store.CalendarDays(ctx, p.ID, from, to)
	if err != nil || len(days) == 0 {
		return p, err
	}
	cp := *p
	byDate := make(map[civil.Date]CalendarDay, len(days))
	for _, d := range days {
		byDate[d.Date] = d
	}
	overrides := make([]pricing.DateOverride, 0, len(p.Rates.Overrides)+len(days))
	for _, o := range p.Rates.Overrides {
		if d, ok := byDate[o.Date]; !ok || d.Price == nil {
			overrides = append(overrides, o)
		}
	}
	ruleDays := make([]rules.Day, 0, len(p.Rates.Rules.Days)+len(days))
	for _, rd := range p.Rates.Rules.Days {
		if _, ok := byDate[rd.Date]; !ok {
			ruleDays = append(ruleDays, rd)
		}
	}
	for _, d := range days {
		if d.Price != nil {
			overrides = append(overrides, pricing.DateOverride{Date: d.Date, Price: *d.Price})
		}
		ruleDays = append(ruleDays, rules.Day{Date: d.Date, MinStayNights: d.MinStayNights, MaxStayNights: d.MaxStayNights,
			ClosedToArrival: d.ClosedToArrival, ClosedToDeparture: d.ClosedToDeparture, Closed: d.Closed})
	}
	cp.Rates.Overrides = overrides
	cp.Rates.Rules.Days = ruleDays
	return &cp, nil
}

// ruleChecker returns the stay rules of p at now, in the organisation's
// zone, over the property's and organisation's stay limits.
func (s *Service) ruleChecker(org *Organization, p *Property, now time.Time) *rules.Checker {
	return rules.New(p.Rates.Rules, now, s.location(org), func(d civil.Date) (int, int) { return p.stayLimits(org, d) })
}
