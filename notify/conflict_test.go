package notify_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/outbound"
)

// TestCalendarConflictReachesWebhooks: an imported event overlapping a
// booking is an outbox event at once, which the worker's next round
// delivers to the endpoints that want calendar.conflict (and not to one
// that wants only other events), with the booking it overlaps.
func TestCalendarConflictReachesWebhooks(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo", "en") // 2026-06-08 to 2026-06-11
	all, _ := newReceiver(t, e, 0)
	e.process(t) // the booking's own events
	all.events = nil
	only := &receiver{}
	ep := e.addEndpoint(t, "demo", newHTTPServer(t, only))
	only.secret = ep.Secret
	ep.EventTypes = []string{booking.NotifyCalendarConflict}
	if err := e.store.SaveWebhookEndpoint(t.Context(), &ep); err != nil {
		t.Fatal(err)
	}
	other := &receiver{}
	oep := e.addEndpoint(t, "demo", newHTTPServer(t, other))
	other.secret = oep.Secret
	oep.EventTypes = []string{booking.NotifyCancelled}
	if err := e.store.SaveWebhookEndpoint(t.Context(), &oep); err != nil {
		t.Fatal(err)
	}

	src := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x@airbnb.com\r\n" +
			"DTSTART;VALUE=DATE:20260609\r\nDTEND;VALUE=DATE:20260612\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
	}))
	t.Cleanup(src.Close)
	syncer := icalsync.New(icalsync.Options{Store: e.store, Clock: e.clock,
		Fetcher: &icalsync.Fetcher{Policy: outbound.Policy{AllowPrivate: true}}})
	f := &feed.Feed{OrgID: e.orgs["demo"], PropertyID: b.PropertyID, Name: "Airbnb", URL: src.URL, Active: true}
	if err := syncer.AddFeed(t.Context(), f); err != nil {
		t.Fatal(err)
	}
	res, err := syncer.SyncFeed(t.Context(), f.OrgID, f.ID)
	if err != nil || len(res.Conflicts) != 1 {
		t.Fatalf("sync = %+v, %v; want one conflict", res, err)
	}
	// At once: the clock has not moved.
	e.process(t)
	for name, r := range map[string]*receiver{"every event": all, "calendar.conflict only": only} {
		if len(r.events) != 1 || r.events[0].Type != booking.NotifyCalendarConflict || r.events[0].Data.Booking == nil ||
			r.events[0].Data.Booking.ID != b.ID {
			t.Errorf("endpoint for %s received %+v, want one calendar.conflict about booking %d", name, r.events, b.ID)
		}
	}
	if other.calls != 0 {
		t.Errorf("an endpoint for booking.cancelled only was called %d times", other.calls)
	}
}
