package ical_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	goical "github.com/arran4/golang-ical"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/ical"
)

func day(s string) civil.Date { return civil.MustParse(s) }

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// crlf turns a fixture written with \n into CRLF lines.
func crlf(s string) []byte {
	return []byte(strings.ReplaceAll(strings.TrimLeft(s, "\n"), "\n", "\r\n"))
}

func same(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s\n got: %s\nwant: %s", what, g, w)
	}
}

// airbnbFeed is shaped like an Airbnb listing's export: reservations
// "Reserved", blocked nights "Airbnb (Not available)", a description line
// longer than 75 octets and not folded.
const airbnbFeed = `
BEGIN:VCALENDAR
PRODID;X-RICAL-TZSOURCE=TZINFO:-//Airbnb Inc//Hosting Calendar 0.8.8//EN
CALSCALE:GREGORIAN
VERSION:2.0
BEGIN:VEVENT
DTEND;VALUE=DATE:20260614
DTSTART;VALUE=DATE:20260610
UID:1418fb94e984-d3c4a0b1f0a0c3b5c7e2a9f1@airbnb.com
DESCRIPTION:Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMABCDEF12\nPhone Number (Last 4 Digits): 1234
SUMMARY:Reserved
END:VEVENT
BEGIN:VEVENT
DTEND;VALUE=DATE:20260720
DTSTART;VALUE=DATE:20260715
UID:7f3a5c1e2b9d-8e1f2a3b4c5d6e7f8a9b0c1d@airbnb.com
SUMMARY:Airbnb (Not available)
END:VEVENT
END:VCALENDAR
`

// bookingComFeed is shaped like Booking.com's: METHOD, DTSTAMP, "CLOSED -
// Not available" summaries.
const bookingComFeed = `
BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//admin.booking.com//EN
CALSCALE:GREGORIAN
METHOD:PUBLISH
BEGIN:VEVENT
UID:2c9e3d1f0a5b4c6d@booking.com
DTSTAMP:20260301T100000Z
DTSTART;VALUE=DATE:20260801
DTEND;VALUE=DATE:20260805
SUMMARY:CLOSED - Not available
END:VEVENT
END:VCALENDAR
`

func TestParseChannels(t *testing.T) {
	paris := zone(t, "Europe/Paris")
	tests := []struct {
		name string
		feed string
		want []ical.Event
	}{
		{"Airbnb", airbnbFeed, []ical.Event{
			{UID: "1418fb94e984-d3c4a0b1f0a0c3b5c7e2a9f1@airbnb.com", Start: day("2026-06-10"), End: day("2026-06-14"), Summary: "Reserved"},
			{UID: "7f3a5c1e2b9d-8e1f2a3b4c5d6e7f8a9b0c1d@airbnb.com", Start: day("2026-07-15"), End: day("2026-07-20"), Summary: "Airbnb (Not available)"},
		}},
		{"BookingCom", bookingComFeed, []ical.Event{
			{UID: "2c9e3d1f0a5b4c6d@booking.com", Start: day("2026-08-01"), End: day("2026-08-05"), Summary: "CLOSED - Not available"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ical.Parse(crlf(tt.feed), ical.ParseOptions{Location: paris})
			if err != nil {
				t.Fatal(err)
			}
			same(t, "events", got, tt.want)
		})
	}
}

// vevent wraps event lines in a calendar.
func vevent(lines ...string) []byte {
	return crlf("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\nBEGIN:VEVENT\n" + strings.Join(lines, "\n") + "\nEND:VEVENT\nEND:VCALENDAR\n")
}

func TestParseTolerates(t *testing.T) {
	paris := zone(t, "Europe/Paris")
	long := strings.Repeat("x", 600)
	tests := []struct {
		name string
		feed []byte
		opts ical.ParseOptions
		want []ical.Event
	}{
		{"JunkAroundTheCalendar", append(append([]byte("<!-- cache hit -->\r\nHTTP junk\r\n"),
			vevent("UID:a", "DTSTART;VALUE=DATE:20260610", "DTEND;VALUE=DATE:20260612")...), []byte("\r\ntrailing junk\r\n")...),
			ical.ParseOptions{}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-12")}}},
		{"BareLineFeedsAndBlankLines", []byte("BEGIN:VCALENDAR\n\nVERSION:2.0\nBEGIN:VEVENT\nUID:a\nDTSTART;VALUE=DATE:20260610\nDTEND;VALUE=DATE:20260612\nEND:VEVENT\nEND:VCALENDAR"),
			ical.ParseOptions{}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-12")}}},
		{"UnfoldedLongLine", vevent("UID:a", "DESCRIPTION:"+long, "DTSTART;VALUE=DATE:20260610", "DTEND;VALUE=DATE:20260612"),
			ical.ParseOptions{}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-12")}}},
		{"FoldedLine", vevent("UID:a", "SUMMARY:Not ", " available", "DTSTART;VALUE=DATE:20260610", "DTEND;VALUE=DATE:20260612"),
			ical.ParseOptions{}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-12"), Summary: "Not available"}}},
		{"DateWithoutValueParameter", vevent("UID:a", "DTSTART:20260610", "DTEND:20260612"),
			ical.ParseOptions{}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-12")}}},
		{"MissingDTEND/OneNight", vevent("UID:a", "DTSTART;VALUE=DATE:20260610"),
			ical.ParseOptions{}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-11")}}},
		{"MissingDTEND/Duration", vevent("UID:a", "DTSTART;VALUE=DATE:20260610", "DURATION:P3D"),
			ical.ParseOptions{}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-13")}}},
		{"MissingDTEND/DurationWeeks", vevent("UID:a", "DTSTART;VALUE=DATE:20260610", "DURATION:P1W"),
			ical.ParseOptions{}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-17")}}},
		{"EndNotAfterStart/OneNight", vevent("UID:a", "DTSTART;VALUE=DATE:20260610", "DTEND;VALUE=DATE:20260610"),
			ical.ParseOptions{}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-11")}}},
		{"Cancelled", vevent("UID:a", "STATUS:CANCELLED", "DTSTART;VALUE=DATE:20260610", "DTEND;VALUE=DATE:20260612"),
			ical.ParseOptions{}, nil},
		{"NoStart", vevent("UID:a", "SUMMARY:nothing"), ical.ParseOptions{}, nil},
		{"MissingUID", vevent("DTSTART;VALUE=DATE:20260610", "DTEND;VALUE=DATE:20260612"),
			ical.ParseOptions{}, []ical.Event{{UID: "staykit-nouid-2026-06-10-2026-06-12", Start: day("2026-06-10"), End: day("2026-06-12")}}},
		{"EndIsLastNight", vevent("UID:a", "DTSTART;VALUE=DATE:20260610", "DTEND;VALUE=DATE:20260612"),
			ical.ParseOptions{EndIsLastNight: true}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-13")}}},
		{"EndIsLastNight/SingleDay", vevent("UID:a", "DTSTART;VALUE=DATE:20260610"),
			ical.ParseOptions{EndIsLastNight: true}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-11")}}},
		// DATE-TIME: the property's dates of the instants.
		{"DateTimeUTC/LateEveningIsNextDayInParis", vevent("UID:a", "DTSTART:20260609T223000Z", "DTEND:20260611T090000Z"),
			ical.ParseOptions{Location: paris}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-11")}}},
		{"DateTimeTZID", vevent("UID:a", "DTSTART;TZID=America/New_York:20260610T200000", "DTEND;TZID=America/New_York:20260612T100000"),
			ical.ParseOptions{Location: paris}, []ical.Event{{UID: "a", Start: day("2026-06-11"), End: day("2026-06-12")}}},
		{"DateTimeFloatingIsPropertyTime", vevent("UID:a", "DTSTART:20260610T150000", "DTEND:20260612T110000"),
			ical.ParseOptions{Location: paris}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-12")}}},
		{"DateTimeSameDay/OneNight", vevent("UID:a", "DTSTART:20260610T100000", "DTEND:20260610T120000"),
			ical.ParseOptions{Location: paris}, []ical.Event{{UID: "a", Start: day("2026-06-10"), End: day("2026-06-11")}}},
		// DST: Paris springs forward on 2026-03-29 and falls back on
		// 2026-10-25; the ambiguous 02:30 on 25 October is still that day.
		{"DST/AllDayAcrossSpringForward", vevent("UID:a", "DTSTART;VALUE=DATE:20260328", "DTEND;VALUE=DATE:20260330"),
			ical.ParseOptions{Location: paris}, []ical.Event{{UID: "a", Start: day("2026-03-28"), End: day("2026-03-30")}}},
		{"DST/AmbiguousHourOnFallBack", vevent("UID:a", "DTSTART;TZID=Europe/Paris:20261025T023000", "DTEND;TZID=Europe/Paris:20261027T100000"),
			ical.ParseOptions{Location: paris}, []ical.Event{{UID: "a", Start: day("2026-10-25"), End: day("2026-10-27")}}},
		{"DST/MidnightUTCBeforeSpringForward", vevent("UID:a", "DTSTART:20260328T230000Z", "DTEND:20260329T220000Z"),
			ical.ParseOptions{Location: paris}, []ical.Event{{UID: "a", Start: day("2026-03-29"), End: day("2026-03-30")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ical.Parse(tt.feed, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			same(t, "events", got, tt.want)
		})
	}
}

// TestParseAllDayNeverShifted: a DATE value is the same civil date in
// every property zone, however far from UTC.
func TestParseAllDayNeverShifted(t *testing.T) {
	feed := vevent("UID:a", "DTSTART;VALUE=DATE:20260101", "DTEND;VALUE=DATE:20260102")
	for _, name := range []string{"Pacific/Kiritimati", "Pacific/Pago_Pago", "America/Los_Angeles", "Asia/Kolkata", "UTC"} {
		got, err := ical.Parse(feed, ical.ParseOptions{Location: zone(t, name)})
		if err != nil {
			t.Fatal(err)
		}
		same(t, name, got, []ical.Event{{UID: "a", Start: day("2026-01-01"), End: day("2026-01-02")}})
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct {
		name string
		feed []byte
	}{
		{"HTMLErrorPage", []byte("<html><body>502 Bad Gateway</body></html>")},
		{"Empty", nil},
		{"Truncated", []byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\n")},
		{"GarbageLineInside", vevent("UID:a", "this is not a content line", "DTSTART;VALUE=DATE:20260610")},
		{"BinaryNoise", append([]byte("BEGIN:VCALENDAR\r\n\x00\x01\x02\xff\r\n"), []byte("END:VCALENDAR\r\n")...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ical.Parse(tt.feed, ical.ParseOptions{})
			if err == nil {
				t.Fatalf("Parse = %+v, nil; want an error", got)
			}
		})
	}
	if _, err := ical.Parse([]byte("<html></html>"), ical.ParseOptions{}); !errors.Is(err, ical.ErrNotCalendar) {
		t.Errorf("HTML page: %v, want ErrNotCalendar", err)
	}
}

func TestDiff(t *testing.T) {
	fb := func(id int64, uid, in, out string) feed.Block {
		return feed.Block{ID: id, UID: uid, Start: day(in), End: day(out)}
	}
	ev := func(uid, in, out string) ical.Event { return ical.Event{UID: uid, Start: day(in), End: day(out)} }
	tests := []struct {
		name     string
		existing []feed.Block
		events   []ical.Event
		want     ical.Plan
	}{
		{"FirstImport", nil, []ical.Event{ev("a", "2026-06-10", "2026-06-12")},
			ical.Plan{Add: []feed.Block{fb(0, "a", "2026-06-10", "2026-06-12")}}},
		{"Unchanged", []feed.Block{fb(1, "a", "2026-06-10", "2026-06-12")}, []ical.Event{ev("a", "2026-06-10", "2026-06-12")},
			ical.Plan{Unchanged: 1}},
		{"ChangedEventMoves", []feed.Block{fb(1, "a", "2026-06-10", "2026-06-12")}, []ical.Event{ev("a", "2026-06-11", "2026-06-15")},
			ical.Plan{Move: []feed.Block{fb(1, "a", "2026-06-11", "2026-06-15")}}},
		{"DisappearedIsRemoved", []feed.Block{fb(1, "a", "2026-06-10", "2026-06-12"), fb(2, "b", "2026-07-01", "2026-07-02")},
			[]ical.Event{ev("a", "2026-06-10", "2026-06-12")}, ical.Plan{Remove: []int64{2}, Unchanged: 1}},
		{"EmptyFeedRemovesAll", []feed.Block{fb(1, "a", "2026-06-10", "2026-06-12")}, nil, ical.Plan{Remove: []int64{1}}},
		{"RotatedUIDsMatchByDates", []feed.Block{fb(1, "vrbo-1", "2026-06-10", "2026-06-12"), fb(2, "vrbo-2", "2026-07-01", "2026-07-05")},
			[]ical.Event{ev("vrbo-9", "2026-06-10", "2026-06-12"), ev("vrbo-8", "2026-07-01", "2026-07-05")},
			ical.Plan{Move: []feed.Block{fb(1, "vrbo-9", "2026-06-10", "2026-06-12"), fb(2, "vrbo-8", "2026-07-01", "2026-07-05")}}},
		{"RotatedUIDsAndOneGone", []feed.Block{fb(1, "vrbo-1", "2026-06-10", "2026-06-12"), fb(2, "vrbo-2", "2026-07-01", "2026-07-05")},
			[]ical.Event{ev("vrbo-9", "2026-07-01", "2026-07-05")},
			ical.Plan{Remove: []int64{1}, Move: []feed.Block{fb(2, "vrbo-9", "2026-07-01", "2026-07-05")}}},
		{"UIDMatchWinsOverDates", []feed.Block{fb(1, "a", "2026-06-10", "2026-06-12"), fb(2, "b", "2026-06-20", "2026-06-22")},
			[]ical.Event{ev("b", "2026-06-10", "2026-06-12")},
			ical.Plan{Remove: []int64{1}, Move: []feed.Block{fb(2, "b", "2026-06-10", "2026-06-12")}}},
		{"DuplicateUIDsKeptApart", nil, []ical.Event{ev("a", "2026-06-10", "2026-06-12"), ev("a", "2026-07-10", "2026-07-12")},
			ical.Plan{Add: []feed.Block{fb(0, "a", "2026-06-10", "2026-06-12"), fb(0, "a#2", "2026-07-10", "2026-07-12")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			same(t, "plan", ical.Diff(tt.existing, tt.events), tt.want)
		})
	}
}

func TestWrite(t *testing.T) {
	stamp := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	cal := ical.Calendar{Name: "Gîte du lac — la grande maison au bord de l'eau, vue sur les montagnes", Events: []ical.ExportEvent{
		{UID: "booking-1@staykit", Start: day("2026-03-28"), End: day("2026-03-30"), Summary: ical.SummaryReserved, Stamp: stamp},
		{UID: "block-7@staykit", Start: day("2026-06-10"), End: day("2026-06-14"), Summary: ical.SummaryNotAvailable, Stamp: stamp},
	}}
	var buf bytes.Buffer
	if err := ical.Write(&buf, cal); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasSuffix(out, "\r\n") || strings.Contains(strings.ReplaceAll(out, "\r\n", ""), "\n") {
		t.Errorf("lines do not all end in CRLF:\n%q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n")
	folded := false
	for _, l := range lines {
		if len(l) > 75 {
			t.Errorf("line of %d octets: %q", len(l), l)
		}
		folded = folded || strings.HasPrefix(l, " ")
	}
	if !folded {
		t.Error("the long calendar name was not folded")
	}
	for _, want := range []string{"BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + ical.ProductID, "BEGIN:VEVENT",
		"UID:booking-1@staykit", "DTSTAMP:20260301T100000Z", "DTSTART;VALUE=DATE:20260328", "DTEND;VALUE=DATE:20260330",
		"SUMMARY:Reserved", "UID:block-7@staykit", "DTEND;VALUE=DATE:20260614", "END:VCALENDAR"} {
		if !containsLine(lines, want) {
			t.Errorf("no line %q in\n%s", want, out)
		}
	}
	// The library validates it, and it reads back as the same nights in
	// any zone.
	parsed, err := goical.ParseCalendar(strings.NewReader(out))
	if err != nil {
		t.Fatalf("golang-ical refuses the export: %v", err)
	}
	if n := len(parsed.Events()); n != 2 {
		t.Errorf("golang-ical reads %d events, want 2", n)
	}
	for _, e := range parsed.Events() {
		for _, p := range []goical.ComponentProperty{goical.ComponentPropertyUniqueId, goical.ComponentPropertyDtstamp,
			goical.ComponentPropertyDtStart, goical.ComponentPropertyDtEnd} {
			if e.GetProperty(p) == nil {
				t.Errorf("event %s has no %s", e.Id(), p)
			}
		}
	}
	back, err := ical.Parse(buf.Bytes(), ical.ParseOptions{Location: zone(t, "Pacific/Auckland")})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "read back", back, []ical.Event{
		{UID: "booking-1@staykit", Start: day("2026-03-28"), End: day("2026-03-30"), Summary: "Reserved"},
		{UID: "block-7@staykit", Start: day("2026-06-10"), End: day("2026-06-14"), Summary: "Not available"},
	})
	var again bytes.Buffer
	if err := ical.Write(&again, cal); err != nil || again.String() != out {
		t.Errorf("a second Write differs (err %v): the output must depend on the calendar only", err)
	}
}

func containsLine(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

func TestWriteRefusesEmptyRange(t *testing.T) {
	err := ical.Write(&bytes.Buffer{}, ical.Calendar{Events: []ical.ExportEvent{{UID: "x", Start: day("2026-06-10"), End: day("2026-06-10")}}})
	if err == nil {
		t.Error("Write accepted an event ending when it starts")
	}
}
