package cache_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/rules"
	"github.com/staykit/staykit/store/cache"
)

// randomCatalogue adds n properties of random rates, capacity, preparation
// days, minimum stays, units (one to three), per-day calendars (prices,
// closed nights and arrivals) and holds — blocks of a unit or of the whole
// property, pending checkouts (some lapsed by the end) — over June–August
// 2026 to e's organisation, and links some of them (a whole of one unit
// and its parts).
func randomCatalogue(t *testing.T, e *env, rnd *rand.Rand, n int) {
	t.Helper()
	ctx := t.Context()
	dec := func(cents int) decimal.Decimal { return decimal.New(int64(cents), -2) }
	summer := day("2026-06-01")
	var created []*booking.Property
	defer func() {
		// Links, where they hold no night twice (the others are refused).
		us := e.cache.UnitStore(e.db)
		for range n / 4 {
			whole, part := created[rnd.IntN(len(created))], created[rnd.IntN(len(created))]
			_, _ = us.Link(ctx, e.org.ID, whole.ID, part.ID, civil.Of(e.clock.Now()), e.clock.Now())
		}
	}()
	for i := range n {
		p := &booking.Property{OrgID: e.org.ID, Name: []string{"Pin", "Mer", "Sud", "Lac"}[rnd.IntN(4)] + " " + strconv.Itoa(rnd.IntN(10)),
			MaxGuests: 1 + rnd.IntN(4), Active: rnd.IntN(10) > 0,
			Rates: pricing.RatePlan{BaseRate: dec(5000 + 100*rnd.IntN(100)),
				Rules: rules.Set{PreparationDaysAfter: rnd.IntN(3) / 2, PreparationDaysBefore: rnd.IntN(3) / 2}}}
		if rnd.IntN(2) == 0 {
			w := decimal.New(int64(60000+rnd.IntN(9000)), -3) // three places
			p.Rates.WeekendRate = &w
			p.Rates.WeekendNights = []time.Weekday{time.Friday, time.Saturday}
		}
		if rnd.IntN(3) == 0 {
			s := summer.AddDays(rnd.IntN(60))
			p.Rates.Seasons = []pricing.Season{{Name: "haute", Start: s, End: s.AddDays(rnd.IntN(20)),
				Rate: dec(9000 + rnd.IntN(5000)), MinStayNights: rnd.IntN(4)}}
		}
		for u := range rnd.IntN(3) {
			p.Units = append(p.Units, booking.Unit{Name: strconv.Itoa(u + 1)})
		}
		if err := e.cache.CreateProperty(ctx, p); err != nil {
			t.Fatal(err)
		}
		created = append(created, p)
		var days []booking.CalendarDay
		for range rnd.IntN(8) {
			d := booking.CalendarDay{Date: summer.AddDays(rnd.IntN(90))}
			switch rnd.IntN(4) {
			case 0:
				price := dec(3000 + rnd.IntN(20000))
				d.Price = &price
			case 1:
				d.Closed = true
			case 2:
				d.ClosedToArrival = true
			default:
				m := 1 + rnd.IntN(5)
				d.MinStayNights = &m
			}
			if !slices.ContainsFunc(days, func(x booking.CalendarDay) bool { return x.Date == d.Date }) {
				days = append(days, d)
			}
		}
		if err := e.cache.SetCalendarDays(ctx, p.ID, days); err != nil {
			t.Fatal(err)
		}
		for range rnd.IntN(4) {
			s := summer.AddDays(rnd.IntN(85))
			b := &booking.Block{Start: s, End: s.AddDays(1 + rnd.IntN(6))}
			if rnd.IntN(2) == 0 {
				b.UnitID = p.Units[rnd.IntN(len(p.Units))].ID
			}
			if err := e.cache.AddBlock(ctx, p.ID, b, e.clock.Now()); err != nil {
				t.Fatal(err)
			}
		}
		if !p.Active {
			continue
		}
		for range rnd.IntN(4) * len(p.Units) {
			s := summer.AddDays(rnd.IntN(85))
			// Refusals (taken, closed, rules) are part of the draw.
			_, _ = e.svc.Checkout(ctx, "villa", booking.CheckoutRequest{PropertyID: p.ID,
				Stay:      booking.Stay{CheckIn: s, CheckOut: s.AddDays(1 + rnd.IntN(5)), Guests: 1},
				GuestName: "Ann", GuestEmail: "ann@example.com", GuestPhone: "+33612345678"})
		}
		if i == n/2 {
			e.clock.Advance(20 * time.Minute) // the first half's holds lapse before the end
		}
	}
	e.clock.Advance(15 * time.Minute)
}

// found is a search's answer as compared: each property's ID and quote
// total.
func found(rs []booking.SearchResult) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = strconv.FormatInt(r.Listing.Property.ID, 10) + "=" + r.Quote.Total.String()
	}
	return out
}

// TestSearchIndexAnswersAsTheStore: over random calendars, a search
// through the read model's index answers exactly what the same search
// answers over the bare store (Occupied and a quote per property), in
// each order; and its pages, cursor after cursor, make up the whole list.
func TestSearchIndexAnswersAsTheStore(t *testing.T) {
	for seed := range uint64(2) {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(seed, 31))
			e := newEnv(t, cache.Options{})
			randomCatalogue(t, e, rnd, 24)
			bare := booking.NewService(booking.Options{Stores: e.db.Stores(), Payments: e.pay, Clock: e.clock})
			for range 10 {
				in := day("2026-06-01").AddDays(rnd.IntN(80))
				req := booking.SearchRequest{Stay: booking.Stay{CheckIn: in, CheckOut: in.AddDays(1 + rnd.IntN(7)), Guests: 1 + rnd.IntN(3)}}
				for _, sort := range []booking.SearchSort{booking.SortID, booking.SortPrice, booking.SortName} {
					req.Sort, req.Limit, req.After = sort, 0, 0
					want, _, err := bare.Search(t.Context(), "villa", req)
					if err != nil {
						t.Fatal(err)
					}
					got, next, err := e.svc.Search(t.Context(), "villa", req)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(found(got), found(want)) || next != 0 {
						t.Fatalf("%v sort %q: indexed %v (next %d), bare %v", req.Stay.Range(), sort, found(got), next, found(want))
					}
					if sort == booking.SortPrice && !slices.IsSortedFunc(want, func(a, b booking.SearchResult) int {
						return nights(a).Cmp(nights(b))
					}) {
						t.Fatalf("sorted by price, not by the nights' prices: %v", found(want))
					}
					var paged []booking.SearchResult
					req.Limit = 3 + rnd.IntN(3)
					for {
						page, next, err := e.svc.Search(t.Context(), "villa", req)
						if err != nil {
							t.Fatal(err)
						}
						if len(page) > req.Limit || (next != 0 && len(page) != req.Limit) {
							t.Fatalf("page of %d for limit %d, next %d", len(page), req.Limit, next)
						}
						paged = append(paged, page...)
						if next == 0 {
							break
						}
						req.After = next
					}
					if !slices.Equal(found(paged), found(want)) {
						t.Fatalf("%v sort %q: pages %v, whole %v", req.Stay.Range(), sort, found(paged), found(want))
					}
				}
			}
		})
	}
}

// nights is the sum of the nightly prices of a result's quote.
func nights(r booking.SearchResult) decimal.Decimal {
	sum := decimal.Zero
	for _, n := range r.Quote.NightsDetail {
		sum = sum.Add(n.Price)
	}
	return sum
}
