package icalsync_test

import (
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/ical"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// TestExportAndImportPerUnit (issue #27): each unit of a property has its
// own calendar (its stays, its blocks and the property's), at the
// property's URL with ?unit=; an imported feed belongs to a unit and
// blocks it alone; a linked property's holds appear as not available in
// the other's calendars.
func TestExportAndImportPerUnit(t *testing.T) {
	db := sqlitetest.Open(t)
	e := newEnvOn(t, seams(db))
	ctx := t.Context()
	studios := &booking.Property{OrgID: e.org.ID, Name: "Studios", MaxGuests: 2, Active: true,
		Rates: pricing.RatePlan{BaseRate: decimal.RequireFromString("70")}, Units: []booking.Unit{{Name: "S1"}, {Name: "S2"}}}
	if err := db.CreateProperty(ctx, studios); err != nil {
		t.Fatal(err)
	}
	s1, s2 := studios.Units[0].ID, studios.Units[1].ID
	stay := func(p *booking.Property, unit int64, in, out string) *booking.Booking {
		t.Helper()
		b := &booking.Booking{OrgID: p.OrgID, PropertyID: p.ID, UnitID: unit, Token: "t" + strconv.FormatInt(unit, 10) + in,
			CheckIn: day(in), CheckOut: day(out), Guests: 1, Currency: "EUR", PaymentMode: pricing.ModeFull,
			TotalAmount: decimal.RequireFromString("100"), ExpiresAt: e.clock.Now().Add(time.Hour)}
		if err := db.CreateBooking(ctx, b, booking.CreateOptions{Now: e.clock.Now()}); err != nil {
			t.Fatal(err)
		}
		return b
	}
	stay(studios, s1, "2026-06-10", "2026-06-12")
	stay(studios, s2, "2026-06-11", "2026-06-13")
	for _, b := range []booking.Block{{Start: day("2026-07-01"), End: day("2026-07-03"), UnitID: s2},
		{Start: day("2026-08-01"), End: day("2026-08-02")}} {
		if err := db.AddBlock(ctx, studios.ID, &b, e.clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	tok, err := e.sync.ExportToken(ctx, e.org.ID, studios.ID)
	if err != nil {
		t.Fatal(err)
	}
	h := &icalsync.Handler{Store: db, Clock: e.clock}
	ranges := func(path string) []civil.Range {
		t.Helper()
		resp := get(t, h, path)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		events, err := ical.Parse([]byte(body(t, resp)), ical.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var out []civil.Range
		for _, ev := range events {
			out = append(out, civil.Range{Start: ev.Start, End: ev.End})
		}
		return out
	}
	r := func(a, b string) civil.Range { return civil.Range{Start: day(a), End: day(b)} }
	base := icalsync.ExportPath(tok.Token)
	for _, tt := range []struct {
		name, path string
		want       []civil.Range
	}{
		{"the property: every stay", base, []civil.Range{r("2026-06-10", "2026-06-12"), r("2026-06-11", "2026-06-13"),
			r("2026-07-01", "2026-07-03"), r("2026-08-01", "2026-08-02")}},
		{"S1: its stay and the property's block", base + "?unit=" + strconv.FormatInt(s1, 10),
			[]civil.Range{r("2026-06-10", "2026-06-12"), r("2026-08-01", "2026-08-02")}},
		{"S2: its stay, its block and the property's", base + "?unit=" + strconv.FormatInt(s2, 10),
			[]civil.Range{r("2026-06-11", "2026-06-13"), r("2026-07-01", "2026-07-03"), r("2026-08-01", "2026-08-02")}},
	} {
		if got := ranges(tt.path); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	unitPath := base + "?unit=" + strconv.FormatInt(s1, 10)
	first := get(t, h, unitPath)
	if first.Header.Get("ETag") == "" || first.Header.Get("Last-Modified") != "" {
		t.Errorf("a unit's export: ETag %q, Last-Modified %q; want an ETag and no Last-Modified", first.Header.Get("ETag"), first.Header.Get("Last-Modified"))
	}
	if again := get(t, h, unitPath, "If-None-Match", first.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
		t.Errorf("a unit's export with its ETag: %d, want 304", again.StatusCode)
	}
	for _, bad := range []string{"?unit=" + strconv.FormatInt(e.prop.Units[0].ID, 10), "?unit=x", "?unit=-1"} {
		if resp := get(t, h, base+bad); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", bad, resp.StatusCode)
		}
	}

	// A channel's calendar of S1 blocks S1 alone: the night stays
	// available on S2.
	e.feeds.set("s1", calendar("-//Airbnb//EN", event("s1@airbnb.com", "20260901", "20260903", "Reserved")))
	f := &feed.Feed{OrgID: e.org.ID, PropertyID: studios.ID, UnitID: s1, Name: "S1 on Airbnb", URL: e.feeds.url("s1"), Active: true}
	if err := e.sync.AddFeed(ctx, f); err != nil {
		t.Fatal(err)
	}
	e.syncNow(t, f)
	cal, err := e.svc.Availability(ctx, e.org.Slug, studios.ID, booking.CalendarRequest{From: day("2026-09-01"), Months: 1})
	if err != nil {
		t.Fatal(err)
	}
	if d := cal.Days[0]; !d.Available || d.UnitsAvailable != 1 {
		t.Errorf("1 September with S1's channel event: available %v, units %d; want available on one unit", d.Available, d.UnitsAvailable)
	}

	// Linked: the villa is made of the studios.
	if _, err := db.Link(ctx, e.org.ID, e.prop.ID, studios.ID, civil.Of(e.clock.Now()), e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	villaTok, err := e.sync.ExportToken(ctx, e.org.ID, e.prop.ID)
	if err != nil {
		t.Fatal(err)
	}
	stay(e.prop, 0, "2026-10-01", "2026-10-05")
	resp := get(t, h, icalsync.ExportPath(villaTok.Token))
	events, err := ical.Parse([]byte(body(t, resp)), ical.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var summaries []string
	for _, ev := range events {
		summaries = append(summaries, ev.Start.String()+" "+ev.Summary)
	}
	want := []string{"2026-06-10 " + ical.SummaryNotAvailable, "2026-06-11 " + ical.SummaryNotAvailable,
		"2026-07-01 " + ical.SummaryNotAvailable, "2026-08-01 " + ical.SummaryNotAvailable, "2026-10-01 " + ical.SummaryReserved}
	if !slices.Equal(summaries, want) {
		t.Errorf("the villa's export: %v, want the studios' holds not available and its own stay reserved: %v", summaries, want)
	}
	if got := ranges(unitPath); !slices.Contains(got, r("2026-10-01", "2026-10-05")) {
		t.Errorf("S1's export lacks the villa's stay: %v", got)
	}
}
