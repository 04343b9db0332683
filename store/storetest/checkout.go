package storetest

import (
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
)

// countBookings returns how many bookings an organisation has.
func countBookings(t *testing.T, s Stores, orgID int64) int {
	t.Helper()
	list, err := s.Bookings(t.Context(), orgID)
	must(t, err)
	return len(list)
}

var createBookingScenarios = []scenario{
	// A checkout creates its payment intent first and stores it with the
	// booking, in the one write of CreateBooking; a refused write stores
	// no booking naming its intent.
	{"CreateBooking/WithPaymentIntent", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := pendingFixture(w.prop, "2026-05-01", "2026-05-04")
		b.PaymentIntentID, b.ClientSecret = "pi_first", "pi_first_secret_x"
		create(t, s, b, t0)
		got, err := s.BookingByIntent(t.Context(), "pi_first")
		must(t, err)
		if got.ID != b.ID || got.ClientSecret != "pi_first_secret_x" {
			t.Errorf("BookingByIntent = booking %d secret %q, want %d pi_first_secret_x", got.ID, got.ClientSecret, b.ID)
		}
		lost := pendingFixture(w.prop, "2026-05-02", "2026-05-05")
		lost.PaymentIntentID, lost.ClientSecret = "pi_lost", "pi_lost_secret_y"
		err = s.CreateBooking(t.Context(), lost, booking.CreateOptions{Now: t0,
			Idempotency: booking.IdempotencyRecord{Scope: "checkout", Key: "lost", RequestHash: "h"}})
		wantCode(t, err, booking.CodeUnavailable)
		_, err = s.BookingByIntent(t.Context(), "pi_lost")
		wantCode(t, err, booking.CodeNotFound)
		_, err = s.IdempotencyRecord(t.Context(), w.org.ID, "checkout", "lost", t0.Add(-24*time.Hour))
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"CreateBooking/RoundTrips", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		c := newCoupon(t, s, w.org.ID, "SUMMER", 0)
		b := pendingFixture(w.prop, "2026-05-01", "2026-05-04")
		b.CouponID, b.CouponCode = c.ID, c.Code
		b.PaidAmount, b.BalanceAmount, b.BalanceDueDate = dec("10.10"), dec("200.00"), day("2026-04-17")
		b.Quote.BalanceDueDate = day("2026-04-17")
		create(t, s, b, t0)
		got, err := s.BookingByID(t.Context(), b.ID)
		must(t, err)
		sameJSON(t, "booking", got, b)
		if !got.TotalAmount.Equal(b.TotalAmount) || !got.PaidAmount.Equal(dec("10.1")) {
			t.Errorf("amounts: total %s paid %s, want %s and 10.1", got.TotalAmount, got.PaidAmount, b.TotalAmount)
		}
		byToken, err := s.BookingByToken(t.Context(), w.org.ID, b.Token)
		must(t, err)
		if byToken.ID != b.ID {
			t.Errorf("BookingByToken = %d, want %d", byToken.ID, b.ID)
		}
	}},
	{"CreateBooking/ZeroDatesInQuoteRoundTrip", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := pendingFixture(w.prop, "2026-05-01", "2026-05-04")
		b.Quote = pendingFixture(w.prop, "2026-05-01", "2026-05-04").Quote
		b.Quote.BalanceDueDate = civil.Date{}
		create(t, s, b, t0)
		got, err := s.BookingByID(t.Context(), b.ID)
		must(t, err)
		if !got.Quote.BalanceDueDate.IsZero() || !got.BalanceDueDate.IsZero() {
			t.Errorf("balance due dates = %v / %v, want zero", got.Quote.BalanceDueDate, got.BalanceDueDate)
		}
		sameJSON(t, "quote", got.Quote, b.Quote)
	}},
	{"CreateBooking/StatusAndTimesDefaulted", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := pendingFixture(w.prop, "2026-05-01", "2026-05-04")
		b.Status, b.CreatedAt, b.UpdatedAt = "", time.Time{}, time.Time{}
		create(t, s, b, t0)
		got, err := s.BookingByID(t.Context(), b.ID)
		must(t, err)
		if got.Status != booking.StatusPending || !got.CreatedAt.Equal(t0) || !got.UpdatedAt.Equal(t0) {
			t.Errorf("status %q created %v updated %v, want pending at %v", got.Status, got.CreatedAt, got.UpdatedAt, t0)
		}
		if b.Status != booking.StatusPending || !b.CreatedAt.Equal(t0) {
			t.Errorf("b not updated: status %q created %v", b.Status, b.CreatedAt)
		}
	}},
	{"CreateBooking/NotPendingInvalid", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := pendingFixture(w.prop, "2026-05-01", "2026-05-04")
		b.Status = booking.StatusConfirmed
		wantCode(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0}), booking.CodeInvalid)
	}},
	{"CreateBooking/EmptyStayInvalid", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := pendingFixture(w.prop, "2026-05-04", "2026-05-04")
		wantCode(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0}), booking.CodeInvalid)
	}},
	{"CreateBooking/PropertyOfAnotherOrganizationNotFound", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newOrg(t, s, "other")
		b := pendingFixture(w.prop, "2026-05-01", "2026-05-04")
		b.OrgID = other.ID
		wantCode(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0}), booking.CodeNotFound)
		b = pendingFixture(w.prop, "2026-05-01", "2026-05-04")
		b.PropertyID = 999
		wantCode(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0}), booking.CodeNotFound)
	}},
	{"CreateBooking/OverlapUnavailable", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		for _, tt := range []struct{ name, in, out string }{
			{"same", "2026-05-10", "2026-05-15"},
			{"endsInside", "2026-05-08", "2026-05-11"},
			{"startsInside", "2026-05-14", "2026-05-20"},
			{"inside", "2026-05-11", "2026-05-12"},
			{"around", "2026-05-01", "2026-05-30"},
		} {
			b := pendingFixture(w.prop, tt.in, tt.out)
			err := s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0})
			if got := booking.ErrorCode(err); got != booking.CodeUnavailable {
				t.Errorf("%s: code = %q (%v), want unavailable", tt.name, got, err)
			}
			if b.ID != 0 {
				t.Errorf("%s: refused booking got ID %d", tt.name, b.ID)
			}
		}
		if n := countBookings(t, s, w.org.ID); n != 1 {
			t.Errorf("%d bookings stored, want 1", n)
		}
	}},
	{"CreateBooking/AdjacentStaysAllowed", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		newPending(t, s, w.prop, "2026-05-15", "2026-05-18", t0.Add(time.Hour)) // arrives on check-out day
		newPending(t, s, w.prop, "2026-05-07", "2026-05-10", t0.Add(time.Hour)) // leaves on check-in day
		if n := countBookings(t, s, w.org.ID); n != 3 {
			t.Errorf("%d bookings stored, want 3", n)
		}
	}},
	{"CreateBooking/OtherPropertyAllowed", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newProperty(t, s, w.org.ID)
		newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		newPending(t, s, other, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
	}},
	{"CreateBooking/BlockOverlapUnavailable", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		must(t, s.AddBlock(t.Context(), w.prop.ID, &booking.Block{Start: day("2026-05-10"), End: day("2026-05-15")}, t0))
		b := pendingFixture(w.prop, "2026-05-14", "2026-05-16")
		wantCode(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0}), booking.CodeUnavailable)
		newPending(t, s, w.prop, "2026-05-15", "2026-05-16", t0.Add(time.Hour))
		newPending(t, s, w.prop, "2026-05-08", "2026-05-10", t0.Add(time.Hour))
	}},
	{"CreateBooking/LapsedPendingDoesNotBlock", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		// Held until t0 + 1m; no sweeper runs in between.
		first := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Minute))
		b := pendingFixture(w.prop, "2026-05-10", "2026-05-15")
		wantCode(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0.Add(time.Minute - time.Millisecond)}),
			booking.CodeUnavailable)
		// At its expiry instant the hold no longer blocks.
		create(t, s, b, t0.Add(time.Minute))
		got, err := s.BookingByID(t.Context(), first.ID)
		must(t, err)
		if got.Status != booking.StatusPending {
			t.Errorf("lapsed hold status = %q, want pending (only a sweeper changes it)", got.Status)
		}
	}},
	{"CreateBooking/HoldingStatusesBlock", func(t *testing.T, s Stores) {
		for _, tt := range []struct {
			status booking.Status
			blocks bool
		}{
			{booking.StatusRequested, true},
			{booking.StatusConfirmed, true},
			{booking.StatusCancelled, false},
			{booking.StatusExpired, false},
			{booking.StatusDeclined, false},
		} {
			t.Run(string(tt.status), func(t *testing.T) {
				w := world{prop: newProperty(t, s, newOrg(t, s, "org-"+string(tt.status)).ID)}
				first := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Minute))
				if tt.status == booking.StatusDeclined {
					first = moveTo(t, s, first, booking.StatusRequested)
				}
				moveTo(t, s, first, tt.status)
				// Long after the first hold's expiry: only the status counts.
				b := pendingFixture(w.prop, "2026-05-12", "2026-05-13")
				err := s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0.Add(24 * time.Hour)})
				want := ""
				if tt.blocks {
					want = booking.CodeUnavailable
				}
				wantCode(t, err, want)
			})
		}
	}},
	{"CreateBooking/LastCouponRedemption", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		c := newCoupon(t, s, w.org.ID, "SUMMER", 2)
		book := func(in, out string, expires, now time.Time) error {
			b := pendingFixture(w.prop, in, out)
			b.CouponID, b.CouponCode, b.ExpiresAt = c.ID, c.Code, expires
			return s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: now, MaxRedemptions: c.MaxRedemptions})
		}
		must(t, book("2026-05-01", "2026-05-03", t0.Add(time.Hour), t0))
		must(t, book("2026-05-03", "2026-05-05", t0.Add(time.Minute), t0))
		wantCode(t, book("2026-05-05", "2026-05-07", t0.Add(time.Hour), t0), coupon.CodeExhausted)
		if n := countBookings(t, s, w.org.ID); n != 2 {
			t.Errorf("%d bookings stored, want 2", n)
		}
		// The second hold lapses and frees its redemption.
		must(t, book("2026-05-05", "2026-05-07", t0.Add(time.Hour), t0.Add(time.Minute)))
		// Unlimited when MaxRedemptions is 0.
		b := pendingFixture(w.prop, "2026-05-07", "2026-05-09")
		b.CouponID = c.ID
		must(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0}))
	}},
}
