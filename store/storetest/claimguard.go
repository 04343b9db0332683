package storetest

import (
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/rules"
)

// lateClaim is the transition a late payment makes: an expired (or lapsed
// pending) booking confirmed at at, taking its dates back under g.
func lateClaim(at time.Time, g booking.DateGuard) booking.Transition {
	return booking.Transition{From: []booking.Status{booking.StatusPending, booking.StatusExpired}, To: booking.StatusConfirmed,
		At: at, ClaimDates: true, Confirmed: true, DateGuard: g}
}

// newLapsed stores a booking of p for [in, out) whose hold lapsed at
// t0 + 1 minute, expired.
func newLapsed(t *testing.T, s Stores, p *booking.Property, in, out string) *booking.Booking {
	t.Helper()
	return moveTo(t, s, newPending(t, s, p, in, out, t0.Add(time.Minute)), booking.StatusExpired)
}

// claimGuardScenarios: a booking that takes its dates back after its hold
// lapsed (Transition with ClaimDates) is refused, in the store's atomic
// step, what CreateBooking refuses a new stay: another holder's
// preparation days and closed nights. A booking still holding its dates
// keeps them.
var claimGuardScenarios = []scenario{
	{"Transition/ClaimDatesKeepsPreparationDays", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		// The late booking is 07-10..07-15; after its hold lapsed another
		// stay (or a block) was taken near it, at t0 + 2 minutes.
		late := civil.Range{Start: day("2026-07-10"), End: day("2026-07-15")}
		for _, tt := range []struct {
			name          string
			before, after int
			in, out       string
			block         bool
			// lapses is when the other stay's hold lapses (zero: t0 + 1h).
			lapses time.Time
			want   string
		}{
			{"no preparation, adjacent after", 0, 0, "2026-07-15", "2026-07-18", false, time.Time{}, ""},
			{"no preparation, adjacent before", 0, 0, "2026-07-05", "2026-07-10", false, time.Time{}, ""},
			{"one day after each, adjacent after", 0, 1, "2026-07-15", "2026-07-18", false, time.Time{}, booking.CodeUnavailable},
			{"one day before each, adjacent before", 1, 0, "2026-07-05", "2026-07-10", false, time.Time{}, booking.CodeUnavailable},
			{"two days after each, one night apart", 0, 2, "2026-07-16", "2026-07-18", false, time.Time{}, booking.CodeUnavailable},
			{"two days after each, two nights apart", 0, 2, "2026-07-17", "2026-07-19", false, time.Time{}, ""},
			{"both, one day short before", 1, 2, "2026-07-01", "2026-07-09", false, time.Time{}, booking.CodeUnavailable},
			{"both, clear before", 1, 2, "2026-07-01", "2026-07-08", false, time.Time{}, ""},
			{"block in the gap", 0, 1, "2026-07-15", "2026-07-16", true, time.Time{}, booking.CodeUnavailable},
			{"block clear of the gap", 0, 1, "2026-07-16", "2026-07-17", true, time.Time{}, ""},
			{"neighbour's hold lapsed too", 0, 1, "2026-07-15", "2026-07-18", false, t0.Add(150 * time.Second), ""},
		} {
			t.Run(tt.name, func(t *testing.T) {
				// The store decides as the rules do (rules.Set.Reserved).
				set := rules.Set{PreparationDaysBefore: tt.before, PreparationDaysAfter: tt.after}
				other := civil.Range{Start: day(tt.in), End: day(tt.out)}
				byRules := ""
				if tt.lapses.IsZero() && set.Reserved([]civil.Range{other})[0].Overlaps(late) {
					byRules = booking.CodeUnavailable
				}
				if byRules != tt.want {
					t.Fatalf("case wants %q, the rules say %q", tt.want, byRules)
				}
				p := newProperty(t, s, w.org.ID)
				b := newLapsed(t, s, p, late.Start.String(), late.End.String())
				if tt.block {
					must(t, s.AddBlock(t.Context(), p.ID, &booking.Block{Start: other.Start, End: other.End}, t0.Add(2*time.Minute)))
				} else {
					o := pendingFixture(p, tt.in, tt.out)
					o.ExpiresAt = t0.Add(time.Hour)
					if !tt.lapses.IsZero() {
						o.ExpiresAt = tt.lapses
					}
					create(t, s, o, t0.Add(2*time.Minute))
				}
				claim := lateClaim(t0.Add(3*time.Minute), booking.DateGuard{PreparationDaysBefore: tt.before, PreparationDaysAfter: tt.after})
				got, err := s.Transition(t.Context(), b.ID, claim)
				wantCode(t, err, tt.want)
				if err != nil {
					stored, err := s.BookingByID(t.Context(), b.ID)
					must(t, err)
					sameJSON(t, "booking after refused claim", stored, b)
					return
				}
				if got.Status != booking.StatusConfirmed {
					t.Errorf("status %q after the claim, want confirmed", got.Status)
				}
			})
		}
	}},
	{"Transition/ClaimDatesClosedNight", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		// The late booking is 07-10..07-14.
		for _, tt := range []struct {
			name       string
			days       []booking.CalendarDay
			ruleClosed []civil.Date
			want       string
		}{
			{"nothing closed", nil, nil, ""},
			{"calendar closes a night", []booking.CalendarDay{{Date: day("2026-07-12"), Closed: true}}, nil, booking.CodeUnavailable},
			{"calendar closes the check-out day", []booking.CalendarDay{{Date: day("2026-07-14"), Closed: true}}, nil, ""},
			{"rules close a night", nil, []civil.Date{day("2026-07-11")}, booking.CodeUnavailable},
			{"rules close the check-out day", nil, []civil.Date{day("2026-07-14")}, ""},
			{"calendar opens the rules' night", []booking.CalendarDay{{Date: day("2026-07-11"), ClosedToArrival: true}},
				[]civil.Date{day("2026-07-11")}, ""},
		} {
			t.Run(tt.name, func(t *testing.T) {
				p := newProperty(t, s, w.org.ID)
				b := newLapsed(t, s, p, "2026-07-10", "2026-07-14")
				// Closed after the hold lapsed.
				if len(tt.days) > 0 {
					must(t, s.SetCalendarDays(t.Context(), p.ID, tt.days))
				}
				_, err := s.Transition(t.Context(), b.ID, lateClaim(t0.Add(3*time.Minute), booking.DateGuard{RuleClosed: tt.ruleClosed}))
				wantCode(t, err, tt.want)
				stored, serr := s.BookingByID(t.Context(), b.ID)
				must(t, serr)
				if want := map[bool]booking.Status{true: booking.StatusConfirmed, false: booking.StatusExpired}[err == nil]; stored.Status != want {
					t.Errorf("status %q after the claim, want %q", stored.Status, want)
				}
			})
		}
		// Another property's closed night does not count.
		other := newProperty(t, s, w.org.ID)
		must(t, s.SetCalendarDays(t.Context(), other.ID, []booking.CalendarDay{{Date: day("2026-07-12"), Closed: true}}))
		b := newLapsed(t, s, w.prop, "2026-07-10", "2026-07-14")
		_, err := s.Transition(t.Context(), b.ID, lateClaim(t0.Add(3*time.Minute), booking.DateGuard{}))
		must(t, err)
	}},
	{"Transition/ClaimDatesLapsedPendingGuarded", func(t *testing.T, s Stores) {
		// A pending booking past its ExpiresAt that no sweeper expired
		// yet holds nothing either: its claim is guarded.
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-07-10", "2026-07-15", t0.Add(time.Minute))
		o := pendingFixture(w.prop, "2026-07-15", "2026-07-18")
		o.ExpiresAt = t0.Add(time.Hour)
		create(t, s, o, t0.Add(2*time.Minute))
		_, err := s.Transition(t.Context(), b.ID, lateClaim(t0.Add(3*time.Minute), booking.DateGuard{PreparationDaysAfter: 1}))
		wantCode(t, err, booking.CodeUnavailable)
		stored, err := s.BookingByID(t.Context(), b.ID)
		must(t, err)
		sameJSON(t, "booking after refused claim", stored, b)
	}},
	{"Transition/ClaimDatesHeldKeepsItsDates", func(t *testing.T, s Stores) {
		// A pending booking still holding its dates is confirmed even if
		// the guard says otherwise now (preparation days raised, a night
		// closed by the rules since its checkout): the dates are its own.
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-07-10", "2026-07-15", t0.Add(time.Hour))
		newPending(t, s, w.prop, "2026-07-15", "2026-07-18", t0.Add(time.Hour)) // adjacent
		got, err := s.Transition(t.Context(), b.ID, lateClaim(t0.Add(time.Minute),
			booking.DateGuard{PreparationDaysBefore: 1, PreparationDaysAfter: 1, RuleClosed: []civil.Date{day("2026-07-12")}}))
		must(t, err)
		if got.Status != booking.StatusConfirmed {
			t.Errorf("status %q, want confirmed", got.Status)
		}
	}},
}

// claimGuardRaceScenarios: the guard of a late claim holds against
// concurrent writers: a checkout next to it, a host closing one of its
// nights.
var claimGuardRaceScenarios = []scenario{
	{"Race/LateClaimAgainstAdjacentCheckoutOneWins", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		const tries = 4 * rounds
		for round := range tries {
			p := newProperty(t, s, w.org.ID)
			// In even rounds the checkout is adjacent after the late stay
			// with one day before and after each stay; in odd ones it is
			// one night before it, with two days before and three after.
			g := booking.DateGuard{PreparationDaysBefore: 1, PreparationDaysAfter: 1}
			in, out := "2026-05-05", "2026-05-09"
			if round%2 == 1 {
				g = booking.DateGuard{PreparationDaysBefore: 2, PreparationDaysAfter: 3}
				in, out = "2026-04-26", "2026-04-30"
			}
			late := newLapsed(t, s, p, "2026-05-01", "2026-05-05")
			next := pendingFixture(p, in, out)
			at := t0.Add(2 * time.Minute)
			next.ExpiresAt = at.Add(time.Hour)
			var claimErr, createErr error
			counts := race(2, func(i int) error {
				if i == 0 {
					_, claimErr = s.Transition(t.Context(), late.ID, lateClaim(at, g))
					return claimErr
				}
				createErr = s.CreateBooking(t.Context(), next, booking.CreateOptions{Now: at, DateGuard: g})
				return createErr
			})
			wantCounts(t, counts, map[string]int{"": 1, booking.CodeUnavailable: 1})
			taken, err := s.Occupied(t.Context(), p.ID, day("2026-04-01"), day("2026-06-01"), at)
			must(t, err)
			stored, err := s.BookingByID(t.Context(), late.ID)
			must(t, err)
			switch {
			case len(taken) != 1:
				t.Fatalf("round %d: stays held %v, want one", round, taken)
			case claimErr == nil && (stored.Status != booking.StatusConfirmed || taken[0].Range != late.Range()):
				t.Fatalf("round %d: the claim won, but the late booking is %s and %v is held", round, stored.Status, taken)
			case createErr == nil && (stored.Status != booking.StatusExpired || taken[0].Range != next.Range()):
				t.Fatalf("round %d: the checkout won, but the late booking is %s and %v is held", round, stored.Status, taken)
			}
		}
	}},
	{"Race/LateClaimAgainstCloseNightOneWins", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		const tries = 4 * rounds
		for round := range tries {
			p := newProperty(t, s, w.org.ID)
			late := newLapsed(t, s, p, "2026-05-01", "2026-05-05")
			at := t0.Add(2 * time.Minute)
			closeNight := booking.CalendarChange{From: day("2026-05-03"), To: day("2026-05-04"), Closed: boolp(true)}
			var closeErr, claimErr error
			counts := race(2, func(i int) error {
				if i == 0 {
					closeErr = s.ApplyCalendar(t.Context(), w.org.ID, p.ID, closeNight, at)
					return closeErr
				}
				_, claimErr = s.Transition(t.Context(), late.ID, lateClaim(at, booking.DateGuard{}))
				return claimErr
			})
			wantCounts(t, counts, map[string]int{"": 1, booking.CodeUnavailable: 1})
			days, err := s.CalendarDays(t.Context(), p.ID, day("2026-05-01"), day("2026-05-05"))
			must(t, err)
			closed := len(days) == 1 && days[0].Closed
			stored, err := s.BookingByID(t.Context(), late.ID)
			must(t, err)
			switch {
			case closeErr == nil && (!closed || stored.Status != booking.StatusExpired):
				t.Fatalf("round %d: the close won, but closed %v and the late booking is %s", round, closed, stored.Status)
			case claimErr == nil && (closed || stored.Status != booking.StatusConfirmed):
				t.Fatalf("round %d: the claim won, but closed %v and the late booking is %s", round, closed, stored.Status)
			}
		}
	}},
}
