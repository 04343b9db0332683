package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
)

// newUnitsProperty stores a property of orgID with n units named "U1"…
// "Un", by position.
func newUnitsProperty(t *testing.T, s Stores, orgID int64, n int) *booking.Property {
	t.Helper()
	p := propertyFixture(orgID)
	p.Blocks = nil
	for i := range n {
		p.Units = append(p.Units, booking.Unit{Name: fmt.Sprintf("U%d", i+1)})
	}
	must(t, s.CreateProperty(t.Context(), p))
	if len(p.Units) != n {
		t.Fatalf("CreateProperty left %d units, want %d", len(p.Units), n)
	}
	for i, u := range p.Units {
		if u.ID == 0 || u.PropertyID != p.ID || u.Position != i+1 {
			t.Fatalf("CreateProperty's unit %d = %+v", i, u)
		}
	}
	return p
}

// unitsOf are the units held by bookings, in the order of bookings.
func unitsOf(list ...*booking.Booking) []int64 {
	out := make([]int64, len(list))
	for i, b := range list {
		out[i] = b.UnitID
	}
	return out
}

// holdsOn counts the holds of a unit (0: on every unit) among holds.
func holdsOn(holds []booking.Hold, unit int64) int {
	n := 0
	for _, h := range holds {
		if h.Unit == unit {
			n++
		}
	}
	return n
}

// unitScenarios: a property sells several identical units; each stay holds
// one, chosen by the store in the booking's atomic step (best fit), and no
// two live stays of one unit overlap.
var unitScenarios = []scenario{
	{"Units/PropertyGetsItsUnits", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		if len(w.prop.Units) != 1 || w.prop.Units[0].Name != booking.DefaultUnitName || w.prop.Units[0].ID == 0 {
			t.Fatalf("a property created without units has %+v, want one unit named %q", w.prop.Units, booking.DefaultUnitName)
		}
		p := newUnitsProperty(t, s, w.org.ID, 3)
		got, err := s.Property(t.Context(), w.org.ID, p.ID)
		must(t, err)
		sameJSON(t, "units read back", got.Units, p.Units)
		list, err := s.Properties(t.Context(), w.org.ID)
		must(t, err)
		if len(list) != 2 {
			t.Fatalf("%d properties listed, want 2", len(list))
		}
		sameJSON(t, "units listed", [][]booking.Unit{list[0].Units, list[1].Units}, [][]booking.Unit{w.prop.Units, p.Units})
		bad := propertyFixture(w.org.ID)
		bad.Units = []booking.Unit{{Name: " "}}
		wantInvalid(t, s.CreateProperty(t.Context(), bad), "units")
	}},
	{"Units/FiveUnitsSellFiveStaysOfANight", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 5)
		var stays []*booking.Booking
		for i := range 5 {
			// Every stay holds the night of 05-10, each with other edges.
			b := pendingFixture(p, day("2026-05-10").AddDays(-i).String(), day("2026-05-11").AddDays(i).String())
			b.ExpiresAt = t0.Add(time.Hour)
			if i == 2 {
				b.ExpiresAt = t0.Add(10 * time.Minute)
			}
			create(t, s, b, t0)
			stays = append(stays, b)
		}
		held := unitsOf(stays...)
		slices.Sort(held)
		if want := booking.UnitIDs(p.Units); !slices.Equal(held, want) {
			t.Fatalf("the five stays hold units %v, want each of %v once", held, want)
		}
		sixth := pendingFixture(p, "2026-05-10", "2026-05-11")
		wantCode(t, s.CreateBooking(t.Context(), sixth, booking.CreateOptions{Now: t0}), booking.CodeUnavailable)
		for _, b := range stays {
			got, err := s.BookingByID(t.Context(), b.ID)
			must(t, err)
			if got.UnitID != b.UnitID {
				t.Fatalf("booking %d stored on unit %d, CreateBooking said %d", b.ID, got.UnitID, b.UnitID)
			}
		}
		// A night next to them is free on every unit; the night itself
		// is taken five times, once per unit.
		taken, err := s.Occupied(t.Context(), p.ID, day("2026-05-10"), day("2026-05-11"), t0)
		must(t, err)
		for _, u := range p.Units {
			if holdsOn(taken, u.ID) != 1 {
				t.Fatalf("Occupied %+v: unit %d held %d times, want once", taken, u.ID, holdsOn(taken, u.ID))
			}
		}
		// The lapse of one hold frees one unit for the sixth stay.
		lapsed := stays[2]
		must(t, s.CreateBooking(t.Context(), sixth, booking.CreateOptions{Now: lapsed.ExpiresAt}))
		if sixth.UnitID != lapsed.UnitID {
			t.Fatalf("the sixth stay holds unit %d, want the lapsed hold's %d", sixth.UnitID, lapsed.UnitID)
		}
	}},
	{"Units/BestFitKeepsTheCalendarWhole", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 3)
		u1, u2, u3 := p.Units[0].ID, p.Units[1].ID, p.Units[2].ID
		// U1 is taken until 05-10, U2 from 05-20, U3 is empty.
		a := pendingFixture(p, "2026-05-05", "2026-05-10")
		a.UnitID = u1
		create(t, s, a, t0)
		b := pendingFixture(p, "2026-05-20", "2026-05-25")
		b.UnitID = u2
		create(t, s, b, t0)
		if a.UnitID != u1 || b.UnitID != u2 {
			t.Fatalf("asked units %d and %d, got %d and %d", u1, u2, a.UnitID, b.UnitID)
		}
		for _, tt := range []struct {
			name    string
			in, out string
			want    int64
		}{
			// 05-12..05-20: U1 leaves 2 days before, U2 none after.
			{"fits before the next stay", "2026-05-12", "2026-05-20", u2},
			// 05-10..05-14: U1 none before.
			{"fits after the last stay", "2026-05-10", "2026-05-14", u1},
			// Far from everything: U3 alone is free (U1, U2 now hold
			// stays nearby) — and it is chosen over nothing.
			{"the only free unit", "2026-05-13", "2026-05-19", u3},
		} {
			c := pendingFixture(p, tt.in, tt.out)
			create(t, s, c, t0)
			if c.UnitID != tt.want {
				t.Fatalf("%s: stay %s..%s holds unit %d, want %d", tt.name, tt.in, tt.out, c.UnitID, tt.want)
			}
		}
		// Among empty units, the first by position.
		q := newUnitsProperty(t, s, w.org.ID, 2)
		c := pendingFixture(q, "2026-06-01", "2026-06-03")
		create(t, s, c, t0)
		if c.UnitID != q.Units[0].ID {
			t.Fatalf("a stay on an empty property holds unit %d, want the first, %d", c.UnitID, q.Units[0].ID)
		}
	}},
	{"Units/AskedUnit", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 2)
		other := newUnitsProperty(t, s, w.org.ID, 1)
		a := pendingFixture(p, "2026-05-05", "2026-05-10")
		a.UnitID = p.Units[1].ID
		create(t, s, a, t0)
		// The asked unit is taken: unavailable, though the other is free.
		b := pendingFixture(p, "2026-05-07", "2026-05-09")
		b.UnitID = p.Units[1].ID
		wantCode(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0}), booking.CodeUnavailable)
		// Another property's unit is not this property's.
		c := pendingFixture(p, "2026-06-05", "2026-06-10")
		c.UnitID = other.Units[0].ID
		wantCode(t, s.CreateBooking(t.Context(), c, booking.CreateOptions{Now: t0}), booking.CodeNotFound)
		if n := countBookings(t, s, w.org.ID); n != 1 {
			t.Fatalf("%d bookings stored, want 1", n)
		}
	}},
	{"Units/PreparationDaysPerUnit", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 2)
		guard := booking.DateGuard{PreparationDaysAfter: 1}
		a := pendingFixture(p, "2026-05-05", "2026-05-10")
		must(t, s.CreateBooking(t.Context(), a, booking.CreateOptions{Now: t0, DateGuard: guard}))
		// Adjacent after a: U1 needs a day of preparation, U2 is free.
		b := pendingFixture(p, "2026-05-10", "2026-05-12")
		must(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0, DateGuard: guard}))
		if b.UnitID == a.UnitID {
			t.Fatalf("the adjacent stay holds a's unit %d despite its preparation day", a.UnitID)
		}
		// A night right after a: U1 keeps its day after a, U2 holds b.
		c := pendingFixture(p, "2026-05-10", "2026-05-11")
		wantCode(t, s.CreateBooking(t.Context(), c, booking.CreateOptions{Now: t0, DateGuard: guard}), booking.CodeUnavailable)
		// Without the guard it fits right after a.
		must(t, s.CreateBooking(t.Context(), c, booking.CreateOptions{Now: t0}))
		if c.UnitID != a.UnitID {
			t.Fatalf("the night after a holds unit %d, want a's %d", c.UnitID, a.UnitID)
		}
	}},
	{"Units/ClosedNightsCloseEveryUnit", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 3)
		must(t, s.SetCalendarDays(t.Context(), p.ID, []booking.CalendarDay{{Date: day("2026-05-11"), Closed: true}}))
		b := pendingFixture(p, "2026-05-10", "2026-05-12")
		wantCode(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0}), booking.CodeUnavailable)
		g := booking.DateGuard{RuleClosed: []civil.Date{day("2026-05-20")}}
		c := pendingFixture(p, "2026-05-19", "2026-05-21")
		wantCode(t, s.CreateBooking(t.Context(), c, booking.CreateOptions{Now: t0, DateGuard: g}), booking.CodeUnavailable)
	}},
	{"Units/BlocksOfAUnitAndOfTheWhole", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 2)
		other := newUnitsProperty(t, s, w.org.ID, 1)
		u1, u2 := p.Units[0].ID, p.Units[1].ID
		must(t, s.AddBlock(t.Context(), p.ID, &booking.Block{Start: day("2026-05-01"), End: day("2026-05-10"), UnitID: u1}, t0))
		wantCode(t, s.AddBlock(t.Context(), p.ID, &booking.Block{Start: day("2026-05-01"), End: day("2026-05-10"),
			UnitID: other.Units[0].ID}, t0), booking.CodeNotFound)
		// U1 is blocked: the stay takes U2, then nothing is left.
		a := pendingFixture(p, "2026-05-03", "2026-05-05")
		create(t, s, a, t0)
		if a.UnitID != u2 {
			t.Fatalf("a stay over U1's block holds unit %d, want U2 %d", a.UnitID, u2)
		}
		wantCode(t, s.CreateBooking(t.Context(), pendingFixture(p, "2026-05-04", "2026-05-06"), booking.CreateOptions{Now: t0}),
			booking.CodeUnavailable)
		// A block of U2 over a's stay is refused; one of U1 beside it is not.
		wantCode(t, s.AddBlock(t.Context(), p.ID, &booking.Block{Start: day("2026-05-04"), End: day("2026-05-05"), UnitID: u2}, t0),
			booking.CodeUnavailable)
		must(t, s.AddBlock(t.Context(), p.ID, &booking.Block{Start: day("2026-05-12"), End: day("2026-05-14"), UnitID: u1}, t0))
		// A block of the whole property over a's stay is refused; one
		// elsewhere takes every unit.
		wantCode(t, s.AddBlock(t.Context(), p.ID, &booking.Block{Start: day("2026-05-04"), End: day("2026-05-06")}, t0),
			booking.CodeUnavailable)
		must(t, s.AddBlock(t.Context(), p.ID, &booking.Block{Start: day("2026-06-01"), End: day("2026-06-05")}, t0))
		wantCode(t, s.CreateBooking(t.Context(), pendingFixture(p, "2026-06-02", "2026-06-03"), booking.CreateOptions{Now: t0}),
			booking.CodeUnavailable)
		got, err := s.Property(t.Context(), w.org.ID, p.ID)
		must(t, err)
		units := make([]int64, len(got.Blocks))
		for i, b := range got.Blocks {
			units[i] = b.UnitID
		}
		if !slices.Equal(units, []int64{u1, u1, 0}) {
			t.Fatalf("blocks read back on units %v, want [U1 U1 whole]", units)
		}
		taken, err := s.Occupied(t.Context(), p.ID, day("2026-05-01"), day("2026-07-01"), t0)
		must(t, err)
		if holdsOn(taken, u1) != 2 || holdsOn(taken, u2) != 1 || holdsOn(taken, 0) != 1 {
			t.Fatalf("Occupied %+v, want U1's two blocks, U2's stay, and the whole block", taken)
		}
		// UpdateProperty keeps the blocks' units, and refuses a unit of
		// another property.
		must(t, s.UpdateProperty(t.Context(), got))
		again, err := s.Property(t.Context(), w.org.ID, p.ID)
		must(t, err)
		sameJSON(t, "blocks after UpdateProperty", again.Blocks, got.Blocks)
		got.Blocks = append(got.Blocks, booking.Block{Start: day("2026-08-01"), End: day("2026-08-02"), UnitID: other.Units[0].ID})
		wantCode(t, s.UpdateProperty(t.Context(), got), booking.CodeNotFound)
	}},
	{"Units/LateClaimTakesAnotherUnit", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 2)
		// Two stays of 07-12 whose holds lapsed at t0 + 1 minute.
		late := newPending(t, s, p, "2026-07-10", "2026-07-15", t0.Add(time.Minute))
		late2 := newPending(t, s, p, "2026-07-12", "2026-07-13", t0.Add(time.Minute))
		late, late2 = moveTo(t, s, late, booking.StatusExpired), moveTo(t, s, late2, booking.StatusExpired)
		if late.UnitID == late2.UnitID {
			t.Fatalf("two stays of a night held unit %d together", late.UnitID)
		}
		// After the holds lapsed, another stay took late's unit.
		taker := pendingFixture(p, "2026-07-12", "2026-07-14")
		taker.UnitID = late.UnitID
		create(t, s, taker, t0.Add(2*time.Minute))
		got, err := s.Transition(t.Context(), late.ID, lateClaim(t0.Add(3*time.Minute), booking.DateGuard{}))
		must(t, err)
		if got.UnitID == late.UnitID || got.UnitID == 0 {
			t.Fatalf("the late claim holds unit %d, want the other unit than %d", got.UnitID, late.UnitID)
		}
		stored, err := s.BookingByID(t.Context(), late.ID)
		must(t, err)
		if stored.UnitID != got.UnitID || stored.Status != booking.StatusConfirmed {
			t.Fatalf("stored %s on unit %d, Transition said %d", stored.Status, stored.UnitID, got.UnitID)
		}
		// Every unit is taken now: late2's claim over the nights is
		// refused and leaves the booking as it was.
		_, err = s.Transition(t.Context(), late2.ID, lateClaim(t0.Add(3*time.Minute), booking.DateGuard{}))
		wantCode(t, err, booking.CodeUnavailable)
		// A booking holding its dates keeps its unit when it is confirmed.
		keep := newPending(t, s, p, "2026-08-01", "2026-08-03", t0.Add(time.Hour))
		conf, err := s.Transition(t.Context(), keep.ID, booking.Transition{From: []booking.Status{booking.StatusPending},
			To: booking.StatusConfirmed, At: t0, ClaimDates: true, Confirmed: true})
		must(t, err)
		if conf.UnitID != keep.UnitID {
			t.Fatalf("confirming moved the booking from unit %d to %d", keep.UnitID, conf.UnitID)
		}
	}},
	{"Units/FeedBlocksItsUnit", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 2)
		u1, u2 := p.Units[0].ID, p.Units[1].ID
		f := &feed.Feed{OrgID: w.org.ID, PropertyID: p.ID, UnitID: u2, Name: "U2 on Airbnb", URL: "https://example.com/u2.ics", Active: true}
		must(t, s.CreateFeed(t.Context(), f, t0))
		def := &feed.Feed{OrgID: w.org.ID, PropertyID: p.ID, Name: "default", URL: "https://example.com/d.ics", Active: true}
		must(t, s.CreateFeed(t.Context(), def, t0))
		if def.UnitID != u1 {
			t.Fatalf("a feed created without a unit has unit %d, want the first, %d", def.UnitID, u1)
		}
		wrong := &feed.Feed{OrgID: w.org.ID, PropertyID: p.ID, UnitID: w.prop.Units[0].ID, Name: "x", URL: "https://example.com/x.ics"}
		wantCode(t, s.CreateFeed(t.Context(), wrong, t0), booking.CodeNotFound)
		read, err := s.Feed(t.Context(), w.org.ID, f.ID)
		must(t, err)
		if read.UnitID != u2 {
			t.Fatalf("feed read back on unit %d, want %d", read.UnitID, u2)
		}
		// A stay on U1 does not conflict with U2's event; a stay on U2 does.
		a := pendingFixture(p, "2026-05-01", "2026-05-05")
		a.UnitID = u1
		create(t, s, a, t0)
		res := applyAdd(t, s, f, feedBlock("e1", "2026-05-02", "2026-05-04"))
		if len(res.Conflicts) != 0 || len(res.Blocks) != 1 {
			t.Fatalf("U2's event over U1's stay: %+v, want one block and no conflict", res)
		}
		b := pendingFixture(p, "2026-06-01", "2026-06-05")
		b.UnitID = u2
		create(t, s, b, t0)
		lease := claim(t, s, f, t0)
		res, err = s.ApplyFeedSync(t.Context(), feed.Sync{FeedID: f.ID, Lease: lease, At: t0,
			Add: []feed.Block{feedBlock("e2", "2026-06-02", "2026-06-03")}, Events: 2, NextPollAt: t0.Add(time.Hour)})
		must(t, err)
		if len(res.Conflicts) != 1 || res.Conflicts[0].BookingID != b.ID {
			t.Fatalf("U2's event over U2's stay: conflicts %+v, want one against booking %d", res.Conflicts, b.ID)
		}
		// The imported block takes U2 alone and a holds U1: a stay over
		// both is refused, one beside them is not.
		wantCode(t, s.CreateBooking(t.Context(), pendingFixture(p, "2026-05-02", "2026-05-03"), booking.CreateOptions{Now: t0}),
			booking.CodeUnavailable)
		c := pendingFixture(p, "2026-05-06", "2026-05-08")
		create(t, s, c, t0)
		taken, err := s.Occupied(t.Context(), p.ID, day("2026-05-01"), day("2026-05-05"), t0)
		must(t, err)
		if holdsOn(taken, u2) != 1 || holdsOn(taken, u1) != 1 || holdsOn(taken, 0) != 0 {
			t.Fatalf("Occupied %+v, want U1's stay and U2's imported block", taken)
		}
	}},
	{"Units/HoldsForTheReadModel", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 2)
		a := pendingFixture(p, "2026-05-01", "2026-05-05")
		a.UnitID = p.Units[1].ID
		a.ExpiresAt = t0.Add(time.Hour)
		create(t, s, a, t0)
		must(t, s.AddBlock(t.Context(), p.ID, &booking.Block{Start: day("2026-05-10"), End: day("2026-05-12")}, t0))
		holds, err := s.Holds(t.Context(), p.ID, day("2026-04-01"), t0)
		must(t, err)
		sameJSON(t, "holds", holds, []booking.Hold{
			{Range: civil.Range{Start: day("2026-05-01"), End: day("2026-05-05")}, Until: a.ExpiresAt, Unit: a.UnitID},
			{Range: civil.Range{Start: day("2026-05-10"), End: day("2026-05-12")}},
		})
		if oh, ok := s.ReadModelStore.(booking.OrgHoldsStore); ok {
			all, err := oh.OrgHolds(t.Context(), w.org.ID, day("2026-04-01"), t0)
			must(t, err)
			var mine []booking.Hold
			for _, h := range all {
				if h.PropertyID == p.ID {
					mine = append(mine, h.Hold)
				}
			}
			sameJSON(t, "org holds", mine, holds)
		}
	}},
}

// unitRaceScenarios: the last units of a night go to as many checkouts,
// whatever the race.
var unitRaceScenarios = []scenario{
	{"Race/LastThreeUnitsOfANight", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		const n = 50
		for round := range rounds {
			p := newUnitsProperty(t, s, w.org.ID, 5)
			// Two units are taken on the night of 05-10 already.
			for i := range 2 {
				create(t, s, pendingFixture(p, "2026-05-08", day("2026-05-11").AddDays(i).String()), t0)
			}
			stays := make([]*booking.Booking, n)
			for i := range stays {
				in := day("2026-05-10").AddDays(-(i % 4))
				out := day("2026-05-11").AddDays(i % 6)
				stays[i] = pendingFixture(p, in.String(), out.String())
			}
			counts := race(n, func(i int) error {
				return s.CreateBooking(t.Context(), stays[i], booking.CreateOptions{Now: t0})
			})
			wantCounts(t, counts, map[string]int{"": 3, booking.CodeUnavailable: n - 3})
			taken, err := s.Occupied(t.Context(), p.ID, day("2026-05-10"), day("2026-05-11"), t0)
			must(t, err)
			for _, u := range p.Units {
				if holdsOn(taken, u.ID) != 1 {
					t.Fatalf("round %d: unit %d holds %d stays of the night, want 1: %+v", round, u.ID, holdsOn(taken, u.ID), taken)
				}
			}
		}
	}},
}
