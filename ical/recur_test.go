package ical_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/ical"
)

// feedOf wraps VEVENTs, each given as its lines, in a calendar shaped like
// a Google Calendar export (X-WR-TIMEZONE, a VTIMEZONE, DTSTAMP).
func feedOf(events ...[]string) []byte {
	var b strings.Builder
	b.WriteString(`BEGIN:VCALENDAR
PRODID:-//Google Inc//Google Calendar 70.9054//EN
VERSION:2.0
CALSCALE:GREGORIAN
METHOD:PUBLISH
X-WR-CALNAME:Villa Soleil (owner)
X-WR-TIMEZONE:Europe/Paris
BEGIN:VTIMEZONE
TZID:Europe/Paris
X-LIC-LOCATION:Europe/Paris
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
TZNAME:CEST
DTSTART:19700329T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
TZNAME:CET
DTSTART:19701025T030000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE
`)
	for _, lines := range events {
		b.WriteString("BEGIN:VEVENT\nDTSTAMP:20260520T080000Z\n" + strings.Join(lines, "\n") + "\nEND:VEVENT\n")
	}
	b.WriteString("END:VCALENDAR\n")
	return crlf(b.String())
}

// occ is an expected occurrence of the event "g@google.com" due on the
// date due, holding [in, out).
func occ(due, in, out string) ical.Event {
	return ical.Event{UID: "g@google.com/" + due, Start: day(in), End: day(out), Summary: "Owner"}
}

// nightly lists one-night occurrences on each date.
func nightly(dates ...string) []ical.Event {
	var out []ical.Event
	for _, d := range dates {
		out = append(out, occ(d, d, day(d).AddDays(1).String()))
	}
	return out
}

func window(from, to string) civil.Range { return civil.Range{Start: day(from), End: day(to)} }

func TestParseRecurring(t *testing.T) {
	paris := zone(t, "Europe/Paris")
	june := window("2026-06-01", "2026-07-01")
	summer := window("2026-06-01", "2026-09-01")
	ev := func(lines ...string) []string { return append([]string{"UID:g@google.com", "SUMMARY:Owner"}, lines...) }
	tests := []struct {
		name string
		feed []byte
		opts ical.ParseOptions
		want []ical.Event
	}{
		// Google Calendar: the owner stays every weekend, Saturday to
		// Monday, all-day.
		{"Google/OwnerEveryWeekend", feedOf(ev("DTSTART;VALUE=DATE:20260606", "DTEND;VALUE=DATE:20260608", "RRULE:FREQ=WEEKLY;BYDAY=SA")),
			ical.ParseOptions{Location: paris, Window: june}, []ical.Event{
				occ("2026-06-06", "2026-06-06", "2026-06-08"), occ("2026-06-13", "2026-06-13", "2026-06-15"),
				occ("2026-06-20", "2026-06-20", "2026-06-22"), occ("2026-06-27", "2026-06-27", "2026-06-29")}},
		// Google Calendar: closed every Monday, a timed event in the
		// calendar's zone.
		{"Google/ClosedEveryMondayTimed", feedOf(ev("DTSTART;TZID=Europe/Paris:20260601T090000", "DTEND;TZID=Europe/Paris:20260601T180000",
			"RRULE:FREQ=WEEKLY;WKST=MO;BYDAY=MO")),
			ical.ParseOptions{Location: paris, Window: june}, nightly("2026-06-01", "2026-06-08", "2026-06-15", "2026-06-22", "2026-06-29")},
		{"Count", feedOf(ev("DTSTART;VALUE=DATE:20260610", "DTEND;VALUE=DATE:20260611", "RRULE:FREQ=DAILY;COUNT=3")),
			ical.ParseOptions{Location: paris, Window: june}, nightly("2026-06-10", "2026-06-11", "2026-06-12")},
		// The 22nd to 25th Mondays from 5 January are in June.
		{"CountCountsBeforeTheWindow", feedOf(ev("DTSTART;VALUE=DATE:20260105", "DTEND;VALUE=DATE:20260106", "RRULE:FREQ=WEEKLY;COUNT=25")),
			ical.ParseOptions{Location: paris, Window: june}, nightly("2026-06-01", "2026-06-08", "2026-06-15", "2026-06-22")},
		// Google writes UNTIL in UTC: the last Monday 18:00 in Paris is
		// 16:00Z, after 15:59:59Z: it is not an occurrence.
		{"UntilUTCInstant", feedOf(ev("DTSTART;TZID=Europe/Paris:20260601T180000", "DTEND;TZID=Europe/Paris:20260601T200000",
			"RRULE:FREQ=WEEKLY;UNTIL=20260622T155959Z")),
			ical.ParseOptions{Location: paris, Window: june}, nightly("2026-06-01", "2026-06-08", "2026-06-15")},
		{"UntilDateIsIncluded", feedOf(ev("DTSTART;VALUE=DATE:20260601", "DTEND;VALUE=DATE:20260602", "RRULE:FREQ=WEEKLY;UNTIL=20260615")),
			ical.ParseOptions{Location: paris, Window: june}, nightly("2026-06-01", "2026-06-08", "2026-06-15")},
		{"Interval", feedOf(ev("DTSTART;VALUE=DATE:20260606", "DTEND;VALUE=DATE:20260607", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SA")),
			ical.ParseOptions{Location: paris, Window: june}, nightly("2026-06-06", "2026-06-20")},
		{"ExdateAllDay", feedOf(ev("DTSTART;VALUE=DATE:20260606", "DTEND;VALUE=DATE:20260607", "RRULE:FREQ=WEEKLY",
			"EXDATE;VALUE=DATE:20260613", "EXDATE;VALUE=DATE:20260620,20260627")),
			ical.ParseOptions{Location: paris, Window: june}, nightly("2026-06-06")},
		{"ExdateTimedInUTC", feedOf(ev("DTSTART;TZID=Europe/Paris:20260601T090000", "DTEND;TZID=Europe/Paris:20260601T100000",
			"RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE:20260608T070000Z")),
			ical.ParseOptions{Location: paris, Window: june}, nightly("2026-06-01", "2026-06-15", "2026-06-22")},
		{"Rdate", feedOf(ev("DTSTART;VALUE=DATE:20260601", "DTEND;VALUE=DATE:20260603", "RDATE;VALUE=DATE:20260610,20260620")),
			ical.ParseOptions{Location: paris, Window: june}, []ical.Event{
				occ("2026-06-01", "2026-06-01", "2026-06-03"), occ("2026-06-10", "2026-06-10", "2026-06-12"), occ("2026-06-20", "2026-06-20", "2026-06-22")}},
		// One Saturday of the series moved to Sunday–Wednesday: the
		// override replaces it, under the occurrence's UID.
		{"RecurrenceIDReplaces", feedOf(
			ev("DTSTART;VALUE=DATE:20260606", "DTEND;VALUE=DATE:20260608", "RRULE:FREQ=WEEKLY;COUNT=3"),
			ev("RECURRENCE-ID;VALUE=DATE:20260613", "DTSTART;VALUE=DATE:20260614", "DTEND;VALUE=DATE:20260617")),
			ical.ParseOptions{Location: paris, Window: june}, []ical.Event{
				occ("2026-06-06", "2026-06-06", "2026-06-08"), occ("2026-06-13", "2026-06-14", "2026-06-17"), occ("2026-06-20", "2026-06-20", "2026-06-22")}},
		{"RecurrenceIDTimedReplaces", feedOf(
			ev("DTSTART;TZID=Europe/Paris:20260601T090000", "DTEND;TZID=Europe/Paris:20260601T100000", "RRULE:FREQ=WEEKLY;COUNT=3"),
			ev("RECURRENCE-ID;TZID=Europe/Paris:20260608T090000", "DTSTART;TZID=Europe/Paris:20260610T090000", "DTEND;TZID=Europe/Paris:20260610T100000")),
			ical.ParseOptions{Location: paris, Window: june}, []ical.Event{
				occ("2026-06-01", "2026-06-01", "2026-06-02"), occ("2026-06-08", "2026-06-10", "2026-06-11"), occ("2026-06-15", "2026-06-15", "2026-06-16")}},
		{"RecurrenceIDCancelledRemoves", feedOf(
			ev("DTSTART;VALUE=DATE:20260606", "DTEND;VALUE=DATE:20260607", "RRULE:FREQ=WEEKLY;COUNT=3"),
			ev("RECURRENCE-ID;VALUE=DATE:20260613", "DTSTART;VALUE=DATE:20260613", "DTEND;VALUE=DATE:20260614", "STATUS:CANCELLED")),
			ical.ParseOptions{Location: paris, Window: june}, nightly("2026-06-06", "2026-06-20")},
		{"Monthly/FirstMonday", feedOf(ev("DTSTART;VALUE=DATE:20260601", "DTEND;VALUE=DATE:20260602", "RRULE:FREQ=MONTHLY;BYDAY=1MO")),
			ical.ParseOptions{Location: paris, Window: summer}, nightly("2026-06-01", "2026-07-06", "2026-08-03")},
		{"Monthly/LastFriday", feedOf(ev("DTSTART;VALUE=DATE:20260626", "DTEND;VALUE=DATE:20260627", "RRULE:FREQ=MONTHLY;BYDAY=-1FR")),
			ical.ParseOptions{Location: paris, Window: summer}, nightly("2026-06-26", "2026-07-31", "2026-08-28")},
		{"Monthly/LastDay", feedOf(ev("DTSTART;VALUE=DATE:20260630", "DTEND;VALUE=DATE:20260701", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1")),
			ical.ParseOptions{Location: paris, Window: summer}, nightly("2026-06-30", "2026-07-31", "2026-08-31")},
		{"Monthly/The31stSkipsShortMonths", feedOf(ev("DTSTART;VALUE=DATE:20260131", "DTEND;VALUE=DATE:20260201", "RRULE:FREQ=MONTHLY")),
			ical.ParseOptions{Location: paris, Window: window("2026-02-01", "2026-07-01")}, nightly("2026-03-31", "2026-05-31")},
		// Outlook writes "the last weekday of the month" with BYSETPOS.
		{"Monthly/LastWeekdayBySetPos", feedOf(ev("DTSTART;VALUE=DATE:20260630", "DTEND;VALUE=DATE:20260701",
			"RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")),
			ical.ParseOptions{Location: paris, Window: summer}, nightly("2026-06-30", "2026-07-31", "2026-08-31")},
		{"Yearly/StartedLongAgo", feedOf(ev("DTSTART;VALUE=DATE:19900714", "DTEND;VALUE=DATE:19900716", "RRULE:FREQ=YEARLY")),
			ical.ParseOptions{Location: paris, Window: summer}, []ical.Event{occ("2026-07-14", "2026-07-14", "2026-07-16")}},
		{"Yearly/ByMonthAndDay", feedOf(ev("DTSTART;VALUE=DATE:20250801", "DTEND;VALUE=DATE:20250802", "RRULE:FREQ=YEARLY;BYMONTH=8;BYDAY=1SA,-1SU")),
			ical.ParseOptions{Location: paris, Window: summer}, nightly("2026-08-01", "2026-08-30")},
		{"Yearly/29February", feedOf(ev("DTSTART;VALUE=DATE:20240229", "DTEND;VALUE=DATE:20240301", "RRULE:FREQ=YEARLY")),
			ical.ParseOptions{Location: paris, Window: window("2026-01-01", "2030-01-01")}, nightly("2028-02-29")},
		{"Daily/ByMonth", feedOf(ev("DTSTART;VALUE=DATE:20260101", "DTEND;VALUE=DATE:20260102", "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=1,2")),
			ical.ParseOptions{Location: paris, Window: window("2026-01-01", "2028-01-01")}, nightly("2026-01-01", "2026-02-01", "2026-02-02", "2027-02-01", "2027-02-02")},
		// An occurrence that starts before the window and ends in it is
		// kept; one that ends before it is not.
		{"Window/OverlapAtTheStart", feedOf(ev("DTSTART;VALUE=DATE:20260523", "DTEND;VALUE=DATE:20260602", "RRULE:FREQ=WEEKLY;UNTIL=20260606")),
			ical.ParseOptions{Location: paris, Window: june}, []ical.Event{occ("2026-05-23", "2026-05-23", "2026-06-02"),
				occ("2026-05-30", "2026-05-30", "2026-06-09"), occ("2026-06-06", "2026-06-06", "2026-06-16")}},
		{"Window/ZeroIsTwoYearsFromTheStart", feedOf(ev("DTSTART;VALUE=DATE:20260601", "DTEND;VALUE=DATE:20260602", "RRULE:FREQ=YEARLY")),
			ical.ParseOptions{Location: paris}, nightly("2026-06-01", "2027-06-01")},
		// Fridays 20:00–23:00 in New York are Saturdays 02:00–05:00 in
		// Paris: the nights are the property's, the UIDs the due dates.
		{"TimedInAnotherZone", feedOf(ev("DTSTART;TZID=America/New_York:20260605T200000", "DTEND;TZID=America/New_York:20260605T230000",
			"RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=2")),
			ical.ParseOptions{Location: paris, Window: june}, []ical.Event{
				occ("2026-06-05", "2026-06-06", "2026-06-07"), occ("2026-06-12", "2026-06-13", "2026-06-14")}},
		{"EndIsLastNight", feedOf(ev("DTSTART;VALUE=DATE:20260606", "DTEND;VALUE=DATE:20260607", "RRULE:FREQ=WEEKLY;COUNT=2")),
			ical.ParseOptions{Location: paris, Window: june, EndIsLastNight: true}, []ical.Event{
				occ("2026-06-06", "2026-06-06", "2026-06-08"), occ("2026-06-13", "2026-06-13", "2026-06-15")}},
		{"Duration", feedOf(ev("DTSTART;VALUE=DATE:20260606", "DURATION:P3D", "RRULE:FREQ=WEEKLY;COUNT=2")),
			ical.ParseOptions{Location: paris, Window: june}, []ical.Event{
				occ("2026-06-06", "2026-06-06", "2026-06-09"), occ("2026-06-13", "2026-06-13", "2026-06-16")}},
		// DTSTART (a Friday) is not in step with the rule (Saturdays): it
		// is blocked too, and COUNT counts the rule's dates.
		{"DtstartOutOfStep", feedOf(ev("DTSTART;VALUE=DATE:20260605", "DTEND;VALUE=DATE:20260606", "RRULE:FREQ=WEEKLY;BYDAY=SA;COUNT=2")),
			ical.ParseOptions{Location: paris, Window: june}, nightly("2026-06-05", "2026-06-06", "2026-06-13")},
		{"CancelledSeries", feedOf(ev("DTSTART;VALUE=DATE:20260606", "DTEND;VALUE=DATE:20260607", "RRULE:FREQ=WEEKLY", "STATUS:CANCELLED")),
			ical.ParseOptions{Location: paris, Window: june}, nil},
		// A rule that matches nothing (30 February), counted from year 1:
		// bounded work, nothing blocked but DTSTART (out of the window).
		{"NeverMatches", feedOf(ev("DTSTART;VALUE=DATE:00010101", "DTEND;VALUE=DATE:00010102", "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=2000000000")),
			ical.ParseOptions{Location: paris, Window: june}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ical.ParseFeed(tt.feed, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			same(t, "events", got.Events, tt.want)
			if len(got.Warnings) != 0 {
				t.Errorf("warnings %v, want none", got.Warnings)
			}
		})
	}
}

// TestParseRecurrenceIDWithoutDtstart: an override without dates cannot
// say where its occurrence went: it stays where the rule puts it, and the
// override is reported.
func TestParseRecurrenceIDWithoutDtstart(t *testing.T) {
	got, err := ical.ParseFeed(feedOf(
		[]string{"UID:g@google.com", "SUMMARY:Owner", "DTSTART;VALUE=DATE:20260606", "DTEND;VALUE=DATE:20260607", "RRULE:FREQ=WEEKLY;COUNT=2"},
		[]string{"UID:g@google.com", "RECURRENCE-ID;VALUE=DATE:20260613"}),
		ical.ParseOptions{Window: window("2026-06-01", "2026-07-01")})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "events", got.Events, nightly("2026-06-06", "2026-06-13"))
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0].Problem, "RECURRENCE-ID") {
		t.Errorf("warnings %v, want one about the RECURRENCE-ID", got.Warnings)
	}
}

// TestParseRecurringNotUnderstood: a rule we cannot expand blocks its
// first occurrence, as a single event, and is reported by UID.
func TestParseRecurringNotUnderstood(t *testing.T) {
	paris := zone(t, "Europe/Paris")
	for _, rrule := range []string{
		"FREQ=HOURLY;INTERVAL=12",
		"FREQ=YEARLY;BYWEEKNO=20",
		"FREQ=DAILY;BYHOUR=9,17",
		"FREQ=WEEKLY;BYDAY=XX",
		"FREQ=MONTHLY;INTERVAL=0",
		"FREQ=WEEKLY;INTERVAL=99999999999",
		"BYDAY=MO",
		"FREQ=DAILY;COUNT=3;UNTIL=20260701",
		"garbage",
	} {
		t.Run(rrule, func(t *testing.T) {
			got, err := ical.ParseFeed(feedOf([]string{"UID:g@google.com", "SUMMARY:Owner", "DTSTART;VALUE=DATE:20260606",
				"DTEND;VALUE=DATE:20260608", "RRULE:" + rrule}), ical.ParseOptions{Location: paris, Window: window("2026-06-01", "2026-07-01")})
			if err != nil {
				t.Fatal(err)
			}
			same(t, "events", got.Events, []ical.Event{{UID: "g@google.com", Start: day("2026-06-06"), End: day("2026-06-08"), Summary: "Owner"}})
			if len(got.Warnings) != 1 || got.Warnings[0].UID != "g@google.com" || !strings.Contains(got.Warnings[0].Problem, "first occurrence") {
				t.Errorf("warnings %v, want one naming the event and what is blocked", got.Warnings)
			}
		})
	}
}

// TestParseRecurringCap: a feed that expands to more occurrences than
// allowed, or costs too much work, is refused; up to the cap it is read.
func TestParseRecurringCap(t *testing.T) {
	paris := zone(t, "Europe/Paris")
	june := window("2026-06-01", "2026-07-01")
	daily := func(uid string) []string {
		return []string{"UID:" + uid, "DTSTART;VALUE=DATE:20260601", "DTEND;VALUE=DATE:20260602", "RRULE:FREQ=DAILY"}
	}
	// Each walks 740,000 days from year 1 for a COUNT never reached.
	fromYearOne := func(uid string) []string {
		return []string{"UID:" + uid, "DTSTART;VALUE=DATE:00010101", "DTEND;VALUE=DATE:00010102",
			"RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=2000000000"}
	}
	tests := []struct {
		name    string
		feed    []byte
		opts    ical.ParseOptions
		wantErr bool
	}{
		{"AtTheCap", feedOf(daily("a")), ical.ParseOptions{Location: paris, Window: june, MaxOccurrences: 30}, false},
		{"OverTheCap", feedOf(daily("a")), ical.ParseOptions{Location: paris, Window: june, MaxOccurrences: 29}, true},
		{"OverTheCapAcrossEvents", feedOf(daily("a"), daily("b")), ical.ParseOptions{Location: paris, Window: june, MaxOccurrences: 59}, true},
		{"OverTheDefaultCap", feedOf(daily("a"), daily("b"), daily("c"), daily("d")),
			ical.ParseOptions{Location: paris, Window: window("2026-06-01", "2036-06-01")}, true},
		{"TooMuchWork", feedOf(fromYearOne("a"), fromYearOne("b"), fromYearOne("c")), ical.ParseOptions{Location: paris, Window: june}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ical.ParseFeed(tt.feed, tt.opts)
			if !tt.wantErr {
				if err != nil || len(got.Events) != 30 {
					t.Fatalf("ParseFeed = %v; want 30 events", err)
				}
				return
			}
			if !errors.Is(err, ical.ErrTooManyOccurrences) {
				t.Fatalf("ParseFeed: %v, want ErrTooManyOccurrences", err)
			}
		})
	}
}

// TestParseRecurringWindowMoves: as the window moves on, occurrences keep
// their UIDs, so Diff only removes the past ones and adds the new ones.
func TestParseRecurringWindowMoves(t *testing.T) {
	paris := zone(t, "Europe/Paris")
	body := feedOf([]string{"UID:g@google.com", "SUMMARY:Owner", "DTSTART;VALUE=DATE:20260606", "DTEND;VALUE=DATE:20260608", "RRULE:FREQ=WEEKLY"})
	read := func(from, to string) []ical.Event {
		t.Helper()
		got, err := ical.Parse(body, ical.ParseOptions{Location: paris, Window: window(from, to)})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	var blocks []ical.Event
	blocks = append(blocks, read("2026-06-01", "2026-07-01")...)
	existing := make([]feed.Block, 0, len(blocks))
	for i, e := range blocks {
		existing = append(existing, feed.Block{ID: int64(i + 1), UID: e.UID, Start: e.Start, End: e.End, Summary: e.Summary})
	}
	plan := ical.Diff(existing, read("2026-06-10", "2026-07-10"))
	same(t, "plan", plan, ical.Plan{Remove: []int64{1}, Add: []feed.Block{
		{UID: "g@google.com/2026-07-04", Start: day("2026-07-04"), End: day("2026-07-06"), Summary: "Owner"}}, Unchanged: 3})
}

// TestParseRecurringWarningsBounded: a feed full of rules we cannot read
// gives a bounded list of warnings, each value clipped, and still blocks
// each first occurrence.
func TestParseRecurringWarningsBounded(t *testing.T) {
	var events [][]string
	for i := range 30 {
		events = append(events, []string{"UID:odd-" + strconv.Itoa(i), "DTSTART;VALUE=DATE:20260606",
			"RRULE:FREQ=SECONDLY;X-PAD=" + strings.Repeat("x", 5000)})
	}
	got, err := ical.ParseFeed(feedOf(events...), ical.ParseOptions{Window: window("2026-06-01", "2026-07-01")})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Events) != 30 {
		t.Errorf("%d events, want the 30 first occurrences", len(got.Events))
	}
	if len(got.Warnings) != 21 || got.Warnings[20].Problem != "10 more warnings not listed" {
		t.Fatalf("%d warnings, want 20 and a line counting the 10 others; last %v", len(got.Warnings), got.Warnings[len(got.Warnings)-1])
	}
	for _, w := range got.Warnings {
		if len(w.Problem) > 400 {
			t.Errorf("warning of %d bytes: values are not clipped", len(w.Problem))
		}
	}
}
