package cache_test

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/cache"
	"github.com/staykit/staykit/store/sqlite"
)

// countingHolds is the database's holds, counting its queries, with a hook
// run inside each organisation's query.
type countingHolds struct {
	db             *sqlite.DB
	holds, orgWide atomic.Int64
	during         func()
}

func (h *countingHolds) Holds(ctx context.Context, propertyID int64, from civil.Date, now time.Time) ([]booking.Hold, error) {
	h.holds.Add(1)
	return h.db.Holds(ctx, propertyID, from, now)
}

func (h *countingHolds) OrgHolds(ctx context.Context, orgID int64, from civil.Date, now time.Time) ([]booking.PropertyHold, error) {
	h.orgWide.Add(1)
	hs, err := h.db.OrgHolds(ctx, orgID, from, now)
	if h.during != nil {
		h.during()
	}
	return hs, err
}

// TestSearchReadsTheOrganisationsHoldsOnce: a search's index reads the
// holds of every property of the organisation in one query — concurrent
// searches included — and then answers from memory as the database does;
// once the entries aged, one query again; a property whose holds a write
// forgot while they were read is read again alone, with the write.
func TestSearchReadsTheOrganisationsHoldsOnce(t *testing.T) {
	ctx := t.Context()
	db := openSQLite(t)
	now := start
	counted := &countingHolds{db: db}
	c := cache.New(db.Stores(), counted, cache.Options{MaxAge: time.Minute, Now: func() time.Time { return now }})
	a := newTenant(t, c, "alpha")
	other := newTenant(t, c, "beta")
	props := []*booking.Property{a.p1, a.p2}
	for range 6 {
		p := &booking.Property{OrgID: a.org.ID, Name: "More", MaxGuests: 2, Active: true, Rates: a.p1.Rates}
		if err := c.CreateProperty(ctx, p); err != nil {
			t.Fatal(err)
		}
		props = append(props, p)
	}
	for i, p := range props {
		if i%2 == 0 {
			if err := c.AddBlock(ctx, p.ID, &booking.Block{Start: day("2026-06-10"), End: day("2026-06-12")}, start); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := c.AddBlock(ctx, other.p1.ID, &booking.Block{Start: day("2026-06-01"), End: day("2026-07-01")}, start); err != nil {
		t.Fatal(err)
	}
	june := civil.Range{Start: day("2026-06-11"), End: day("2026-06-13")}
	// want is the database's answer for a property.
	want := func(p *booking.Property) bool {
		t.Helper()
		got, err := db.Occupied(ctx, p.ID, june.Start, june.End, start)
		if err != nil {
			t.Fatal(err)
		}
		return len(got) > 0
	}
	search := func(step string) {
		t.Helper()
		// A search reads the organisation's list first.
		if _, err := c.Properties(ctx, a.org.ID); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		gate := make(chan struct{})
		errs := make([]error, len(props))
		taken := make([]bool, len(props))
		for i, p := range props {
			wg.Go(func() {
				<-gate
				taken[i], errs[i] = c.Taken(ctx, p, june, start)
			})
		}
		close(gate)
		wg.Wait()
		for i, p := range props {
			if errs[i] != nil {
				t.Fatalf("%s: %v", step, errs[i])
			}
			if w := want(p); taken[i] != w {
				t.Errorf("%s: property %d taken %v, want %v", step, p.ID, taken[i], w)
			}
		}
	}
	counts := func(step string, holds, orgWide int64) {
		t.Helper()
		if h, o := counted.holds.Load(), counted.orgWide.Load(); h != holds || o != orgWide {
			t.Errorf("%s: %d queries of a property's holds and %d of the organisation's, want %d and %d", step, h, o, holds, orgWide)
		}
	}
	search("first")
	counts("first search", 0, 1)
	search("again")
	counts("second search", 0, 1)
	now = now.Add(2 * time.Minute)
	search("aged")
	counts("after MaxAge", 0, 2)

	// A block added while the organisation's holds are read: its property
	// is read again alone, with the block; the others are kept.
	counted.during = func() {
		counted.during = nil
		if err := c.AddBlock(ctx, a.p2.ID, &booking.Block{Start: day("2026-06-12"), End: day("2026-06-13")}, start); err != nil {
			t.Error(err)
		}
	}
	now = now.Add(2 * time.Minute)
	search("with a write during the read")
	counts("with a write during the read", 1, 3)
	if !want(a.p2) {
		t.Error("fixture: the block during the read took nothing")
	}
	// The other organisation's property was never part of it.
	if taken, err := c.Taken(ctx, other.p1, june, start); err != nil || !taken {
		t.Errorf("the other organisation's property: %v %v, want taken", taken, err)
	}
}

// countingCalendars is the database's per-day calendars, counting its
// queries, with a hook run inside each organisation's query.
type countingCalendars struct {
	booking.CalendarStore
	db            *sqlite.DB
	days, orgWide atomic.Int64
	during        func()
}

func (s *countingCalendars) CalendarDays(ctx context.Context, propertyID int64, from, to civil.Date) ([]booking.CalendarDay, error) {
	s.days.Add(1)
	return s.db.CalendarDays(ctx, propertyID, from, to)
}

func (s *countingCalendars) OrgCalendarDays(ctx context.Context, orgID int64, from, to civil.Date) ([]booking.PropertyCalendarDay, error) {
	s.orgWide.Add(1)
	days, err := s.db.OrgCalendarDays(ctx, orgID, from, to)
	if s.during != nil {
		s.during()
	}
	return days, err
}

// TestSortByPriceReadsTheOrganisationsCalendarsOnce: the rates of a search
// sorted by price read the per-day calendars of every property of the
// organisation in one query, and answer as the database's days say; a
// property whose days a write changed while they were read is read again
// alone, with the write.
func TestSortByPriceReadsTheOrganisationsCalendarsOnce(t *testing.T) {
	ctx := t.Context()
	db := openSQLite(t)
	stores := db.Stores()
	counted := &countingCalendars{CalendarStore: stores.CalendarStore, db: db}
	stores.CalendarStore = counted
	now := start
	c := cache.New(stores, db, cache.Options{MaxAge: time.Minute, Now: func() time.Time { return now }})
	a := newTenant(t, c, "alpha")
	props := []*booking.Property{a.p1, a.p2}
	for range 4 {
		p := &booking.Property{OrgID: a.org.ID, Name: "More", MaxGuests: 2, Active: true, Rates: a.p1.Rates}
		if err := c.CreateProperty(ctx, p); err != nil {
			t.Fatal(err)
		}
		props = append(props, p)
	}
	for i, p := range props {
		price := decimal.NewFromInt(int64(50 + 10*i))
		if err := c.SetCalendarDays(ctx, p.ID, []booking.CalendarDay{{Date: day("2026-06-11"), Price: &price}}); err != nil {
			t.Fatal(err)
		}
	}
	stay := civil.Range{Start: day("2026-06-10"), End: day("2026-06-13")}
	rates := func(step string, want func(i int) int64) {
		t.Helper()
		list, err := c.Properties(ctx, a.org.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range props {
			j := slices.IndexFunc(list, func(q booking.Property) bool { return q.ID == p.ID })
			m, exact, err := c.StayRate(ctx, &list[j], stay)
			if err != nil || !exact {
				t.Fatalf("%s: %v %v", step, exact, err)
			}
			if m != want(i)*1_000_000 {
				t.Errorf("%s: property %d rate %d, want %d", step, p.ID, m/1_000_000, want(i))
			}
		}
	}
	counts := func(step string, days, orgWide int64) {
		t.Helper()
		if d, o := counted.days.Load(), counted.orgWide.Load(); d != days || o != orgWide {
			t.Errorf("%s: %d queries of a property's days and %d of the organisation's, want %d and %d", step, d, o, days, orgWide)
		}
	}
	rates("first", func(i int) int64 { return 100 + 50 + int64(10*i) + 100 })
	counts("first", 0, 1)

	rates("again", func(i int) int64 { return 100 + 50 + int64(10*i) + 100 })
	counts("again", 0, 1)

	// Once aged, one query again; a price set while it runs: its
	// property is read again alone, with the price.
	now = now.Add(2 * time.Minute)
	counted.during = func() {
		counted.during = nil
		price := decimal.NewFromInt(500)
		if err := c.SetCalendarDays(ctx, a.p2.ID, []booking.CalendarDay{{Date: day("2026-06-11"), Price: &price}}); err != nil {
			t.Error(err)
		}
	}
	rates("with a write during the read", func(i int) int64 {
		if i == 1 {
			return 100 + 500 + 100
		}
		return 100 + 50 + int64(10*i) + 100
	})
	counts("with a write during the read", 1, 2)
}
