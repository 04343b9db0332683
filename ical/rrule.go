package ical

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/civil"
)

// This file is a recurrence rule (RFC 5545 §3.3.10) expander over civil
// dates. A feed's events hold nights, so a rule is expanded to the dates
// its occurrences start on, in the zone of the event's DTSTART; the time
// of day is DTSTART's (recur.go). That is why the rule parts that pick
// times (BYHOUR, BYMINUTE, BYSECOND) and the sub-daily frequencies are
// not supported, nor are BYYEARDAY and BYWEEKNO, which no calendar a host
// syncs writes: a rule with them is reported, not expanded.
//
// It is our own rather than a library's (github.com/teambition/rrule-go
// was considered) because it must be bounded against hostile feeds: a rule
// without COUNT starts at the period holding the window instead of walking
// from DTSTART (which may be in year 1), every day examined is charged to
// a budget shared by the whole feed, and it works on civil dates, the
// engine's unit, with no DST arithmetic.

// frequency is a rule's FREQ, the length of its periods.
type frequency int

const (
	daily frequency = iota + 1
	weekly
	monthly
	yearly
)

// byDay is one BYDAY value: a weekday, and with n ≠ 0 its n-th (from the
// end when negative) in the month or year.
type byDay struct {
	n       int
	weekday time.Weekday
}

// rule is a parsed RRULE.
type rule struct {
	freq     frequency
	interval int
	count    int  // 0: no COUNT
	until    when // zero: no UNTIL
	hasUntil bool
	wkst     time.Weekday
	byDay    []byDay
	byMonth  []time.Month
	// byMonthDay holds 1…31 or -31…-1 (from the end of the month).
	byMonthDay []int
	bySetPos   []int
}

// errUnsupported marks a rule this expander does not understand.
var errUnsupported = errors.New("unsupported")

// maxInterval bounds INTERVAL: a larger one would repeat beyond any
// booking horizon anyway, and is refused rather than overflowed.
const maxInterval = 100000

var weekdays = map[string]time.Weekday{"SU": time.Sunday, "MO": time.Monday, "TU": time.Tuesday,
	"WE": time.Wednesday, "TH": time.Thursday, "FR": time.Friday, "SA": time.Saturday}

// parseRule reads an RRULE value. An error wraps errUnsupported for parts
// or values this expander does not handle; the caller reports it.
func parseRule(value string, loc *time.Location) (*rule, error) {
	r := &rule{interval: 1, wkst: time.Monday}
	seen := map[string]bool{}
	for _, part := range strings.Split(strings.TrimSpace(value), ";") {
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		name, val = strings.ToUpper(strings.TrimSpace(name)), strings.ToUpper(strings.TrimSpace(val))
		if !ok || val == "" {
			return nil, fmt.Errorf("%w: part %q", errUnsupported, part)
		}
		if strings.HasPrefix(name, "X-") {
			continue // experimental parts are for their vendor
		}
		if seen[name] {
			return nil, fmt.Errorf("%w: %s given twice", errUnsupported, name)
		}
		seen[name] = true
		var err error
		switch name {
		case "FREQ":
			switch val {
			case "DAILY":
				r.freq = daily
			case "WEEKLY":
				r.freq = weekly
			case "MONTHLY":
				r.freq = monthly
			case "YEARLY":
				r.freq = yearly
			default:
				return nil, fmt.Errorf("%w: FREQ=%s", errUnsupported, val)
			}
		case "INTERVAL":
			r.interval, err = positive(val, maxInterval)
		case "COUNT":
			r.count, err = positive(val, 1<<31-1)
		case "UNTIL":
			w, ok := parseWhen(val, nil, loc)
			if !ok {
				err = fmt.Errorf("UNTIL=%s", val)
			}
			r.until, r.hasUntil = w, true
		case "WKST":
			wd, ok := weekdays[val]
			if !ok {
				err = fmt.Errorf("WKST=%s", val)
			}
			r.wkst = wd
		case "BYDAY":
			r.byDay, err = parseByDay(val)
		case "BYMONTH":
			r.byMonth, err = parseList(val, func(n int) (time.Month, bool) { return time.Month(n), n >= 1 && n <= 12 })
		case "BYMONTHDAY":
			r.byMonthDay, err = parseList(val, func(n int) (int, bool) { return n, n != 0 && n >= -31 && n <= 31 })
		case "BYSETPOS":
			r.bySetPos, err = parseList(val, func(n int) (int, bool) { return n, n != 0 && n >= -366 && n <= 366 })
		default:
			// BYHOUR, BYMINUTE, BYSECOND, BYYEARDAY, BYWEEKNO, RSCALE,
			// SKIP and anything unknown.
			return nil, fmt.Errorf("%w: %s", errUnsupported, name)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errUnsupported, err)
		}
	}
	if r.freq == 0 {
		return nil, fmt.Errorf("%w: no FREQ", errUnsupported)
	}
	if r.count > 0 && r.hasUntil {
		return nil, fmt.Errorf("%w: both COUNT and UNTIL", errUnsupported)
	}
	if r.freq == daily || r.freq == weekly {
		for _, d := range r.byDay {
			if d.n != 0 {
				return nil, fmt.Errorf("%w: BYDAY with an ordinal in a %s rule", errUnsupported, map[frequency]string{daily: "DAILY", weekly: "WEEKLY"}[r.freq])
			}
		}
	}
	return r, nil
}

func positive(s string, max int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > max {
		return 0, fmt.Errorf("%q is not a number from 1 to %d", s, max)
	}
	return n, nil
}

// parseList reads a comma-separated list of integers, each checked by ok.
func parseList[T any](s string, ok func(int) (T, bool)) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		v, good := ok(n)
		if !good {
			return nil, fmt.Errorf("%d is out of range", n)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseByDay reads BYDAY: MO, 1MO, +2TU, -1FR.
func parseByDay(s string) ([]byDay, error) {
	var out []byDay
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if len(f) < 2 {
			return nil, fmt.Errorf("BYDAY %q", f)
		}
		wd, ok := weekdays[f[len(f)-2:]]
		if !ok {
			return nil, fmt.Errorf("BYDAY %q", f)
		}
		d := byDay{weekday: wd}
		if num := f[:len(f)-2]; num != "" {
			n, err := strconv.Atoi(num)
			if err != nil || n == 0 || n < -53 || n > 53 {
				return nil, fmt.Errorf("BYDAY %q", f)
			}
			d.n = n
		}
		out = append(out, d)
	}
	return out, nil
}

// budget is the work a feed's expansion may do. Every period and every
// day examined costs a step; every occurrence kept costs one occurrence.
type budget struct {
	steps       int
	occurrences int
}

// ErrTooManyOccurrences is returned (wrapped) by Parse when a feed's
// recurring events expand to more occurrences than
// ParseOptions.MaxOccurrences allows, or need too much work to expand: the
// feed is refused, as one too large to fetch is.
var ErrTooManyOccurrences = errors.New("ical: recurring events expand to too many occurrences")

func (b *budget) step(n int) error {
	b.steps -= n
	if b.steps < 0 {
		return fmt.Errorf("%w (too much work to expand them)", ErrTooManyOccurrences)
	}
	return nil
}

// dates calls yield with the dates the rule gives from start (DTSTART's
// date) on, in increasing order, until yield returns false or the periods
// pass to. A rule without COUNT starts at the period holding from, since
// the dates before it matter to no one; with COUNT every date from start
// counts, so it starts at start. start itself is yielded only when the
// rule gives it.
func (r *rule) dates(start, from, to civil.Date, b *budget, yield func(civil.Date) bool) error {
	k := 0
	if r.count == 0 && from.After(start) {
		k = r.periodOf(start, from)
	}
	var buf []civil.Date
	for ; ; k++ {
		first, ok := r.periodStart(start, k, to)
		if !ok {
			return nil
		}
		if err := b.step(1); err != nil {
			return err
		}
		var err error
		buf, err = r.candidates(start, first, buf[:0], b)
		if err != nil {
			return err
		}
		for _, d := range r.setPos(buf) {
			if d.Before(start) {
				continue
			}
			if !yield(d) {
				return nil
			}
		}
	}
}

// weekStart returns the first day of d's week, weeks starting on wkst.
func weekStart(d civil.Date, wkst time.Weekday) civil.Date {
	return d.AddDays(-((int(d.Weekday()) - int(wkst) + 7) % 7))
}

// periodOf returns the index of the period holding d (d after start).
func (r *rule) periodOf(start, d civil.Date) int {
	switch r.freq {
	case daily:
		return start.DaysUntil(d) / r.interval
	case weekly:
		return weekStart(start, r.wkst).DaysUntil(d) / (7 * r.interval)
	case monthly:
		return ((d.Year-start.Year)*12 + int(d.Month) - int(start.Month)) / r.interval
	default:
		return (d.Year - start.Year) / r.interval
	}
}

// periodStart returns the first day of period k; ok is false when it
// starts after to.
func (r *rule) periodStart(start civil.Date, k int, to civil.Date) (civil.Date, bool) {
	var first civil.Date
	switch r.freq {
	case daily:
		if k*r.interval > start.DaysUntil(to) {
			return civil.Date{}, false
		}
		first = start.AddDays(k * r.interval)
	case weekly:
		ws := weekStart(start, r.wkst)
		if k*7*r.interval > ws.DaysUntil(to) {
			return civil.Date{}, false
		}
		first = ws.AddDays(k * 7 * r.interval)
	case monthly:
		m := start.Year*12 + int(start.Month) - 1 + k*r.interval
		if m > to.Year*12+int(to.Month)-1 {
			return civil.Date{}, false
		}
		first = civil.Date{Year: m / 12, Month: time.Month(m%12 + 1), Day: 1}
	default:
		y := start.Year + k*r.interval
		if y > to.Year {
			return civil.Date{}, false
		}
		first = civil.Date{Year: y, Month: time.January, Day: 1}
	}
	return first, true
}

// daysIn returns the number of days of a month.
func daysIn(year int, m time.Month) int {
	return civil.Date{Year: year, Month: m, Day: 1}.DaysUntil(civil.Date{Year: year, Month: m + 1, Day: 1})
}

// candidates appends to buf, in order, the dates of the period beginning
// on first that the rule's BY parts give (before BYSETPOS).
func (r *rule) candidates(start, first civil.Date, buf []civil.Date, b *budget) ([]civil.Date, error) {
	switch r.freq {
	case daily:
		if r.monthOK(first.Month) && r.monthDayOK(first) && r.weekdayOK(first, 0, 0) {
			buf = append(buf, first)
		}
	case weekly:
		if err := b.step(7); err != nil {
			return nil, err
		}
		for i := range 7 {
			d := first.AddDays(i)
			wdOK := len(r.byDay) == 0 && d.Weekday() == start.Weekday() || len(r.byDay) > 0 && r.weekdayOK(d, 0, 0)
			if wdOK && r.monthOK(d.Month) && r.monthDayOK(d) {
				buf = append(buf, d)
			}
		}
	case monthly:
		if !r.monthOK(first.Month) {
			return buf, nil
		}
		return r.monthDays(start, first.Year, first.Month, buf, b, true)
	default:
		months := r.byMonth
		if len(months) == 0 {
			if len(r.byDay) == 0 && len(r.byMonthDay) == 0 {
				months = []time.Month{start.Month}
			} else {
				months = []time.Month{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
			}
		} else {
			months = slices.Clone(months)
			slices.Sort(months)
			months = slices.Compact(months)
		}
		for _, m := range months {
			var err error
			if buf, err = r.monthDays(start, first.Year, m, buf, b, len(r.byMonth) > 0); err != nil {
				return nil, err
			}
		}
	}
	return buf, nil
}

// monthDays appends the days of a month that BYMONTHDAY and BYDAY give,
// or DTSTART's day of the month when neither is set. BYDAY ordinals count
// in the month when inMonth, else in the year (a YEARLY rule without
// BYMONTH: 20MO is the year's 20th Monday).
func (r *rule) monthDays(start civil.Date, year int, m time.Month, buf []civil.Date, b *budget, inMonth bool) ([]civil.Date, error) {
	n := daysIn(year, m)
	if err := b.step(n); err != nil {
		return nil, err
	}
	jan1 := civil.Date{Year: year, Month: time.January, Day: 1}
	yearLen := jan1.DaysUntil(civil.Date{Year: year + 1, Month: time.January, Day: 1})
	for day := 1; day <= n; day++ {
		d := civil.Date{Year: year, Month: m, Day: day}
		ok := true
		if len(r.byMonthDay) == 0 && len(r.byDay) == 0 {
			ok = day == start.Day
		}
		if len(r.byMonthDay) > 0 {
			ok = r.monthDayOK(d)
		}
		if ok && len(r.byDay) > 0 {
			if inMonth {
				ok = r.weekdayOK(d, day, n)
			} else {
				ok = r.weekdayOK(d, jan1.DaysUntil(d)+1, yearLen)
			}
		}
		if ok {
			buf = append(buf, d)
		}
	}
	return buf, nil
}

func (r *rule) monthOK(m time.Month) bool {
	return len(r.byMonth) == 0 || slices.Contains(r.byMonth, m)
}

// monthDayOK reports whether BYMONTHDAY allows d (or is not set).
func (r *rule) monthDayOK(d civil.Date) bool {
	if len(r.byMonthDay) == 0 {
		return true
	}
	n := daysIn(d.Year, d.Month)
	for _, md := range r.byMonthDay {
		if md == d.Day || md < 0 && n+1+md == d.Day {
			return true
		}
	}
	return false
}

// weekdayOK reports whether BYDAY allows d (or is not set); pos is d's
// place (from 1) in a span of length days for the ordinals.
func (r *rule) weekdayOK(d civil.Date, pos, length int) bool {
	if len(r.byDay) == 0 {
		return true
	}
	wd := d.Weekday()
	for _, bd := range r.byDay {
		if bd.weekday != wd {
			continue
		}
		switch {
		case bd.n == 0:
			return true
		case bd.n > 0 && (pos-1)/7+1 == bd.n:
			return true
		case bd.n < 0 && (length-pos)/7+1 == -bd.n:
			return true
		}
	}
	return false
}

// setPos applies BYSETPOS to a period's sorted candidates.
func (r *rule) setPos(c []civil.Date) []civil.Date {
	if len(r.bySetPos) == 0 {
		return c
	}
	var out []civil.Date
	for i, d := range c {
		for _, p := range r.bySetPos {
			if p == i+1 || p == i-len(c) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}
