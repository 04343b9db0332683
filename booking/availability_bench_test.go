package booking_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/rules"
	"github.com/staykit/staykit/store/cache"
)

// BenchmarkAvailabilityStayRules is a 12-month calendar of a property with
// Saturday-to-Saturday summer weeks and a day closed to departure: most
// pairs of days the calendar weighs are refused a departure.
func BenchmarkAvailabilityStayRules(b *testing.B) {
	e := newEnv(b)
	set := rules.Set{Seasons: []rules.Season{{
		Name: "Summer", Start: rules.MonthDay{Month: 6, Day: 1}, End: rules.MonthDay{Month: 9, Day: 30},
		MinStayNights: 7, ArrivalDays: rules.Weekdays{time.Saturday}, DepartureDays: rules.Weekdays{time.Saturday},
	}}, DepartureDays: rules.Weekdays{time.Friday, time.Saturday, time.Sunday}}
	e.setRules(b, set, nil)
	ctx := context.Background()
	req := booking.CalendarRequest{From: d("2026-06-01"), Months: 12}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.svc.Availability(ctx, "demo", e.property["demo"], req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAvailabilityUnits is a 12-month calendar of the villa with one
// unit and with ten (issue #27), each unit holding a stay of two to five
// nights every other week or so, staggered from unit to unit: the
// calendar of ten units reads ten times the holds and weighs each night
// on every unit. Compare the two (the goal is within 2x). "store" reads
// the database at each calendar; "readmodel" reads the holds, property and
// per-day calendar from the read model (store/cache) as the reference
// server does, so that it weighs the calendar's own work. "priced" gives
// every unit prices of its own for the year (#27): the calendar then
// also reads them and prices each night at its cheapest free unit.
func BenchmarkAvailabilityUnits(b *testing.B) {
	for _, through := range []string{"store", "readmodel"} {
		for _, c := range []struct {
			n      int
			priced bool
		}{{1, false}, {10, false}, {10, true}} {
			n, name := c.n, fmt.Sprintf("%s/units=%d", through, c.n)
			if c.priced {
				name += "/priced"
			}
			b.Run(name, func(b *testing.B) {
				e := newEnv(b)
				p := e.withUnits(b, "demo", n)
				if c.priced {
					// Every unit priced on its own, each night of the
					// year and the look-ahead: a night costs its cheapest
					// free unit's price.
					for i, u := range p.Units {
						e.priceUnit(b, "demo", u.ID, "2026-05-01", "2027-09-01", fmt.Sprint(90+i))
					}
				}
				ctx := context.Background()
				end := d("2027-06-01")
				for i, u := range p.Units {
					for in := d("2026-06-03").AddDays(i); in.Before(end); in = in.AddDays(11 + (i+in.Day)%7) {
						stay := &booking.Booking{OrgID: p.OrgID, PropertyID: p.ID, UnitID: u.ID, Token: rand.Text(),
							CheckIn: in, CheckOut: in.AddDays(2 + (i+in.Day)%4), Guests: 2, Currency: "EUR",
							PaymentMode: pricing.ModeFull, TotalAmount: dec("300"), ExpiresAt: start.Add(24 * time.Hour)}
						// The villa's owner block refuses the stays over it.
						err := e.store.CreateBooking(ctx, stay, booking.CreateOptions{Now: e.clock.Now()})
						if err != nil && booking.ErrorCode(err) != booking.CodeUnavailable {
							b.Fatal(err)
						}
					}
				}
				svc := e.svc
				if through == "readmodel" {
					rm := cache.New(e.store.Stores(), e.store, cache.Options{MaxAge: time.Hour})
					svc = booking.NewService(booking.Options{Stores: rm.Stores(), Payments: e.pay, Clock: e.clock})
				}
				req := booking.CalendarRequest{From: d("2026-06-01"), Months: 12}
				cal, err := svc.Availability(ctx, "demo", p.ID, req)
				if err != nil {
					b.Fatal(err)
				}
				if n > 1 && !slices.ContainsFunc(cal.Days, func(x booking.Day) bool { return x.UnitsAvailable > 1 && x.UnitsAvailable < n }) {
					b.Fatal("fixture: no night with some units taken and others free")
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := svc.Availability(ctx, "demo", p.ID, req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
