package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
)

// race runs n calls of do at once (as near as goroutines allow) and counts
// the error codes they return ("" for success).
func race(n int, do func(i int) error) map[string]int {
	var (
		mu     sync.Mutex
		counts = map[string]int{}
		start  = make(chan struct{})
		wg     sync.WaitGroup
	)
	for i := range n {
		wg.Go(func() {
			<-start
			code := booking.ErrorCode(do(i))
			mu.Lock()
			counts[code]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return counts
}

// wantCounts fails the test unless the race ended with exactly want.
func wantCounts(t *testing.T, got, want map[string]int) {
	t.Helper()
	for code, n := range got {
		if want[code] != n {
			t.Fatalf("race outcome %v, want %v (\"\" is success)", got, want)
			return
		}
	}
	for code, n := range want {
		if got[code] != n {
			t.Fatalf("race outcome %v, want %v (\"\" is success)", got, want)
			return
		}
	}
}

// rounds is how many times each race is run: a store that checks outside
// its atomic step loses some rounds only.
const rounds = 5

var raceScenarios = []scenario{
	{"Race/OverlappingCheckoutsOneWins", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		const n = 50
		for round := range rounds {
			p := newProperty(t, s, w.org.ID)
			// Every stay holds the night of 2026-05-10, each with other edges.
			stays := make([]*booking.Booking, n)
			for i := range stays {
				in := day("2026-05-10").AddDays(-(i % 5))
				out := day("2026-05-11").AddDays(i % 7)
				stays[i] = pendingFixture(p, in.String(), out.String())
			}
			counts := race(n, func(i int) error {
				return s.CreateBooking(t.Context(), stays[i], booking.CreateOptions{Now: t0})
			})
			wantCounts(t, counts, map[string]int{"": 1, booking.CodeUnavailable: n - 1})
			if got := countBookings(t, s, w.org.ID); got != round+1 {
				t.Fatalf("round %d: %d bookings stored, want %d", round, got, round+1)
			}
		}
	}},
	{"Race/LastCouponRedemptionOneWins", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		const n = 20
		for round := range rounds {
			c := newCoupon(t, s, w.org.ID, fmt.Sprintf("LAST%d", round), 3)
			p := newProperty(t, s, w.org.ID)
			book := func(in, out string) *booking.Booking {
				b := pendingFixture(p, in, out)
				b.CouponID, b.CouponCode = c.ID, c.Code
				return b
			}
			opts := booking.CreateOptions{Now: t0, MaxRedemptions: c.MaxRedemptions}
			// Two holders already: one redemption left.
			must(t, s.CreateBooking(t.Context(), book("2026-04-01", "2026-04-03"), opts))
			held := book("2026-04-03", "2026-04-05")
			must(t, s.CreateBooking(t.Context(), held, opts))
			moveTo(t, s, held, booking.StatusConfirmed)
			// Disjoint stays: only the coupon is contended.
			stays := make([]*booking.Booking, n)
			for i := range stays {
				in := day("2026-05-01").AddDays(3 * i)
				stays[i] = book(in.String(), in.AddDays(2).String())
			}
			counts := race(n, func(i int) error { return s.CreateBooking(t.Context(), stays[i], opts) })
			wantCounts(t, counts, map[string]int{"": 1, coupon.CodeExhausted: n - 1})
			got, err := s.CouponRedemptions(t.Context(), c.ID, t0)
			must(t, err)
			if got != 3 {
				t.Fatalf("round %d: redemptions = %d, want 3", round, got)
			}
		}
	}},
	{"Race/SameTransitionOneWins", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		const n = 20
		paid := dec("663.50")
		for round := range rounds {
			in := day("2026-05-01").AddDays(3 * round)
			b := newPending(t, s, w.prop, in.String(), in.AddDays(2).String(), t0.Add(time.Hour))
			counts := race(n, func(i int) error {
				_, err := s.Transition(t.Context(), b.ID, booking.Transition{
					From: []booking.Status{booking.StatusPending}, To: booking.StatusConfirmed,
					At: t0.Add(time.Duration(i+1) * time.Millisecond), PaidAmount: &paid, Confirmed: true,
				})
				return err
			})
			wantCounts(t, counts, map[string]int{"": 1, booking.CodeConflict: n - 1})
			got, err := s.BookingByID(t.Context(), b.ID)
			must(t, err)
			if got.Status != booking.StatusConfirmed || !got.ConfirmedAt.Equal(got.UpdatedAt) {
				t.Fatalf("round %d: status %q confirmed %v updated %v, want confirmed once",
					round, got.Status, got.ConfirmedAt, got.UpdatedAt)
			}
		}
	}},
}
