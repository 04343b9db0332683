package booking

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// HostCalendarStore is what the host API writes and lists beyond the
// catalogue: its per-day calendar (the CalendarStore days), property
// updates that cannot lose a block, and bookings a page at a time.
type HostCalendarStore interface {
	// ApplyCalendar applies c to the dates [c.From, c.To) of a property of
	// orgID in one atomic step: each date's CalendarDay becomes
	// c.Apply(stored day). Rate-plan overrides (pricing.RatePlan.Overrides)
	// of the dates whose price c sets or clears are removed, so that the
	// calendar alone prices them from then on. Errors: CodeNotFound
	// (property, also of another organisation), CodeInvalid (c.Validate,
	// or a resulting day CheckCalendarDays refuses), CodeUnavailable (c
	// closes dates a booking holds at now).
	ApplyCalendar(ctx context.Context, orgID, propertyID int64, c CalendarChange, now time.Time) error
	// UpdatePropertyFields replaces the property with p.ID (of p.OrgID)
	// like UpdateProperty but leaves its blocks as stored: a block added
	// meanwhile survives. Errors: CodeNotFound, CodeInvalid.
	UpdatePropertyFields(ctx context.Context, p *Property) error
	// BookingsPage lists an organisation's bookings that q selects,
	// newest first (by ID descending), at most q.Limit, without their
	// Quote (zero) unless q.WithQuote: lists do not show it. Its cost does not grow with the
	// organisation's history when q names a property and From (the host
	// calendar), and otherwise with what a page skips.
	BookingsPage(ctx context.Context, orgID int64, q BookingQuery) ([]Booking, error)
}

// BookingQuery selects bookings; zero fields select all.
type BookingQuery struct {
	Statuses []Status
	// From and To keep stays overlapping [From, To) (either may be zero).
	From, To   civil.Date
	PropertyID int64
	// Before is the keyset cursor: only bookings with a lower ID.
	Before int64
	// Limit is the page size; 0 or less means 50.
	Limit int
	// WithQuote reads each booking's stored Quote too, which lists leave
	// out (a report that sums nights and taxes needs it).
	WithQuote bool
}

// PageSize is q.Limit, or 50 when it is not positive.
func (q BookingQuery) PageSize() int {
	if q.Limit <= 0 {
		return 50
	}
	return q.Limit
}

// CalendarChange is what one host request sets on the dates [From, To)
// of a property's per-day calendar (CalendarDay). Nil fields leave the
// dates as they are.
type CalendarChange struct {
	From, To civil.Date
	// Price of the nights starting on the dates.
	Price *decimal.Decimal
	// ClearPrice removes the dates' prices (the rate plan applies).
	ClearPrice bool
	// Closed opens or closes the dates for booking.
	Closed *bool
	// MinStayNights and MaxStayNights of a check-in on the dates; 0
	// removes the date's limit.
	MinStayNights, MaxStayNights *int
	// ClosedToArrival and ClosedToDeparture forbid or allow stays starting
	// or ending on the dates.
	ClosedToArrival, ClosedToDeparture *bool
	// Reason says why, for the audit log; it is not stored on the days.
	Reason string
}

// MaxCalendarDays is the longest range one calendar change sets.
const MaxCalendarDays = 366

// Validate checks a change before it is applied. Errors: CodeInvalid.
func (c CalendarChange) Validate() error {
	f := FieldErrors{}
	if c.From.IsZero() {
		f.Add("from", "required")
	}
	if c.To.IsZero() {
		f.Add("to", "required")
	}
	if !c.From.IsZero() && !c.To.IsZero() && (!c.From.Before(c.To) || c.From.DaysUntil(c.To) > MaxCalendarDays) {
		f.Add("to", "invalid_range")
	}
	if c.Price != nil && !c.Price.IsPositive() {
		f.Add("price", "out_of_range")
	}
	if c.Price != nil && c.ClearPrice {
		f.Add("price", "invalid_choice")
	}
	if c.MinStayNights != nil && *c.MinStayNights < 0 {
		f.Add("min_stay_nights", "out_of_range")
	}
	if c.MaxStayNights != nil && *c.MaxStayNights < 0 {
		f.Add("max_stay_nights", "out_of_range")
	}
	if c.MinStayNights != nil && c.MaxStayNights != nil && *c.MaxStayNights > 0 && *c.MaxStayNights < *c.MinStayNights {
		f.Add("max_stay_nights", "out_of_range")
	}
	if c.IsEmpty() {
		f.Add("price", "required")
	}
	return f.Err()
}

// IsEmpty reports whether c changes nothing.
func (c CalendarChange) IsEmpty() bool {
	return c.Price == nil && !c.ClearPrice && c.Closed == nil && c.MinStayNights == nil && c.MaxStayNights == nil &&
		c.ClosedToArrival == nil && c.ClosedToDeparture == nil
}

// TouchesPrice reports whether c sets or clears the dates' price.
func (c CalendarChange) TouchesPrice() bool { return c.Price != nil || c.ClearPrice }

// Apply returns d with c's fields set; d.Date is kept.
func (c CalendarChange) Apply(d CalendarDay) CalendarDay {
	switch {
	case c.Price != nil:
		p := *c.Price
		d.Price = &p
	case c.ClearPrice:
		d.Price = nil
	}
	if c.Closed != nil {
		d.Closed = *c.Closed
	}
	if c.MinStayNights != nil {
		d.MinStayNights = stayLimit(*c.MinStayNights)
	}
	if c.MaxStayNights != nil {
		d.MaxStayNights = stayLimit(*c.MaxStayNights)
	}
	if c.ClosedToArrival != nil {
		d.ClosedToArrival = *c.ClosedToArrival
	}
	if c.ClosedToDeparture != nil {
		d.ClosedToDeparture = *c.ClosedToDeparture
	}
	return d
}

func stayLimit(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// Days returns every date of [c.From, c.To) with c applied over stored,
// the range's stored days (others are ignored): what a store writes (an
// empty day clears its date).
func (c CalendarChange) Days(stored []CalendarDay) []CalendarDay {
	byDate := make(map[civil.Date]CalendarDay, len(stored))
	for _, d := range stored {
		byDate[d.Date] = d
	}
	var days []CalendarDay
	for d := c.From; d.Before(c.To); d = d.AddDays(1) {
		day, ok := byDate[d]
		if !ok {
			day = CalendarDay{Date: d}
		}
		days = append(days, c.Apply(day))
	}
	return days
}

// OverridesWithout returns the rate plan's overrides outside the dates
// whose price c sets or clears, and whether any was dropped.
func (c CalendarChange) OverridesWithout(overrides []pricing.DateOverride) ([]pricing.DateOverride, bool) {
	if !c.TouchesPrice() {
		return overrides, false
	}
	kept := make([]pricing.DateOverride, 0, len(overrides))
	for _, o := range overrides {
		if !o.Date.Before(c.From) && o.Date.Before(c.To) {
			continue
		}
		kept = append(kept, o)
	}
	return kept, len(kept) != len(overrides)
}
