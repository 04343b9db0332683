// Package rules holds the stay rules of a property as pure code: which
// days a stay may start and end on, how long it may be, how far ahead and
// how late it may be booked, and which nights around other stays are kept
// for preparation. It does no I/O and never reads the clock: the caller
// passes "now" and the property's time zone.
package rules

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/civil"
)

// Set is the stay rules of one property. The zero Set allows everything
// the caller's own limits allow.
type Set struct {
	// ArrivalDays are the weekdays a stay may start on; empty means any.
	ArrivalDays Weekdays `json:"arrival_days,omitempty"`
	// DepartureDays are the weekdays a stay may end on; empty means any.
	DepartureDays Weekdays `json:"departure_days,omitempty"`
	// AdvanceNoticeDays is how many days before check-in a stay must be
	// booked at the latest: 1 means no arrival today.
	AdvanceNoticeDays int `json:"advance_notice_days,omitempty"`
	// SameDayCutoffHour, when set (0–23), refuses an arrival today once
	// that hour has begun in the property's time zone.
	SameDayCutoffHour *int `json:"same_day_cutoff_hour,omitempty"`
	// BookingWindowDays, when above zero, is how many days after today a
	// stay may start at the latest.
	BookingWindowDays int `json:"booking_window_days,omitempty"`
	// PreparationDaysAfter nights are kept free after each stay or block,
	// PreparationDaysBefore nights before it.
	PreparationDaysAfter  int `json:"preparation_days_after,omitempty"`
	PreparationDaysBefore int `json:"preparation_days_before,omitempty"`
	// Seasons set rules for the arrivals between two days of every year;
	// the first season covering a check-in applies.
	Seasons []Season `json:"seasons,omitempty"`
	// Days set rules for single dates (the calendar's per-day settings);
	// they win over seasons.
	Days []Day `json:"days,omitempty"`
}

// Season sets rules for check-ins from Start to End (both included, month
// and day, every year; an End before Start wraps over the new year).
type Season struct {
	Name  string   `json:"name,omitempty"`
	Start MonthDay `json:"start"`
	End   MonthDay `json:"end"`
	// MinStayNights and MaxStayNights, when above zero, replace the
	// property's limits for a check-in in the season (lower or higher).
	MinStayNights int `json:"min_stay_nights,omitempty"`
	MaxStayNights int `json:"max_stay_nights,omitempty"`
	// ArrivalDays and DepartureDays, when not empty, replace the Set's for
	// stays starting in the season (e.g. Saturday to Saturday in summer).
	ArrivalDays   Weekdays `json:"arrival_days,omitempty"`
	DepartureDays Weekdays `json:"departure_days,omitempty"`
}

// Day sets rules for one date.
type Day struct {
	Date civil.Date `json:"date"`
	// MinStayNights and MaxStayNights, when set, replace every other limit
	// for a check-in on Date.
	MinStayNights *int `json:"min_stay_nights,omitempty"`
	MaxStayNights *int `json:"max_stay_nights,omitempty"`
	// ClosedToArrival: no stay starts on Date. ClosedToDeparture: none
	// ends on it.
	ClosedToArrival   bool `json:"closed_to_arrival,omitempty"`
	ClosedToDeparture bool `json:"closed_to_departure,omitempty"`
	// Closed: the night starting on Date cannot be booked.
	Closed bool `json:"closed,omitempty"`
}

// Codes of the rules, each a refusal a guest can act on.
const (
	CodeClosedToArrival   = "closed_to_arrival"   // params: date
	CodeClosedToDeparture = "closed_to_departure" // params: date
	CodeArrivalDay        = "arrival_day"         // params: days (English names, comma-separated)
	CodeDepartureDay      = "departure_day"       // params: days
	CodeAdvanceNotice     = "advance_notice"      // params: days, date (first possible arrival)
	CodeSameDayCutoff     = "same_day_cutoff"     // params: hour, date (first possible arrival)
	CodeBookingWindow     = "booking_window"      // params: days, date (last possible arrival)
	CodeMinStay           = "min_stay"            // params: min, date
	CodeMaxStay           = "max_stay"            // params: max, date
)

// Violation is a broken rule: a machine code, the facts that say what
// would work (Params), and an English message.
type Violation struct {
	Code    string
	Message string
	Params  map[string]string
}

func (v *Violation) Error() string { return v.Message }

// Validate checks a Set and returns the first problem as a reason code
// ("out_of_range", "invalid_season", "duplicate_day").
func (s Set) Validate() error {
	switch {
	case s.AdvanceNoticeDays < 0, s.BookingWindowDays < 0,
		s.PreparationDaysAfter < 0, s.PreparationDaysBefore < 0,
		s.SameDayCutoffHour != nil && (*s.SameDayCutoffHour < 0 || *s.SameDayCutoffHour > 23):
		return errReason("out_of_range")
	}
	for _, se := range s.Seasons {
		if !se.Start.valid() || !se.End.valid() || se.MinStayNights < 0 || se.MaxStayNights < 0 ||
			(se.MaxStayNights > 0 && se.MaxStayNights < se.MinStayNights) {
			return errReason("invalid_season")
		}
	}
	seen := make(map[civil.Date]bool, len(s.Days))
	for _, d := range s.Days {
		if d.Date.IsZero() || seen[d.Date] {
			return errReason("duplicate_day")
		}
		seen[d.Date] = true
		if (d.MinStayNights != nil && *d.MinStayNights < 1) || (d.MaxStayNights != nil && *d.MaxStayNights < 1) {
			return errReason("out_of_range")
		}
	}
	return nil
}

type errReason string

func (e errReason) Error() string { return string(e) }

// Checker applies a Set at one moment. Build it with New.
type Checker struct {
	set   Set
	today civil.Date
	hour  int
	days  map[civil.Date]*Day
	// limits are the caller's minimum and maximum nights for a check-in
	// (property, else organisation); 0 = none.
	limits func(checkIn civil.Date) (minNights, maxNights int)
}

// New returns a Checker of set at now, read in loc (the property's zone).
// limits gives the minimum and maximum nights that apply when neither a
// day nor a season sets them (0 = no limit); nil means none.
func New(set Set, now time.Time, loc *time.Location, limits func(civil.Date) (int, int)) *Checker {
	local := now.In(loc)
	c := &Checker{set: set, today: civil.Of(local), hour: local.Hour(), limits: limits}
	if len(set.Days) > 0 {
		c.days = make(map[civil.Date]*Day, len(set.Days))
		for i := range set.Days {
			c.days[set.Days[i].Date] = &set.Days[i]
		}
	}
	return c
}

// Today is the property's current date.
func (c *Checker) Today() civil.Date { return c.today }

// season returns the first season covering d, or nil.
func (c *Checker) season(d civil.Date) *Season {
	for i := range c.set.Seasons {
		if c.set.Seasons[i].covers(d) {
			return &c.set.Seasons[i]
		}
	}
	return nil
}

// Limits returns the minimum and maximum nights of a stay starting on
// checkIn: the day's, else the season's, else the caller's (0 = none).
func (c *Checker) Limits(checkIn civil.Date) (minNights, maxNights int) {
	if c.limits != nil {
		minNights, maxNights = c.limits(checkIn)
	}
	if se := c.season(checkIn); se != nil {
		if se.MinStayNights > 0 {
			minNights = se.MinStayNights
		}
		if se.MaxStayNights > 0 {
			maxNights = se.MaxStayNights
		}
	}
	if d := c.days[checkIn]; d != nil {
		if d.MinStayNights != nil {
			minNights = *d.MinStayNights
		}
		if d.MaxStayNights != nil {
			maxNights = *d.MaxStayNights
		}
	}
	return minNights, maxNights
}

// Closed reports whether the night starting on d is closed by a Day.
func (c *Checker) Closed(d civil.Date) bool {
	day := c.days[d]
	return day != nil && day.Closed
}

// Arrival returns why a stay cannot start on d, or nil. Whether the dates
// are free, or past, is the caller's to check.
func (c *Checker) Arrival(d civil.Date) *Violation {
	switch c.arrivalRule(d) {
	case CodeClosedToArrival:
		return &Violation{Code: CodeClosedToArrival, Message: "No arrival is possible on " + d.String() + ".",
			Params: map[string]string{"date": d.String()}}
	case CodeArrivalDay:
		allowed := c.arrivalDays(d)
		return &Violation{Code: CodeArrivalDay, Message: "Arrivals are possible on " + allowed.String() + " only.",
			Params: map[string]string{"days": allowed.String()}}
	case CodeAdvanceNotice:
		n := c.set.AdvanceNoticeDays
		first := c.today.AddDays(n)
		return &Violation{Code: CodeAdvanceNotice,
			Message: "Bookings must be made " + strconv.Itoa(n) + " days before arrival: the first possible arrival is " + first.String() + ".",
			Params:  map[string]string{"days": strconv.Itoa(n), "date": first.String()}}
	case CodeSameDayCutoff:
		h := c.set.SameDayCutoffHour
		first := c.today.AddDays(1)
		return &Violation{Code: CodeSameDayCutoff,
			Message: fmt.Sprintf("Same-day arrivals must be booked before %02d:00; the first possible arrival is %s.", *h, first),
			Params:  map[string]string{"hour": strconv.Itoa(*h), "date": first.String()}}
	case CodeBookingWindow:
		w := c.set.BookingWindowDays
		last := c.today.AddDays(w)
		return &Violation{Code: CodeBookingWindow,
			Message: "Arrivals can be booked up to " + strconv.Itoa(w) + " days ahead, until " + last.String() + ".",
			Params:  map[string]string{"days": strconv.Itoa(w), "date": last.String()}}
	}
	return nil
}

// Arrives reports whether a stay may start on d: Arrival(d) == nil,
// without spelling out a refusal.
func (c *Checker) Arrives(d civil.Date) bool { return c.arrivalRule(d) == "" }

// arrivalRule is the code of the first rule refusing an arrival on d, or
// "": the order in which Arrival checks them.
func (c *Checker) arrivalRule(d civil.Date) string {
	if day := c.days[d]; day != nil && day.ClosedToArrival {
		return CodeClosedToArrival
	}
	if allowed := c.arrivalDays(d); len(allowed) > 0 && !allowed.Has(d.Weekday()) {
		return CodeArrivalDay
	}
	if n := c.set.AdvanceNoticeDays; n > 0 && d.Before(c.today.AddDays(n)) {
		return CodeAdvanceNotice
	}
	if h := c.set.SameDayCutoffHour; h != nil && d == c.today && c.hour >= *h {
		return CodeSameDayCutoff
	}
	if w := c.set.BookingWindowDays; w > 0 && d.After(c.today.AddDays(w)) {
		return CodeBookingWindow
	}
	return ""
}

// arrivalDays are the weekdays a stay may start on d: its season's, else
// the Set's (empty = any).
func (c *Checker) arrivalDays(d civil.Date) Weekdays {
	if se := c.season(d); se != nil && len(se.ArrivalDays) > 0 {
		return se.ArrivalDays
	}
	return c.set.ArrivalDays
}

// Departure returns why a stay that started on checkIn cannot end on d, or
// nil.
func (c *Checker) Departure(checkIn, d civil.Date) *Violation {
	if c.closedToDeparture(d) {
		return &Violation{Code: CodeClosedToDeparture, Message: "No departure is possible on " + d.String() + ".",
			Params: map[string]string{"date": d.String()}}
	}
	allowed := c.departureDays(checkIn)
	if len(allowed) > 0 && !allowed.Has(d.Weekday()) {
		return &Violation{Code: CodeDepartureDay, Message: "Departures are possible on " + allowed.String() + " only.",
			Params: map[string]string{"days": allowed.String()}}
	}
	return nil
}

// Departs reports whether a stay that started on checkIn may end on d:
// Departure(checkIn, d) == nil, without spelling out a refusal (the
// calendar asks it for every pair of days).
func (c *Checker) Departs(checkIn, d civil.Date) bool {
	if c.closedToDeparture(d) {
		return false
	}
	allowed := c.departureDays(checkIn)
	return len(allowed) == 0 || allowed.Has(d.Weekday())
}

// RestrictsDeparture reports whether any rule of the Set may refuse a
// departure: a day closed to departure, or departure days of the Set or
// of a season. When it is false, Departs is always true.
func (c *Checker) RestrictsDeparture() bool {
	if len(c.set.DepartureDays) > 0 {
		return true
	}
	for i := range c.set.Seasons {
		if len(c.set.Seasons[i].DepartureDays) > 0 {
			return true
		}
	}
	for i := range c.set.Days {
		if c.set.Days[i].ClosedToDeparture {
			return true
		}
	}
	return false
}

// closedToDeparture reports whether a Day closes d to departures.
func (c *Checker) closedToDeparture(d civil.Date) bool {
	day := c.days[d]
	return day != nil && day.ClosedToDeparture
}

// DepartureDays are the weekdays a stay starting on checkIn may end on:
// its season's, else the Set's; empty means any. (A Day closed to
// departure refuses its date besides.)
func (c *Checker) DepartureDays(checkIn civil.Date) Weekdays { return c.departureDays(checkIn) }

// departureDays are the weekdays a stay starting on checkIn may end on:
// its season's, else the Set's (empty = any).
func (c *Checker) departureDays(checkIn civil.Date) Weekdays {
	if se := c.season(checkIn); se != nil && len(se.DepartureDays) > 0 {
		return se.DepartureDays
	}
	return c.set.DepartureDays
}

// Length returns why a stay of nights nights starting on checkIn is too
// short or too long, or nil. maxCap bounds the maximum whatever the rules
// say (0 = no cap).
func (c *Checker) Length(checkIn civil.Date, nights, maxCap int) *Violation {
	minN, maxN := c.Limits(checkIn)
	if maxCap > 0 && (maxN == 0 || maxN > maxCap) {
		maxN = maxCap
	}
	if minN > 0 && nights < minN {
		return &Violation{Code: CodeMinStay,
			Message: "Stays starting on " + checkIn.String() + " last at least " + strconv.Itoa(minN) + " nights.",
			Params:  map[string]string{"min": strconv.Itoa(minN), "date": checkIn.String()}}
	}
	if maxN > 0 && nights > maxN {
		return &Violation{Code: CodeMaxStay,
			Message: "Stays starting on " + checkIn.String() + " last at most " + strconv.Itoa(maxN) + " nights.",
			Params:  map[string]string{"max": strconv.Itoa(maxN), "date": checkIn.String()}}
	}
	return nil
}

// Check returns the first rule a stay [checkIn, checkOut) breaks, or nil:
// arrival, length, then departure. maxCap is as for Length.
func (c *Checker) Check(checkIn, checkOut civil.Date, maxCap int) *Violation {
	if v := c.Arrival(checkIn); v != nil {
		return v
	}
	if v := c.Length(checkIn, checkIn.DaysUntil(checkOut), maxCap); v != nil {
		return v
	}
	return c.Departure(checkIn, checkOut)
}

// Gap returns the nights kept free between any two stays or blocks: the
// larger of the preparation days. The nights after one stay and before the
// next serve both, and they are owed whichever of the two stays was
// booked first: a new stay's own preparation must not fall on another
// stay any more than another's on it.
func (s Set) Gap() int { return max(s.PreparationDaysAfter, s.PreparationDaysBefore, 0) }

// Reserved widens taken ranges by Gap on both sides: the nights a new stay
// cannot use. The result is a new slice.
func (s Set) Reserved(taken []civil.Range) []civil.Range {
	g := s.Gap()
	if g == 0 {
		return taken
	}
	out := make([]civil.Range, len(taken))
	for i, r := range taken {
		out[i] = civil.Range{Start: r.Start.AddDays(-g), End: r.End.AddDays(g)}
	}
	return out
}

// Weekdays is a set of days of the week, written in JSON as English names
// ("saturday"); three-letter names are read too.
type Weekdays []time.Weekday

// Has reports whether d is in w.
func (w Weekdays) Has(d time.Weekday) bool {
	for _, x := range w {
		if x == d {
			return true
		}
	}
	return false
}

// String is the lower-case English names, comma-separated.
func (w Weekdays) String() string {
	names := make([]string, len(w))
	for i, d := range w {
		names[i] = strings.ToLower(d.String())
	}
	return strings.Join(names, ",")
}

// MarshalJSON writes the names.
func (w Weekdays) MarshalJSON() ([]byte, error) {
	names := make([]string, len(w))
	for i, d := range w {
		names[i] = strings.ToLower(d.String())
	}
	return json.Marshal(names)
}

// UnmarshalJSON reads names (full or three letters, any case) or numbers
// 0 (Sunday) to 6.
func (w *Weekdays) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("weekdays: %w", err)
	}
	out := make(Weekdays, 0, len(raw))
	for _, r := range raw {
		var n int
		if err := json.Unmarshal(r, &n); err == nil {
			if n < 0 || n > 6 {
				return fmt.Errorf("weekdays: %d is not a weekday", n)
			}
			out = append(out, time.Weekday(n))
			continue
		}
		var name string
		if err := json.Unmarshal(r, &name); err != nil {
			return fmt.Errorf("weekdays: %w", err)
		}
		d, ok := ParseWeekday(name)
		if !ok {
			return fmt.Errorf("weekdays: %q is not a day name", name)
		}
		out = append(out, d)
	}
	*w = out
	return nil
}

// ParseWeekday reads an English day name, full or three letters, any case.
func ParseWeekday(name string) (time.Weekday, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	for d := time.Sunday; d <= time.Saturday; d++ {
		full := strings.ToLower(d.String())
		if n == full || n == full[:3] {
			return d, true
		}
	}
	return 0, false
}

// MonthDay is a day of every year, written "MM-DD".
type MonthDay struct {
	Month time.Month
	Day   int
}

func (m MonthDay) valid() bool {
	return m.Month >= 1 && m.Month <= 12 && m.Day >= 1 && m.Day <= 31
}

func (m MonthDay) before(o MonthDay) bool {
	return m.Month < o.Month || (m.Month == o.Month && m.Day < o.Day)
}

// covers reports whether a check-in on d falls in the season.
func (s Season) covers(d civil.Date) bool {
	md := MonthDay{Month: d.Month, Day: d.Day}
	if s.End.before(s.Start) { // wraps over the new year
		return !md.before(s.Start) || !s.End.before(md)
	}
	return !md.before(s.Start) && !s.End.before(md)
}

// MarshalText writes "MM-DD".
func (m MonthDay) MarshalText() ([]byte, error) {
	return fmt.Appendf(nil, "%02d-%02d", int(m.Month), m.Day), nil
}

// UnmarshalText reads "MM-DD".
func (m *MonthDay) UnmarshalText(b []byte) error {
	var mo, d int
	if len(b) != 5 || b[2] != '-' {
		return fmt.Errorf("month-day %q: want MM-DD", b)
	}
	if _, err := fmt.Sscanf(string(b), "%02d-%02d", &mo, &d); err != nil {
		return fmt.Errorf("month-day %q: want MM-DD", b)
	}
	v := MonthDay{Month: time.Month(mo), Day: d}
	if !v.valid() {
		return fmt.Errorf("month-day %q: out of range", b)
	}
	*m = v
	return nil
}
