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
	// Window is the nights over which recurring events (RRULE, RDATE)
	// are expanded: an occurrence is kept when it holds a night of it.
	// Package icalsync passes today to the organisation's booking
	// horizon. The zero Window expands each recurring event over
	// DefaultWindowDays from its start. Events that do not recur are
	// kept whatever their dates.
	Window civil.Range
	// MaxOccurrences bounds the occurrences kept from recurring events,
	// over the whole feed (0: DefaultMaxOccurrences). A feed that needs
	// more is refused with ErrTooManyOccurrences.
	MaxOccurrences int
	// MaxEvents bounds the events that do not recur (a RECURRENCE-ID
	// event counts as one), over the whole feed (0: DefaultMaxEvents). A
	// feed that holds more is refused with ErrTooManyEvents, counted.
	MaxEvents int
	// Charset is the charset the feed was served with (the charset
	// parameter of its Content-Type), "" when none: see lines.go for how
	// a feed that is not UTF-8 is read.
	Charset string
}

// Defaults of ParseOptions.
const (
	// DefaultWindowDays is how far a recurring event is expanded from its
	// start when ParseOptions.Window is zero: the default booking horizon.
	DefaultWindowDays = 730
	// DefaultMaxOccurrences is ten years of a daily event, plus room for
	// a few weekly ones.
	DefaultMaxOccurrences = 10000
	// DefaultMaxEvents is as many single events: a property booked every
	// night for twenty-seven years, far more than a channel's feed holds.
	DefaultMaxEvents = 10000
	// maxSteps bounds the days the expansion of a whole feed examines, so
	// that rules that match nothing (30 February) or count from year 1
	// cost a bounded time.
	maxSteps = 2_000_000
)

// ErrNotCalendar is returned by Parse for a body holding no VCALENDAR
// (an HTML error page served with 200, an empty body).
var ErrNotCalendar = errors.New("ical: not an iCalendar feed (no BEGIN:VCALENDAR … END:VCALENDAR)")

// ErrTooManyEvents is returned (wrapped) by Parse when a feed holds more
// events that do not recur than ParseOptions.MaxEvents: the feed is
// refused, as one with too many occurrences is.
var ErrTooManyEvents = errors.New("ical: the feed holds too many events")

// Feed is what ParseFeed reads.
type Feed struct {
	// Events are sorted by start then UID.
	Events []Event
	// Warnings name what was read only in part: a recurrence rule not
	// understood, a date that could not be read. They hold UIDs and
	// rules, never summaries.
	Warnings []Warning
	// Recurring counts the recurring events expanded: their occurrences
	// depend on ParseOptions.Window as well as on the feed.
	Recurring int
}

// Warning is a part of an event that was not understood, and what was
// blocked instead.
type Warning struct {
	UID     string
	Problem string
}

func (w Warning) String() string { return "event " + w.UID + ": " + w.Problem }

// Parse reads a feed's events; it is ParseFeed without the warnings.
func Parse(data []byte, o ParseOptions) ([]Event, error) {
	f, err := ParseFeed(data, o)
	if err != nil {
		return nil, err
	}
	return f.Events, nil
}

// ParseFeed reads a feed's events, sorted by start then UID. It tolerates
// what real feeds do: text before BEGIN:VCALENDAR or after
// END:VCALENDAR, properties between components, long unfolded lines,
// DATE-TIME instead of DATE values, a missing DTEND (DURATION, else one
// night), a missing UID (one is made from the dates), a DTEND not after
// DTSTART (one night). It skips events with STATUS:CANCELLED and events
// without a readable DTSTART.
//
// A recurring event (RRULE, RDATE) becomes one Event per occurrence that
// holds a night of o.Window, each with the UID "UID/YYYY-MM-DD" (the date
// the occurrence was due to start on) so that its block keeps its
// identity from one fetch to the next; EXDATE removes occurrences, and an
// event with a RECURRENCE-ID replaces the occurrence it names, under that
// occurrence's UID (cancelled, it removes it), and is kept whatever its
// dates, as a single event is. See recur.go for the rule
// parts supported and what happens to the others: an event whose rule is
// not understood blocks its first occurrence, as a single event, and is
// named in Feed.Warnings.
//
// A feed in a legacy charset (Windows-1252 from Outlook, or the one it
// declares) is decoded (lines.go), and a TZID naming a Windows time zone
// ("W. Europe Standard Time") is read as the IANA zone CLDR maps it to;
// a TZID naming no zone is read in o.Location, with a warning.
//
// A feed that is not iCalendar, or has a line that is not a content line
// (a *LineError naming it), or expands to more than o.MaxOccurrences
// occurrences, or holds more than o.MaxEvents single events, is an error:
// callers must then change nothing.
func ParseFeed(data []byte, o ParseOptions) (*Feed, error) {
	loc := o.Location
	if loc == nil {
		loc = time.UTC
	}
	body, warnings, err := calendarPart(data, o.Charset)
	if err != nil {
		return nil, err
	}
	cal, err := goical.ParseCalendarWithOptions(bytes.NewReader(body),
		goical.WithUnknownPropertyHandler(goical.AcceptUnknownPropertyHandler))
	if err != nil {
		return nil, fmt.Errorf("ical: parse: %w", err)
	}
	max := o.MaxOccurrences
	if max <= 0 {
		max = DefaultMaxOccurrences
	}
	maxEvents := o.MaxEvents
	if maxEvents <= 0 {
		maxEvents = DefaultMaxEvents
	}
	x := &expander{loc: loc, endIsLastNight: o.EndIsLastNight, window: o.Window,
		budget: budget{steps: maxSteps, occurrences: max}, maxOccurrences: max, maxEvents: maxEvents}
	x.feed.Warnings = warnings
	if err := x.read(cal.Events()); err != nil {
		return nil, err
	}
	sort.SliceStable(x.feed.Events, func(i, j int) bool {
		a, b := x.feed.Events[i], x.feed.Events[j]
		if c := a.Start.Compare(b.Start); c != 0 {
			return c < 0
		}
		return a.UID < b.UID
	})
	return &x.feed, nil
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
