package storetest

import (
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/rules"
)

// guardScenarios: CreateBooking itself, in its atomic step, refuses a
// stay that touches another holder's preparation days or a closed night,
// and stores the booking's payment account, so that the service's
// checks before it (Service.checkFree) are an early answer only.
var guardScenarios = []scenario{
	{"CreateBooking/PreparationDays", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		// Another stay holds 07-10..07-15 and a block 08-10..08-12.
		held := civil.Range{Start: day("2026-07-10"), End: day("2026-07-15")}
		blocked := civil.Range{Start: day("2026-08-10"), End: day("2026-08-12")}
		for _, tt := range []struct {
			name          string
			before, after int
			in, out       string
			want          string
		}{
			{"no preparation, ends on its arrival", 0, 0, "2026-07-05", "2026-07-10", ""},
			{"no preparation, starts on its departure", 0, 0, "2026-07-15", "2026-07-18", ""},
			{"overlap", 0, 0, "2026-07-14", "2026-07-16", booking.CodeUnavailable},
			// The larger of the preparation days is kept free between any
			// two stays (rules.Set.Gap), whichever was booked first: one
			// day before each stay keeps 07-09 for the stay of 07-10, and
			// 07-15 for the new stay starting 07-16.
			{"before: ends on its arrival", 1, 0, "2026-07-05", "2026-07-10", booking.CodeUnavailable},
			{"before: ends on its preparation day", 1, 0, "2026-07-05", "2026-07-09", ""},
			{"before: starts on its departure, its own preparation on the stay", 1, 0, "2026-07-15", "2026-07-18", booking.CodeUnavailable},
			{"before: starts the day after its departure", 1, 0, "2026-07-16", "2026-07-18", ""},
			// Two days after each stay: 07-15 and 07-16 are kept, and a
			// new stay's own two days must end before 07-10.
			{"after: starts on its departure", 0, 2, "2026-07-15", "2026-07-18", booking.CodeUnavailable},
			{"after: starts on the last preparation day", 0, 2, "2026-07-16", "2026-07-18", booking.CodeUnavailable},
			{"after: starts when preparation ends", 0, 2, "2026-07-17", "2026-07-19", ""},
			{"after: ends on its arrival, its own preparation on the stay", 0, 2, "2026-07-05", "2026-07-10", booking.CodeUnavailable},
			{"after: ends one day before its arrival", 0, 2, "2026-07-05", "2026-07-09", booking.CodeUnavailable},
			{"after: ends two days before its arrival", 0, 2, "2026-07-05", "2026-07-08", ""},
			{"both, before it, one day short", 1, 2, "2026-07-01", "2026-07-09", booking.CodeUnavailable},
			{"both, before it", 1, 2, "2026-07-01", "2026-07-08", ""},
			{"both, after it", 1, 2, "2026-07-17", "2026-07-20", ""},
			// Blocks are kept free around too.
			{"block: after", 0, 1, "2026-08-12", "2026-08-14", booking.CodeUnavailable},
			{"block: before", 1, 0, "2026-08-07", "2026-08-10", booking.CodeUnavailable},
			{"block: clear", 1, 1, "2026-08-13", "2026-08-15", ""},
		} {
			t.Run(tt.name, func(t *testing.T) {
				// The store decides as the rules do (rules.Set.Reserved).
				set := rules.Set{PreparationDaysBefore: tt.before, PreparationDaysAfter: tt.after}
				stay := civil.Range{Start: day(tt.in), End: day(tt.out)}
				byRules := ""
				for _, r := range set.Reserved([]civil.Range{held, blocked}) {
					if r.Overlaps(stay) {
						byRules = booking.CodeUnavailable
					}
				}
				if byRules != tt.want {
					t.Fatalf("case wants %q, the rules say %q", tt.want, byRules)
				}
				p := newProperty(t, s, w.org.ID)
				newPending(t, s, p, held.Start.String(), held.End.String(), t0.Add(time.Hour))
				must(t, s.AddBlock(t.Context(), p.ID, &booking.Block{Start: blocked.Start, End: blocked.End}, t0))
				b := pendingFixture(p, tt.in, tt.out)
				err := s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0, DateGuard: booking.DateGuard{PreparationDaysBefore: tt.before, PreparationDaysAfter: tt.after}})
				wantCode(t, err, tt.want)
			})
		}
		// A lapsed hold keeps no preparation days.
		p := newProperty(t, s, w.org.ID)
		newPending(t, s, p, "2026-07-10", "2026-07-15", t0.Add(time.Hour))
		after := booking.CreateOptions{Now: t0.Add(time.Hour), DateGuard: booking.DateGuard{PreparationDaysAfter: 2}}
		must(t, s.CreateBooking(t.Context(), pendingFixture(p, "2026-07-15", "2026-07-18"), after))
	}},
	{"CreateBooking/ClosedNights", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		must(t, s.SetCalendarDays(t.Context(), w.prop.ID, []booking.CalendarDay{
			{Date: day("2026-07-12"), Closed: true},
			// Open by the calendar over the rules' closing (RuleClosed below).
			{Date: day("2026-08-05"), ClosedToArrival: true},
		}))
		ruleClosed := []civil.Date{day("2026-08-05"), day("2026-08-20")}
		for _, tt := range []struct {
			name    string
			in, out string
			want    string
		}{
			{"over the closed night", "2026-07-10", "2026-07-14", booking.CodeUnavailable},
			{"on the closed night", "2026-07-12", "2026-07-13", booking.CodeUnavailable},
			{"leaving on the closed day", "2026-07-09", "2026-07-12", ""},
			{"arriving the day after", "2026-07-13", "2026-07-15", ""},
			{"closed by the rules", "2026-08-19", "2026-08-21", booking.CodeUnavailable},
			{"rules' closing opened by the calendar", "2026-08-04", "2026-08-06", ""},
		} {
			t.Run(tt.name, func(t *testing.T) {
				b := pendingFixture(w.prop, tt.in, tt.out)
				err := s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0, DateGuard: booking.DateGuard{RuleClosed: ruleClosed}})
				if err == nil {
					// The cases do not hold dates for the next ones.
					must(t, s.DeleteBooking(t.Context(), b.ID))
				}
				wantCode(t, err, tt.want)
			})
		}
		// Another property's calendar does not count.
		other := newProperty(t, s, w.org.ID)
		must(t, s.CreateBooking(t.Context(), pendingFixture(other, "2026-07-10", "2026-07-14"), booking.CreateOptions{Now: t0}))
	}},
	{"CreateBooking/WithPaymentAccount", func(t *testing.T, s Stores) {
		ctx := t.Context()
		w := newWorld(t, s)
		b := pendingFixture(w.prop, "2026-06-01", "2026-06-04")
		must(t, s.CreateBooking(ctx, b, booking.CreateOptions{Now: t0, PaymentAccount: "acct_A"}))
		acct, err := s.BookingPaymentAccount(ctx, b.ID)
		must(t, err)
		if acct != "acct_A" {
			t.Fatalf("account stored with the booking = %q, want acct_A", acct)
		}
		// Recorded as by SetBookingPaymentAccount: once.
		must(t, s.SetBookingPaymentAccount(ctx, b.ID, "acct_A"))
		wantCode(t, s.SetBookingPaymentAccount(ctx, b.ID, "acct_B"), booking.CodeConflict)

		// A refused create stores nothing: the dates stay with b, and the
		// next booking's account is its own.
		lost := pendingFixture(w.prop, "2026-06-02", "2026-06-05")
		wantCode(t, s.CreateBooking(ctx, lost, booking.CreateOptions{Now: t0, PaymentAccount: "acct_B"}), booking.CodeUnavailable)
		if lost.ID != 0 {
			t.Errorf("refused create set ID %d", lost.ID)
		}
		plain := newPending(t, s, w.prop, "2026-07-01", "2026-07-03", t0.Add(time.Hour))
		if acct, err := s.BookingPaymentAccount(ctx, plain.ID); err != nil || acct != "" {
			t.Errorf("account of a booking made without one = %q, %v; want none", acct, err)
		}
		// A released booking takes its account with it.
		must(t, s.DeleteBooking(ctx, b.ID))
		if acct, err := s.BookingPaymentAccount(ctx, b.ID); err != nil || acct != "" {
			t.Errorf("account of a deleted booking = %q, %v; want none", acct, err)
		}
	}},
}

// guardRaceScenarios: what CreateBooking checks beyond overlaps holds
// against concurrent writers too.
var guardRaceScenarios = []scenario{
	{"Race/AdjacentStaysWithPreparationOneWins", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		const n = 20
		for round := range rounds {
			p := newProperty(t, s, w.org.ID)
			// Two stays that do not overlap but are closer than the
			// preparation days between them, whichever comes first
			// (rules.Set.Reserved protects the stay already held): in
			// even rounds adjacent with one day before and after each
			// stay, in odd ones one night apart with two days before and
			// three after.
			opts := booking.CreateOptions{Now: t0, DateGuard: booking.DateGuard{PreparationDaysBefore: 1, PreparationDaysAfter: 1}}
			first, second := [2]string{"2026-05-01", "2026-05-05"}, [2]string{"2026-05-05", "2026-05-09"}
			if round%2 == 1 {
				opts = booking.CreateOptions{Now: t0, DateGuard: booking.DateGuard{PreparationDaysBefore: 2, PreparationDaysAfter: 3}}
				second = [2]string{"2026-05-06", "2026-05-09"}
			}
			stays := make([]*booking.Booking, n)
			for i := range stays {
				if i%2 == 0 {
					stays[i] = pendingFixture(p, first[0], first[1])
				} else {
					stays[i] = pendingFixture(p, second[0], second[1])
				}
			}
			counts := race(n, func(i int) error { return s.CreateBooking(t.Context(), stays[i], opts) })
			wantCounts(t, counts, map[string]int{"": 1, booking.CodeUnavailable: n - 1})
			taken, err := s.Occupied(t.Context(), p.ID, day("2026-04-01"), day("2026-06-01"), t0)
			must(t, err)
			if len(taken) != 1 {
				t.Fatalf("round %d: stays held %v, want one", round, taken)
			}
		}
	}},
	{"Race/CloseNightAgainstCheckoutOneWins", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		const tries = 4 * rounds
		for round := range tries {
			p := newProperty(t, s, w.org.ID)
			b := pendingFixture(p, "2026-05-01", "2026-05-05")
			closeNight := booking.CalendarChange{From: day("2026-05-03"), To: day("2026-05-04"), Closed: boolp(true)}
			var closeErr, createErr error
			counts := race(2, func(i int) error {
				if i == 0 {
					closeErr = s.ApplyCalendar(t.Context(), w.org.ID, p.ID, closeNight, t0)
					return closeErr
				}
				createErr = s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0})
				return createErr
			})
			wantCounts(t, counts, map[string]int{"": 1, booking.CodeUnavailable: 1})
			days, err := s.CalendarDays(t.Context(), p.ID, day("2026-05-01"), day("2026-05-05"))
			must(t, err)
			closed := len(days) == 1 && days[0].Closed
			taken, err := s.Occupied(t.Context(), p.ID, day("2026-05-01"), day("2026-05-05"), t0)
			must(t, err)
			switch {
			case closeErr == nil && (!closed || len(taken) != 0):
				t.Fatalf("round %d: the close won, but closed %v and stays %v", round, closed, taken)
			case createErr == nil && (closed || len(taken) != 1):
				t.Fatalf("round %d: the checkout won, but closed %v and stays %v", round, closed, taken)
			}
		}
	}},
}
