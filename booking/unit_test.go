package booking_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

func rng(a, b string) civil.Range { return civil.Range{Start: d(a), End: d(b)} }

func TestBestUnit(t *testing.T) {
	units := []booking.Unit{{ID: 1}, {ID: 2}, {ID: 3}}
	hold := func(unit int64, a, b string) booking.Hold { return booking.Hold{Range: rng(a, b), Unit: unit} }
	cases := []struct {
		name    string
		units   []booking.Unit
		holds   []booking.Hold
		stay    civil.Range
		gap     int
		want    int64
		wantNon bool
	}{
		{name: "all empty: the first", units: units, stay: rng("2026-05-10", "2026-05-12"), want: 1},
		{name: "right after a stay", units: units, holds: []booking.Hold{hold(2, "2026-05-01", "2026-05-10")},
			stay: rng("2026-05-10", "2026-05-12"), want: 2},
		{name: "tightest of two neighbours", units: units,
			holds: []booking.Hold{hold(1, "2026-05-01", "2026-05-08"), hold(2, "2026-05-14", "2026-05-20")},
			stay:  rng("2026-05-10", "2026-05-13"), want: 2}, // 2 days before on 1, 1 day after on 2
		{name: "filling a hole exactly", units: units,
			holds: []booking.Hold{hold(1, "2026-05-01", "2026-05-10"), hold(3, "2026-05-01", "2026-05-10"),
				hold(3, "2026-05-12", "2026-05-20")},
			stay: rng("2026-05-10", "2026-05-12"), want: 3},
		{name: "taken units skipped", units: units,
			holds: []booking.Hold{hold(1, "2026-05-09", "2026-05-11"), hold(2, "2026-05-11", "2026-05-12")},
			stay:  rng("2026-05-10", "2026-05-12"), want: 3},
		{name: "none free", units: units[:2],
			holds: []booking.Hold{hold(1, "2026-05-09", "2026-05-11"), hold(2, "2026-05-11", "2026-05-12")},
			stay:  rng("2026-05-10", "2026-05-12"), wantNon: true},
		{name: "preparation day keeps the adjacent unit off", units: units[:2],
			holds: []booking.Hold{hold(1, "2026-05-01", "2026-05-10")},
			stay:  rng("2026-05-10", "2026-05-12"), gap: 1, want: 2},
		{name: "holds of every unit are not looked at", units: units[:1],
			holds: []booking.Hold{{Range: rng("2026-05-10", "2026-05-12")}},
			stay:  rng("2026-05-10", "2026-05-12"), want: 1},
		{name: "retired units skipped", units: []booking.Unit{{ID: 1, RetiredAt: start}, {ID: 2}},
			stay: rng("2026-05-10", "2026-05-12"), want: 2},
		{name: "gaps beyond the reach count as open", units: units[:2],
			holds: []booking.Hold{hold(1, "2024-01-01", "2024-01-02"), hold(2, "2027-09-01", "2027-09-02")},
			stay:  rng("2026-05-10", "2026-05-12"), want: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			guarded := civil.Range{Start: c.stay.Start.AddDays(-c.gap), End: c.stay.End.AddDays(c.gap)}
			got, ok := booking.BestUnit(c.units, c.holds, c.stay, guarded)
			if c.wantNon {
				if ok {
					t.Fatalf("BestUnit = %d, want none", got)
				}
				return
			}
			if !ok || got != c.want {
				t.Fatalf("BestUnit = %d, %v; want %d", got, ok, c.want)
			}
		})
	}
}

func TestUnitFree(t *testing.T) {
	p := &booking.Property{Units: []booking.Unit{{ID: 1}, {ID: 2}}}
	stay := rng("2026-05-10", "2026-05-12")
	cases := []struct {
		name  string
		p     *booking.Property
		holds []booking.Hold
		want  bool
	}{
		{"nothing held", p, nil, true},
		{"one unit held", p, []booking.Hold{{Range: stay, Unit: 1}}, true},
		{"both held", p, []booking.Hold{{Range: rng("2026-05-11", "2026-05-13"), Unit: 1}, {Range: stay, Unit: 2}}, false},
		{"every unit held", p, []booking.Hold{{Range: rng("2026-05-11", "2026-05-12")}}, false},
		{"a retired unit's hold", p, []booking.Hold{{Range: stay, Unit: 9}}, true},
		{"adjacent holds", p, []booking.Hold{{Range: rng("2026-05-12", "2026-05-13"), Unit: 1}, {Range: rng("2026-05-01", "2026-05-10"), Unit: 2}}, true},
		{"no units: any hold", &booking.Property{}, []booking.Hold{{Range: stay, Unit: 1}}, false},
	}
	for _, c := range cases {
		if got := booking.UnitFree(c.p, c.holds, stay); got != c.want {
			t.Errorf("%s: UnitFree = %v, want %v", c.name, got, c.want)
		}
	}
}

// withUnits replaces the villa of slug by a copy with n units (its rates,
// rules and blocks), and returns it.
func (e *env) withUnits(t testing.TB, slug string, n int) *booking.Property {
	t.Helper()
	ctx := context.Background()
	org, err := e.svc.Organization(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.store.Property(ctx, org.ID, e.property[slug])
	if err != nil {
		t.Fatal(err)
	}
	p.ID, p.Units = 0, nil
	for i := range n {
		p.Units = append(p.Units, booking.Unit{Name: fmt.Sprintf("Studio %d", i+1)})
	}
	for i := range p.Blocks {
		p.Blocks[i].ID = 0
	}
	if err := e.store.CreateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	e.property[slug] = p.ID
	return p
}

// TestAvailabilityOfUnits: a night is available while one unit is free for
// it (units_available counts them), and a stay may start or end on a day
// only if one unit is free for all its nights: two units each free for
// half of a stay do not make it bookable.
func TestAvailabilityOfUnits(t *testing.T) {
	e := newEnv(t)
	p := e.withUnits(t, "demo", 2)
	ctx := context.Background()
	book := func(in, out string) *booking.CheckoutResult {
		t.Helper()
		o := e.order("demo")
		o.Stay = booking.Stay{CheckIn: d(in), CheckOut: d(out), Guests: 2}
		r, err := e.svc.Checkout(ctx, "demo", o)
		if err != nil {
			t.Fatalf("checkout %s..%s: %v", in, out, err)
		}
		return r
	}
	// 06-08..06-10 booked on both units; U1 blocked 06-10..06-12, U2
	// 06-12..06-14 (checkouts alone would not fragment: best fit).
	book("2026-06-08", "2026-06-10")
	book("2026-06-08", "2026-06-10")
	for i, r := range []civil.Range{rng("2026-06-10", "2026-06-12"), rng("2026-06-12", "2026-06-14")} {
		b := booking.Block{Start: r.Start, End: r.End, UnitID: p.Units[i].ID}
		if err := e.store.AddBlock(ctx, p.ID, &b, e.clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	cal, err := e.svc.Availability(ctx, "demo", p.ID, booking.CalendarRequest{From: d("2026-06-01"), Months: 1})
	if err != nil {
		t.Fatal(err)
	}
	days := map[string]booking.Day{}
	for _, x := range cal.Days {
		days[x.Date.String()] = x
	}
	for _, tt := range []struct {
		day                string
		units              int
		available, in, out bool
	}{
		{"2026-06-07", 2, true, false, true},  // two nights from here need 06-08; 06-05..06-07 ends here
		{"2026-06-08", 0, false, false, true}, // both units held; 06-06..06-08 ends here
		{"2026-06-09", 0, false, false, false},
		{"2026-06-10", 1, true, true, false}, // U2 free 06-10..06-12; no two free nights before
		{"2026-06-11", 1, true, false, false},
		{"2026-06-12", 1, true, true, true}, // U1 free from 06-12 on; U2's 06-10..06-12 ends here
		{"2026-06-13", 1, true, true, false},
		{"2026-06-14", 2, true, true, true},
		{"2026-06-20", 0, false, false, true}, // the owner block of the whole property
	} {
		x := days[tt.day]
		if x.UnitsAvailable != tt.units || x.Available != tt.available || x.CheckIn != tt.in || x.CheckOut != tt.out {
			t.Errorf("%s: units_available %d, available %v, check_in %v, check_out %v; want %d, %v, %v, %v",
				tt.day, x.UnitsAvailable, x.Available, x.CheckIn, x.CheckOut, tt.units, tt.available, tt.in, tt.out)
		}
	}
	// 06-11 is available (U2 free 06-10..06-12) and 06-12 too (U1), but
	// no unit is free for both nights: the quote refuses the stay, and
	// 06-11 is no check-in day (the minimum stay is two nights).
	_, err = e.svc.Quote(ctx, "demo", p.ID, booking.QuoteRequest{Stay: booking.Stay{CheckIn: d("2026-06-11"), CheckOut: d("2026-06-13"), Guests: 2}})
	wantCode(t, err, booking.CodeUnavailable)
	if _, err := e.svc.Quote(ctx, "demo", p.ID, booking.QuoteRequest{Stay: booking.Stay{CheckIn: d("2026-06-10"), CheckOut: d("2026-06-12"), Guests: 2}}); err != nil {
		t.Fatalf("quote of U2's free nights: %v", err)
	}
	// The search counts the property for 06-12..06-14 (U1 is free), not
	// for 06-08..06-10.
	for _, tt := range []struct {
		in, out string
		want    int
	}{{"2026-06-12", "2026-06-14", 1}, {"2026-06-08", "2026-06-10", 0}, {"2026-06-11", "2026-06-13", 0}} {
		res, _, err := e.svc.Search(ctx, "demo", booking.SearchRequest{Stay: booking.Stay{CheckIn: d(tt.in), CheckOut: d(tt.out), Guests: 2}})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range res {
			if r.Listing.Property.ID == p.ID {
				n++
			}
		}
		if n != tt.want {
			t.Errorf("search %s..%s finds the property %d times, want %d", tt.in, tt.out, n, tt.want)
		}
	}
}
