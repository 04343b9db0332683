package cache_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/cache"
	"github.com/staykit/staykit/store/postgres"
	"github.com/staykit/staykit/units"
)

// freeOf reports whether the night of d is available at p, through the
// Service (and the read model), holding its calendar's version to its
// word as free does.
func (e *env) freeOf(t *testing.T, p *booking.Property, d string) bool {
	t.Helper()
	saved := e.prop
	defer func() { e.prop = saved }()
	e.prop = p
	return e.free(t, d)
}

// sameAsDatabase fails the test unless the read model answers as the
// database for p: its units and links, and its holds over the summer.
func (e *env) sameAsDatabase(t *testing.T, step string, ps ...*booking.Property) {
	t.Helper()
	ctx := t.Context()
	for _, p := range ps {
		cached, err := e.cache.Property(ctx, e.org.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := e.db.Property(ctx, e.org.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(cached.Units, cached.Linked) != fmt.Sprint(stored.Units, stored.Linked) {
			t.Errorf("%s: property %d cached with units %v linked %v, stored %v %v", step, p.ID,
				cached.Units, cached.Linked, stored.Units, stored.Linked)
		}
		from, to := day("2026-06-01"), day("2026-09-01")
		a, err := e.cache.Occupied(ctx, p.ID, from, to, e.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		b, err := e.db.Occupied(ctx, p.ID, from, to, e.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: property %d's holds cached %v, stored %v", step, p.ID, a, b)
		}
	}
}

// TestNeverWrongAfterUnitWrites warms the read model, writes through each
// write of package units (and bookings of linked properties), and reads
// again: the answer is the database's, for the property written and for
// those linked to it.
func TestNeverWrongAfterUnitWrites(t *testing.T) {
	ctx := t.Context()
	e := newEnv(t, cache.Options{})
	us := e.cache.UnitStore(e.db)
	now := e.clock.Now()
	today := civil.Of(now)
	soleil := e.prop
	if _, err := e.checkout(ctx, "2026-06-10", "2026-06-12"); err != nil {
		t.Fatal(err)
	}
	if e.free(t, "2026-06-10") {
		t.Fatal("fixture: 10 June taken")
	}
	step := func(name string, want bool, ps ...*booking.Property) {
		t.Helper()
		if got := e.freeOf(t, soleil, "2026-06-10"); got != want {
			t.Errorf("%s: 10 June free %v, want %v", name, got, want)
		}
		e.sameAsDatabase(t, name, append([]*booking.Property{soleil}, ps...)...)
	}

	u2 := &booking.Unit{Name: "Soleil 2"}
	if err := us.AddUnit(ctx, e.org.ID, soleil.ID, u2, now); err != nil {
		t.Fatal(err)
	}
	step("after AddUnit", true)
	if _, err := e.checkout(ctx, "2026-06-10", "2026-06-12"); err != nil {
		t.Fatal(err)
	}
	step("after the second unit's checkout", false)
	u3 := &booking.Unit{Name: "Soleil 3"}
	if err := us.AddUnit(ctx, e.org.ID, soleil.ID, u3, now); err != nil {
		t.Fatal(err)
	}
	step("after a third unit", true)
	if _, err := us.RenameUnit(ctx, e.org.ID, u3.ID, "Soleil trois"); err != nil {
		t.Fatal(err)
	}
	step("after RenameUnit", true)
	if _, err := us.RetireUnit(ctx, e.org.ID, u3.ID, today, now); err != nil {
		t.Fatal(err)
	}
	step("after RetireUnit", false)

	// A unit's own price: the warm calendar's night costs the cheapest
	// free unit's (its version changes with it), and the property's
	// units say which is priced.
	priceOf := func(d string) string {
		t.Helper()
		e.free(t, d) // warms, and holds the version to its word
		cal, err := e.svc.Availability(ctx, "villa", soleil.ID, booking.CalendarRequest{From: day(d), Months: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range cal.Days {
			if x.Date == day(d) {
				return x.Price.String()
			}
		}
		t.Fatalf("%s not in the calendar", d)
		return ""
	}
	if got := priceOf("2026-06-20"); got != "100" {
		t.Fatalf("fixture: 20 June at %s, want 100", got)
	}
	seventy := decimal.RequireFromString("70")
	if _, err := us.SetUnitPrices(ctx, e.org.ID, u2.ID, []booking.UnitPriceDay{{Date: day("2026-06-20"), Price: &seventy}}); err != nil {
		t.Fatal(err)
	}
	if got := priceOf("2026-06-20"); got != "70" {
		t.Errorf("after SetUnitPrices: 20 June at %s, want the priced unit's 70", got)
	}
	step("after SetUnitPrices", false)
	sixty := decimal.RequireFromString("60")
	if _, err := us.SetUnitPrices(ctx, e.org.ID, u2.ID, []booking.UnitPriceDay{{Date: day("2026-06-20"), Price: &sixty}}); err != nil {
		t.Fatal(err)
	}
	if got := priceOf("2026-06-20"); got != "60" {
		t.Errorf("after a second SetUnitPrices: 20 June at %s, want the new 60", got)
	}
	if _, err := us.SetUnitPrices(ctx, e.org.ID, u2.ID, []booking.UnitPriceDay{{Date: day("2026-06-20")}}); err != nil {
		t.Fatal(err)
	}
	if got := priceOf("2026-06-20"); got != "100" {
		t.Errorf("after clearing the unit's price: 20 June at %s, want 100", got)
	}
	step("after clearing SetUnitPrices", false)

	// A move between units changes no night's count, but the holds.
	bs, err := e.db.Bookings(ctx, e.org.ID)
	if err != nil || len(bs) != 2 {
		t.Fatalf("fixture: bookings %v %v", bs, err)
	}
	if _, err := e.checkout(ctx, "2026-07-10", "2026-07-12"); err != nil {
		t.Fatal(err)
	}
	bs, _ = e.db.Bookings(ctx, e.org.ID)
	july := bs[0]
	other := soleil.Units[0].ID
	if july.UnitID == other {
		other = u2.ID
	}
	if _, err := us.MoveBooking(ctx, e.org.ID, july.ID, other, booking.DateGuard{}, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	step("after MoveBooking", false)

	// Linked: the Cabane (a whole of one unit) is made of Soleil.
	cabane := &booking.Property{OrgID: e.org.ID, Name: "Cabane", MaxGuests: 2, Active: true,
		Rates: pricing.RatePlan{BaseRate: decimal.RequireFromString("60")}}
	if err := e.cache.CreateProperty(ctx, cabane); err != nil {
		t.Fatal(err)
	}
	// Both warm: the Cabane free on 10 and 20 June, Soleil on 20 June.
	if !e.freeOf(t, cabane, "2026-06-10") || !e.freeOf(t, cabane, "2026-06-20") || !e.freeOf(t, soleil, "2026-06-20") {
		t.Fatal("fixture: the Cabane free in June, Soleil on 20 June")
	}
	if _, err := us.Link(ctx, e.org.ID, cabane.ID, soleil.ID, today, now); err != nil {
		t.Fatal(err)
	}
	if e.freeOf(t, cabane, "2026-06-10") {
		t.Error("after Link: the Cabane free on 10 June, under Soleil's stays")
	}
	step("after Link", false, cabane)
	// A checkout of the whole reaches the part's warm calendar.
	if _, err := e.svc.Checkout(ctx, "villa", booking.CheckoutRequest{PropertyID: cabane.ID,
		Stay:      booking.Stay{CheckIn: day("2026-06-20"), CheckOut: day("2026-06-22"), Guests: 2},
		GuestName: "Ann", GuestEmail: "ann@example.com", GuestPhone: "+33612345678"}); err != nil {
		t.Fatal(err)
	}
	if e.freeOf(t, soleil, "2026-06-20") {
		t.Error("after the whole's checkout: Soleil free on 20 June")
	}
	step("after the whole's checkout", false, cabane)
	// A block of the part reaches the whole's warm calendar.
	if !e.freeOf(t, cabane, "2026-08-10") {
		t.Fatal("fixture: the Cabane free on 10 August")
	}
	if err := e.cache.AddBlock(ctx, soleil.ID, &booking.Block{Start: day("2026-08-10"), End: day("2026-08-11"),
		UnitID: u2.ID}, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if e.freeOf(t, cabane, "2026-08-10") {
		t.Error("after a block of one of Soleil's units: the Cabane free on 10 August")
	}
	step("after a part's block", false, cabane)
	if err := us.Unlink(ctx, e.org.ID, cabane.ID, soleil.ID); err != nil {
		t.Fatal(err)
	}
	if !e.freeOf(t, cabane, "2026-06-10") || !e.freeOf(t, soleil, "2026-06-20") {
		t.Error("after Unlink: the two still take each other's nights")
	}
	step("after Unlink", false, cabane)
	// A refused write is still news.
	if _, err := us.Link(ctx, e.org.ID, cabane.ID, cabane.ID, today, now); booking.ErrorCode(err) != booking.CodeInvalid {
		t.Errorf("self-link: %v, want invalid", err)
	}
}

// TestSecondReplicaHearsLinkedWrites: on PostgreSQL, a checkout of a part
// through replica 0 makes replica 1 forget the whole's warm holds, and a
// link written through replica 0 reaches replica 1's warm property.
func TestSecondReplicaHearsLinkedWrites(t *testing.T) {
	url := testenv.PostgresURL(t)
	schema := testenv.PostgresSchema(t, "staykit_cache_")
	var dbs [2]*postgres.DB
	for i := range dbs {
		db, err := postgres.Open(t.Context(), url, postgres.WithSchema(schema))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i] = db
	}
	sub := readySubscriber{DB: dbs[1], ready: make(chan struct{})}
	replicas := [2]*cache.Store{
		cache.New(dbs[0].Stores(), dbs[0], cache.Options{MaxAge: time.Hour, Publisher: dbs[0]}),
		cache.New(dbs[1].Stores(), dbs[1], cache.Options{MaxAge: time.Hour, Publisher: dbs[1], Subscriber: sub}),
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- replicas[1].Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	<-sub.ready

	org := &booking.Organization{Slug: "villa", Name: "Villa", PaymentMode: pricing.ModeFull, DefaultLocale: "en",
		Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48, PublicEngineEnabled: true}
	if err := replicas[0].CreateOrganization(t.Context(), org); err != nil {
		t.Fatal(err)
	}
	var props [2]*booking.Property // the whole, its room
	for i := range props {
		props[i] = &booking.Property{OrgID: org.ID, Name: fmt.Sprint("p", i), MaxGuests: 4, Active: true,
			Rates: pricing.RatePlan{BaseRate: decimal.RequireFromString("100")}}
		if err := replicas[0].CreateProperty(t.Context(), props[i]); err != nil {
			t.Fatal(err)
		}
	}
	from, to := day("2026-06-01"), day("2026-07-01")
	warm := func() {
		t.Helper()
		for _, p := range props {
			if _, err := replicas[1].Property(t.Context(), org.ID, p.ID); err != nil {
				t.Fatal(err)
			}
			if taken, err := replicas[1].Occupied(t.Context(), p.ID, from, to, start); err != nil || len(taken) != 0 {
				t.Fatalf("fixture: %v %v, want June free", taken, err)
			}
		}
	}
	warm()
	if _, err := replicas[0].UnitStore(dbs[0]).Link(t.Context(), org.ID, props[0].ID, props[1].ID, civil.Of(start), start); err != nil {
		t.Fatal(err)
	}
	wait := func(what string, done func() bool) {
		t.Helper()
		for !done() {
			select {
			case <-t.Context().Done():
				t.Fatalf("replica 1 never saw %s", what)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	wait("the link", func() bool {
		p, err := replicas[1].Property(t.Context(), org.ID, props[0].ID)
		return err == nil && len(p.Linked) == 1 && p.Linked[0] == props[1].ID
	})
	warm()
	b := &booking.Booking{OrgID: org.ID, PropertyID: props[1].ID, Token: "linked-replica", CheckIn: day("2026-06-10"),
		CheckOut: day("2026-06-12"), Guests: 1, Currency: "EUR", PaymentMode: pricing.ModeFull,
		TotalAmount: decimal.RequireFromString("200"), ExpiresAt: start.Add(time.Hour)}
	if err := replicas[0].CreateBooking(t.Context(), b, booking.CreateOptions{Now: start}); err != nil {
		t.Fatal(err)
	}
	wait("the room's booking on the whole", func() bool {
		taken, err := replicas[1].Occupied(t.Context(), props[0].ID, from, to, start)
		return err == nil && len(taken) == 1 && taken[0].Unit == 0
	})
	var _ units.Store = replicas[1].UnitStore(dbs[1])
}
