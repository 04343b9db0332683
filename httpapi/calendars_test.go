package httpapi_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/store/cache"
)

// TestAvailabilityKeptPerVersion: over the read model a calendar is
// computed and encoded once per version of what it shows, and every
// change shows at once: after each kind of write through the read model
// (a checkout, a block, a price, an iCal import, the property's rules, the
// organisation), when a hold lapses, when the same-day cutoff passes and
// at local midnight — with the read model's entries still fresh (an hour),
// so only the version explains a change — each calendar and its ETag are
// byte for byte what a handler without the read model answers. A write
// behind the read model's back shows only once it reads again (the
// calendar is kept meanwhile).
func TestAvailabilityKeptPerVersion(t *testing.T) {
	ctx := context.Background()
	e := newTestEnv(t)
	// The read model's ages are of the real clock: the fake one moves by
	// hours and days below, and the entries stay fresh.
	rm := cache.New(e.Store.Stores(), e.Store, cache.Options{MaxAge: time.Hour})
	svc := booking.NewService(booking.Options{Stores: rm.Stores(), Payments: e.Pay, Clock: e.Clock})
	h := httpapi.New(httpapi.Options{Service: svc, Logger: discardLogger(),
		Money: money.New(svc, money.Options{Store: rm.Stores(), Payments: e.Pay, Clock: e.Clock})})
	org, err := rm.OrganizationBySlug(ctx, "villa")
	if err != nil {
		t.Fatal(err)
	}
	cabaneID := e.Props["cabane"]
	base := "/api/v1/book/villa/properties/"
	paths := []string{
		base + strconv.FormatInt(cabaneID, 10) + "/availability",
		base + strconv.FormatInt(cabaneID, 10) + "/availability?months=2",
		base + strconv.FormatInt(cabaneID, 10) + "/availability?from=2026-09&months=1",
		base + strconv.FormatInt(e.Props["soleil"], 10) + "/availability?months=5",
	}
	get := func(h http.Handler, path string) response {
		t.Helper()
		r := do(t, h, call{method: "GET", path: path})
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", path, r.Status, r.Body)
		}
		return r
	}
	// same compares every calendar with the store's, twice (the second
	// from what the first kept), and returns the store's first one.
	same := func(step string) string {
		t.Helper()
		for _, p := range paths {
			want := get(e.Handler, p)
			for range 2 {
				got := get(h, p)
				if string(got.Body) != string(want.Body) {
					t.Fatalf("%s, %s:\nread model %s\nstore      %s", step, p, got.Body, want.Body)
				}
				if got.Header.Get("ETag") != want.Header.Get("ETag") {
					t.Fatalf("%s, %s: ETag %s, want %s", step, p, got.Header.Get("ETag"), want.Header.Get("ETag"))
				}
			}
		}
		return string(get(e.Handler, paths[0]).Body)
	}
	// changed: the step changed the calendar (else it proved nothing).
	changed := func(step, before, after string) {
		t.Helper()
		if before == after {
			t.Fatalf("fixture: %s did not change the calendar", step)
		}
	}
	first := same("first")

	// A checkout holds the nights until its hold lapses.
	if r := do(t, h, call{method: "POST", path: "/api/v1/book/villa/checkout",
		body: checkoutBody(cabaneID, "2026-05-10", "2026-05-13")}); r.Status != 201 {
		t.Fatalf("checkout: %d %s", r.Status, r.Body)
	}
	held := same("after a checkout")
	changed("the checkout", first, held)
	e.Clock.Advance(10 * time.Minute)
	if within := same("within the hold"); within != held {
		t.Fatal("the calendar changed within the hold")
	}
	e.Clock.Advance(time.Duration(org.HoldMinutes) * time.Minute)
	changed("the hold's lapse", held, same("after the hold lapsed"))

	// A block, a price of the host's calendar, the rate plan.
	before := same("before the block")
	if err := rm.AddBlock(ctx, cabaneID, &booking.Block{Start: day("2026-05-20"), End: day("2026-05-23")}, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	after := same("after a block")
	changed("the block", before, after)
	price := dec("95")
	if err := rm.Stores().ApplyCalendar(ctx, org.ID, cabaneID, booking.CalendarChange{
		From: day("2026-05-25"), To: day("2026-05-27"), Price: &price}, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	before, after = after, same("after a price of the calendar")
	changed("the calendar's price", before, after)
	p, err := rm.Property(ctx, org.ID, cabaneID)
	if err != nil {
		t.Fatal(err)
	}
	p.Rates.BaseRate = dec("85")
	if err := rm.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	before, after = after, same("after the rate plan's change")
	changed("the rate plan", before, after)

	// An iCal import.
	feeds := rm.Feeds(e.Store.DB)
	f := &feed.Feed{OrgID: org.ID, PropertyID: cabaneID, Name: "Airbnb", URL: "https://example.com/a.ics", Active: true}
	if err := feeds.CreateFeed(ctx, f, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	claimed, err := feeds.ClaimFeed(ctx, org.ID, f.ID, e.Clock.Now(), e.Clock.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := feeds.ApplyFeedSync(ctx, feed.Sync{FeedID: f.ID, Lease: claimed.LeaseUntil, At: e.Clock.Now(),
		Add: []feed.Block{{UID: "x@airbnb", Start: day("2026-06-03"), End: day("2026-06-05")}}, Events: 1,
		NextPollAt: e.Clock.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	before, after = after, same("after an iCal import")
	changed("the iCal import", before, after)

	// The same-day cutoff: arrivals today until 14:00 in Paris (it is
	// 12:40 there).
	p, err = rm.Property(ctx, org.ID, cabaneID)
	if err != nil {
		t.Fatal(err)
	}
	p.Rates.Rules.SameDayCutoffHour = intp(14)
	if err := rm.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	before = same("with a same-day cutoff")
	if h := e.Clock.Now().In(org.Location()).Hour(); h != 12 {
		t.Fatalf("fixture: %d:00 in Paris, want 12:00", h)
	}
	e.Clock.Advance(time.Hour)
	if got := same("before the cutoff"); got != before {
		t.Fatal("the calendar changed before the cutoff")
	}
	e.Clock.Advance(time.Hour)
	after = same("after the cutoff")
	changed("the cutoff", before, after)

	// Local midnight (22:00 UTC in May): today moves.
	now := e.Clock.Now()
	midnight := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, org.Location())
	e.Clock.Advance(midnight.Sub(now) - time.Minute)
	before = same("a minute before midnight")
	e.Clock.Advance(2 * time.Minute)
	after = same("a minute after midnight")
	changed("midnight", before, after)

	// The organisation's limits.
	org.MinStayNights = intp(3)
	if err := rm.UpdateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	before, after = after, same("after the organisation's write")
	changed("the organisation's limits", before, after)

	// Behind its back: the calendar kept stays until the read model reads
	// again (else nothing was kept, and the rest proved nothing).
	kept := string(get(h, paths[0]).Body)
	if err := e.Store.DB.AddBlock(ctx, cabaneID, &booking.Block{Start: day("2026-06-10"), End: day("2026-06-12")}, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	if got := string(get(h, paths[0]).Body); got != kept {
		t.Errorf("a write behind the read model's back shows before it reads again:\n%s", got)
	}
	if got := string(get(e.Handler, paths[0]).Body); got == kept {
		t.Error("fixture: the block behind the read model's back changed nothing")
	}
}

// TestAvailabilityNotModifiedWhenKept: a calendar served from what was
// kept carries the same ETag, and a client that has it gets a 304.
func TestAvailabilityNotModifiedWhenKept(t *testing.T) {
	e := newTestEnv(t)
	rm := cache.New(e.Store.Stores(), e.Store, cache.Options{MaxAge: time.Hour})
	svc := booking.NewService(booking.Options{Stores: rm.Stores(), Payments: e.Pay, Clock: e.Clock})
	h := httpapi.New(httpapi.Options{Service: svc, Logger: discardLogger(),
		Money: money.New(svc, money.Options{Store: rm.Stores(), Payments: e.Pay, Clock: e.Clock})})
	path := "/api/v1/book/villa/properties/" + strconv.FormatInt(e.Props["cabane"], 10) + "/availability"
	var tag string
	for i := range 3 {
		r := do(t, h, call{method: "GET", path: path})
		if r.Status != 200 || r.Header.Get("ETag") == "" {
			t.Fatalf("request %d: %d, ETag %q", i, r.Status, r.Header.Get("ETag"))
		}
		if tag != "" && r.Header.Get("ETag") != tag {
			t.Fatalf("request %d: ETag %s, want %s", i, r.Header.Get("ETag"), tag)
		}
		tag = r.Header.Get("ETag")
	}
	r := do(t, h, call{method: "GET", path: path, header: map[string]string{"If-None-Match": tag}})
	if r.Status != http.StatusNotModified || len(r.Body) != 0 {
		t.Fatalf("with the ETag: %d %q, want 304 without a body", r.Status, r.Body)
	}
}
