// Package civil holds Date, a calendar day with no time of day and no time
// zone. Stays, seasons and blocks are civil dates in the organisation's zone:
// a night belongs to the date it starts on, whatever the clock says.
package civil

import (
	"fmt"
	"time"
)

// Date is a calendar day. The zero value is not a valid date; IsZero tells.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// layout is the only textual form of a Date: YYYY-MM-DD.
const layout = "2006-01-02"

// Parse reads a YYYY-MM-DD date and refuses anything else, including
// out-of-range days such as 2026-02-30.
func Parse(s string) (Date, error) {
	t, err := time.Parse(layout, s)
	if err != nil {
		return Date{}, fmt.Errorf("civil: %q is not a YYYY-MM-DD date", s)
	}
	return Of(t), nil
}

// MustParse is Parse for literals in tests and seed data; it panics on error.
func MustParse(s string) Date {
	d, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}

// Of returns the date of t in t's own location.
func Of(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// Today returns the date it is now in loc.
func Today(now time.Time, loc *time.Location) Date {
	return Of(now.In(loc))
}

// In returns the instant at which d begins in loc.
func (d Date) In(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// utc is the date as midnight UTC, the form all arithmetic goes through.
func (d Date) utc() time.Time { return d.In(time.UTC) }

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// String formats d as YYYY-MM-DD.
func (d Date) String() string {
	if d.Year < 0 || d.Year > 9999 || d.Month < 0 || d.Month > 99 || d.Day < 0 || d.Day > 99 {
		return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
	}
	// Without fmt: dates are formatted by the hundred per calendar and
	// per SQL query.
	m := int(d.Month)
	b := [10]byte{
		byte('0' + d.Year/1000), byte('0' + d.Year/100%10), byte('0' + d.Year/10%10), byte('0' + d.Year%10), '-',
		byte('0' + m/10), byte('0' + m%10), '-',
		byte('0' + d.Day/10), byte('0' + d.Day%10),
	}
	return string(b[:])
}

// AddDays returns the date n days after d (before, for negative n).
func (d Date) AddDays(n int) Date { return fromDays(d.days() + n) }

// AddMonths returns the date n months after d, normalised like time.AddDate.
func (d Date) AddMonths(n int) Date { return Of(d.utc().AddDate(0, n, 0)) }

// FirstOfMonth returns the first day of d's month.
func (d Date) FirstOfMonth() Date { return Date{Year: d.Year, Month: d.Month, Day: 1} }

// Weekday returns the day of the week of d.
func (d Date) Weekday() time.Weekday {
	// 1970-01-01 was a Thursday.
	return time.Weekday(floorMod(d.days()+int(time.Thursday), 7))
}

// Before reports whether d is strictly before o.
func (d Date) Before(o Date) bool { return d.Compare(o) < 0 }

// After reports whether d is strictly after o.
func (d Date) After(o Date) bool { return d.Compare(o) > 0 }

// Compare returns -1, 0 or +1 as d is before, equal to or after o.
func (d Date) Compare(o Date) int {
	switch {
	case d.Year != o.Year:
		return cmp(d.Year, o.Year)
	case d.Month != o.Month:
		return cmp(int(d.Month), int(o.Month))
	default:
		return cmp(d.Day, o.Day)
	}
}

func cmp(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// DaysUntil returns the number of days from d to o (negative if o is earlier).
func (d Date) DaysUntil(o Date) int { return o.days() - d.days() }

// Day arithmetic. A calendar or a quote walks hundreds of days per
// request; through time.Date each step cost more than the rest of the
// walk. days and fromDays are H. Hinnant's days_from_civil and
// civil_from_days for the proleptic Gregorian calendar, the one time.Date
// uses, and normalise out-of-range months and days as it does (February 30
// is March 2 or 1): TestDayArithmeticMatchesTime compares them.

// days returns the number of days from 1970-01-01 to d.
func (d Date) days() int {
	y, m := d.Year, int(d.Month)
	if m < 1 || m > 12 {
		y += floorDiv(m-1, 12)
		m = floorMod(m-1, 12) + 1
	}
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400                      // year of the era, 0…399
	doy := (153*((m+9)%12)+2)/5 + d.Day - 1 // day of the year from March 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy  // day of the era
	return era*146097 + doe - 719468
}

// fromDays returns the date n days after 1970-01-01.
func fromDays(n int) Date {
	n += 719468
	era := floorDiv(n, 146097)
	doe := n - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153 // month from March, 0…11
	y, m := yoe+era*400, mp+3
	if m > 12 {
		m -= 12
		y++
	}
	return Date{Year: y, Month: time.Month(m), Day: doy - (153*mp+2)/5 + 1}
}

// floorDiv and floorMod round towards negative infinity.
func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int) int { return a - floorDiv(a, b)*b }

// MarshalText implements encoding.TextMarshaler: YYYY-MM-DD, or an empty
// text for the zero Date so that it survives a round trip.
func (d Date) MarshalText() ([]byte, error) {
	if d.IsZero() {
		return []byte{}, nil
	}
	return []byte(d.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler: YYYY-MM-DD, or an empty
// text for the zero Date.
func (d *Date) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = Date{}
		return nil
	}
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*d = p
	return nil
}

// Range is the half-open range of days [Start, End): a stay from its check-in
// to its check-out, whose check-out day is free for the next arrival.
type Range struct {
	Start Date `json:"start"`
	End   Date `json:"end"`
}

// Nights returns the number of nights (days) in r.
func (r Range) Nights() int { return r.Start.DaysUntil(r.End) }

// Contains reports whether the night of day falls inside r.
func (r Range) Contains(day Date) bool { return !day.Before(r.Start) && day.Before(r.End) }

// Overlaps reports whether r and o share at least one night.
func (r Range) Overlaps(o Range) bool { return r.Start.Before(o.End) && o.Start.Before(r.End) }
