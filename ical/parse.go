package ical

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	goical "github.com/arran4/golang-ical"

	"github.com/staykit/staykit/civil"
)

// Event is an event of a feed: the nights [Start, End) it holds.
type Event struct {
	UID     string
	Start   civil.Date
	End     civil.Date
	Summary string
}

// Range returns the nights the event holds.
func (e Event) Range() civil.Range { return civil.Range{Start: e.Start, End: e.End} }

// ParseOptions say how to read a feed.
type ParseOptions struct {
	// Location is the property's time zone: DATE-TIME values become its
	// dates, floating ones are read in it. Nil means UTC.
	Location *time.Location
	// EndIsLastNight is for sources whose DTEND is the last night rather
	// than the check-out day: a day is added to all-day end dates.
	EndIsLastNight bool
}

// ErrNotCalendar is returned by Parse for a body holding no VCALENDAR
// (an HTML error page served with 200, an empty body).
var ErrNotCalendar = errors.New("ical: not an iCalendar feed (no BEGIN:VCALENDAR … END:VCALENDAR)")

// Parse reads a feed's events, sorted by start then UID. It tolerates
// what real feeds do: text before BEGIN:VCALENDAR or after
// END:VCALENDAR, properties between components, long unfolded lines,
// DATE-TIME instead of DATE values, a missing DTEND (DURATION, else one
// night), a missing UID (one is made from the dates), a DTEND not after
// DTSTART (one night). It skips events with STATUS:CANCELLED and events
// without a readable DTSTART. Recurrence rules are not expanded: a
// recurring event holds its first occurrence. A feed that is not
// iCalendar, or has a line that is not a content line, is an error:
// callers must then change nothing.
func Parse(data []byte, o ParseOptions) ([]Event, error) {
	loc := o.Location
	if loc == nil {
		loc = time.UTC
	}
	body, err := calendarPart(data)
	if err != nil {
		return nil, err
	}
	cal, err := goical.ParseCalendarWithOptions(bytes.NewReader(body),
		goical.WithUnknownPropertyHandler(goical.AcceptUnknownPropertyHandler))
	if err != nil {
		return nil, fmt.Errorf("ical: parse: %w", err)
	}
	var events []Event
	for _, ve := range cal.Events() {
		if p := ve.GetProperty(goical.ComponentPropertyStatus); p != nil && strings.EqualFold(strings.TrimSpace(p.Value), "CANCELLED") {
			continue
		}
		e, ok := readEvent(ve, loc, o.EndIsLastNight)
		if ok {
			events = append(events, e)
		}
	}
	sort.SliceStable(events, func(i, j int) bool {
		if c := events[i].Start.Compare(events[j].Start); c != 0 {
			return c < 0
		}
		return events[i].UID < events[j].UID
	})
	return events, nil
}

// calendarPart returns the text from the first BEGIN:VCALENDAR to the end
// of the last END:VCALENDAR, dropping the junk around it, with line
// endings normalised to CRLF.
func calendarPart(data []byte) ([]byte, error) {
	upper := bytes.ToUpper(data)
	start := bytes.Index(upper, []byte("BEGIN:VCALENDAR"))
	end := bytes.LastIndex(upper, []byte("END:VCALENDAR"))
	if start < 0 || end < start {
		return nil, ErrNotCalendar
	}
	body := data[start : end+len("END:VCALENDAR")]
	body = bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n"))
	body = bytes.ReplaceAll(body, []byte("\r"), []byte("\n"))
	// Blank lines are not content lines; some feeds have them.
	var out bytes.Buffer
	for _, line := range bytes.Split(body, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		out.Write(line)
		out.WriteString("\r\n")
	}
	return out.Bytes(), nil
}

// readEvent turns a VEVENT into the nights it holds; ok is false when it
// has no readable start.
func readEvent(ve *goical.VEvent, loc *time.Location, endIsLastNight bool) (Event, bool) {
	startProp := ve.GetProperty(goical.ComponentPropertyDtStart)
	if startProp == nil {
		return Event{}, false
	}
	start, startAllDay, ok := readDate(startProp, loc)
	if !ok {
		return Event{}, false
	}
	e := Event{UID: strings.TrimSpace(ve.Id()), Start: start}
	if p := ve.GetProperty(goical.ComponentPropertySummary); p != nil {
		e.Summary = goical.FromText(p.Value)
	}
	if p := ve.GetProperty(goical.ComponentPropertyDtEnd); p != nil {
		end, allDay, ok := readDate(p, loc)
		if ok {
			e.End = end
			if allDay && endIsLastNight {
				e.End = e.End.AddDays(1)
			}
		}
	} else if p := ve.GetProperty(goical.ComponentPropertyDuration); p != nil {
		if days, ok := durationDays(p.Value); ok {
			e.End = start.AddDays(days)
		}
	}
	if e.End.IsZero() && startAllDay && endIsLastNight {
		e.End = start.AddDays(1)
	}
	if !start.Before(e.End) {
		e.End = start.AddDays(1)
	}
	if e.UID == "" {
		e.UID = "staykit-nouid-" + e.Start.String() + "-" + e.End.String()
	}
	return e, true
}

var dateTimeRE = regexp.MustCompile(`^(\d{8})(?:T(\d{6})(Z?))?$`)

// readDate reads a DTSTART or DTEND as a civil date of loc; allDay
// reports a DATE value, taken as written.
func readDate(p *goical.IANAProperty, loc *time.Location) (d civil.Date, allDay bool, ok bool) {
	m := dateTimeRE.FindStringSubmatch(strings.TrimSpace(p.Value))
	if m == nil {
		return civil.Date{}, false, false
	}
	day, err := time.Parse("20060102", m[1])
	if err != nil {
		return civil.Date{}, false, false
	}
	if m[2] == "" {
		return civil.Of(day), true, true
	}
	in := loc
	switch {
	case m[3] == "Z":
		in = time.UTC
	case len(p.ICalParameters["TZID"]) == 1:
		if l, err := time.LoadLocation(strings.Trim(p.ICalParameters["TZID"][0], `"`)); err == nil {
			in = l
		}
	}
	t, err := time.ParseInLocation("20060102150405", m[1]+m[2], in)
	if err != nil {
		return civil.Date{}, false, false
	}
	return civil.Of(t.In(loc)), false, true
}

var durationRE = regexp.MustCompile(`^\+?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$`)

// durationDays reads an RFC 5545 DURATION as whole nights, rounded up
// (at least one).
func durationDays(v string) (int, bool) {
	m := durationRE.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return 0, false
	}
	n := func(s string) int {
		x, _ := strconv.Atoi(s)
		return x
	}
	days := n(m[1])*7 + n(m[2])
	if n(m[3]) > 0 || n(m[4]) > 0 || n(m[5]) > 0 {
		days++
	}
	if days < 1 {
		days = 1
	}
	return days, true
}
