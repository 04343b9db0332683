package storetest

import (
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/policy"
)

// createTermsScenarios: CreateBooking stores a new booking's terms in the
// same atomic step (CreateOptions.Terms), so that checkout writes once.
var createTermsScenarios = []scenario{
	{"CreateBooking/WithTerms", func(t *testing.T, s Stores) {
		ctx := t.Context()
		w := newWorld(t, s)
		mod, err := policy.Preset(policy.Moderate)
		must(t, err)
		newTerms := func() *booking.Terms {
			return &booking.Terms{Policy: mod, Customer: "cus_1", BalanceStatus: booking.BalanceScheduled,
				Deposit: dec("200"), DepositStatus: booking.DepositScheduled, DepositClaimed: dec("0"), UpdatedAt: t0}
		}

		b := pendingFixture(w.prop, "2026-06-01", "2026-06-04")
		b.ExpiresAt = t0.Add(time.Hour)
		tm := newTerms()
		must(t, s.CreateBooking(ctx, b, booking.CreateOptions{Now: t0, Terms: tm}))
		if tm.BookingID != b.ID || tm.Version != 1 {
			t.Fatalf("terms after create: booking %d version %d, want %d and 1", tm.BookingID, tm.Version, b.ID)
		}
		got, err := s.Terms(ctx, b.ID)
		must(t, err)
		sameJSON(t, "terms stored with the booking", got, tm)
		if got.Version != 1 || got.BookingID != b.ID {
			t.Errorf("read terms version %d booking %d, want 1 and %d", got.Version, got.BookingID, b.ID)
		}
		// Later saves go on from version 1.
		got.BalanceStatus = booking.BalancePaid
		must(t, s.SaveTerms(ctx, got))
		wantCode(t, s.SaveTerms(ctx, tm), booking.CodeConflict)

		// A create that fails (the dates are held) stores no terms and
		// leaves them untouched.
		lost := pendingFixture(w.prop, "2026-06-02", "2026-06-05")
		lost.Token = "lost-token"
		lost.ExpiresAt = t0.Add(time.Hour)
		lt := newTerms()
		wantCode(t, s.CreateBooking(ctx, lost, booking.CreateOptions{Now: t0, Terms: lt}), booking.CodeUnavailable)
		if lt.BookingID != 0 || lt.Version != 0 {
			t.Errorf("terms of a refused create: booking %d version %d, want 0 and 0", lt.BookingID, lt.Version)
		}

		// Without terms, none are stored; a released booking takes its
		// terms with it.
		plain := newPending(t, s, w.prop, "2026-07-01", "2026-07-03", t0.Add(time.Hour))
		_, err = s.Terms(ctx, plain.ID)
		wantCode(t, err, booking.CodeNotFound)
		must(t, s.DeleteBooking(ctx, b.ID))
		_, err = s.Terms(ctx, b.ID)
		wantCode(t, err, booking.CodeNotFound)
	}},
}
