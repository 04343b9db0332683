package storetest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/units"
)

// unitStore is the store under test as units.Store.
func unitStore(t *testing.T, s Stores) units.Store { return capabilityOf[units.Store](t, s) }

// today is the suite's today, the date of t0.
var today = civil.Of(t0)

// wantReasonOf fails the test unless err is a CodeConflict with reason.
func wantReasonOf(t *testing.T, err error, reason string) {
	t.Helper()
	wantReason(t, "", err, booking.CodeConflict, reason)
}

// unitStoreScenarios: a host's changes to a property's units (units.Store).
var unitStoreScenarios = []scenario{
	{"Units/AddRenameRetire", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		us := unitStore(t, s)
		other := newOrg(t, s, "other")
		first := w.prop.Units[0]
		u := &booking.Unit{Name: "  Studio B "}
		must(t, us.AddUnit(t.Context(), w.org.ID, w.prop.ID, u, t0))
		if u.ID == 0 || u.Name != "Studio B" || u.PropertyID != w.prop.ID || u.Position != first.Position+1 {
			t.Fatalf("AddUnit = %+v", u)
		}
		wantInvalid(t, us.AddUnit(t.Context(), w.org.ID, w.prop.ID, &booking.Unit{Name: ""}, t0), "name")
		wantCode(t, us.AddUnit(t.Context(), other.ID, w.prop.ID, &booking.Unit{Name: "x"}, t0), booking.CodeNotFound)
		renamed, err := us.RenameUnit(t.Context(), w.org.ID, first.ID, "Studio A")
		must(t, err)
		if renamed.Name != "Studio A" || renamed.ID != first.ID {
			t.Fatalf("RenameUnit = %+v", renamed)
		}
		_, err = us.RenameUnit(t.Context(), other.ID, first.ID, "x")
		wantCode(t, err, booking.CodeNotFound)
		p, err := s.Property(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		if names := []string{p.Units[0].Name, p.Units[1].Name}; len(p.Units) != 2 || names[0] != "Studio A" || names[1] != "Studio B" {
			t.Fatalf("the property's units %+v, want Studio A and Studio B", p.Units)
		}

		// Studio B holds a stay to come, then a block, then a feed: each
		// refuses its retirement, until it is gone.
		b := pendingFixture(w.prop, "2026-05-01", "2026-05-03")
		b.UnitID = u.ID
		create(t, s, b, t0)
		_, err = us.RetireUnit(t.Context(), w.org.ID, u.ID, today, t0)
		wantReasonOf(t, err, units.ReasonFutureStays)
		moveTo(t, s, b, booking.StatusCancelled)
		blk := &booking.Block{Start: day("2026-06-01"), End: day("2026-06-02"), UnitID: u.ID}
		must(t, s.AddBlock(t.Context(), w.prop.ID, blk, t0))
		_, err = us.RetireUnit(t.Context(), w.org.ID, u.ID, today, t0)
		wantReasonOf(t, err, units.ReasonFutureBlocks)
		must(t, s.RemoveBlock(t.Context(), w.prop.ID, blk.ID))
		f := &feed.Feed{OrgID: w.org.ID, PropertyID: w.prop.ID, UnitID: u.ID, Name: "B", URL: "https://example.com/b.ics"}
		must(t, s.CreateFeed(t.Context(), f, t0))
		_, err = us.RetireUnit(t.Context(), w.org.ID, u.ID, today, t0)
		wantReasonOf(t, err, units.ReasonFeeds)
		must(t, s.DeleteFeed(t.Context(), w.org.ID, f.ID))
		// A stay that ended (checked out today) does not hold it back.
		past := pendingFixture(w.prop, "2026-02-25", "2026-03-01")
		past.UnitID = u.ID
		create(t, s, past, t0)
		moveTo(t, s, past, booking.StatusConfirmed)
		retired, err := us.RetireUnit(t.Context(), w.org.ID, u.ID, today, t0)
		must(t, err)
		if retired.Active() || !retired.RetiredAt.Equal(t0) {
			t.Fatalf("RetireUnit = %+v", retired)
		}
		_, err = us.RetireUnit(t.Context(), w.org.ID, u.ID, today, t0)
		wantReasonOf(t, err, units.ReasonRetired)
		_, err = us.RetireUnit(t.Context(), w.org.ID, first.ID, today, t0)
		wantReasonOf(t, err, units.ReasonLastUnit)

		// A retired unit is listed by Units, not by the property, and
		// sells nothing: two stays of a night, one refused.
		list, err := us.Units(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		if len(list) != 2 || list[1].ID != u.ID || list[1].Active() {
			t.Fatalf("Units = %+v, want both, B retired", list)
		}
		p, err = s.Property(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		if len(p.Units) != 1 || p.Units[0].ID != first.ID {
			t.Fatalf("the property's units %+v, want A alone", p.Units)
		}
		create(t, s, pendingFixture(w.prop, "2026-07-01", "2026-07-03"), t0)
		wantCode(t, s.CreateBooking(t.Context(), pendingFixture(w.prop, "2026-07-01", "2026-07-03"), booking.CreateOptions{Now: t0}),
			booking.CodeUnavailable)
		asked := pendingFixture(w.prop, "2026-08-01", "2026-08-03")
		asked.UnitID = u.ID
		wantCode(t, s.CreateBooking(t.Context(), asked, booking.CreateOptions{Now: t0}), booking.CodeNotFound)
		_, err = us.Units(t.Context(), other.ID, w.prop.ID)
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Units/MoveBooking", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		us := unitStore(t, s)
		p := newUnitsProperty(t, s, w.org.ID, 3)
		u1, u2, u3 := p.Units[0].ID, p.Units[1].ID, p.Units[2].ID
		a := pendingFixture(p, "2026-05-05", "2026-05-10")
		a.UnitID = u1
		create(t, s, a, t0)
		b := pendingFixture(p, "2026-05-10", "2026-05-12")
		b.UnitID = u2
		create(t, s, b, t0)
		moved, err := us.MoveBooking(t.Context(), w.org.ID, a.ID, u2, booking.DateGuard{}, t0)
		must(t, err)
		if moved.UnitID != u2 {
			t.Fatalf("moved to unit %d, want %d", moved.UnitID, u2)
		}
		stored, err := s.BookingByID(t.Context(), a.ID)
		must(t, err)
		if stored.UnitID != u2 {
			t.Fatalf("stored on unit %d after the move, want %d", stored.UnitID, u2)
		}
		// U2 now holds a then b, back to back. A stay cannot move onto
		// a unit whose stays overlap it, nor next to one when a
		// preparation day would fall on it.
		c := pendingFixture(p, "2026-05-06", "2026-05-08")
		c.UnitID = u3
		create(t, s, c, t0)
		_, err = us.MoveBooking(t.Context(), w.org.ID, c.ID, u2, booking.DateGuard{}, t0)
		wantCode(t, err, booking.CodeUnavailable)
		_, err = us.MoveBooking(t.Context(), w.org.ID, b.ID, u1, booking.DateGuard{PreparationDaysBefore: 1}, t0)
		must(t, err) // U1 is empty now
		_, err = us.MoveBooking(t.Context(), w.org.ID, a.ID, u1, booking.DateGuard{PreparationDaysAfter: 1}, t0)
		wantCode(t, err, booking.CodeUnavailable) // a's preparation day after would fall on b's first night
		_, err = us.MoveBooking(t.Context(), w.org.ID, a.ID, u1, booking.DateGuard{}, t0)
		must(t, err)
		// A unit blocked over the stay, another property's unit, a unit
		// of another organisation's booking, a cancelled booking.
		must(t, s.AddBlock(t.Context(), p.ID, &booking.Block{Start: day("2026-05-07"), End: day("2026-05-08"), UnitID: u2}, t0))
		_, err = us.MoveBooking(t.Context(), w.org.ID, c.ID, u2, booking.DateGuard{}, t0)
		wantCode(t, err, booking.CodeUnavailable)
		_, err = us.MoveBooking(t.Context(), w.org.ID, c.ID, w.prop.Units[0].ID, booking.DateGuard{}, t0)
		wantCode(t, err, booking.CodeNotFound)
		other := newOrg(t, s, "other")
		_, err = us.MoveBooking(t.Context(), other.ID, c.ID, u2, booking.DateGuard{}, t0)
		wantCode(t, err, booking.CodeNotFound)
		moveTo(t, s, c, booking.StatusCancelled)
		_, err = us.MoveBooking(t.Context(), w.org.ID, c.ID, u1, booking.DateGuard{}, t0)
		wantReasonOf(t, err, units.ReasonNotHolding)
		// The nights a move frees are free: a new stay takes U3.
		d := pendingFixture(p, "2026-05-06", "2026-05-08")
		create(t, s, d, t0)
		if d.UnitID != u3 {
			t.Fatalf("a stay over the freed nights holds unit %d, want %d", d.UnitID, u3)
		}
	}},
}

// villa is a whole property (one unit) and its two rooms (parts, the
// second with two units), linked.
type villa struct {
	whole *booking.Property
	rooms []*booking.Property
}

// newVilla stores and links a villa of orgID.
func newVilla(t *testing.T, s Stores, orgID int64) villa {
	t.Helper()
	v := villa{whole: newUnitsProperty(t, s, orgID, 1)}
	for _, n := range []int{1, 2} {
		v.rooms = append(v.rooms, newUnitsProperty(t, s, orgID, n))
	}
	for _, r := range v.rooms {
		l, err := unitStore(t, s).Link(t.Context(), orgID, v.whole.ID, r.ID, today, t0)
		must(t, err)
		if l.WholeID != v.whole.ID || l.PartID != r.ID {
			t.Fatalf("Link = %+v", l)
		}
	}
	return v
}

// linkScenarios: a whole and its parts never sell a night twice, in the
// same atomic step as the booking or block.
var linkScenarios = []scenario{
	{"Links/WholeAndPartsTakeEachOthersNights", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		v := newVilla(t, s, w.org.ID)
		r1, r2 := v.rooms[0], v.rooms[1]
		opts := booking.CreateOptions{Now: t0}
		// The whole booked: no room sells its nights.
		create(t, s, pendingFixture(v.whole, "2026-05-01", "2026-05-05"), t0)
		for _, r := range v.rooms {
			wantCode(t, s.CreateBooking(t.Context(), pendingFixture(r, "2026-05-04", "2026-05-06"), opts), booking.CodeUnavailable)
		}
		// A room booked: the whole is not sold for its nights; the other
		// room is.
		create(t, s, pendingFixture(r1, "2026-06-01", "2026-06-03"), t0)
		wantCode(t, s.CreateBooking(t.Context(), pendingFixture(v.whole, "2026-06-02", "2026-06-10"), opts), booking.CodeUnavailable)
		create(t, s, pendingFixture(r2, "2026-06-01", "2026-06-03"), t0)
		create(t, s, pendingFixture(v.whole, "2026-06-03", "2026-06-10"), t0)
		// Blocks: one of a room closes the whole, one of the whole every
		// room; a block over a linked booking is refused.
		must(t, s.AddBlock(t.Context(), r2.ID, &booking.Block{Start: day("2026-07-01"), End: day("2026-07-03"), UnitID: r2.Units[1].ID}, t0))
		wantCode(t, s.CreateBooking(t.Context(), pendingFixture(v.whole, "2026-07-02", "2026-07-04"), opts), booking.CodeUnavailable)
		create(t, s, pendingFixture(r1, "2026-07-01", "2026-07-03"), t0)
		must(t, s.AddBlock(t.Context(), v.whole.ID, &booking.Block{Start: day("2026-08-01"), End: day("2026-08-03")}, t0))
		wantCode(t, s.CreateBooking(t.Context(), pendingFixture(r2, "2026-08-02", "2026-08-04"), opts), booking.CodeUnavailable)
		wantCode(t, s.AddBlock(t.Context(), v.whole.ID, &booking.Block{Start: day("2026-06-02"), End: day("2026-06-03")}, t0),
			booking.CodeUnavailable)
		wantCode(t, s.AddBlock(t.Context(), r1.ID, &booking.Block{Start: day("2026-05-02"), End: day("2026-05-03")}, t0),
			booking.CodeUnavailable)
		// Occupied shows the linked holds on every unit (0).
		taken, err := s.Occupied(t.Context(), v.whole.ID, day("2026-06-01"), day("2026-06-03"), t0)
		must(t, err)
		if holdsOn(taken, 0) != 2 {
			t.Fatalf("the whole's Occupied over the rooms' stays: %+v, want the two stays on every unit", taken)
		}
		taken, err = s.Occupied(t.Context(), r2.ID, day("2026-05-01"), day("2026-05-02"), t0)
		must(t, err)
		if len(taken) != 1 || taken[0].Unit != 0 {
			t.Fatalf("a room's Occupied under the whole's stay: %+v, want it on every unit", taken)
		}
		got, err := s.Property(t.Context(), w.org.ID, v.whole.ID)
		must(t, err)
		if !slices.Equal(got.Linked, []int64{r1.ID, r2.ID}) {
			t.Fatalf("the whole's Linked = %v, want its rooms", got.Linked)
		}
		got, err = s.Property(t.Context(), w.org.ID, r2.ID)
		must(t, err)
		if !slices.Equal(got.Linked, []int64{v.whole.ID}) {
			t.Fatalf("a room's Linked = %v, want the whole", got.Linked)
		}
		// Unlinked, they sell apart.
		must(t, unitStore(t, s).Unlink(t.Context(), w.org.ID, v.whole.ID, r1.ID))
		create(t, s, pendingFixture(r1, "2026-05-02", "2026-05-03"), t0)
		wantCode(t, unitStore(t, s).Unlink(t.Context(), w.org.ID, v.whole.ID, r1.ID), booking.CodeNotFound)
	}},
	{"Links/Refusals", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		us := unitStore(t, s)
		v := newVilla(t, s, w.org.ID)
		lone := newUnitsProperty(t, s, w.org.ID, 1)
		twoUnits := newUnitsProperty(t, s, w.org.ID, 2)
		other := newOrg(t, s, "other")
		foreign := newUnitsProperty(t, s, other.ID, 1)
		link := func(whole, part int64) error {
			_, err := us.Link(t.Context(), w.org.ID, whole, part, today, t0)
			return err
		}
		wantInvalid(t, link(lone.ID, lone.ID), "part_id")
		wantCode(t, link(lone.ID, foreign.ID), booking.CodeNotFound)
		wantReasonOf(t, link(lone.ID, v.rooms[0].ID), units.ReasonLinked) // a part of two wholes
		wantReasonOf(t, link(v.rooms[0].ID, lone.ID), units.ReasonLinked) // a part that is a whole
		wantReasonOf(t, link(lone.ID, v.whole.ID), units.ReasonLinked)    // a whole that is a part
		wantReasonOf(t, link(twoUnits.ID, lone.ID), units.ReasonWhole)    // a whole of two units
		wantReasonOf(t, us.AddUnit(t.Context(), w.org.ID, v.whole.ID, &booking.Unit{Name: "2"}, t0), units.ReasonWhole)
		must(t, us.AddUnit(t.Context(), w.org.ID, v.rooms[0].ID, &booking.Unit{Name: "2"}, t0)) // a part may grow
		// Holds of both over the same nights refuse the link; ended ones
		// do not.
		solo := newUnitsProperty(t, s, w.org.ID, 1)
		create(t, s, pendingFixture(lone, "2026-05-01", "2026-05-05"), t0)
		create(t, s, pendingFixture(solo, "2026-05-04", "2026-05-06"), t0)
		wantCode(t, link(lone.ID, solo.ID), booking.CodeUnavailable)
		old := pendingFixture(solo, "2026-02-01", "2026-02-05")
		create(t, s, old, t0.Add(-30*24*time.Hour))
		moveTo(t, s, old, booking.StatusConfirmed)
		must(t, s.AddBlock(t.Context(), lone.ID, &booking.Block{Start: day("2026-02-02"), End: day("2026-02-03")}, t0))
		late := newUnitsProperty(t, s, w.org.ID, 1)
		create(t, s, pendingFixture(late, "2026-05-06", "2026-05-08"), t0)
		if err := link(lone.ID, late.ID); err != nil {
			t.Fatalf("link of a whole and a part holding other nights: %v", err)
		}
		links, err := us.Links(t.Context(), w.org.ID)
		must(t, err)
		if len(links) != 3 || links[2].WholeID != lone.ID || links[2].PartID != late.ID || !links[2].CreatedAt.Equal(t0) {
			t.Fatalf("Links = %+v", links)
		}
		if l, err := us.Links(t.Context(), other.ID); err != nil || len(l) != 0 {
			t.Fatalf("another organisation's links: %+v %v", l, err)
		}
	}},
	{"Links/FeedsAndLateClaims", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		v := newVilla(t, s, w.org.ID)
		r1 := v.rooms[0]
		// A room's channel event over the whole's stay is a conflict.
		whole := pendingFixture(v.whole, "2026-05-01", "2026-05-05")
		create(t, s, whole, t0)
		f := &feed.Feed{OrgID: w.org.ID, PropertyID: r1.ID, Name: "room on Airbnb", URL: "https://example.com/r1.ics", Active: true}
		must(t, s.CreateFeed(t.Context(), f, t0))
		res := applyAdd(t, s, f, feedBlock("e1", "2026-05-03", "2026-05-04"), feedBlock("e2", "2026-05-10", "2026-05-12"))
		if len(res.Conflicts) != 1 || res.Conflicts[0].BookingID != whole.ID || len(res.Blocks) != 1 {
			t.Fatalf("sync of a room under the whole's stay: %+v, want one conflict against %d and one block", res, whole.ID)
		}
		// The imported block closes the whole for its nights.
		wantCode(t, s.CreateBooking(t.Context(), pendingFixture(v.whole, "2026-05-11", "2026-05-13"), booking.CreateOptions{Now: t0}),
			booking.CodeUnavailable)
		// A late payment of the whole cannot claim nights a room sold
		// after its hold lapsed.
		late := newLapsed(t, s, v.whole, "2026-06-01", "2026-06-05")
		create(t, s, pendingFixture(v.rooms[1], "2026-06-04", "2026-06-06"), t0.Add(2*time.Minute))
		_, err := s.Transition(t.Context(), late.ID, lateClaim(t0.Add(3*time.Minute), booking.DateGuard{}))
		wantCode(t, err, booking.CodeUnavailable)
	}},
}

// linkRaceScenarios: racing writers of a whole and its parts, and a link
// racing checkouts, never sell a night twice.
var linkRaceScenarios = []scenario{
	{"Race/WholeAgainstItsParts", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		const n = 30
		for round := range rounds {
			v := newVilla(t, s, w.org.ID)
			props := []*booking.Property{v.whole, v.rooms[0], v.rooms[1]}
			stays := make([]*booking.Booking, n)
			for i := range stays {
				in := day("2026-05-10").AddDays(-(i % 3))
				stays[i] = pendingFixture(props[i%3], in.String(), day("2026-05-11").AddDays(i%4).String())
			}
			counts := race(n, func(i int) error {
				return s.CreateBooking(t.Context(), stays[i], booking.CreateOptions{Now: t0})
			})
			// Either the whole won alone, or the rooms' three units did.
			if counts[""] != 1 && counts[""] != 3 {
				t.Fatalf("round %d: %v, want the whole alone or one stay per room unit", round, counts)
			}
			checkVilla(t, s, w.org.ID, v, t0)
		}
	}},
	{"Race/LinkAgainstCheckouts", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		us := unitStore(t, s)
		for round := range 4 * rounds {
			whole := newUnitsProperty(t, s, w.org.ID, 1)
			part := newUnitsProperty(t, s, w.org.ID, 1)
			var linkErr error
			race(3, func(i int) error {
				switch i {
				case 0:
					_, linkErr = us.Link(t.Context(), w.org.ID, whole.ID, part.ID, today, t0)
					return linkErr
				case 1:
					return s.CreateBooking(t.Context(), pendingFixture(whole, "2026-05-01", "2026-05-04"), booking.CreateOptions{Now: t0})
				}
				return s.CreateBooking(t.Context(), pendingFixture(part, "2026-05-03", "2026-05-06"), booking.CreateOptions{Now: t0})
			})
			if linkErr == nil {
				checkVilla(t, s, w.org.ID, villa{whole: whole, rooms: []*booking.Property{part}}, t0)
			} else if booking.ErrorCode(linkErr) != booking.CodeUnavailable {
				t.Fatalf("round %d: link: %v, want success or unavailable", round, linkErr)
			}
		}
	}},
	{"Race/LinkedListingsRandomised", func(t *testing.T, s Stores) {
		// Checkouts, blocks (of a unit and of the whole property) and iCal
		// imports on the whole and on the parts, from several writers at
		// once, with holds lapsing as the clock moves: at every step, no
		// unit has two overlapping live holders, and no hold of the whole
		// overlaps one of a part.
		w := newWorld(t, s)
		for seed := range uint64(3) {
			v := newVilla(t, s, w.org.ID)
			props := []*booking.Property{v.whole, v.rooms[0], v.rooms[1]}
			var feeds []*feed.Feed
			for _, p := range props {
				for _, u := range p.Units {
					f := &feed.Feed{OrgID: w.org.ID, PropertyID: p.ID, UnitID: u.ID, Name: fmt.Sprintf("f%d", u.ID),
						URL: fmt.Sprintf("https://example.com/%d.ics", u.ID), Active: true}
					must(t, s.CreateFeed(t.Context(), f, t0))
					feeds = append(feeds, f)
				}
			}
			const writers, steps = 6, 25
			var mu sync.Mutex
			outcomes := map[string]int{}
			start := make(chan struct{})
			var wg sync.WaitGroup
			for wr := range writers {
				rng := rand.New(rand.NewPCG(seed, uint64(wr)))
				wg.Go(func() {
					<-start
					for step := range steps {
						now := t0.Add(time.Duration(step) * time.Minute)
						p := props[rng.IntN(len(props))]
						in := day("2026-05-01").AddDays(rng.IntN(20))
						out := in.AddDays(1 + rng.IntN(4))
						var err error
						switch op := rng.IntN(10); {
						case op < 6:
							b := pendingFixture(p, in.String(), out.String())
							b.ExpiresAt = now.Add(time.Duration(1+rng.IntN(20)) * time.Minute)
							err = s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: now})
						case op < 8:
							blk := &booking.Block{Start: in, End: out}
							if rng.IntN(2) == 0 {
								blk.UnitID = p.Units[rng.IntN(len(p.Units))].ID
							}
							err = s.AddBlock(t.Context(), p.ID, blk, now)
						default:
							f := feeds[rng.IntN(len(feeds))]
							var got *feed.Feed
							if got, err = s.ClaimFeed(t.Context(), w.org.ID, f.ID, now, now.Add(time.Minute)); err == nil {
								_, err = s.ApplyFeedSync(t.Context(), feed.Sync{FeedID: f.ID, Lease: got.LeaseUntil, At: now,
									Add:    []feed.Block{{UID: fmt.Sprintf("w%d-%d", wr, step), Start: in, End: out}},
									Events: 1, NextPollAt: now.Add(time.Hour)})
							}
						}
						code := booking.ErrorCode(err)
						if err != nil && code != booking.CodeUnavailable && code != booking.CodeConflict {
							t.Errorf("seed %d writer %d step %d: %v", seed, wr, step, err)
							return
						}
						mu.Lock()
						outcomes[code]++
						mu.Unlock()
					}
				})
			}
			close(start)
			wg.Wait()
			if outcomes[""] == 0 || outcomes[booking.CodeUnavailable] == 0 {
				t.Fatalf("seed %d: outcomes %v: the test made no refusal or no success", seed, outcomes)
			}
			// Every write checked the holds live at its own instant, so
			// the holds live at the last instant were all live when each
			// of them was written (a hold's instant is at most the last):
			// none may overlap another then, nor once pending holds lapse.
			last := t0.Add((steps - 1) * time.Minute)
			checkVilla(t, s, w.org.ID, v, last)
			checkVilla(t, s, w.org.ID, v, last.Add(time.Hour))
		}
	}},
}

// checkVilla fails the test when, at now, a unit of the villa's
// properties has two overlapping live holders (bookings holding dates,
// and blocks of the unit or of the whole property, imported ones
// included; blocks may overlap blocks), or a hold of the whole overlaps a
// hold of a part.
func checkVilla(t *testing.T, s Stores, orgID int64, v villa, now time.Time) {
	t.Helper()
	type hold struct {
		civil.Range
		unit  int64 // 0: every unit of the property
		block bool
		what  string
	}
	bookings, err := s.Bookings(t.Context(), orgID)
	must(t, err)
	feeds, err := s.Feeds(t.Context(), orgID)
	must(t, err)
	holdsOf := func(p *booking.Property) []hold {
		var out []hold
		for _, b := range bookings {
			if b.PropertyID == p.ID && b.HoldsDates(now) {
				out = append(out, hold{b.Range(), b.UnitID, false, fmt.Sprintf("booking %d", b.ID)})
			}
		}
		got, err := s.Property(t.Context(), orgID, p.ID)
		must(t, err)
		for _, b := range got.Blocks {
			out = append(out, hold{b.Range(), b.UnitID, true, fmt.Sprintf("block %d", b.ID)})
		}
		for _, f := range feeds {
			if f.PropertyID != p.ID {
				continue
			}
			blocks, err := s.FeedBlocks(t.Context(), f.ID)
			must(t, err)
			for _, b := range blocks {
				out = append(out, hold{b.Range(), f.UnitID, true, fmt.Sprintf("imported block %d", b.ID)})
			}
		}
		return out
	}
	whole := holdsOf(v.whole)
	for _, p := range append([]*booking.Property{v.whole}, v.rooms...) {
		hs := whole
		if p != v.whole {
			hs = holdsOf(p)
			for _, a := range whole {
				for _, b := range hs {
					if a.Overlaps(b.Range) && !(a.block && b.block) {
						t.Fatalf("at %s the whole's %s %v overlaps part %d's %s %v", now, a.what, a.Range, p.ID, b.what, b.Range)
					}
				}
			}
		}
		for i, a := range hs {
			for _, b := range hs[i+1:] {
				sameUnit := a.unit == 0 || b.unit == 0 || a.unit == b.unit
				if sameUnit && a.Overlaps(b.Range) && !(a.block && b.block) {
					t.Fatalf("at %s property %d: %s %v (unit %d) overlaps %s %v (unit %d)", now, p.ID, a.what, a.Range, a.unit,
						b.what, b.Range, b.unit)
				}
			}
		}
	}
}
