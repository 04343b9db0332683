package booking_test

import (
	"context"
	"sync"
	"testing"

	"github.com/staykit/staykit/booking"
)

// priceUnit sets unit's own price of the nights of [in, out).
func (e *env) priceUnit(t testing.TB, slug string, unit int64, in, out, price string) {
	t.Helper()
	ctx := context.Background()
	org, err := e.svc.Organization(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	var days []booking.UnitPriceDay
	for x := d(in); x.Before(d(out)); x = x.AddDays(1) {
		days = append(days, booking.UnitPriceDay{Date: x, Price: ptr(dec(price))})
	}
	if _, err := e.store.SetUnitPrices(ctx, org.ID, unit, days); err != nil {
		t.Fatal(err)
	}
}

// unitPricedVilla is the villa of "demo" with three units for the order's
// nights (8–11 June, Mon–Thu, 100 a night): U1 at the property's price
// (accommodation 300), U2 at 80 a night (240), U3 at 90 on the night of
// the 9th (290). With cleaning 50 and the tourist tax 9, a stay of the
// order costs 359 on U1, 299 on U2, 349 on U3.
func unitPricedVilla(t *testing.T, e *env) (p *booking.Property, total map[int64]string) {
	t.Helper()
	p = e.withUnits(t, "demo", 3)
	e.priceUnit(t, "demo", p.Units[1].ID, "2026-06-08", "2026-06-11", "80")
	e.priceUnit(t, "demo", p.Units[2].ID, "2026-06-09", "2026-06-10", "90")
	return p, map[int64]string{p.Units[0].ID: "359", p.Units[1].ID: "299", p.Units[2].ID: "349"}
}

// TestUnitPricesQuoteTheCheapestFreeUnit: a property whose units have
// prices of their own is quoted, shown and sold at its cheapest free
// unit's price, and the stay holds that unit; as units fill up the price
// rises to the next one's.
func TestUnitPricesQuoteTheCheapestFreeUnit(t *testing.T) {
	e := newEnv(t)
	p, total := unitPricedVilla(t, e)
	ctx := context.Background()
	stay := e.order("demo").Stay
	nightPrices := func() map[string]string {
		t.Helper()
		cal, err := e.svc.Availability(ctx, "demo", p.ID, booking.CalendarRequest{From: d("2026-06-01"), Months: 1})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, x := range cal.Days {
			if !x.Date.Before(d("2026-06-08")) && x.Date.Before(d("2026-06-12")) {
				out[x.Date.String()] = x.Price.String()
			}
		}
		return out
	}
	for i, tt := range []struct {
		unit   int64
		nights map[string]string // the calendar's prices before the checkout
	}{
		{p.Units[1].ID, map[string]string{"2026-06-08": "80", "2026-06-09": "80", "2026-06-10": "80", "2026-06-11": "100"}},
		{p.Units[2].ID, map[string]string{"2026-06-08": "100", "2026-06-09": "90", "2026-06-10": "100", "2026-06-11": "100"}},
		{p.Units[0].ID, map[string]string{"2026-06-08": "100", "2026-06-09": "100", "2026-06-10": "100", "2026-06-11": "100"}},
	} {
		if got := nightPrices(); !mapsEqual(got, tt.nights) {
			t.Fatalf("checkout %d: the calendar's prices are %v, want %v", i+1, got, tt.nights)
		}
		q, err := e.svc.Quote(ctx, "demo", p.ID, booking.QuoteRequest{Stay: stay})
		if err != nil {
			t.Fatal(err)
		}
		if q.Total.String() != total[tt.unit] {
			t.Fatalf("quote %d: total %s, want %s (unit %d's price)", i+1, q.Total, total[tt.unit], tt.unit)
		}
		r, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
		if err != nil {
			t.Fatal(err)
		}
		if r.Booking.UnitID != tt.unit || r.Booking.TotalAmount.String() != total[tt.unit] {
			t.Fatalf("checkout %d: unit %d at %s, want unit %d at %s", i+1, r.Booking.UnitID, r.Booking.TotalAmount, tt.unit, total[tt.unit])
		}
		if in, ok := e.pay.Intent(r.Booking.PaymentIntentID); !ok || in.Amount != dec(total[tt.unit]).Shift(2).IntPart() {
			t.Fatalf("checkout %d: the intent charges %d minor units, want %s", i+1, in.Amount, total[tt.unit])
		}
	}
	_, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
	wantCode(t, err, booking.CodeUnavailable)
}

// TestUnitPricesRacingCheckouts: guests quoted the cheap unit's price
// check out together. Whatever the interleaving, every stay sold holds a
// unit at that unit's own price — a guest who lost the cheap unit is
// refused (and quotes again), never given a dearer unit at the cheap
// price — and no unit is sold twice.
func TestUnitPricesRacingCheckouts(t *testing.T) {
	for round := range 5 {
		e := newEnv(t)
		p, total := unitPricedVilla(t, e)
		ctx := context.Background()
		const n = 8
		var (
			gate    = make(chan struct{})
			wg      sync.WaitGroup
			mu      sync.Mutex
			results []*booking.CheckoutResult
		)
		for range n {
			wg.Go(func() {
				<-gate
				r, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
				if err != nil {
					if booking.ErrorCode(err) != booking.CodeUnavailable {
						t.Errorf("checkout: %v", err)
					}
					return
				}
				mu.Lock()
				results = append(results, r)
				mu.Unlock()
			})
		}
		close(gate)
		wg.Wait()
		held := map[int64]bool{}
		for _, r := range results {
			b := r.Booking
			if held[b.UnitID] {
				t.Fatalf("round %d: unit %d sold twice", round, b.UnitID)
			}
			held[b.UnitID] = true
			if b.TotalAmount.String() != total[b.UnitID] {
				t.Fatalf("round %d: unit %d sold at %s, its price is %s", round, b.UnitID, b.TotalAmount, total[b.UnitID])
			}
		}
		if len(results) == 0 || !held[p.Units[1].ID] {
			t.Fatalf("round %d: %d stays sold, the cheapest unit not among them", round, len(results))
		}
	}
}

// TestUnitPricesRepriceAChange: a change of dates is priced on the
// cheapest unit free for the new stay (the booking's own hold apart) and
// kept to the units priced alike.
func TestUnitPricesRepriceAChange(t *testing.T) {
	e := newEnv(t)
	p, _ := unitPricedVilla(t, e)
	ctx := context.Background()
	r, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
	if err != nil {
		t.Fatal(err)
	}
	org, err := e.svc.Organization(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	b := r.Booking
	// Two nights, 8–10 June: U2 (its own stay apart) at 80 + 80.
	rs, err := e.svc.RepriceStay(ctx, org, &b, booking.Stay{CheckIn: d("2026-06-08"), CheckOut: d("2026-06-10"), Guests: 2}, "en")
	if err != nil {
		t.Fatal(err)
	}
	if rs.Quote.Accommodation.String() != "160" || len(rs.Guard.Units) != 1 || rs.Guard.Units[0] != p.Units[1].ID {
		t.Fatalf("repriced at accommodation %s kept to units %v, want 160 on [%d]", rs.Quote.Accommodation, rs.Guard.Units, p.Units[1].ID)
	}
	// 11–13 June: no unit has prices of its own then, any unit will do.
	rs, err = e.svc.RepriceStay(ctx, org, &b, booking.Stay{CheckIn: d("2026-06-11"), CheckOut: d("2026-06-13"), Guests: 2}, "en")
	if err != nil {
		t.Fatal(err)
	}
	if rs.Guard.Units != nil || rs.Quote.Accommodation.String() != "220" {
		t.Fatalf("repriced at accommodation %s kept to units %v, want 220 (100 + 120) on any unit", rs.Quote.Accommodation, rs.Guard.Units)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestUnitPricesSortTheSearch: a search sorted by price counts a property
// whose units have prices of their own at its cheapest unit's: the villa
// of three units, its second at 80 a night, comes before the villa of one
// unit at 100 a night, which it ties with at the property's price.
func TestUnitPricesSortTheSearch(t *testing.T) {
	e := newEnv(t)
	single := e.property["demo"]
	p := e.withUnits(t, "demo", 3)
	ctx := context.Background()
	order := func() []int64 {
		t.Helper()
		res, _, err := e.svc.Search(ctx, "demo", booking.SearchRequest{Stay: e.order("demo").Stay, Sort: booking.SortPrice})
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, r := range res {
			ids = append(ids, r.Listing.Property.ID)
		}
		return ids
	}
	if got := order(); len(got) != 2 || got[0] != single || got[1] != p.ID {
		t.Fatalf("before unit prices: %v, want %d then %d (a tie, by ID)", got, single, p.ID)
	}
	e.priceUnit(t, "demo", p.Units[1].ID, "2026-06-08", "2026-06-11", "80")
	if got := order(); len(got) != 2 || got[0] != p.ID || got[1] != single {
		t.Fatalf("after pricing a unit at 80: %v, want %d (its cheap unit) then %d", got, p.ID, single)
	}
}
