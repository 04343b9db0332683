package icalsync_test

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/outbound"
)

// TestAirbnbImportBlocksAndRemovalFrees: an Airbnb reservation and an
// "Airbnb (Not available)" block stop checkouts here and show unavailable;
// when Airbnb drops the reservation (how it cancels), the nights are free.
func TestAirbnbImportBlocksAndRemovalFrees(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("airbnb", calendar("-//Airbnb Inc//Hosting Calendar 0.8.8//EN",
		event("1418fb94e984-aaaa@airbnb.com", "20260610", "20260614", "Reserved"),
		event("7f3a5c1e2b9d-bbbb@airbnb.com", "20260620", "20260622", "Airbnb (Not available)")))
	f := e.addFeed(t, "Airbnb", "airbnb")
	res := e.syncNow(t, f)
	if res.Events != 2 || len(res.Blocks) != 2 || len(res.Conflicts) != 0 {
		t.Fatalf("sync = %+v, want 2 events, 2 blocks, no conflict", res)
	}
	_, err := e.checkout("2026-06-12", "2026-06-15")
	wantCode(t, err, booking.CodeUnavailable)
	_, err = e.checkout("2026-06-21", "2026-06-23")
	wantCode(t, err, booking.CodeUnavailable)
	got := e.unavailableNights(t, "2026-06-01", "2026-06-30")
	want := append(nights("2026-06-10", "2026-06-14"), nights("2026-06-20", "2026-06-22")...)
	if !slices.Equal(got, want) {
		t.Errorf("unavailable nights %v, want %v", got, want)
	}
	if _, err := e.checkout("2026-06-14", "2026-06-16"); err != nil {
		t.Errorf("checkout on the check-out day of the import: %v", err)
	}

	e.feeds.set("airbnb", calendar("-//Airbnb Inc//Hosting Calendar 0.8.8//EN",
		event("7f3a5c1e2b9d-bbbb@airbnb.com", "20260620", "20260622", "Airbnb (Not available)")))
	res = e.syncNow(t, f)
	if len(res.Plan.Remove) != 1 || len(res.Blocks) != 1 {
		t.Fatalf("second sync = %+v, want one block removed, one left", res)
	}
	if _, err := e.checkout("2026-06-10", "2026-06-13"); err != nil {
		t.Errorf("checkout of nights Airbnb released: %v", err)
	}
	fd, err := e.store.Feed(t.Context(), e.org.ID, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	if fd.EventsImported != 1 || fd.LastError != "" || !fd.LastSuccessAt.Equal(start) ||
		fd.NextPollAt.Before(start.Add(15*time.Minute)) || fd.NextPollAt.After(start.Add(16*time.Minute+30*time.Second)) {
		t.Errorf("feed status %+v, want 1 event, no error, success now, next poll in 15 minutes plus at most 90 s of jitter", fd)
	}
	if ua := e.feeds.lastRequest().Header.Get("User-Agent"); !strings.Contains(ua, "staykit") {
		t.Errorf("User-Agent %q does not name staykit", ua)
	}
}

// TestBookingComChangedEventMoves: a Booking.com event whose dates change
// keeps its block, which moves; the old nights are free.
func TestBookingComChangedEventMoves(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("bcom", calendar("-//admin.booking.com//EN", event("2c9e3d1f0a5b4c6d@booking.com", "20260610", "20260614", "CLOSED - Not available")))
	f := e.addFeed(t, "Booking.com", "bcom")
	first := e.syncNow(t, f)
	e.feeds.set("bcom", calendar("-//admin.booking.com//EN", event("2c9e3d1f0a5b4c6d@booking.com", "20260616", "20260619", "CLOSED - Not available")))
	second := e.syncNow(t, f)
	if len(second.Plan.Move) != 1 || len(second.Blocks) != 1 || second.Blocks[0].ID != first.Blocks[0].ID ||
		second.Blocks[0].Start != day("2026-06-16") || second.Blocks[0].End != day("2026-06-19") {
		t.Fatalf("after the change: %+v, want block %d moved to 16–19 June", second, first.Blocks[0].ID)
	}
	if got, want := e.unavailableNights(t, "2026-06-01", "2026-06-30"), nights("2026-06-16", "2026-06-19"); !slices.Equal(got, want) {
		t.Errorf("unavailable nights %v, want %v", got, want)
	}
}

// TestVrboRotatingUIDsAndSilentRemoval: Vrbo gives events new UIDs at each
// export: the same dates keep their block; an event that silently
// disappears frees its nights.
func TestVrboRotatingUIDsAndSilentRemoval(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("vrbo", calendar("-//HomeAway.com, Inc.//NONSGML Calendar//EN",
		event("a1b2-1@vrbo.com", "20260610", "20260612", "Reserved"), event("a1b2-2@vrbo.com", "20260615", "20260618", "Reserved")))
	f := e.addFeed(t, "Vrbo", "vrbo")
	first := e.syncNow(t, f)
	e.feeds.set("vrbo", calendar("-//HomeAway.com, Inc.//NONSGML Calendar//EN",
		event("c3d4-7@vrbo.com", "20260610", "20260612", "Reserved"), event("c3d4-8@vrbo.com", "20260615", "20260618", "Reserved")))
	second := e.syncNow(t, f)
	if len(second.Plan.Add) != 0 || len(second.Plan.Remove) != 0 || len(second.Blocks) != 2 ||
		second.Blocks[0].ID != first.Blocks[0].ID || second.Blocks[1].ID != first.Blocks[1].ID || second.Blocks[0].UID != "c3d4-7@vrbo.com" {
		t.Fatalf("after UIDs rotated: plan %+v blocks %+v, want the same blocks with the new UIDs", second.Plan, second.Blocks)
	}
	e.feeds.set("vrbo", calendar("-//HomeAway.com, Inc.//NONSGML Calendar//EN", event("e5f6-9@vrbo.com", "20260615", "20260618", "Reserved")))
	third := e.syncNow(t, f)
	if len(third.Blocks) != 1 || third.Blocks[0].ID != first.Blocks[1].ID {
		t.Fatalf("after a silent removal: %+v", third.Blocks)
	}
	if _, err := e.checkout("2026-06-10", "2026-06-12"); err != nil {
		t.Errorf("checkout of the nights Vrbo dropped: %v", err)
	}
}

// TestConflictReportedNotApplied: an imported event overlapping a booking
// confirmed here is not applied; the booking stays, the feed shows the
// conflict and the host is told once.
func TestConflictReportedNotApplied(t *testing.T) {
	e := newEnv(t)
	b := e.confirmed(t, "2026-06-08", "2026-06-11")
	e.feeds.set("airbnb", calendar("-//Airbnb Inc//Hosting Calendar 0.8.8//EN",
		event("x@airbnb.com", "20260609", "20260612", "Reserved"), event("y@airbnb.com", "20260620", "20260622", "Reserved")))
	f := e.addFeed(t, "Airbnb", "airbnb")
	res := e.syncNow(t, f)
	if len(res.Conflicts) != 1 || res.Conflicts[0].BookingID != b.ID || res.Conflicts[0].UID != "x@airbnb.com" || len(res.Blocks) != 1 {
		t.Fatalf("sync = %+v, want the overlapping event as a conflict with booking %d and the other applied", res, b.ID)
	}
	got, err := e.store.BookingByID(t.Context(), b.ID)
	if err != nil || got.Status != booking.StatusConfirmed {
		t.Fatalf("booking after the conflict: %+v, %v; want it confirmed", got, err)
	}
	if k := e.notified.kinds(); !slices.Equal(k, []string{booking.NotifyCalendarConflict}) {
		t.Errorf("notifications %v, want one calendar conflict", k)
	}
	n := e.notified.sent[0]
	if n.Booking.ID != b.ID || n.Conflict == nil || n.Conflict.Start != day("2026-06-09") || n.Organization.ID != e.org.ID {
		t.Errorf("notification %+v, want the booking and the conflicting event", n)
	}
	list, err := e.store.FeedConflicts(t.Context(), f.ID)
	if err != nil || len(list) != 1 {
		t.Fatalf("feed conflicts %+v, %v", list, err)
	}
	// The night 11 June (after the booking) stays free: the event was not
	// applied at all.
	if _, err := e.checkout("2026-06-11", "2026-06-13"); err != nil {
		t.Errorf("checkout of a night only the conflicting event claimed: %v", err)
	}
	e.feeds.set("airbnb", calendar("-//Airbnb Inc//Hosting Calendar 0.8.8//EN",
		event("x@airbnb.com", "20260609", "20260612", "Reserved"), event("y@airbnb.com", "20260620", "20260622", "Reserved"),
		event("z@airbnb.com", "20260701", "20260703", "Reserved")))
	e.syncNow(t, f)
	if k := e.notified.kinds(); len(k) != 1 {
		t.Errorf("notifications after the same conflict again: %v, want still one", k)
	}
	// The outbox holds the conflict once, for the host's e-mail and
	// webhooks.
	far := time.Now().Add(24 * 365 * time.Hour)
	events, err := e.store.ClaimOutboxEvents(t.Context(), far, far.Add(time.Minute), 100)
	if err != nil {
		t.Fatal(err)
	}
	var conflicts int
	for _, ev := range events {
		if ev.Kind == booking.NotifyCalendarConflict && ev.BookingID == b.ID {
			conflicts++
		}
	}
	if conflicts != 1 {
		t.Errorf("%d calendar conflict events in the outbox, want 1", conflicts)
	}
}

// TestNotModifiedAndPolling: the poller fetches a feed when due,
// conditionally; a 304 changes nothing but counts as a success.
func TestNotModifiedAndPolling(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("airbnb", calendar("-//Airbnb//EN", event("a@airbnb.com", "20260610", "20260614", "Reserved")))
	f := e.addFeed(t, "Airbnb", "airbnb")
	n, err := e.sync.Poll(t.Context())
	if err != nil || n != 1 {
		t.Fatalf("first poll: %d, %v; want the new feed synced", n, err)
	}
	if n, _ := e.sync.Poll(t.Context()); n != 0 {
		t.Fatalf("a second poll at once synced %d feeds, want 0 (not due)", n)
	}
	e.clock.Advance(14 * time.Minute)
	if n, _ := e.sync.Poll(t.Context()); n != 0 {
		t.Fatalf("a poll after 14 minutes synced %d feeds, want 0", n)
	}
	e.clock.Advance(3 * time.Minute)
	if n, _ := e.sync.Poll(t.Context()); n != 1 {
		t.Fatalf("a poll after 17 minutes (15 and at most 1.5 of jitter) synced %d feeds, want 1", n)
	}
	if e.feeds.lastRequest().Header.Get("If-None-Match") == "" {
		t.Error("the second fetch was not conditional")
	}
	fd, _ := e.store.Feed(t.Context(), e.org.ID, f.ID)
	if !fd.LastSuccessAt.Equal(e.clock.Now()) || fd.EventsImported != 1 {
		t.Errorf("after a 304: %+v, want a success now and the event still counted", fd)
	}
	if blocks, _ := e.store.FeedBlocks(t.Context(), f.ID); len(blocks) != 1 {
		t.Errorf("blocks after a 304: %+v", blocks)
	}
}

// TestNewURLPolledAtOnce: a feed whose URL the host changes is fetched at
// the poller's next round, not a poll interval later; a change that keeps
// the URL leaves the schedule alone.
func TestNewURLPolledAtOnce(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("old", calendar("-//Airbnb//EN", event("a@airbnb.com", "20260610", "20260614", "Reserved")))
	e.feeds.set("new", calendar("-//Airbnb//EN", event("b@airbnb.com", "20260620", "20260623", "Reserved")))
	f := e.addFeed(t, "Airbnb", "old")
	if n, err := e.sync.Poll(t.Context()); err != nil || n != 1 {
		t.Fatalf("first poll: %d, %v; want the new feed synced", n, err)
	}
	e.clock.Advance(time.Minute)
	stored, err := e.store.Feed(t.Context(), e.org.ID, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	stored.Name = "Airbnb villa"
	if err := e.store.UpdateFeed(t.Context(), stored, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if n, _ := e.sync.Poll(t.Context()); n != 0 {
		t.Fatalf("a poll after a rename synced %d feeds, want 0 (not due)", n)
	}
	stored.URL = e.feeds.url("new")
	if err := e.store.UpdateFeed(t.Context(), stored, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if n, err := e.sync.Poll(t.Context()); err != nil || n != 1 {
		t.Fatalf("a poll right after the URL change synced %d feeds (%v), want 1", n, err)
	}
	if got, want := e.unavailableNights(t, "2026-06-01", "2026-06-30"), nights("2026-06-20", "2026-06-23"); !slices.Equal(got, want) {
		t.Errorf("unavailable nights %v, want %v (the new URL's event only)", got, want)
	}
}

// TestNewURLFetchedUnconditionally: after the host points a feed at another
// URL, the first fetch of it does not send the old URL's ETag. The new
// source answers 304 to that ETag (a server whose tags are not unique to
// one calendar), so a conditional fetch would never import it.
func TestNewURLFetchedUnconditionally(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("old", calendar("-//Airbnb//EN", event("a@airbnb.com", "20260610", "20260614", "Reserved")))
	f := e.addFeed(t, "Airbnb", "old")
	e.syncNow(t, f)
	stored, err := e.store.Feed(t.Context(), e.org.ID, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	oldETag := stored.ETag
	if oldETag == "" {
		t.Fatal("the first sync stored no ETag")
	}
	newBody := strings.ReplaceAll(calendar("-//Airbnb//EN", event("b@airbnb.com", "20260620", "20260623", "Reserved")), "\n", "\r\n")
	e.feeds.handle("new", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", oldETag)
		if r.Header.Get("If-None-Match") == oldETag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "text/calendar")
		_, _ = w.Write([]byte(newBody))
	})

	stored.URL = e.feeds.url("new")
	if err := e.store.UpdateFeed(t.Context(), stored, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	res := e.syncNow(t, f)
	if inm := e.feeds.lastRequest().Header.Get("If-None-Match"); inm != "" {
		t.Errorf("the first fetch of the new URL sent If-None-Match %s, want none", inm)
	}
	if res.NotModified || len(res.Blocks) != 1 || res.Blocks[0].UID != "b@airbnb.com" {
		t.Fatalf("sync of the new URL = %+v, want its one event imported and the old URL's removed", res)
	}
	if got, want := e.unavailableNights(t, "2026-06-01", "2026-06-30"), nights("2026-06-20", "2026-06-23"); !slices.Equal(got, want) {
		t.Errorf("unavailable nights %v, want %v", got, want)
	}
}

// TestHostileFeeds: a feed that is huge, malformed, slow, not a calendar,
// or redirects to a private address changes nothing; the failure is
// recorded on the feed.
func TestHostileFeeds(t *testing.T) {
	good := calendar("-//Airbnb//EN", event("a@airbnb.com", "20260610", "20260614", "Reserved"))
	tests := []struct {
		name    string
		handler http.HandlerFunc
		errText string
	}{
		{"Huge", func(w http.ResponseWriter, _ *http.Request) {
			chunk := []byte(strings.Repeat("BEGIN:VEVENT\r\nUID:x\r\nDTSTART;VALUE=DATE:20260701\r\nEND:VEVENT\r\n", 100))
			_, _ = w.Write([]byte("BEGIN:VCALENDAR\r\n"))
			for range 200 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}, "larger than"},
		// Fifteen daily events over a two-year horizon: more occurrences
		// than a feed may expand to.
		{"RecurrenceBomb", func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
			for i := range 15 {
				_, _ = fmt.Fprintf(w, "BEGIN:VEVENT\r\nUID:bomb-%d\r\nDTSTART;VALUE=DATE:20260601\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\n", i)
			}
			_, _ = w.Write([]byte("END:VCALENDAR\r\n"))
		}, "too many occurrences"},
		{"Malformed", func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nthis is not a content line\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
		}, "line 4 is not valid iCalendar"},
		{"NotACalendar", func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte("<html><body>Maintenance</body></html>"))
		}, "not an iCalendar"},
		{"ServerError", func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "boom", http.StatusInternalServerError)
		}, "HTTP 500"},
		{"Slow", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, "deadline"},
		{"RedirectToPrivateAddress", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://10.1.2.3/latest/meta-data/", http.StatusFound)
		}, "private or reserved network"},
		{"RedirectToLinkLocal", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://169.254.169.254/latest/meta-data/", http.StatusFound)
		}, "private or reserved network"},
		{"RedirectToFTP", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "ftp://example.com/cal.ics", http.StatusFound)
		}, "Only https"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.sync = icalsync.New(icalsync.Options{Store: e.store, Clock: e.clock, Notifier: e.notified,
				Fetcher: &icalsync.Fetcher{Policy: e.feeds.policy(), Timeout: 300 * time.Millisecond, MaxBytes: 64 << 10}})
			e.feeds.set("feed", good)
			f := e.addFeed(t, "Channel", "feed")
			before := e.syncNow(t, f).Blocks
			e.feeds.handle("feed", tt.handler)
			e.clock.Advance(time.Hour)
			_, err := e.sync.SyncFeed(t.Context(), e.org.ID, f.ID)
			if err == nil {
				t.Fatalf("sync of a hostile feed succeeded, want an error about %q", tt.errText)
			}
			after, _ := e.store.FeedBlocks(t.Context(), f.ID)
			if !slices.Equal(after, before) {
				t.Errorf("blocks changed: %+v, want %+v", after, before)
			}
			fd, _ := e.store.Feed(t.Context(), e.org.ID, f.ID)
			if !strings.Contains(fd.LastError, tt.errText) || !fd.LastAttemptAt.Equal(e.clock.Now()) || !fd.LastSuccessAt.Equal(start) ||
				!fd.LeaseUntil.IsZero() {
				t.Errorf("feed after the failure %+v, want the error, this attempt, the earlier success, no lease", fd)
			}
		})
	}
}

// TestFetcherRefusesInternalAddresses: with the zero Policy a feed on
// loopback is refused, plain http before any request and https when
// dialling, whatever its name; allowing its exact host:port lets it
// through over http, and nothing else: not the same server under another
// name, not another private address.
func TestFetcherRefusesInternalAddresses(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("feed", calendar("-//x//EN"))
	strict := &icalsync.Fetcher{Timeout: time.Second}
	_, err := strict.Fetch(t.Context(), e.feeds.url("feed"), "", "")
	var refusal *outbound.Refusal
	if !errors.As(err, &refusal) || refusal.Scheme != "http" {
		t.Errorf("plain http: %v, want refused for its scheme", err)
	}
	tlsURL := strings.Replace(e.feeds.url("feed"), "http://", "https://", 1)
	for _, u := range []string{tlsURL, strings.Replace(tlsURL, "127.0.0.1", "localhost", 1),
		strings.Replace(tlsURL, "127.0.0.1", "[::ffff:127.0.0.1]", 1)} {
		_, err = strict.Fetch(t.Context(), u, "", "")
		if !errors.Is(err, icalsync.ErrForbiddenAddress) {
			t.Errorf("%s: %v, want ErrForbiddenAddress", u, err)
		}
	}
	allowed := &icalsync.Fetcher{Timeout: time.Second, Policy: e.feeds.policy()}
	if resp, err := allowed.Fetch(t.Context(), e.feeds.url("feed"), "", ""); err != nil || !strings.Contains(string(resp.Body), "VCALENDAR") {
		t.Fatalf("the allowed host:port over http: %v", err)
	}
	for _, u := range []string{strings.Replace(e.feeds.url("feed"), "127.0.0.1", "localhost", 1), "http://10.0.0.1/feed.ics",
		"https://169.254.169.254/latest/meta-data/"} {
		if _, err := allowed.Fetch(t.Context(), u, "", ""); !errors.Is(err, icalsync.ErrForbiddenAddress) {
			t.Errorf("%s with only the feed server allowed: %v, want ErrForbiddenAddress", u, err)
		}
	}
}

// TestEndIsLastNight: a feed whose DTEND is the last night blocks that
// night too.
func TestEndIsLastNight(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("other", calendar("-//Other//EN", event("o1", "20260610", "20260612", "Booked")))
	f := &feed.Feed{OrgID: e.org.ID, PropertyID: e.prop.ID, Name: "Other", URL: e.feeds.url("other"), Active: true, EndIsLastNight: true}
	if err := e.sync.AddFeed(t.Context(), f); err != nil {
		t.Fatal(err)
	}
	e.syncNow(t, f)
	if got, want := e.unavailableNights(t, "2026-06-01", "2026-06-30"), nights("2026-06-10", "2026-06-13"); !slices.Equal(got, want) {
		t.Errorf("unavailable nights %v, want %v", got, want)
	}
}

// TestRemoveFeedFreesNights: removing a feed removes its blocks.
func TestRemoveFeedFreesNights(t *testing.T) {
	e := newEnv(t)
	e.feeds.set("airbnb", calendar("-//Airbnb//EN", event("a@airbnb.com", "20260610", "20260614", "Reserved")))
	f := e.addFeed(t, "Airbnb", "airbnb")
	e.syncNow(t, f)
	if err := e.sync.RemoveFeed(t.Context(), e.org.ID, f.ID); err != nil {
		t.Fatal(err)
	}
	if got := e.unavailableNights(t, "2026-06-01", "2026-06-30"); len(got) != 0 {
		t.Errorf("unavailable nights after the feed was removed: %v", got)
	}
}
