package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/datechange"
)

// setUnitPrice prices the nights of [in, out) of unit at price ("" clears
// them) and returns the unit as the store answers.
func setUnitPrice(t *testing.T, s Stores, orgID, unit int64, in, out, price string) *booking.Unit {
	t.Helper()
	var days []booking.UnitPriceDay
	for d := day(in); d.Before(day(out)); d = d.AddDays(1) {
		ud := booking.UnitPriceDay{Date: d}
		if price != "" {
			ud.Price = new(dec(price))
		}
		days = append(days, ud)
	}
	u, err := unitStore(t, s).SetUnitPrices(t.Context(), orgID, unit, days)
	must(t, err)
	return u
}

// unitPriceScenarios: units priced on their own (booking.UnitPrice), and
// stays kept to the units priced as they were quoted
// (booking.DateGuard.Units) by every write that gives a stay a unit.
var unitPriceScenarios = []scenario{
	{"UnitPrices/SetListAndClear", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		us := unitStore(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 3)
		u1, u2 := p.Units[0].ID, p.Units[1].ID
		if u := setUnitPrice(t, s, w.org.ID, u2, "2026-07-01", "2026-07-04", "80.50"); !u.Priced || u.ID != u2 {
			t.Fatalf("SetUnitPrices answered %+v, want unit %d priced", u, u2)
		}
		setUnitPrice(t, s, w.org.ID, u2, "2026-07-03", "2026-07-05", "90")
		got, err := us.UnitPriceDays(ctx, w.org.ID, u2, day("2026-06-30"), day("2026-07-10"))
		must(t, err)
		want := []string{"2026-07-01=80.5", "2026-07-02=80.5", "2026-07-03=90", "2026-07-04=90"}
		if s := unitPriceStrings(got); !slices.Equal(s, want) {
			t.Fatalf("UnitPriceDays = %v, want %v", s, want)
		}
		// The property's reader lists every unit's, by unit then date,
		// within the range asked.
		setUnitPrice(t, s, w.org.ID, u1, "2026-07-02", "2026-07-03", "70")
		all, err := s.UnitPrices(ctx, p.ID, day("2026-07-02"), day("2026-07-04"))
		must(t, err)
		if s := unitPriceStrings(all); !slices.Equal(s, []string{"2026-07-02=70", "2026-07-02=80.5", "2026-07-03=90"}) ||
			all[0].UnitID != u1 || all[1].UnitID != u2 {
			t.Fatalf("UnitPrices = %+v", all)
		}
		// The units read with the property say which are priced.
		read, err := s.Property(ctx, w.org.ID, p.ID)
		must(t, err)
		if priced := pricedUnits(read.Units); !slices.Equal(priced, []int64{u1, u2}) {
			t.Fatalf("priced units %v, want %v", priced, []int64{u1, u2})
		}
		// Clearing every night of a unit makes it unpriced again.
		if u := setUnitPrice(t, s, w.org.ID, u1, "2026-07-01", "2026-07-05", ""); u.Priced {
			t.Fatalf("unit %d still priced after its prices were cleared", u1)
		}
		read, err = s.Property(ctx, w.org.ID, p.ID)
		must(t, err)
		if priced := pricedUnits(read.Units); !slices.Equal(priced, []int64{u2}) {
			t.Fatalf("priced units %v after clearing unit %d, want [%d]", priced, u1, u2)
		}
	}},
	{"UnitPrices/Refusals", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		us := unitStore(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 2)
		other := newOrg(t, s, "other-unit-prices")
		u := p.Units[0].ID
		_, err := us.SetUnitPrices(ctx, other.ID, u, []booking.UnitPriceDay{{Date: day("2026-07-01"), Price: new(dec("10"))}})
		wantCode(t, err, booking.CodeNotFound)
		_, err = us.UnitPriceDays(ctx, other.ID, u, day("2026-07-01"), day("2026-07-02"))
		wantCode(t, err, booking.CodeNotFound)
		for name, days := range map[string][]booking.UnitPriceDay{
			"negative":  {{Date: day("2026-07-01"), Price: new(dec("-1"))}},
			"duplicate": {{Date: day("2026-07-01"), Price: new(dec("1"))}, {Date: day("2026-07-01")}},
			"no date":   {{Price: new(dec("1"))}},
		} {
			// A refused write writes nothing, not even its valid days.
			days = append([]booking.UnitPriceDay{{Date: day("2026-07-09"), Price: new(dec("5"))}}, days...)
			_, err := us.SetUnitPrices(ctx, w.org.ID, u, days)
			wantCode(t, err, booking.CodeInvalid)
			got, err := us.UnitPriceDays(ctx, w.org.ID, u, day("2026-07-01"), day("2026-07-10"))
			must(t, err)
			if len(got) != 0 {
				t.Fatalf("%s: a refused write stored %v", name, unitPriceStrings(got))
			}
		}
	}},
	{"UnitPrices/StayKeptToItsUnits", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		p := newUnitsProperty(t, s, w.org.ID, 3)
		u1, u2, u3 := p.Units[0].ID, p.Units[1].ID, p.Units[2].ID
		cheap := []int64{u2, u3}
		only := func(units []int64) booking.CreateOptions {
			return booking.CreateOptions{Now: t0, DateGuard: booking.DateGuard{Units: units}}
		}
		// Best fit alone would give the first stay U1; kept to U2 and U3,
		// the two stays take them, and a third is refused although U1 is
		// free.
		var held []int64
		for range 2 {
			b := pendingFixture(p, "2026-07-10", "2026-07-12")
			must(t, s.CreateBooking(ctx, b, only(cheap)))
			held = append(held, b.UnitID)
		}
		slices.Sort(held)
		if !slices.Equal(held, cheap) {
			t.Fatalf("the stays kept to %v hold %v", cheap, held)
		}
		wantCode(t, s.CreateBooking(ctx, pendingFixture(p, "2026-07-10", "2026-07-12"), only(cheap)), booking.CodeUnavailable)
		// Asked for a unit outside its units, a stay is refused too.
		asked := pendingFixture(p, "2026-07-20", "2026-07-21")
		asked.UnitID = u1
		wantCode(t, s.CreateBooking(ctx, asked, only(cheap)), booking.CodeUnavailable)
		// Without units, the stay takes U1.
		free := pendingFixture(p, "2026-07-10", "2026-07-12")
		must(t, s.CreateBooking(ctx, free, booking.CreateOptions{Now: t0}))
		if free.UnitID != u1 {
			t.Fatalf("an unrestricted stay holds unit %d, want %d", free.UnitID, u1)
		}

		// A late payment takes its dates back on one of its units only.
		late := newPending(t, s, p, "2026-08-01", "2026-08-03", t0.Add(time.Minute))
		late = moveTo(t, s, late, booking.StatusExpired)
		taker := pendingFixture(p, "2026-08-01", "2026-08-03")
		taker.UnitID = late.UnitID
		create(t, s, taker, t0.Add(2*time.Minute))
		others := slices.DeleteFunc([]int64{u1, u2, u3}, func(id int64) bool { return id == late.UnitID })
		_, err := s.Transition(ctx, late.ID, lateClaim(t0.Add(3*time.Minute), booking.DateGuard{Units: []int64{late.UnitID}}))
		wantCode(t, err, booking.CodeUnavailable)
		got, err := s.Transition(ctx, late.ID, lateClaim(t0.Add(3*time.Minute), booking.DateGuard{Units: others[1:]}))
		must(t, err)
		if got.UnitID != others[1] {
			t.Fatalf("the late claim kept to unit %d holds %d", others[1], got.UnitID)
		}

		// A change of dates moves to one of its units (its own is not one).
		dc := capabilityOf[datechange.Store](t, s)
		b := moveTo(t, s, newPending(t, s, p, "2026-09-01", "2026-09-03", t0.Add(time.Hour)), booking.StatusConfirmed)
		target := slices.DeleteFunc([]int64{u1, u2, u3}, func(id int64) bool { return id == b.UnitID })[0]
		c := changeOf(b, datechange.StatusPaying, "2026-09-02", "2026-09-04")
		must(t, dc.SaveDateChange(ctx, c, nil, nil, nil, t0))
		a := applyOf(b, c, []datechange.Status{datechange.StatusPaying}, "2026-09-02", "2026-09-04", t0.Add(time.Minute))
		a.Guard.Units = []int64{target}
		moved, err := dc.ApplyDateChange(ctx, a)
		must(t, err)
		if moved.UnitID != target {
			t.Fatalf("the change kept to unit %d moved the booking to unit %d", target, moved.UnitID)
		}
	}},
}

// unitPriceRaceScenarios: checkouts quoted the price of the cheap units
// race for them: as many win as there are cheap units, every winner on
// one of them, and no loser is given a dearer unit.
var unitPriceRaceScenarios = []scenario{
	{"Race/CheapUnitsOfANight", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		const n = 30
		for round := range rounds {
			p := newUnitsProperty(t, s, w.org.ID, 5)
			cheap := []int64{p.Units[1].ID, p.Units[3].ID}
			stays := make([]*booking.Booking, n)
			for i := range stays {
				stays[i] = pendingFixture(p, day("2026-05-10").AddDays(-(i % 3)).String(), day("2026-05-11").AddDays(i%4).String())
			}
			counts := race(n, func(i int) error {
				return s.CreateBooking(t.Context(), stays[i], booking.CreateOptions{Now: t0, DateGuard: booking.DateGuard{Units: cheap}})
			})
			wantCounts(t, counts, map[string]int{"": 2, booking.CodeUnavailable: n - 2})
			var won []int64
			for _, b := range stays {
				if b.ID != 0 {
					won = append(won, b.UnitID)
				}
			}
			slices.Sort(won)
			if !slices.Equal(won, cheap) {
				t.Fatalf("round %d: the winners hold units %v, want %v", round, won, cheap)
			}
		}
	}},
}

func unitPriceStrings(list []booking.UnitPrice) []string {
	out := make([]string, len(list))
	for i, p := range list {
		out[i] = p.Date.String() + "=" + p.Price.String()
	}
	return out
}

func pricedUnits(list []booking.Unit) []int64 {
	var out []int64
	for _, u := range list {
		if u.Priced {
			out = append(out, u.ID)
		}
	}
	return out
}
