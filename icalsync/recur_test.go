package icalsync_test

import (
	"bytes"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/icalsync"
)

// googleCalendar is an owner's Google calendar, as its secret iCal address
// serves it: the owner's stay every weekend (all-day, Saturday to Monday),
// and the house closed every Wednesday (a timed event in Paris time), but
// not on 17 June.
const googleCalendar = `BEGIN:VCALENDAR
PRODID:-//Google Inc//Google Calendar 70.9054//EN
VERSION:2.0
CALSCALE:GREGORIAN
METHOD:PUBLISH
X-WR-CALNAME:Villa Soleil (owner)
X-WR-TIMEZONE:Europe/Paris
BEGIN:VEVENT
DTSTART;VALUE=DATE:20260606
DTEND;VALUE=DATE:20260608
RRULE:FREQ=WEEKLY;WKST=MO;BYDAY=SA
DTSTAMP:20260601T080000Z
UID:3q8v0weekend@google.com
CREATED:20260520T101500Z
LAST-MODIFIED:20260520T101500Z
SEQUENCE:0
STATUS:CONFIRMED
SUMMARY:Owner's weekend
TRANSP:OPAQUE
END:VEVENT
BEGIN:VEVENT
DTSTART;TZID=Europe/Paris:20260603T080000
DTEND;TZID=Europe/Paris:20260603T200000
RRULE:FREQ=WEEKLY;BYDAY=WE
EXDATE;TZID=Europe/Paris:20260617T080000
DTSTAMP:20260601T080000Z
UID:7k2m1closed@google.com
SEQUENCE:0
STATUS:CONFIRMED
SUMMARY:Closed
TRANSP:OPAQUE
END:VEVENT
END:VCALENDAR
`

// TestRecurringEventsBlockEveryOccurrence: every occurrence of a recurring
// event of a synced Google calendar is blocked up to the booking horizon,
// not only its first; an EXDATE leaves its night free.
func TestRecurringEventsBlockEveryOccurrence(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("google", googleCalendar)
	f := e.addFeed(t, "Owner's Google calendar", "google")
	res := e.syncNow(t, f)
	if len(res.Warnings) != 0 || len(res.Conflicts) != 0 {
		t.Fatalf("sync = %+v, want no warning and no conflict", res)
	}
	var want []string
	for _, w := range []string{"06", "13", "20", "27"} {
		want = append(want, nights("2026-06-"+w, day("2026-06-"+w).AddDays(2).String())...)
	}
	want = append(want, "2026-06-03", "2026-06-10", "2026-06-24")
	slices.Sort(want)
	if got := e.unavailableNights(t, "2026-06-01", "2026-07-01"); !slices.Equal(got, want) {
		t.Errorf("unavailable nights in June %v, want %v", got, want)
	}
	for _, stay := range [][2]string{
		{"2026-06-19", "2026-06-21"}, // the third weekend
		{"2026-09-09", "2026-09-11"}, // a Wednesday in September
		{"2028-05-19", "2028-05-21"}, // a weekend near the horizon (31 May 2028)
	} {
		_, err := e.checkout(stay[0], stay[1])
		if booking.ErrorCode(err) != booking.CodeUnavailable {
			t.Errorf("checkout %s–%s: %v, want unavailable", stay[0], stay[1], err)
		}
	}
	if _, err := e.checkout("2026-06-15", "2026-06-17"); err != nil {
		t.Errorf("checkout of Monday and Tuesday nights: %v", err)
	}
	if _, err := e.checkout("2026-06-17", "2026-06-18"); err != nil {
		t.Errorf("checkout of the Wednesday EXDATE frees: %v", err)
	}
	blocks, err := e.store.FeedBlocks(t.Context(), f.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Two years of weekends and Wednesdays, less one Wednesday.
	if n := len(blocks); n < 200 || n > 212 {
		t.Errorf("%d blocks, want two years of weekly events", n)
	}
}

// TestRecurringWindowMovesOn: each sync expands from today to the horizon,
// and is unconditional, so a calendar served with an ETag still gains
// the occurrences entering the horizon, and loses the past ones.
func TestRecurringWindowMovesOn(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("google", googleCalendar)
	f := e.addFeed(t, "Owner's Google calendar", "google")
	first := e.syncNow(t, f)
	last := func(blocks []feed.Block) string {
		var max string
		for _, b := range blocks {
			if s := b.Start.String(); s > max {
				max = s
			}
		}
		return max
	}
	if got := last(first.Blocks); got != "2028-05-27" {
		t.Fatalf("last block starts %s, want 2028-05-27, the last Saturday before the horizon (31 May 2028)", got)
	}
	e.clock.Advance(7 * 24 * time.Hour)
	second := e.syncNow(t, f)
	if second.NotModified || e.feeds.lastRequest().Header.Get("If-None-Match") != "" {
		t.Fatalf("the second fetch was conditional (not modified: %v): the window could not move on", second.NotModified)
	}
	if got := last(second.Blocks); got != "2028-06-03" {
		t.Errorf("after a week the last block starts %s, want 2028-06-03", got)
	}
	if len(second.Plan.Move) != 0 || len(second.Plan.Add) != 2 || len(second.Plan.Remove) != 2 {
		t.Errorf("plan after a week %+v, want the past weekend and Wednesday removed, two new ones added, nothing moved",
			second.Plan)
	}
}

// TestRecurringRuleNotUnderstood: a rule we cannot expand blocks its first
// occurrence, and is logged with the feed's ID, never its URL.
func TestRecurringRuleNotUnderstood(t *testing.T) {
	e := newEnv(t)
	var logs bytes.Buffer
	e.sync = icalsync.New(icalsync.Options{Store: e.store, Clock: e.clock, Notifier: e.notified,
		Logger:  slog.New(slog.NewTextHandler(&logs, nil)),
		Fetcher: &icalsync.Fetcher{Policy: e.feeds.policy(), Timeout: 2 * time.Second}})
	e.feeds.set("s3cr3t-t0ken", calendar("-//Google Inc//Google Calendar 70.9054//EN",
		"BEGIN:VEVENT\nDTSTART;VALUE=DATE:20260610\nDTEND;VALUE=DATE:20260612\nRRULE:FREQ=YEARLY;BYWEEKNO=24\nUID:odd@google.com\nSUMMARY:Owner\nEND:VEVENT\n"))
	f := e.addFeed(t, "Google", "s3cr3t-t0ken")
	res := e.syncNow(t, f)
	if len(res.Warnings) != 1 || res.Warnings[0].UID != "odd@google.com" {
		t.Errorf("warnings %+v, want one about odd@google.com", res.Warnings)
	}
	if got, want := e.unavailableNights(t, "2026-06-01", "2026-07-01"), nights("2026-06-10", "2026-06-12"); !slices.Equal(got, want) {
		t.Errorf("unavailable nights %v, want the first occurrence %v", got, want)
	}
	out := logs.String()
	if !strings.Contains(out, "feed_id="+strconv.FormatInt(f.ID, 10)) || !strings.Contains(out, "odd@google.com") {
		t.Errorf("log %q names neither the feed nor the event", out)
	}
	if strings.Contains(out, "s3cr3t") {
		t.Errorf("log %q holds the feed's URL", out)
	}
}
