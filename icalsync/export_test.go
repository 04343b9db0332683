package icalsync_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	goical "github.com/arran4/golang-ical"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/ical"
	"github.com/staykit/staykit/icalsync"
)

// get fetches a path of h with headers.
func get(t *testing.T, h http.Handler, path string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestExportHoldsExactlyNativeBookingsAndBlocks: the export has one
// all-day event per booking holding dates and per host block, with
// exclusive DTEND, nothing of the guest, no cancelled booking, no
// imported event; it validates with golang-ical.
func TestExportHoldsExactlyNativeBookingsAndBlocks(t *testing.T) {
	e := newEnv(t)
	confirmed := e.confirmed(t, "2026-06-08", "2026-06-11")
	_, err := e.checkout("2026-06-12", "2026-06-14")
	if err != nil {
		t.Fatal(err)
	}
	cancelled := e.confirmed(t, "2026-06-15", "2026-06-17")
	if _, err := e.store.Transition(t.Context(), cancelled.ID, booking.Transition{From: []booking.Status{booking.StatusConfirmed},
		To: booking.StatusCancelled, At: e.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	block := &booking.Block{Start: day("2026-07-01"), End: day("2026-07-05"), Reason: "family"}
	if err := e.store.AddBlock(t.Context(), e.prop.ID, block, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	e.feeds.set("airbnb", calendar("-//Airbnb//EN", event("imported@airbnb.com", "20260801", "20260805", "Reserved")))
	e.syncNow(t, e.addFeed(t, "Airbnb", "airbnb"))

	tok, err := e.sync.ExportToken(t.Context(), e.org.ID, e.prop.ID)
	if err != nil {
		t.Fatal(err)
	}
	h := &icalsync.Handler{Store: e.store, Clock: e.clock}
	resp := get(t, h, icalsync.ExportPath(tok.Token))
	text := body(t, resp)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/calendar") ||
		resp.Header.Get("ETag") == "" || resp.Header.Get("Last-Modified") == "" {
		t.Fatalf("export: %d %v", resp.StatusCode, resp.Header)
	}
	for _, secret := range []string{"Camille", "camille@example.com", "+33612345678", "612345678", confirmed.Token, "family", "imported@airbnb.com"} {
		if strings.Contains(text, secret) {
			t.Errorf("the export contains %q", secret)
		}
	}
	if _, err := goical.ParseCalendar(strings.NewReader(text)); err != nil {
		t.Fatalf("golang-ical refuses the export: %v", err)
	}
	got, err := ical.Parse([]byte(text), ical.ParseOptions{Location: e.org.Location()})
	if err != nil {
		t.Fatal(err)
	}
	want := []ical.Event{
		{Start: day("2026-06-08"), End: day("2026-06-11"), Summary: ical.SummaryReserved},
		{Start: day("2026-06-12"), End: day("2026-06-14"), Summary: ical.SummaryReserved},
		{Start: day("2026-07-01"), End: day("2026-07-05"), Summary: ical.SummaryNotAvailable},
	}
	if !slices.Equal(withoutUIDs(got), want) {
		t.Errorf("exported events\n got %+v\nwant %+v", got, want)
	}
	if !strings.Contains(text, "DTEND;VALUE=DATE:20260611\r\n") {
		t.Errorf("no exclusive DTEND 20260611 (the check-out day) in\n%s", text)
	}

	// The pending hold lapses: it leaves the export.
	e.clock.Advance(time.Hour)
	again := get(t, h, icalsync.ExportPath(tok.Token))
	got, _ = ical.Parse([]byte(body(t, again)), ical.ParseOptions{})
	if len(got) != 2 || again.Header.Get("ETag") == resp.Header.Get("ETag") {
		t.Errorf("after the hold lapsed: %d events, ETag %s (was %s); want 2 and a new ETag", len(got), again.Header.Get("ETag"), resp.Header.Get("ETag"))
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// withoutUIDs is events with their UIDs left out.
func withoutUIDs(events []ical.Event) []ical.Event {
	out := slices.Clone(events)
	for i := range out {
		out[i].UID = ""
	}
	return out
}

// TestExportUIDsOpaqueAndStable: an event's UID carries no booking or
// block ID (IDs count the whole deployment's bookings), is the same at
// every export, and differs from every other event's.
func TestExportUIDsOpaqueAndStable(t *testing.T) {
	e := newEnv(t)
	first := e.confirmed(t, "2026-06-08", "2026-06-11")
	second := e.confirmed(t, "2026-06-12", "2026-06-14")
	block := &booking.Block{Start: day("2026-07-01"), End: day("2026-07-05")}
	if err := e.store.AddBlock(t.Context(), e.prop.ID, block, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	tok, err := e.sync.ExportToken(t.Context(), e.org.ID, e.prop.ID)
	if err != nil {
		t.Fatal(err)
	}
	h := &icalsync.Handler{Store: e.store, Clock: e.clock}
	uids := func() []string {
		events, err := ical.Parse([]byte(body(t, get(t, h, icalsync.ExportPath(tok.Token)))), ical.ParseOptions{})
		if err != nil || len(events) != 3 {
			t.Fatalf("export: %d events, %v; want 3", len(events), err)
		}
		var out []string
		for _, ev := range events {
			out = append(out, ev.UID)
		}
		return out
	}
	got := uids()
	opaque := regexp.MustCompile(`^[0-9a-f]{32}@staykit$`)
	for _, uid := range got {
		if !opaque.MatchString(uid) {
			t.Errorf("UID %q is not an opaque id", uid)
		}
		for _, id := range []int64{first.ID, second.ID, block.ID} {
			if strings.Contains(uid, "-"+itoa(id)+"@") {
				t.Errorf("UID %q carries an ID", uid)
			}
		}
		if strings.Contains(uid, first.Token) || strings.Contains(uid, second.Token) || strings.Contains(uid, tok.Token) {
			t.Errorf("UID %q carries a token", uid)
		}
	}
	if distinct := slices.Compact(slices.Sorted(slices.Values(got))); len(distinct) != len(got) {
		t.Errorf("UIDs %v are not distinct", got)
	}
	// Another export, an hour later: the same UIDs.
	e.clock.Advance(time.Hour)
	if later := uids(); !slices.Equal(later, got) {
		t.Errorf("UIDs of the next export %v, want %v again", later, got)
	}
}

// TestExportConditionalAndTokens: ETag and Last-Modified give 304; a
// change gives a new ETag; an unknown or rotated token is 404.
func TestExportConditionalAndTokens(t *testing.T) {
	e := newEnv(t)
	e.confirmed(t, "2026-06-08", "2026-06-11")
	tok, err := e.sync.ExportToken(t.Context(), e.org.ID, e.prop.ID)
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.sync.ExportToken(t.Context(), e.org.ID, e.prop.ID)
	if err != nil || again.Token != tok.Token {
		t.Fatalf("second ExportToken = %+v, %v; want the same token", again, err)
	}
	h := &icalsync.Handler{Store: e.store, Clock: e.clock}
	path := icalsync.ExportPath(tok.Token)
	first := get(t, h, path)
	etag, lastMod := first.Header.Get("ETag"), first.Header.Get("Last-Modified")
	e.clock.Advance(10 * time.Minute)
	if r := get(t, h, path, "If-None-Match", etag); r.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match with the ETag: %d, want 304", r.StatusCode)
	}
	if r := get(t, h, path, "If-Modified-Since", lastMod); r.StatusCode != http.StatusNotModified {
		t.Errorf("If-Modified-Since Last-Modified: %d, want 304", r.StatusCode)
	}
	if r := get(t, h, path); r.Header.Get("Last-Modified") != lastMod {
		t.Errorf("Last-Modified moved to %s without a change (was %s)", r.Header.Get("Last-Modified"), lastMod)
	}
	e.confirmed(t, "2026-06-20", "2026-06-22")
	changed := get(t, h, path, "If-None-Match", etag)
	if changed.StatusCode != http.StatusOK || changed.Header.Get("ETag") == etag {
		t.Errorf("after a new booking: %d ETag %s, want 200 and a new ETag", changed.StatusCode, changed.Header.Get("ETag"))
	}
	if r := get(t, h, path, "If-Modified-Since", lastMod); r.StatusCode != http.StatusOK {
		t.Errorf("If-Modified-Since the old Last-Modified after a change: %d, want 200", r.StatusCode)
	}
	for _, bad := range []string{"/ical/nope.ics", "/ical/" + tok.Token, "/ical/.ics"} {
		if r := get(t, h, bad); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", bad, r.StatusCode)
		}
	}
	rotated, err := e.sync.RotateExportToken(t.Context(), e.org.ID, e.prop.ID)
	if err != nil || rotated.Token == tok.Token || len(rotated.Token) < 26 {
		t.Fatalf("rotate: %+v, %v", rotated, err)
	}
	if r := get(t, h, path); r.StatusCode != http.StatusNotFound {
		t.Errorf("old token after rotation: %d, want 404", r.StatusCode)
	}
	if r := get(t, h, icalsync.ExportPath(rotated.Token)); r.StatusCode != http.StatusOK {
		t.Errorf("new token: %d, want 200", r.StatusCode)
	}
	req := httptest.NewRequest(http.MethodPost, icalsync.ExportPath(rotated.Token), nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", rec.Code)
	}
}

// TestRoundTrip: a property's export imported into a second
// organisation's property blocks the same nights there.
func TestRoundTrip(t *testing.T) {
	e := newEnv(t)
	e.confirmed(t, "2026-06-08", "2026-06-11")
	e.confirmed(t, "2026-06-11", "2026-06-13") // back to back
	if err := e.store.AddBlock(t.Context(), e.prop.ID, &booking.Block{Start: day("2026-07-01"), End: day("2026-07-05")}, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	tok, err := e.sync.ExportToken(t.Context(), e.org.ID, e.prop.ID)
	if err != nil {
		t.Fatal(err)
	}
	// The feed server hands every /feeds/staykit request to the export
	// handler, which reads the token from the last path segment.
	e.feeds.handle("staykit", func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path = icalsync.ExportPath(tok.Token)
		(&icalsync.Handler{Store: e.store, Clock: e.clock}).ServeHTTP(w, r2)
	})
	org2, prop2 := addOrg(t, e.store, "second")
	f := &feed.Feed{OrgID: org2.ID, PropertyID: prop2.ID, Name: "staykit demo", URL: e.feeds.url("staykit"), Active: true}
	if err := e.sync.AddFeed(t.Context(), f); err != nil {
		t.Fatal(err)
	}
	if _, err := e.sync.SyncFeed(t.Context(), org2.ID, f.ID); err != nil {
		t.Fatal(err)
	}
	from, to := day("2026-06-01"), day("2026-08-01")
	a, err := e.store.Occupied(t.Context(), e.prop.ID, from, to, e.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.store.Occupied(t.Context(), prop2.ID, from, to, e.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := nightSet(b), nightSet(a); !slices.Equal(got, want) || len(want) != 9 {
		t.Errorf("nights blocked in the second organisation %v, want %v (9 nights)", got, want)
	}
	// And the second organisation's own export does not send them back.
	tok2, err := e.sync.ExportToken(t.Context(), org2.ID, prop2.ID)
	if err != nil {
		t.Fatal(err)
	}
	events, _ := ical.Parse([]byte(body(t, get(t, &icalsync.Handler{Store: e.store, Clock: e.clock}, icalsync.ExportPath(tok2.Token)))), ical.ParseOptions{})
	if len(events) != 0 {
		t.Errorf("the importing property exports %+v, want nothing (imported events are not exported)", events)
	}
}

// nightSet lists the nights of holds, sorted, without duplicates.
func nightSet(ranges []booking.Hold) []string {
	var out []string
	for _, r := range ranges {
		for d := r.Start; d.Before(r.End); d = d.AddDays(1) {
			out = append(out, d.String())
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
