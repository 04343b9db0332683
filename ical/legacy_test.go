package ical_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/ical"
)

// outlookFeed is shaped like a calendar Outlook publishes from a French
// Windows machine: Windows-1252 text (é, ü, the apostrophe ’ as 0x92)
// with no charset said anywhere, Windows time-zone names as TZID with
// their VTIMEZONE, folded lines.
const outlookFeed = "BEGIN:VCALENDAR\r\n" +
	"METHOD:PUBLISH\r\n" +
	"PRODID:Microsoft Exchange Server 2010\r\n" +
	"VERSION:2.0\r\n" +
	"X-WR-CALNAME:Calendrier de H\xe9l\xe8ne\r\n" +
	"BEGIN:VTIMEZONE\r\n" +
	"TZID:W. Europe Standard Time\r\n" +
	"BEGIN:STANDARD\r\n" +
	"DTSTART:16010101T030000\r\n" +
	"TZOFFSETFROM:+0200\r\n" +
	"TZOFFSETTO:+0100\r\n" +
	"RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10\r\n" +
	"END:STANDARD\r\n" +
	"END:VTIMEZONE\r\n" +
	"BEGIN:VEVENT\r\n" +
	"ORGANIZER;CN=Andr\xe9 M\xfcller:mailto:andre@example.com\r\n" +
	"DESCRIPTION:S\xe9jour d\x92Andr\xe9\\n\r\n" +
	"UID:040000008200E00074C5B7101A82E00800000000A1B2C3D4E5F6A701000000000000000010\r\n" +
	" 00000012345678\r\n" +
	"SUMMARY;LANGUAGE=fr-FR:R\xe9serv\xe9\r\n" +
	"DTSTART;TZID=W. Europe Standard Time:20260610T160000\r\n" +
	"DTEND;TZID=W. Europe Standard Time:20260614T100000\r\n" +
	"END:VEVENT\r\n" +
	"BEGIN:VEVENT\r\n" +
	"UID:tokyo-1\r\n" +
	"SUMMARY:Propri\xe9taire\r\n" +
	"DTSTART;TZID=\"Tokyo Standard Time\":20260620T050000\r\n" +
	"DTEND;TZID=\"Tokyo Standard Time\":20260622T050000\r\n" +
	"END:VEVENT\r\n" +
	"END:VCALENDAR\r\n"

// TestOutlookFeedInWindows1252: the feed is read whole, its text decoded
// (a warning says the charset was guessed), and its Windows zones mapped
// to IANA ones: 05:00 in Tokyo is 22:00 the day before in Paris.
func TestOutlookFeedInWindows1252(t *testing.T) {
	f, err := ical.ParseFeed([]byte(outlookFeed), ical.ParseOptions{Location: zone(t, "Europe/Paris")})
	if err != nil {
		t.Fatalf("ParseFeed: %v", err)
	}
	same(t, "events", f.Events, []ical.Event{
		{UID: "040000008200E00074C5B7101A82E00800000000A1B2C3D4E5F6A70100000000000000001000000012345678",
			Start: day("2026-06-10"), End: day("2026-06-14"), Summary: "Réservé"},
		{UID: "tokyo-1", Start: day("2026-06-19"), End: day("2026-06-21"), Summary: "Propriétaire"},
	})
	if len(f.Warnings) != 1 || !strings.Contains(f.Warnings[0].Problem, "Windows-1252") {
		t.Errorf("warnings = %v, want one saying the charset was guessed", f.Warnings)
	}
}

// TestDeclaredCharsets: a charset the feed was served with, or a line's
// CHARSET parameter, decodes the lines that are not UTF-8, without a
// warning; a line in UTF-8 stays UTF-8 whatever is declared.
func TestDeclaredCharsets(t *testing.T) {
	tests := []struct {
		name, charset, summaryLine, want string
	}{
		{"ContentTypeLatin2", "ISO-8859-2", "SUMMARY:Zarezerwowane \xb3\xf3d\xbf", "Zarezerwowane łódż"},
		{"ParamGreek", "", "SUMMARY;CHARSET=ISO-8859-7:\xca\xf1\xdc\xf4\xe7\xf3\xe7", "Κράτηση"},
		{"ParamBeatsContentType", "windows-1252", "SUMMARY;CHARSET=koi8-r:\xe2\xd2\xcf\xce\xd8", "Бронь"},
		{"UTF8DespiteLatin1", "ISO-8859-1", "SUMMARY:Réservé", "Réservé"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			feed := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\n" + tt.summaryLine +
				"\r\nDTSTART;VALUE=DATE:20260610\r\nDTEND;VALUE=DATE:20260612\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
			f, err := ical.ParseFeed([]byte(feed), ical.ParseOptions{Charset: tt.charset})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Events) != 1 || f.Events[0].Summary != tt.want || len(f.Warnings) != 0 {
				t.Errorf("events %+v, warnings %v; want the summary %q and no warning", f.Events, f.Warnings, tt.want)
			}
		})
	}
}

// TestUTF16Feed: a feed saved as UTF-16 (with its byte-order mark) is read.
func TestUTF16Feed(t *testing.T) {
	text := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMMARY:Réservé\r\nDTSTART;VALUE=DATE:20260610\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	le := []byte{0xFF, 0xFE}
	for _, r := range text {
		le = append(le, byte(r), byte(r>>8))
	}
	f, err := ical.ParseFeed(le, ical.ParseOptions{})
	if err != nil || len(f.Events) != 1 || f.Events[0].Summary != "Réservé" {
		t.Fatalf("ParseFeed: %+v, %v", f, err)
	}
}

// TestParseErrorNamesTheRealLine: a line that is not a content line is
// reported with its number in the document as fetched, counting the junk
// before the calendar, blank lines and folded lines, and without quoting
// its text.
func TestParseErrorNamesTheRealLine(t *testing.T) {
	feed := "<!-- served by a proxy -->\r\n\r\n" + // lines 1-2
		"BEGIN:VCALENDAR\r\n" + // 3
		"VERSION:2.0\r\n" + // 4
		"X-WR-CALNAME:Long name folded\r\n" + // 5
		" over two lines\r\n" + // 6
		"\r\n" + // 7
		"BEGIN:VEVENT\r\n" + // 8
		"UID:a\r\n" + // 9
		"DTSTART;VALUE=DATE:20260610\r\n" + // 10
		"Phone 06 12 34 56 78 of the guest\r\n" + // 11
		"END:VEVENT\r\n" +
		"END:VCALENDAR\r\n"
	for _, body := range []string{feed, strings.ReplaceAll(feed, "\r\n", "\n")} {
		_, err := ical.ParseFeed([]byte(body), ical.ParseOptions{})
		var le *ical.LineError
		if !errors.As(err, &le) || le.Line != 11 {
			t.Fatalf("ParseFeed: %v, want a LineError at line 11", err)
		}
		if msg := err.Error(); !strings.Contains(msg, "line 11") || strings.Contains(msg, "06 12") {
			t.Errorf("error %q: want line 11 named and the line's text not quoted", msg)
		}
	}
}

// TestUnknownTimeZoneIsAWarning: a TZID naming no zone, IANA or Windows,
// does not refuse the feed: its times are read in the property's zone and
// a warning names it, once.
func TestUnknownTimeZoneIsAWarning(t *testing.T) {
	feed := crlf(`
BEGIN:VCALENDAR
BEGIN:VEVENT
UID:a
DTSTART;TZID=Mars Standard Time:20260610T150000
DTEND;TZID=Mars Standard Time:20260612T100000
END:VEVENT
BEGIN:VEVENT
UID:b
DTSTART;TZID=Mars Standard Time:20260701T150000
END:VEVENT
BEGIN:VEVENT
UID:c
DTSTART;TZID=Local:20260801T000000
END:VEVENT
END:VCALENDAR
`)
	f, err := ical.ParseFeed(feed, ical.ParseOptions{Location: zone(t, "Europe/Paris")})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Events) != 3 || f.Events[0].Start != day("2026-06-10") || f.Events[0].End != day("2026-06-12") ||
		f.Events[2].Start != day("2026-08-01") {
		t.Errorf("events = %+v", f.Events)
	}
	if len(f.Warnings) != 2 || !strings.Contains(f.Warnings[0].Problem, `"Mars Standard Time" is not known`) ||
		!strings.Contains(f.Warnings[1].Problem, `"Local" is not known`) {
		t.Errorf("warnings = %v, want one naming each zone, the server's local zone not being one", f.Warnings)
	}
}

// TestWindowsZones: CLDR's table maps the names Outlook writes, and every
// zone it names loads here.
func TestWindowsZones(t *testing.T) {
	for name, want := range map[string]string{
		"Tokyo Standard Time": "Asia/Tokyo", "W. Europe Standard Time": "Europe/Berlin",
		"Romance Standard Time": "Europe/Paris", "Eastern Standard Time": "America/New_York",
		"GMT Standard Time": "Europe/London", "AUS Eastern Standard Time": "Australia/Sydney",
		"UTC": "Etc/UTC", "romance standard time": "Europe/Paris",
	} {
		if got, ok := ical.WindowsZone(name); !ok || got != want {
			t.Errorf("WindowsZone(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	if _, ok := ical.WindowsZone("Mars Standard Time"); ok {
		t.Error("an unknown name is mapped")
	}
	for _, name := range ical.WindowsZoneNames() {
		zone, _ := ical.WindowsZone(name)
		if _, err := time.LoadLocation(zone); err != nil {
			t.Errorf("%s: zone %s does not load: %v", name, zone, err)
		}
	}
	if n := len(ical.WindowsZoneNames()); n < 130 {
		t.Errorf("%d Windows zones, want CLDR's whole table", n)
	}
}

// TestSingleEventsCapped: events that do not recur are capped like
// occurrences: a feed holding more than MaxEvents of them is refused with
// their count, by default past DefaultMaxEvents.
func TestSingleEventsCapped(t *testing.T) {
	feed := func(n int) []byte {
		var b strings.Builder
		b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
		start := day("2026-06-01")
		for i := range n {
			d := start.AddDays(i % 3000)
			fmt.Fprintf(&b, "BEGIN:VEVENT\r\nUID:e%d\r\nDTSTART;VALUE=DATE:%s\r\nEND:VEVENT\r\n",
				i, strings.ReplaceAll(d.String(), "-", ""))
		}
		b.WriteString("END:VCALENDAR\r\n")
		return []byte(b.String())
	}
	if f, err := ical.ParseFeed(feed(5), ical.ParseOptions{MaxEvents: 5}); err != nil || len(f.Events) != 5 {
		t.Fatalf("at the cap: %v", err)
	}
	_, err := ical.ParseFeed(feed(6), ical.ParseOptions{MaxEvents: 5})
	if !errors.Is(err, ical.ErrTooManyEvents) || !strings.Contains(err.Error(), "6 events") {
		t.Fatalf("over the cap: %v, want ErrTooManyEvents counting 6 events", err)
	}
	_, err = ical.ParseFeed(feed(ical.DefaultMaxEvents+1), ical.ParseOptions{})
	if !errors.Is(err, ical.ErrTooManyEvents) {
		t.Fatalf("%d single events with the default cap: %v, want ErrTooManyEvents", ical.DefaultMaxEvents+1, err)
	}
}
