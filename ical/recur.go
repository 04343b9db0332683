package ical

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	goical "github.com/arran4/golang-ical"

	"github.com/staykit/staykit/civil"
)

// Recurring events (RFC 5545 §3.8.5). A recurring event's occurrences
// are DTSTART, the dates of each RRULE and each RDATE, less the EXDATEs
// and the occurrences a RECURRENCE-ID event replaces. DTSTART is always
// one, even when the rule would not give it, and it counts towards COUNT
// only when the rule gives it: a feed whose DTSTART is not in step with
// its rule (the RFC leaves it undefined) blocks one night too many rather
// than one too few.
//
// Supported: FREQ=DAILY, WEEKLY, MONTHLY, YEARLY; INTERVAL, COUNT, UNTIL,
// WKST; BYDAY (with ordinals such as 1MO or -1FR in MONTHLY and YEARLY
// rules), BYMONTHDAY (negative from the month's end), BYMONTH, BYSETPOS.
// An occurrence falls on a date of DTSTART's zone at DTSTART's time of
// day; it lasts as the first one does (the exact length of DTSTART to
// DTEND, or DURATION), and its nights are then found as a single event's.
//
// Not supported: the sub-daily frequencies, BYHOUR, BYMINUTE, BYSECOND,
// BYYEARDAY, BYWEEKNO and malformed rules. We choose to block such an
// event's first occurrence only, as before recurrences were expanded, and
// to report it (Feed.Warnings, which icalsync logs with the feed's ID):
// blocking every night from DTSTART on would close a calendar for a rule
// nobody can read, and blocking nothing would hide it. EXRULE (withdrawn
// from the RFC) is ignored, which blocks more, never less; it is reported
// too. A RECURRENCE-ID with RANGE=THISANDFUTURE replaces its one
// occurrence only.

// when is a DATE or DATE-TIME value.
type when struct {
	allDay bool
	// date is a DATE as written, or a DATE-TIME's date in its own zone.
	date civil.Date
	// t is a DATE-TIME's instant, in its own zone.
	t time.Time
}

var dateTimeRE = regexp.MustCompile(`^(\d{8})(?:T(\d{6})(Z?))?$`)

// parseWhen reads a DATE or DATE-TIME value: in UTC with Z, else in its
// TZID when it names a zone (an IANA one, or a Windows one: zoneOf), else
// (floating, or a zone we cannot load: expander.warnZones reports it) in
// loc.
func parseWhen(v string, params map[string][]string, loc *time.Location) (when, bool) {
	m := dateTimeRE.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return when{}, false
	}
	day, err := time.Parse("20060102", m[1])
	if err != nil {
		return when{}, false
	}
	if m[2] == "" {
		return when{allDay: true, date: civil.Of(day)}, true
	}
	in := loc
	switch {
	case m[3] == "Z":
		in = time.UTC
	case len(params["TZID"]) == 1:
		if l, ok := zoneOf(params["TZID"][0]); ok {
			in = l
		}
	}
	t, err := time.ParseInLocation("20060102150405", m[1]+m[2], in)
	if err != nil {
		return when{}, false
	}
	return when{date: civil.Of(t), t: t}, true
}

// dateIn returns the date of w in loc: a DATE as written, a DATE-TIME's
// instant's date there.
func (w when) dateIn(loc *time.Location) civil.Date {
	if w.allDay {
		return w.date
	}
	return civil.Of(w.t.In(loc))
}

// shape is what an event's occurrences share: its first start, and how
// its end follows from a start.
type shape struct {
	start   when
	end     when
	hasEnd  bool
	durDays int // DURATION in whole nights; 0: none
	// zone is where the occurrences' dates are counted: DTSTART's zone,
	// or the property's for an all-day DTSTART.
	zone *time.Location
}

// readShape reads DTSTART, DTEND and DURATION; ok is false without a
// readable DTSTART.
func readShape(ve *goical.VEvent, loc *time.Location) (shape, bool) {
	p := ve.GetProperty(goical.ComponentPropertyDtStart)
	if p == nil {
		return shape{}, false
	}
	start, ok := parseWhen(p.Value, p.ICalParameters, loc)
	if !ok {
		return shape{}, false
	}
	s := shape{start: start, zone: loc}
	if !start.allDay {
		s.zone = start.t.Location()
	}
	if p := ve.GetProperty(goical.ComponentPropertyDtEnd); p != nil {
		s.end, s.hasEnd = parseWhen(p.Value, p.ICalParameters, loc)
	} else if p := ve.GetProperty(goical.ComponentPropertyDuration); p != nil {
		if days, ok := durationDays(p.Value); ok {
			s.durDays = days
		}
	}
	return s, true
}

// at returns the occurrence starting on date d of the shape's zone, at
// DTSTART's time of day.
func (s shape) at(d civil.Date) when {
	if s.start.allDay {
		return when{allDay: true, date: d}
	}
	t := s.start.t
	return when{date: d, t: time.Date(d.Year, d.Month, d.Day, t.Hour(), t.Minute(), t.Second(), 0, s.zone)}
}

// key returns the date of the shape's zone on which w starts: what
// EXDATE, RDATE and RECURRENCE-ID values are matched on.
func (s shape) key(w when) civil.Date { return w.dateIn(s.zone) }

// nights returns the nights [start, end) of the property's zone held by
// the occurrence starting at occ. For occ = DTSTART these are a single
// event's nights: DTEND (a day later for an all-day DTEND with
// endIsLastNight), else DURATION, else one night, and one night when the
// end is not after the start.
func (s shape) nights(occ when, loc *time.Location, endIsLastNight bool) (civil.Date, civil.Date) {
	start := occ.dateIn(loc)
	shift := s.start.date.DaysUntil(occ.date)
	var end civil.Date
	switch {
	case s.hasEnd && s.end.allDay:
		end = s.end.date.AddDays(shift)
		if endIsLastNight {
			end = end.AddDays(1)
		}
	case s.hasEnd && s.start.allDay:
		end = civil.Of(s.end.t.AddDate(0, 0, shift).In(loc))
	case s.hasEnd:
		end = civil.Of(occ.t.Add(s.end.t.Sub(s.start.t)).In(loc))
	case s.durDays > 0:
		end = start.AddDays(s.durDays)
	}
	if !start.Before(end) {
		end = start.AddDays(1)
	}
	return start, end
}

// expander reads a calendar's events into a Feed.
type expander struct {
	loc            *time.Location
	endIsLastNight bool
	window         civil.Range
	budget         budget
	maxOccurrences int
	// maxEvents bounds the single events kept; singles counts them all.
	maxEvents int
	singles   int
	feed      Feed
	unlisted  int // warnings past maxWarnings
	// replaced holds, by UID, the occurrences (keys) that RECURRENCE-ID
	// events replace.
	replaced map[string]map[civil.Date]bool
}

// maxWarnings bounds the warnings of a feed: a hostile one could
// otherwise fill the logs.
const maxWarnings = 20

// warn records a warning. Values quoted in it should go through clip.
func (x *expander) warn(uid, format string, args ...any) {
	if x.unlisted > 0 || len(x.feed.Warnings) == maxWarnings {
		x.unlisted++
		return
	}
	x.feed.Warnings = append(x.feed.Warnings, Warning{UID: clip(uid), Problem: fmt.Sprintf(format, args...)})
}

// finish notes the warnings left out.
func (x *expander) finish() {
	if x.unlisted > 0 {
		x.feed.Warnings = append(x.feed.Warnings, Warning{Problem: fmt.Sprintf("%d more warnings not listed", x.unlisted)})
	}
}

// clip shortens a value quoted in a warning.
func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

// warnZones reports, once each, the TZIDs of the events that name no zone
// zoneOf knows: their times are read in the property's zone, which may
// shift an event by a day rather than refuse the feed.
func (x *expander) warnZones(vevents []*goical.VEvent) {
	seen := map[string]bool{}
	for _, ve := range vevents {
		for _, p := range ve.Properties {
			for _, tzid := range p.ICalParameters["TZID"] {
				if seen[tzid] {
					continue
				}
				seen[tzid] = true
				if _, ok := zoneOf(tzid); !ok {
					x.warn(strings.TrimSpace(ve.Id()), "time zone %q is not known: its times are read in the property's time zone, %s",
						clip(tzid), x.loc)
				}
			}
		}
	}
}

// read adds the events of a calendar's VEVENTs.
func (x *expander) read(vevents []*goical.VEvent) error {
	x.warnZones(vevents)
	// The master of a UID is its first VEVENT without RECURRENCE-ID: its
	// zone is where RECURRENCE-ID values are matched.
	masters := map[string]shape{}
	for _, ve := range vevents {
		uid := strings.TrimSpace(ve.Id())
		if _, ok := masters[uid]; ok || uid == "" || ve.GetProperty(goical.ComponentPropertyRecurrenceId) != nil {
			continue
		}
		if s, ok := readShape(ve, x.loc); ok {
			masters[uid] = s
		}
	}
	x.replaced = map[string]map[civil.Date]bool{}
	overrideKeys := make([]civil.Date, len(vevents))
	for i, ve := range vevents {
		uid := strings.TrimSpace(ve.Id())
		p := ve.GetProperty(goical.ComponentPropertyRecurrenceId)
		if p == nil || uid == "" {
			continue
		}
		rid, ok := parseWhen(p.Value, p.ICalParameters, x.loc)
		if !ok {
			x.warn(uid, "RECURRENCE-ID %q not read: the occurrence it changes stays blocked too", clip(p.Value))
			continue
		}
		if _, ok := readShape(ve, x.loc); !ok && !cancelled(ve) {
			// Without dates of its own it would unblock the occurrence
			// and block nothing instead.
			x.warn(uid, "RECURRENCE-ID %q without a readable DTSTART: the occurrence stays as the rule gives it", clip(p.Value))
			continue
		}
		master, ok := masters[uid]
		if !ok {
			master = shape{zone: x.loc}
		}
		key := master.key(rid)
		if x.replaced[uid] == nil {
			x.replaced[uid] = map[civil.Date]bool{}
		}
		x.replaced[uid][key] = true
		overrideKeys[i] = key
	}
	for i, ve := range vevents {
		if cancelled(ve) {
			continue
		}
		s, ok := readShape(ve, x.loc)
		if !ok {
			continue
		}
		e := x.single(ve, s)
		switch {
		case !overrideKeys[i].IsZero():
			// One occurrence changed: it keeps the occurrence's UID.
			e.UID = strings.TrimSpace(ve.Id()) + "/" + overrideKeys[i].String()
			x.addSingle(e)
		case recurs(ve):
			if err := x.expand(ve, s, e); err != nil {
				return err
			}
		case x.replaced[e.UID][s.key(s.start)]:
			// A single event whose one occurrence a RECURRENCE-ID event
			// replaces.
		default:
			x.addSingle(e)
		}
	}
	if x.singles > x.maxEvents {
		return fmt.Errorf("%w: %d events that do not recur, more than the %d read", ErrTooManyEvents, x.singles, x.maxEvents)
	}
	x.finish()
	return nil
}

// addSingle keeps an event that does not recur, within maxEvents; past
// it, the events are only counted, for the error.
func (x *expander) addSingle(e Event) {
	if x.singles++; x.singles <= x.maxEvents {
		x.feed.Events = append(x.feed.Events, e)
	}
}

// cancelled reports whether an event has STATUS:CANCELLED.
func cancelled(ve *goical.VEvent) bool {
	p := ve.GetProperty(goical.ComponentPropertyStatus)
	return p != nil && strings.EqualFold(strings.TrimSpace(p.Value), "CANCELLED")
}

// recurs reports whether an event has a recurrence rule or dates.
func recurs(ve *goical.VEvent) bool {
	return ve.GetProperty(goical.ComponentPropertyRrule) != nil || ve.GetProperty(goical.ComponentPropertyRdate) != nil
}

// single returns the event's first occurrence as a single event: its own
// UID, or one made from its dates.
func (x *expander) single(ve *goical.VEvent, s shape) Event {
	e := Event{UID: strings.TrimSpace(ve.Id())}
	e.Start, e.End = s.nights(s.start, x.loc, x.endIsLastNight)
	if p := ve.GetProperty(goical.ComponentPropertySummary); p != nil {
		e.Summary = goical.FromText(p.Value)
	}
	if e.UID == "" {
		e.UID = "staykit-nouid-" + e.Start.String() + "-" + e.End.String()
	}
	return e
}

// expand adds the occurrences of a recurring event that hold a night of
// the window; first is its first occurrence as a single event.
func (x *expander) expand(ve *goical.VEvent, s shape, first Event) error {
	uid := first.UID
	var rules []*rule
	for _, p := range ve.GetProperties(goical.ComponentPropertyRrule) {
		r, err := parseRule(p.Value, s.zone)
		if err != nil {
			x.warn(uid, "RRULE %q not understood (%s): only its first occurrence, %s, is blocked", clip(p.Value), clip(err.Error()), first.Start)
			x.addSingle(first)
			return nil
		}
		rules = append(rules, r)
	}
	if len(ve.GetProperties(goical.ComponentPropertyExrule)) > 0 {
		x.warn(uid, "EXRULE ignored: the occurrences it would remove stay blocked")
	}
	excluded := map[civil.Date]bool{}
	for _, p := range ve.GetProperties(goical.ComponentPropertyExdate) {
		for _, v := range strings.Split(p.Value, ",") {
			w, ok := parseWhen(v, p.ICalParameters, s.zone)
			if !ok {
				x.warn(uid, "EXDATE %q not read: that occurrence stays blocked", clip(v))
				continue
			}
			excluded[s.key(w)] = true
		}
	}
	x.feed.Recurring++
	win := x.window
	if win.Start.IsZero() && win.End.IsZero() {
		win = civil.Range{Start: first.Start, End: first.Start.AddDays(DefaultWindowDays)}
	}
	// Occurrence dates (of s.zone) outside [from, to] hold no night of
	// the window: the margins cover the longest occurrence and the
	// shift between s.zone's dates and the property's.
	from := win.Start.AddDays(-first.Range().Nights() - 2)
	to := win.End.AddDays(2)
	seen := map[civil.Date]bool{}
	var over error
	add := func(key civil.Date, occ when) {
		if seen[key] || excluded[key] || x.replaced[uid][key] {
			return
		}
		seen[key] = true
		e := first
		e.UID = uid + "/" + key.String()
		e.Start, e.End = s.nights(occ, x.loc, x.endIsLastNight)
		if !e.Range().Overlaps(win) {
			return
		}
		if x.budget.occurrences--; x.budget.occurrences < 0 {
			over = fmt.Errorf("%w (more than %d)", ErrTooManyOccurrences, x.maxOccurrences)
			return
		}
		x.feed.Events = append(x.feed.Events, e)
	}
	add(s.key(s.start), s.start)
	for _, r := range rules {
		n := 0
		err := r.dates(s.key(s.start), from, to, &x.budget, func(d civil.Date) bool {
			if n++; r.count > 0 && n > r.count || d.After(to) || r.hasUntil && x.afterUntil(r, s, d) {
				return false
			}
			if !d.Before(from) {
				add(d, s.at(d))
			}
			return over == nil
		})
		if err == nil {
			err = over
		}
		if err != nil {
			return fmt.Errorf("event %s: %w", uid, err)
		}
	}
	for _, p := range ve.GetProperties(goical.ComponentPropertyRdate) {
		for _, v := range strings.Split(p.Value, ",") {
			v, _, _ = strings.Cut(v, "/") // a PERIOD: its start
			w, ok := parseWhen(v, p.ICalParameters, s.zone)
			if !ok {
				x.warn(uid, "RDATE %q not read: that occurrence is not blocked", clip(v))
				continue
			}
			key := s.key(w)
			occ := s.at(key)
			if !w.allDay && !s.start.allDay {
				occ = when{date: key, t: w.t.In(s.zone)}
			}
			add(key, occ)
			if over != nil {
				return fmt.Errorf("event %s: %w", uid, over)
			}
		}
	}
	return nil
}

// afterUntil reports whether the occurrence on date d of s.zone starts
// after the rule's UNTIL: compared as instants when both are DATE-TIME,
// else as dates of s.zone.
func (x *expander) afterUntil(r *rule, s shape, d civil.Date) bool {
	if !s.start.allDay && !r.until.allDay {
		return s.at(d).t.After(r.until.t)
	}
	return d.After(s.key(r.until))
}
