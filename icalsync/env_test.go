package icalsync_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/outbound"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// start is the tests' "now": Monday 1 June 2026, 10:00 in Paris.
var start = time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)

func day(s string) civil.Date { return civil.MustParse(s) }

// env is a booking Service and a Syncer on one store, a fake clock, a
// recording notifier and a local feed server.
type env struct {
	store    testDB
	svc      *booking.Service
	sync     *icalsync.Syncer
	clock    *bookingtest.Clock
	notified *recorder
	feeds    *feedServer
	org      *booking.Organization
	prop     *booking.Property
}

// recorder records notifications.
type recorder struct {
	mu   sync.Mutex
	sent []booking.Notification
}

func (r *recorder) Notify(_ context.Context, n booking.Notification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, n)
	return nil
}

func (r *recorder) kinds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, n := range r.sent {
		out = append(out, n.Kind)
	}
	return out
}

// testDB is a store under test: every seam of one database.
type testDB struct {
	booking.Stores
	feed.FeedStore
}

// seams is db as a testDB.
func seams(db interface {
	Stores() booking.Stores
	feed.FeedStore
}) testDB {
	return testDB{Stores: db.Stores(), FeedStore: db}
}

func openSQLite(t *testing.T) testDB {
	t.Helper()
	db := sqlitetest.Open(t)
	return seams(db)
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvOn(t, openSQLite(t))
}

func newEnvOn(t *testing.T, store testDB) *env {
	t.Helper()
	e := &env{store: store, clock: bookingtest.NewClock(start), notified: &recorder{}, feeds: newFeedServer(t)}
	e.svc = booking.NewService(booking.Options{Stores: store.Stores, Payments: paymenttest.New(paymenttest.WithClock(e.clock.Now)),
		Clock: e.clock, Notifier: e.notified})
	e.sync = icalsync.New(icalsync.Options{Store: store, Clock: e.clock, Notifier: e.notified,
		Fetcher: &icalsync.Fetcher{Policy: e.feeds.policy(), Timeout: 2 * time.Second}})
	e.org, e.prop = addOrg(t, store, "demo")
	return e
}

// addOrg creates an organisation in Europe/Paris with one villa: 100 a
// night, stays of 1–28 nights.
func addOrg(t *testing.T, store testDB, slug string) (*booking.Organization, *booking.Property) {
	t.Helper()
	maxStay := 28
	org := booking.Organization{Slug: slug, Name: "Demo " + slug, PaymentMode: pricing.ModeFull, PublicEngineEnabled: true,
		MaxStayNights: &maxStay}.WithDefaults()
	if err := store.CreateOrganization(t.Context(), &org); err != nil {
		t.Fatal(err)
	}
	p := booking.Property{OrgID: org.ID, Name: "Villa Soleil", MaxGuests: 4, Active: true,
		Rates: pricing.RatePlan{BaseRate: decimal.RequireFromString("100")}}
	if err := store.CreateProperty(t.Context(), &p); err != nil {
		t.Fatal(err)
	}
	return &org, &p
}

// addFeed adds a feed of the villa served at path by the feed server.
func (e *env) addFeed(t *testing.T, name, path string) *feed.Feed {
	t.Helper()
	f := &feed.Feed{OrgID: e.org.ID, PropertyID: e.prop.ID, Name: name, URL: e.feeds.url(path), Active: true}
	if err := e.sync.AddFeed(t.Context(), f); err != nil {
		t.Fatal(err)
	}
	return f
}

// syncNow syncs a feed or fails the test.
func (e *env) syncNow(t *testing.T, f *feed.Feed) *icalsync.Result {
	t.Helper()
	res, err := e.sync.SyncFeed(t.Context(), e.org.ID, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkout starts a booking of the villa; it returns the error.
func (e *env) checkout(in, out string) (*booking.CheckoutResult, error) {
	return e.svc.Checkout(context.Background(), e.org.Slug, booking.CheckoutRequest{
		PropertyID: e.prop.ID, Stay: booking.Stay{CheckIn: day(in), CheckOut: day(out), Guests: 2},
		GuestName: "Camille Martin", GuestEmail: "camille@example.com", GuestPhone: "+33612345678",
	})
}

// confirmed creates a confirmed booking of the villa.
func (e *env) confirmed(t *testing.T, in, out string) *booking.Booking {
	t.Helper()
	res, err := e.checkout(in, out)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.store.Transition(t.Context(), res.Booking.ID, booking.Transition{From: []booking.Status{booking.StatusPending},
		To: booking.StatusConfirmed, At: e.clock.Now(), Confirmed: true})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// unavailableNights returns the nights of [from, to) the public calendar
// shows unavailable.
func (e *env) unavailableNights(t *testing.T, from, to string) []string {
	t.Helper()
	cal, err := e.svc.Availability(t.Context(), e.org.Slug, e.prop.ID, booking.CalendarRequest{From: day(from), Months: 3})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range cal.Days {
		if !d.Date.Before(day(from)) && d.Date.Before(day(to)) && !d.Available {
			out = append(out, d.Date.String())
		}
	}
	return out
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := booking.ErrorCode(err); got != code {
		t.Fatalf("err = %v (code %q), want code %q", err, got, code)
	}
}

// nights lists the dates of [in, out).
func nights(in, out string) []string {
	var list []string
	for d := day(in); d.Before(day(out)); d = d.AddDays(1) {
		list = append(list, d.String())
	}
	return list
}

// feedServer serves feeds from memory at /feeds/{name}, with an ETag.
type feedServer struct {
	srv      *httptest.Server
	mu       sync.Mutex
	bodies   map[string]string
	handlers map[string]http.HandlerFunc
	requests []*http.Request
}

func newFeedServer(t *testing.T) *feedServer {
	fs := &feedServer{bodies: map[string]string{}, handlers: map[string]http.HandlerFunc{}}
	fs.srv = httptest.NewServer(http.HandlerFunc(fs.serve))
	t.Cleanup(fs.srv.Close)
	return fs
}

func (fs *feedServer) url(path string) string { return fs.srv.URL + "/feeds/" + path }

// policy allows the feed server's host:port, and nothing else private:
// how an operator allows a channel manager on the LAN (-outbound-allow).
func (fs *feedServer) policy() outbound.Policy {
	return outbound.Policy{Allow: []string{fs.srv.Listener.Addr().String()}}
}

// set serves body at path; lines may end in \n, they are sent with CRLF.
func (fs *feedServer) set(path, body string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.bodies[path] = strings.ReplaceAll(strings.TrimLeft(body, "\n"), "\n", "\r\n")
	delete(fs.handlers, path)
}

// handle serves path with h.
func (fs *feedServer) handle(path string, h http.HandlerFunc) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.handlers[path] = h
}

func (fs *feedServer) lastRequest() *http.Request {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if len(fs.requests) == 0 {
		return nil
	}
	return fs.requests[len(fs.requests)-1]
}

func (fs *feedServer) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/feeds/")
	fs.mu.Lock()
	fs.requests = append(fs.requests, r)
	body, ok := fs.bodies[path]
	h := fs.handlers[path]
	fs.mu.Unlock()
	if h != nil {
		h(w, r)
		return
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	etag := `"` + strings.ReplaceAll(civilHash(body), `"`, "") + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "text/calendar")
	_, _ = w.Write([]byte(body))
}

// civilHash is a cheap stable tag of a body.
func civilHash(s string) string {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	const digits = "0123456789abcdef"
	out := make([]byte, 16)
	for i := range out {
		out[i] = digits[h>>(60-4*i)&0xf]
	}
	return string(out)
}

// calendar wraps VEVENT blocks in a VCALENDAR of prodid.
func calendar(prodid string, events ...string) string {
	return "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:" + prodid + "\nCALSCALE:GREGORIAN\n" + strings.Join(events, "") + "END:VCALENDAR\n"
}

// event is an all-day VEVENT of [in, out) ("YYYYMMDD").
func event(uid, in, out, summary string) string {
	return "BEGIN:VEVENT\nDTSTAMP:20260601T080000Z\nDTSTART;VALUE=DATE:" + in + "\nDTEND;VALUE=DATE:" + out +
		"\nUID:" + uid + "\nSUMMARY:" + summary + "\nEND:VEVENT\n"
}
