package booking_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/rules"
)

// setRules gives the "demo" villa rules and fees, and per-day settings.
func (e *env) setRules(t testing.TB, set rules.Set, fees func(*pricing.Fees), days ...booking.CalendarDay) *booking.Property {
	t.Helper()
	ctx := context.Background()
	org, err := e.svc.Organization(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.store.Property(ctx, org.ID, e.property["demo"])
	if err != nil {
		t.Fatal(err)
	}
	p.Rates.Rules = set
	if fees != nil {
		fees(&p.Fees)
	}
	if err := e.store.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	if len(days) > 0 {
		if err := e.store.SetCalendarDays(ctx, p.ID, days); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func d(s string) civil.Date { return civil.MustParse(s) }

// TestStayRulesAtQuote: each rule refuses a quote with its code, and the
// stays it allows are priced. Today is Monday 2026-06-01, 10:00 in Paris;
// the villa has an owner block 06-20..06-23 and a 2..28-night limit (5 in
// July from the rate plan's season).
func TestStayRulesAtQuote(t *testing.T) {
	summer := rules.Set{Seasons: []rules.Season{{Start: rules.MonthDay{Month: 7, Day: 1}, End: rules.MonthDay{Month: 8, Day: 31},
		MinStayNights: 7, ArrivalDays: rules.Weekdays{time.Saturday}, DepartureDays: rules.Weekdays{time.Saturday}}}}
	price := dec("300")
	for _, tt := range []struct {
		name    string
		set     rules.Set
		days    []booking.CalendarDay
		in, out string
		party   *pricing.Party
		want    string
		acc     string // accommodation when accepted
	}{
		// Saturday 07-04 to Saturday 07-11: 7 July nights at 150 = 1050.
		{name: "summer Saturday to Saturday", set: summer, in: "2026-07-04", out: "2026-07-11", acc: "1050"},
		{name: "summer Monday arrival", set: summer, in: "2026-07-06", out: "2026-07-13", want: booking.CodeArrivalDay},
		{name: "summer Sunday departure", set: summer, in: "2026-07-04", out: "2026-07-12", want: booking.CodeDepartureDay},
		{name: "closed night", in: "2026-06-08", out: "2026-06-11", want: booking.CodeUnavailable,
			days: []booking.CalendarDay{{Date: d("2026-06-09"), Closed: true}}},
		// Mon 100 + Tue 300 (the day's price) + Wed 100 = 500.
		{name: "day price", in: "2026-06-08", out: "2026-06-11", acc: "500",
			days: []booking.CalendarDay{{Date: d("2026-06-09"), Price: &price}}},
		{name: "day minimum", in: "2026-06-08", out: "2026-06-11", want: booking.CodeMinStay,
			days: []booking.CalendarDay{{Date: d("2026-06-08"), MinStayNights: ptr(4)}}},
		// A day's minimum of 1 lowers the organisation's 2: Mon 100.
		{name: "day minimum lowered", in: "2026-06-08", out: "2026-06-09", acc: "100",
			days: []booking.CalendarDay{{Date: d("2026-06-08"), MinStayNights: ptr(1)}}},
		{name: "closed to arrival", in: "2026-06-08", out: "2026-06-11", want: booking.CodeClosedToArrival,
			days: []booking.CalendarDay{{Date: d("2026-06-08"), ClosedToArrival: true}}},
		{name: "closed to departure", in: "2026-06-08", out: "2026-06-11", want: booking.CodeClosedToDeparture,
			days: []booking.CalendarDay{{Date: d("2026-06-11"), ClosedToDeparture: true}}},
		// Block ends 06-23; 2 preparation days keep 06-23 and 06-24.
		{name: "preparation after a block", set: rules.Set{PreparationDaysAfter: 2}, in: "2026-06-24", out: "2026-06-26", want: booking.CodeUnavailable},
		{name: "after preparation", set: rules.Set{PreparationDaysAfter: 2}, in: "2026-06-25", out: "2026-06-27", acc: "220"},
		{name: "preparation before a block", set: rules.Set{PreparationDaysBefore: 1}, in: "2026-06-17", out: "2026-06-20", want: booking.CodeUnavailable},
		{name: "same-day cut-off", set: rules.Set{SameDayCutoffHour: ptr(10)}, in: "2026-06-01", out: "2026-06-03", want: booking.CodeSameDayCutoff},
		{name: "advance notice", set: rules.Set{AdvanceNoticeDays: 2}, in: "2026-06-02", out: "2026-06-04", want: booking.CodeAdvanceNotice},
		{name: "booking window", set: rules.Set{BookingWindowDays: 30}, in: "2026-07-02", out: "2026-07-08", want: booking.CodeBookingWindow},
		{name: "pets not welcome", in: "2026-06-08", out: "2026-06-11", party: &pricing.Party{Adults: 2, Pets: 1}, want: booking.CodeMaxPets},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.setRules(t, tt.set, nil, tt.days...)
			st := booking.Stay{CheckIn: d(tt.in), CheckOut: d(tt.out), Guests: 2, Party: tt.party}
			q, err := e.svc.Quote(context.Background(), "demo", e.property["demo"], booking.QuoteRequest{Stay: st})
			if tt.want != "" {
				wantCode(t, err, tt.want)
				// Checkout refuses the same stay with the same code.
				o := e.order("demo")
				o.Stay = st
				_, err := e.svc.Checkout(context.Background(), "demo", o)
				wantCode(t, err, tt.want)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !q.Accommodation.Equal(dec(tt.acc)) {
				t.Fatalf("accommodation = %s, want %s", q.Accommodation, tt.acc)
			}
		})
	}
}

// TestExtrasAtCheckout: an extra chosen at checkout is priced into the
// booking's total. 06-08..06-11, 2 adults and 1 child (3 guests, 1 above
// the 2 included): accommodation 300, cleaning 50, extra guest 10 × 3 = 30,
// breakfast 12 × 3 guests × 3 nights = 108, tourist tax 1.50 × 2 adults ×
// 3 nights = 9 (children exempt); total 497.
func TestExtrasAtCheckout(t *testing.T) {
	e := newEnv(t)
	e.setRules(t, rules.Set{}, func(f *pricing.Fees) {
		f.Items = []pricing.Fee{{Code: "breakfast", Labels: pricing.Labels{FR: "Petit-déjeuner", EN: "Breakfast"},
			Per: pricing.PerGuestNight, Amount: dec("12"), Optional: true}}
	})
	ctx := context.Background()
	org, _ := e.svc.Organization(ctx, "demo")
	p, _ := e.store.Property(ctx, org.ID, e.property["demo"])
	p.Tax.Exempt = []string{pricing.CategoryChildren}
	if err := e.store.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	o := e.order("demo")
	o.Guests = 3
	o.Party = &pricing.Party{Adults: 2, Children: 1}
	o.Extras = []pricing.Extra{{Code: "breakfast", Quantity: 1}}
	res, err := e.svc.Checkout(ctx, "demo", o)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Booking.TotalAmount; !got.Equal(dec("497")) {
		t.Fatalf("total = %s, want 497", got)
	}
	o.CheckIn, o.CheckOut = d("2026-06-14"), d("2026-06-17")
	o.Extras = []pricing.Extra{{Code: "spa", Quantity: 1}}
	_, err = e.svc.Checkout(ctx, "demo", o)
	wantCode(t, err, booking.CodeInvalid)
}

// TestCalendarAgreesWithQuote is the property test of the calendar flags:
// for seeded random rule sets, per-day settings and stays, a stay whose
// check-in day is not flagged check_in, whose check-out day is not flagged
// check_out, or with a night not available is refused by quote and
// checkout; a stay quote accepts has all three; and every day flagged
// check_in (check_out) starts (ends) some stay that quote accepts.
func TestCalendarAgreesWithQuote(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 0xca1e))
			e := newEnv(t)
			e.clock.Set(start.Add(time.Duration(rng.IntN(24)) * time.Hour))
			set, days := randomRules(rng)
			e.setRules(t, set, nil, days...)
			ctx := context.Background()
			cal, err := e.svc.Availability(ctx, "demo", e.property["demo"], booking.CalendarRequest{From: d("2026-06-01"), Months: 2})
			if err != nil {
				t.Fatal(err)
			}
			flags := map[civil.Date]booking.Day{}
			for _, day := range cal.Days {
				flags[day.Date] = day
			}
			quote := func(in, out civil.Date) error {
				_, err := e.svc.Quote(ctx, "demo", e.property["demo"], booking.QuoteRequest{Stay: booking.Stay{CheckIn: in, CheckOut: out, Guests: 2}})
				return err
			}
			bookable := func(in, out civil.Date) bool {
				if !flags[in].CheckIn || !flags[out].CheckOut {
					return false
				}
				for n := in; n.Before(out); n = n.AddDays(1) {
					if !flags[n].Available {
						return false
					}
				}
				return true
			}
			last := d("2026-07-31")
			var refused []booking.Stay
			for in := d("2026-06-01"); in.Before(last); in = in.AddDays(1) {
				startsOne := false
				for n := 1; n <= 16 && !in.AddDays(n).After(last); n++ {
					out := in.AddDays(n)
					err := quote(in, out)
					if err == nil {
						startsOne = true
						if !bookable(in, out) {
							t.Fatalf("quote accepts %s..%s, calendar flags %+v / %+v", in, out, flags[in], flags[out])
						}
					} else if booking.ErrorCode(err) == booking.CodeInternal {
						t.Fatal(err)
					} else if !bookable(in, out) && len(refused) < 3 && rng.IntN(8) == 0 {
						refused = append(refused, booking.Stay{CheckIn: in, CheckOut: out, Guests: 2})
					}
				}
				// The calendar looks further than 16 nights: only claim what
				// a 16-night window can show.
				if startsOne && !flags[in].CheckIn {
					t.Fatalf("%s starts an accepted stay but is not flagged check_in", in)
				}
				if flags[in].CheckIn && !startsOne && in.AddDays(16).Before(last) {
					t.Fatalf("%s flagged check_in, no stay from it accepted", in)
				}
			}
			// Checkout agrees with quote on refused stays.
			for _, st := range refused {
				o := e.order("demo")
				o.Stay = st
				if _, err := e.svc.Checkout(ctx, "demo", o); err == nil {
					t.Fatalf("checkout accepted %s..%s, which the calendar flags as not bookable", st.CheckIn, st.CheckOut)
				}
			}
		})
	}
}

// randomRules draws a rule set and per-day settings for June–July 2026.
func randomRules(rng *rand.Rand) (rules.Set, []booking.CalendarDay) {
	var set rules.Set
	weekdays := func() rules.Weekdays {
		if rng.IntN(2) == 0 {
			return nil
		}
		var w rules.Weekdays
		for wd := time.Sunday; wd <= time.Saturday; wd++ {
			if rng.IntN(3) == 0 {
				w = append(w, wd)
			}
		}
		return w
	}
	set.ArrivalDays, set.DepartureDays = weekdays(), weekdays()
	set.AdvanceNoticeDays = rng.IntN(3)
	if rng.IntN(2) == 0 {
		set.SameDayCutoffHour = ptr(rng.IntN(24))
	}
	if rng.IntN(2) == 0 {
		set.BookingWindowDays = 20 + rng.IntN(40)
	}
	set.PreparationDaysAfter, set.PreparationDaysBefore = rng.IntN(3), rng.IntN(2)
	var days []booking.CalendarDay
	for day := d("2026-06-01"); day.Before(d("2026-08-01")); day = day.AddDays(1) {
		if rng.IntN(5) != 0 {
			continue
		}
		cd := booking.CalendarDay{Date: day}
		switch rng.IntN(5) {
		case 0:
			cd.Closed = true
		case 1:
			cd.ClosedToArrival = true
		case 2:
			cd.ClosedToDeparture = true
		case 3:
			cd.MinStayNights = ptr(1 + rng.IntN(6))
		case 4:
			cd.MaxStayNights = ptr(2 + rng.IntN(6))
		}
		days = append(days, cd)
	}
	return set, days
}
