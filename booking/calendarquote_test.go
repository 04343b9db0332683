package booking_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/rules"
)

// calendarOracle is a property's calendar next to the quote: each stay is
// quoted at most once.
type calendarOracle struct {
	t      *testing.T
	e      *env
	flags  map[civil.Date]booking.Day
	quotes map[civil.Range]error
}

// quote is the quote's answer for [in, out): nil when it prices the stay.
func (o *calendarOracle) quote(in, out civil.Date) error {
	r := civil.Range{Start: in, End: out}
	if err, ok := o.quotes[r]; ok {
		return err
	}
	_, err := o.e.svc.Quote(context.Background(), "demo", o.e.property["demo"],
		booking.QuoteRequest{Stay: booking.Stay{CheckIn: in, CheckOut: out, Guests: 2}})
	if booking.ErrorCode(err) == booking.CodeInternal {
		o.t.Fatalf("quote %s..%s: %v", in, out, err)
	}
	o.quotes[r] = err
	return err
}

// offered reports whether the calendar offers the stay [in, out) as a
// guest picks it: in is a check-in day, every night is available, the
// length is within in's min_stay and max_stay, out is a weekday of in's
// departure_days (when it has some), and out is a check-out day.
func (o *calendarOracle) offered(in, out civil.Date) bool {
	first, last := o.flags[in], o.flags[out]
	n := in.DaysUntil(out)
	if !first.CheckIn || !last.CheckOut || n < first.MinStay || n > first.MaxStay {
		return false
	}
	if len(first.DepartureDays) > 0 && !slices.Contains(first.DepartureDays, out.Weekday()) {
		return false
	}
	for d := in; d.Before(out); d = d.AddDays(1) {
		if !o.flags[d].Available {
			return false
		}
	}
	return true
}

// TestCalendarFlagsFollowTheQuote samples stays from random calendars —
// stay rules with seasons (arrival and departure days, minimum and maximum
// stays), per-day settings, lead time, cut-off, booking window,
// preparation days, owner blocks, bookings and the booking horizon — and
// quotes them: every
// stay the calendar offers is priced, every stay it does not offer is
// refused; a day is flagged check_in exactly when some stay starting then
// is priced, check_out exactly when some stay ending then is. With units
// (every other seed), a stay the calendar offers may still be refused:
// each of its nights is free on some unit, but no unit is free for all.
func TestCalendarFlagsFollowTheQuote(t *testing.T) {
	const seeds = 10
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 0x5eed))
			e := newEnv(t)
			e.clock.Set(start.Add(time.Duration(rng.IntN(24)) * time.Hour))
			// Every other seed, the villa has two to four units: a stay
			// holds one for all its nights.
			var units []booking.Unit
			if seed%2 == 1 {
				units = e.withUnits(t, "demo", 2+rng.IntN(3)).Units
			}
			set, days := randomRules(rng)
			set.Seasons = randomSeasons(rng)
			e.setRules(t, set, nil, days...)
			ctx := context.Background()
			if rng.IntN(3) == 0 {
				// The booking horizon falls inside the calendar.
				org, err := e.svc.Organization(ctx, "demo")
				if err != nil {
					t.Fatal(err)
				}
				org.BookingHorizonDays = 40 + rng.IntN(70)
				if err := e.store.UpdateOrganization(ctx, org); err != nil {
					t.Fatal(err)
				}
			}
			for range rng.IntN(3) * max(1, len(units)) {
				in := d("2026-06-01").AddDays(rng.IntN(110))
				b := booking.Block{Start: in, End: in.AddDays(1 + rng.IntN(6)), Reason: "owner"}
				if len(units) > 0 && rng.IntN(4) > 0 {
					b.UnitID = units[rng.IntN(len(units))].ID
				}
				if err := e.store.AddBlock(ctx, e.property["demo"], &b, e.clock.Now()); err != nil && booking.ErrorCode(err) == booking.CodeInternal {
					t.Fatal(err)
				}
			}
			o := &calendarOracle{t: t, e: e, quotes: map[civil.Range]error{}}
			// A booking or two (per unit), where the rules allow one.
			for range 2 * max(1, len(units)) {
				in := d("2026-06-01").AddDays(rng.IntN(110))
				for n := 1; n <= 21; n++ {
					if o.quote(in, in.AddDays(n)) == nil {
						ord := e.order("demo")
						ord.Stay = booking.Stay{CheckIn: in, CheckOut: in.AddDays(n), Guests: 2}
						if _, err := e.svc.Checkout(ctx, "demo", ord); err != nil {
							t.Fatalf("checkout of a quoted stay %s +%d: %v", in, n, err)
						}
						break
					}
				}
				clear(o.quotes)
			}
			cal, err := e.svc.Availability(ctx, "demo", e.property["demo"], booking.CalendarRequest{From: d("2026-06-01"), Months: 4})
			if err != nil {
				t.Fatal(err)
			}
			o.flags = map[civil.Date]booking.Day{}
			for _, day := range cal.Days {
				o.flags[day.Date] = day
			}
			first, last := cal.From, cal.To

			// Stays drawn at random, many of them near the rules' edges.
			for range 600 {
				in := first.AddDays(rng.IntN(first.DaysUntil(last)))
				n := 1 + rng.IntN(min(45, in.DaysUntil(last)))
				if rng.IntN(2) == 0 {
					n = 1 + rng.IntN(min(10, in.DaysUntil(last)))
				}
				out := in.AddDays(n)
				err := o.quote(in, out)
				// With units, nights each free on some unit may have no
				// unit free for all of them: the calendar offers more
				// than can be booked, never less.
				if offered := o.offered(in, out); offered != (err == nil) && (len(units) == 0 || err == nil) {
					t.Fatalf("%s..%s (%s to %s): calendar offers it: %v; quote: %v\nflags in %+v\nflags out %+v",
						in, out, in.Weekday(), out.Weekday(), offered, err, o.flags[in], o.flags[out])
				}
			}
			// Days drawn at random: their flags say whether some stay
			// starts (ends) there.
			const longest = 45 // the longest stay randomSeasons allows
			for range 25 {
				day := first.AddDays(rng.IntN(first.DaysUntil(last)))
				starts := false
				for n := 1; n <= longest && !starts; n++ {
					starts = o.quote(day, day.AddDays(n)) == nil
				}
				if starts != o.flags[day].CheckIn {
					t.Fatalf("%s (%s): check_in %v, but a stay starting then is priced: %v", day, day.Weekday(), o.flags[day].CheckIn, starts)
				}
				ends := false
				for n := 1; n <= longest && !ends && !day.AddDays(-n).Before(first); n++ {
					ends = o.quote(day.AddDays(-n), day) == nil
				}
				if ends != o.flags[day].CheckOut {
					t.Fatalf("%s (%s): check_out %v, but a stay ending then is priced: %v", day, day.Weekday(), o.flags[day].CheckOut, ends)
				}
			}
		})
	}
}

// randomSeasons draws up to two rules seasons over June–September: weekly
// stays (arrival and departure days), higher minimums or lower maximums.
func randomSeasons(rng *rand.Rand) []rules.Season {
	var out []rules.Season
	for range rng.IntN(3) {
		startDay := d("2026-06-01").AddDays(rng.IntN(100))
		endDay := startDay.AddDays(7 + rng.IntN(50))
		se := rules.Season{Name: "season",
			Start: rules.MonthDay{Month: startDay.Month, Day: startDay.Day},
			End:   rules.MonthDay{Month: endDay.Month, Day: endDay.Day}}
		switch rng.IntN(3) {
		case 0: // Saturday to Saturday weeks
			se.ArrivalDays = rules.Weekdays{time.Saturday}
			se.DepartureDays = rules.Weekdays{time.Saturday}
			se.MinStayNights = 7
		case 1:
			se.DepartureDays = rules.Weekdays{time.Saturday, time.Sunday, time.Wednesday}
			se.MinStayNights = 1 + rng.IntN(8)
		}
		if rng.IntN(2) == 0 {
			se.MaxStayNights = max(se.MinStayNights, 3+rng.IntN(43))
		}
		out = append(out, se)
	}
	return out
}
