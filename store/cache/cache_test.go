package cache_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/cache"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// start is Friday 1 May 2026, noon in Paris.
var start = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

func day(s string) civil.Date { return civil.MustParse(s) }

// invalidating are the writes of the seams the read model hands out
// (Store.Stores, Store.Feeds, Store.UnitStore) that change what it caches.
var invalidating = []string{
	"CreateOrganization", "UpdateOrganization",
	"CreateProperty", "UpdateProperty", "AddBlock", "RemoveBlock",
	"CreateCoupon", "UpdateCoupon",
	"CreateBooking", "DeleteBooking", "Transition",
	"ApplyFeedSync", "DeleteFeed",
	"SetCalendarDays", "ApplyCalendar", "UpdatePropertyFields",
	"SaveSettings",
	"AddUnit", "RenameUnit", "RetireUnit", "MoveBooking", "Link", "Unlink", "SetUnitPrices",
}

// TestInvalidatingWritesForget calls each invalidating write through the
// seams the read model hands out (with empty arguments: they fail, and
// still count) and checks that it forgot something: a write that reached
// the database around the cache would not.
func TestInvalidatingWritesForget(t *testing.T) {
	db := openSQLite(t)
	c := cache.New(db.Stores(), db, cache.Options{})
	seams := []reflect.Value{reflect.ValueOf(c.Stores()), reflect.ValueOf(c.Feeds(db)), reflect.ValueOf(c.UnitStore(db))}
	for _, name := range invalidating {
		var m reflect.Value
		for _, v := range seams {
			if m = v.MethodByName(name); m.IsValid() {
				break
			}
		}
		if !m.IsValid() {
			t.Errorf("no seam of the read model has %s", name)
			continue
		}
		args := make([]reflect.Value, m.Type().NumIn())
		for i := range args {
			in := m.Type().In(i)
			switch {
			case in == reflect.TypeFor[context.Context]():
				args[i] = reflect.ValueOf(t.Context())
			case in.Kind() == reflect.Pointer:
				args[i] = reflect.New(in.Elem())
			default:
				args[i] = reflect.Zero(in)
			}
		}
		before := c.Invalidations()
		m.Call(args)
		if c.Invalidations() == before {
			t.Errorf("%s did not forget anything", name)
		}
	}
}

func openSQLite(t *testing.T) *sqlite.DB {
	t.Helper()
	return sqlitetest.Open(t)
}

// env is a Service over the read model over SQLite, with an organisation
// and a property.
type env struct {
	db    *sqlite.DB
	cache *cache.Store
	svc   *booking.Service
	clock *bookingtest.Clock
	pay   *paymenttest.Provider
	org   *booking.Organization
	prop  *booking.Property
	// versions are the calendars free saw per version the Service named
	// (booking.OrgService.AvailabilityVersion), and versioned how many of
	// its calendars had one.
	versions  map[string]string
	versioned int
}

func newEnv(t *testing.T, o cache.Options) *env {
	t.Helper()
	e := &env{db: openSQLite(t), clock: bookingtest.NewClock(start), versions: map[string]string{}}
	if o.MaxAge == 0 {
		o.MaxAge = time.Hour // only invalidation may explain a change
	}
	e.cache = cache.New(e.db.Stores(), e.db, o)
	e.pay = paymenttest.New(paymenttest.WithClock(e.clock.Now))
	e.svc = booking.NewService(booking.Options{Stores: e.cache.Stores(), Payments: e.pay, Clock: e.clock})
	money.New(e.svc, money.Options{Store: e.cache.Stores(), Payments: e.pay, Clock: e.clock})
	e.org = &booking.Organization{Slug: "villa", Name: "Villa", PaymentMode: pricing.ModeFull, DefaultLocale: "en",
		Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48, PublicEngineEnabled: true}
	if err := e.cache.CreateOrganization(t.Context(), e.org); err != nil {
		t.Fatal(err)
	}
	e.prop = &booking.Property{OrgID: e.org.ID, Name: "Soleil", MaxGuests: 4, Active: true,
		Rates: pricing.RatePlan{BaseRate: decimal.RequireFromString("100")}}
	if err := e.cache.CreateProperty(t.Context(), e.prop); err != nil {
		t.Fatal(err)
	}
	return e
}

// free reports whether the night of d is available, through the Service.
// It also holds the calendar's version to its word: two calendars of one
// version (booking.OrgService.AvailabilityVersion, read before each) are
// the same.
func (e *env) free(t *testing.T, d string) bool {
	t.Helper()
	req := booking.CalendarRequest{From: day(d), Months: 1}
	org, err := e.svc.Organization(t.Context(), "villa")
	if err != nil {
		t.Fatal(err)
	}
	// The first calendar reads what a write forgot; the version is of
	// the entries it stored.
	if _, err := e.svc.Availability(t.Context(), "villa", e.prop.ID, req); err != nil {
		t.Fatal(err)
	}
	version, ok := e.svc.Org(org).AvailabilityVersion(t.Context(), e.prop.ID, req)
	cal, err := e.svc.Availability(t.Context(), "villa", e.prop.ID, req)
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		e.versioned++
		got := fmt.Sprint(*cal)
		if prev, seen := e.versions[version]; seen && prev != got {
			t.Errorf("%s: version %s names two calendars:\n%s\n%s", d, version, prev, got)
		}
		e.versions[version] = got
	}
	for _, x := range cal.Days {
		if x.Date == day(d) {
			// The search index answers as the calendar does (these tests
			// close no night: only holds take them), for the property as
			// the read model serves it (its units).
			p, err := e.cache.Property(t.Context(), e.org.ID, e.prop.ID)
			if err != nil {
				t.Fatal(err)
			}
			taken, err := e.cache.Taken(t.Context(), p, civil.Range{Start: day(d), End: day(d).AddDays(1)}, e.clock.Now())
			if err != nil {
				t.Fatal(err)
			}
			if taken == x.Available {
				t.Errorf("%s: index says taken %v, calendar says available %v", d, taken, x.Available)
			}
			return x.Available
		}
	}
	t.Fatalf("%s not in the calendar", d)
	return false
}

func (e *env) checkout(ctx context.Context, in, out string) (*booking.CheckoutResult, error) {
	return e.svc.Checkout(ctx, "villa", booking.CheckoutRequest{PropertyID: e.prop.ID,
		Stay:      booking.Stay{CheckIn: day(in), CheckOut: day(out), Guests: 2},
		GuestName: "Ann", GuestEmail: "ann@example.com", GuestPhone: "+33612345678"})
}

func (e *env) priceFrom(t *testing.T) string {
	t.Helper()
	ls, err := e.svc.Properties(t.Context(), "villa")
	if err != nil {
		t.Fatal(err)
	}
	return ls[0].PriceFrom.String()
}

// TestNeverWrongAfterWrites warms the read model, writes through each
// kind of write, and reads again: the answer is the database's.
func TestNeverWrongAfterWrites(t *testing.T) {
	ctx := t.Context()
	e := newEnv(t, cache.Options{})
	if !e.free(t, "2026-06-10") || e.priceFrom(t) != "100" {
		t.Fatal("fixture: 10 June free at 100")
	}

	// Checkout takes the nights; expiry (without a sweeper, then with
	// one) frees them.
	res, err := e.checkout(ctx, "2026-06-10", "2026-06-12")
	if err != nil {
		t.Fatal(err)
	}
	if e.free(t, "2026-06-10") {
		t.Error("after checkout: 10 June still free")
	}
	e.clock.Advance(31 * time.Minute)
	if !e.free(t, "2026-06-10") {
		t.Error("after the hold lapsed: 10 June still taken")
	}
	if _, err := e.svc.ExpireHolds(ctx); err != nil {
		t.Fatal(err)
	}
	if !e.free(t, "2026-06-10") {
		t.Error("after expiry: 10 June still taken")
	}
	_ = res

	// A paid booking, then cancelled by the host.
	res, err = e.checkout(ctx, "2026-06-20", "2026-06-22")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.pay.SimulatePaid(res.Booking.PaymentIntentID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Confirm(ctx, "villa", res.Booking.Token, booking.ConfirmRequest{}); err != nil {
		t.Fatal(err)
	}
	if e.free(t, "2026-06-21") {
		t.Error("after confirm: 21 June free")
	}
	if _, err := e.svc.Cancel(ctx, "villa", res.Booking.Token, true); err != nil {
		t.Fatal(err)
	}
	if !e.free(t, "2026-06-21") {
		t.Error("after cancel: 21 June still taken")
	}

	// Host-side store writes.
	b := &booking.Block{Start: day("2026-07-01"), End: day("2026-07-03")}
	if err := e.cache.AddBlock(ctx, e.prop.ID, b, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if e.free(t, "2026-07-02") {
		t.Error("after AddBlock: 2 July free")
	}
	if err := e.cache.RemoveBlock(ctx, e.prop.ID, b.ID); err != nil {
		t.Fatal(err)
	}
	if !e.free(t, "2026-07-02") {
		t.Error("after RemoveBlock: 2 July taken")
	}
	p, err := e.cache.Property(ctx, e.org.ID, e.prop.ID)
	if err != nil {
		t.Fatal(err)
	}
	p.Rates.BaseRate = decimal.RequireFromString("80")
	p.Blocks = append(p.Blocks, booking.Block{Start: day("2026-08-01"), End: day("2026-08-05")})
	if err := e.cache.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got := e.priceFrom(t); got != "80" {
		t.Errorf("after UpdateProperty: price_from %s, want 80", got)
	}
	if e.free(t, "2026-08-02") {
		t.Error("after UpdateProperty with a block: 2 August free")
	}
	o, err := e.cache.OrganizationBySlug(ctx, "villa")
	if err != nil {
		t.Fatal(err)
	}
	o.Name = "Villa Neuve"
	if err := e.cache.UpdateOrganization(ctx, o); err != nil {
		t.Fatal(err)
	}
	cfg, err := e.svc.Config(ctx, "villa")
	if err != nil || cfg.Organization.Name != "Villa Neuve" {
		t.Errorf("after UpdateOrganization: %v %v, want Villa Neuve", cfg, err)
	}
	o.PublicEngineEnabled = false
	if err := e.cache.UpdateOrganization(ctx, o); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Config(ctx, "villa"); booking.ErrorCode(err) != booking.CodeNotFound {
		t.Errorf("after disabling: %v, want not_found", err)
	}
	// Every calendar had a version, each step (a write, or a hold's
	// lapse) another.
	if e.versioned != 9 || len(e.versions) != 9 {
		t.Errorf("%d calendars with a version, %d versions; want 9 of each", e.versioned, len(e.versions))
	}
}

// TestStaleReadNeverDoubleBooks makes the read model stale on purpose —
// a booking written to the database behind its back — and checks that
// the database still decides: the stale calendar says free, checkouts of
// those nights all fail; and of concurrent checkouts of free nights
// through a warm cache exactly one wins.
func TestStaleReadNeverDoubleBooks(t *testing.T) {
	ctx := t.Context()
	e := newEnv(t, cache.Options{})
	if !e.free(t, "2026-06-10") {
		t.Fatal("fixture: 10 June free")
	}
	// Behind the cache's back: another process on the same file.
	behind := booking.NewService(booking.Options{Stores: e.db.Stores(), Payments: e.pay, Clock: e.clock})
	if _, err := behind.Checkout(ctx, "villa", booking.CheckoutRequest{PropertyID: e.prop.ID,
		Stay:      booking.Stay{CheckIn: day("2026-06-10"), CheckOut: day("2026-06-12"), Guests: 2},
		GuestName: "Bob", GuestEmail: "bob@example.com", GuestPhone: "+33612345679"}); err != nil {
		t.Fatal(err)
	}
	if !e.free(t, "2026-06-10") {
		t.Fatal("the read model is not stale: the test proves nothing")
	}
	wins := race(t, 8, func() error { _, err := e.checkout(ctx, "2026-06-10", "2026-06-12"); return err })
	if wins != 0 {
		t.Errorf("%d checkouts of nights taken behind a stale cache won, want 0", wins)
	}
	if e.free(t, "2026-06-10") {
		t.Error("after the refused checkouts the read model still says free")
	}

	if !e.free(t, "2026-09-10") {
		t.Fatal("fixture: 10 September free")
	}
	wins = race(t, 8, func() error { _, err := e.checkout(ctx, "2026-09-10", "2026-09-13"); return err })
	if wins != 1 {
		t.Errorf("%d of 8 concurrent checkouts of the same nights won, want 1", wins)
	}
}

// race runs fn n times at once and counts the successes; every failure
// must be CodeUnavailable.
func race(t *testing.T, n int, fn func() error) int {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	var errs []error
	gate := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			err := fn()
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				wins++
			} else {
				errs = append(errs, err)
			}
		}()
	}
	close(gate)
	wg.Wait()
	for _, err := range errs {
		if booking.ErrorCode(err) != booking.CodeUnavailable {
			t.Errorf("a loser failed with %v, want unavailable", err)
		}
	}
	return wins
}

// TestCachedValuesAreCopies: changing what a read returned does not change
// the next read.
func TestCachedValuesAreCopies(t *testing.T) {
	e := newEnv(t, cache.Options{})
	o, _ := e.cache.OrganizationBySlug(t.Context(), "villa")
	o.Name = "changed"
	p, _ := e.cache.Property(t.Context(), e.org.ID, e.prop.ID)
	p.Name = "changed"
	p.Blocks = append(p.Blocks, booking.Block{ID: 99})
	o2, _ := e.cache.OrganizationBySlug(t.Context(), "villa")
	p2, _ := e.cache.Property(t.Context(), e.org.ID, e.prop.ID)
	if o2.Name != "Villa" || p2.Name != "Soleil" || slices.ContainsFunc(p2.Blocks, func(b booking.Block) bool { return b.ID == 99 }) {
		t.Errorf("read after change: %q %q %v", o2.Name, p2.Name, p2.Blocks)
	}
}

// TestEntriesExpire: past MaxAge an entry is read again, so a write the
// cache never heard of shows.
func TestEntriesExpire(t *testing.T) {
	now := start
	e := newEnv(t, cache.Options{MaxAge: time.Minute, Now: func() time.Time { return now }})
	if _, err := e.cache.OrganizationBySlug(t.Context(), "villa"); err != nil {
		t.Fatal(err)
	}
	o := *e.org
	o.Name = "Behind"
	if err := e.db.UpdateOrganization(t.Context(), &o); err != nil {
		t.Fatal(err)
	}
	got, _ := e.cache.OrganizationBySlug(t.Context(), "villa")
	if got.Name != "Villa" {
		t.Fatalf("within MaxAge: %q, want the cached Villa (else the test proves nothing)", got.Name)
	}
	now = now.Add(time.Minute)
	got, _ = e.cache.OrganizationBySlug(t.Context(), "villa")
	if got.Name != "Behind" {
		t.Errorf("past MaxAge: %q, want Behind", got.Name)
	}
}
