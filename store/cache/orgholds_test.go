package cache_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
				taken[i], errs[i] = c.Taken(ctx, p.ID, june, start)
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
	if taken, err := c.Taken(ctx, other.p1.ID, june, start); err != nil || !taken {
		t.Errorf("the other organisation's property: %v %v, want taken", taken, err)
	}
}
