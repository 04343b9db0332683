package icalsync_test

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/icalsync"
)

// TestLegacyCharsetFeedsImport: a calendar in Windows-1252 with Windows
// time-zone names (Outlook, Exchange) and one served with its charset in
// the Content-Type are imported whole, their summaries decoded.
func TestLegacyCharsetFeedsImport(t *testing.T) {
	e := newEnv(t)
	e.feeds.handle("outlook", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/calendar")
		_, _ = w.Write([]byte("BEGIN:VCALENDAR\r\nPRODID:Microsoft Exchange Server 2010\r\nVERSION:2.0\r\n" +
			"X-WR-CALNAME:Calendrier de H\xe9l\xe8ne\r\n" +
			"BEGIN:VEVENT\r\nUID:ex-1\r\nSUMMARY:R\xe9serv\xe9\r\n" +
			"DTSTART;TZID=Romance Standard Time:20260610T160000\r\nDTEND;TZID=Romance Standard Time:20260614T100000\r\n" +
			"END:VEVENT\r\nEND:VCALENDAR\r\n"))
	})
	e.feeds.handle("latin2", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/calendar; charset=ISO-8859-2")
		_, _ = w.Write([]byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:pl-1\r\nSUMMARY:Zarezerwowane \xb3\xf3d\xbf\r\n" +
			"DTSTART;VALUE=DATE:20260620\r\nDTEND;VALUE=DATE:20260622\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
	})
	for path, want := range map[string]feed.Block{
		"outlook": {UID: "ex-1", Start: day("2026-06-10"), End: day("2026-06-14"), Summary: "Réservé"},
		"latin2":  {UID: "pl-1", Start: day("2026-06-20"), End: day("2026-06-22"), Summary: "Zarezerwowane łódż"},
	} {
		f := e.addFeed(t, path, path)
		res := e.syncNow(t, f)
		if len(res.Blocks) != 1 {
			t.Fatalf("%s: blocks %+v, want one", path, res.Blocks)
		}
		got := res.Blocks[0]
		got.ID = 0
		if got != want {
			t.Errorf("%s: block %+v, want %+v", path, got, want)
		}
	}
}

// TestTooManySingleEventsRefused: a feed of more single events than a feed
// may hold changes nothing, and the host reads why.
func TestTooManySingleEventsRefused(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("feed", calendar("-//x//EN", event("a", "20260610", "20260612", "Reserved")))
	f := e.addFeed(t, "Channel", "feed")
	before := e.syncNow(t, f).Blocks
	var b strings.Builder
	for i := range 10_001 {
		b.WriteString(event(fmt.Sprintf("e%d", i), "20260701", "20260702", "x"))
	}
	e.feeds.set("feed", calendar("-//x//EN", b.String()))
	if _, err := e.sync.SyncFeed(t.Context(), e.org.ID, f.ID); err == nil {
		t.Fatal("a feed of 10,001 single events was imported")
	}
	after, _ := e.store.FeedBlocks(t.Context(), f.ID)
	if !slices.Equal(after, before) {
		t.Errorf("blocks changed: %+v, want %+v", after, before)
	}
	fd, _ := e.store.Feed(t.Context(), e.org.ID, f.ID)
	if !strings.Contains(fd.LastError, "more events than staykit reads") || !strings.Contains(fd.LastError, "10001 events") {
		t.Errorf("last error %q, want the cap and the count", fd.LastError)
	}
}

// TestRefusedFeedURLIsNotStored: a feed URL the fetcher would refuse
// without connecting (plain http, a private address, localhost) is not
// stored: the error says which field and why.
func TestRefusedFeedURLIsNotStored(t *testing.T) {
	e := newEnv(t)
	strict := icalsync.New(icalsync.Options{Store: e.store, Clock: e.clock})
	for url, reason := range map[string]string{
		e.feeds.url("feed"):                       "https_required",
		"https://10.0.0.7/cal.ics":                "private_address",
		"https://[::ffff:169.254.169.254]/latest": "private_address",
		"https://localhost:8443/cal.ics":          "private_address",
	} {
		err := strict.AddFeed(t.Context(), &feed.Feed{OrgID: e.org.ID, PropertyID: e.prop.ID, Name: "x", URL: url, Active: true})
		wantCode(t, err, booking.CodeInvalid)
		var be *booking.Error
		if !errors.As(err, &be) || !slices.Equal(be.Fields["url"], []string{reason}) {
			t.Errorf("%s: %v, want the url field refused as %s", url, err, reason)
		}
	}
	if list, _ := strict.Feeds(t.Context(), e.org.ID); len(list) != 0 {
		t.Errorf("refused feeds were stored: %+v", list)
	}
	// The operator's allowed target is accepted, over http.
	if err := e.sync.AddFeed(t.Context(), &feed.Feed{OrgID: e.org.ID, PropertyID: e.prop.ID, Name: "x",
		URL: e.feeds.url("feed"), Active: true}); err != nil {
		t.Errorf("the allowed feed server: %v", err)
	}
}
