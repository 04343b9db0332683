package reports

import (
	"fmt"
	"time"

	"github.com/staykit/staykit/civil"
)

// Month is a calendar month, the period of every figure.
type Month struct {
	Year  int
	Month time.Month
}

// ParseMonth reads a YYYY-MM month and refuses anything else.
func ParseMonth(s string) (Month, error) {
	t, err := time.Parse("2006-01", s)
	if err != nil {
		return Month{}, fmt.Errorf("reports: %q is not a YYYY-MM month", s)
	}
	return Month{Year: t.Year(), Month: t.Month()}, nil
}

// MonthOf is the month of a date.
func MonthOf(d civil.Date) Month { return Month{Year: d.Year, Month: d.Month} }

// String is the month as YYYY-MM.
func (m Month) String() string { return fmt.Sprintf("%04d-%02d", m.Year, int(m.Month)) }

// MarshalText writes the month as YYYY-MM.
func (m Month) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// First is the month's first day.
func (m Month) First() civil.Date { return civil.Date{Year: m.Year, Month: m.Month, Day: 1} }

// Next is the month after m.
func (m Month) Next() Month { return MonthOf(m.First().AddMonths(1)) }

// Nights is the number of nights (days) of the month.
func (m Month) Nights() int { return m.First().DaysUntil(m.Next().First()) }

// Before reports whether m comes before o.
func (m Month) Before(o Month) bool { return m.First().Before(o.First()) }

// IsZero reports whether m is the zero Month.
func (m Month) IsZero() bool { return m == Month{} }

// Span is the months from From to To, both included.
type Span struct{ From, To Month }

// Months lists the span's months in order.
func (s Span) Months() []Month {
	var out []Month
	for m := s.From; !s.To.Before(m); m = m.Next() {
		out = append(out, m)
	}
	return out
}

// Range is the span's nights: from the first day of From to the first
// day of the month after To.
func (s Span) Range() civil.Range {
	return civil.Range{Start: s.From.First(), End: s.To.Next().First()}
}

// Len is the number of months of the span.
func (s Span) Len() int {
	return (s.To.Year-s.From.Year)*12 + int(s.To.Month) - int(s.From.Month) + 1
}
