package storetest

import (
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
)

var transitionScenarios = []scenario{
	{"Transition/AppliesChanges", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		at := t0.Add(5 * time.Minute)
		paid := dec("663.50")
		none := time.Time{}
		got, err := s.Transition(t.Context(), b.ID, booking.Transition{
			From: []booking.Status{booking.StatusPending, booking.StatusExpired}, To: booking.StatusConfirmed,
			At: at, ExpiresAt: &none, PaidAmount: &paid, Confirmed: true,
		})
		must(t, err)
		want := *b
		want.Status, want.PaidAmount, want.ExpiresAt = booking.StatusConfirmed, paid, time.Time{}
		want.ConfirmedAt, want.UpdatedAt = at, at
		sameJSON(t, "returned booking", got, want)
		stored, err := s.BookingByID(t.Context(), b.ID)
		must(t, err)
		sameJSON(t, "stored booking", stored, want)
	}},
	{"Transition/KeepsWhatIsNotGiven", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		at := t0.Add(time.Minute)
		expires := t0.Add(48 * time.Hour)
		got, err := s.Transition(t.Context(), b.ID, booking.Transition{
			From: []booking.Status{booking.StatusPending}, To: booking.StatusRequested, At: at, ExpiresAt: &expires,
		})
		must(t, err)
		want := *b
		want.Status, want.ExpiresAt, want.UpdatedAt = booking.StatusRequested, expires, at
		sameJSON(t, "booking", got, want)
		if !got.ConfirmedAt.IsZero() || !got.PaidAmount.IsZero() {
			t.Errorf("confirmed %v paid %s, want unset", got.ConfirmedAt, got.PaidAmount)
		}
		got, err = s.Transition(t.Context(), b.ID, booking.Transition{
			From: []booking.Status{booking.StatusRequested}, To: booking.StatusDeclined, At: at.Add(time.Minute),
		})
		must(t, err)
		if !got.ExpiresAt.Equal(expires) {
			t.Errorf("ExpiresAt = %v, want kept %v", got.ExpiresAt, expires)
		}
	}},
	{"Transition/WrongStatusConflict", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		_, err := s.Transition(t.Context(), b.ID, booking.Transition{
			From: []booking.Status{booking.StatusRequested, booking.StatusConfirmed}, To: booking.StatusCancelled, At: t0,
		})
		wantCode(t, err, booking.CodeConflict)
		got, err := s.BookingByID(t.Context(), b.ID)
		must(t, err)
		sameJSON(t, "booking after refused transition", got, b)
	}},
	{"Transition/UnknownNotFound", func(t *testing.T, s Stores) {
		_, err := s.Transition(t.Context(), 999, booking.Transition{
			From: []booking.Status{booking.StatusPending}, To: booking.StatusExpired, At: t0,
		})
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Transition/OnlyExpiredWaitsForExpiry", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		expires := t0.Add(30 * time.Minute)
		b := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", expires)
		expire := func(at time.Time) error {
			_, err := s.Transition(t.Context(), b.ID, booking.Transition{
				From: []booking.Status{booking.StatusPending, booking.StatusRequested}, To: booking.StatusExpired,
				At: at, OnlyExpired: true,
			})
			return err
		}
		wantCode(t, expire(expires.Add(-time.Millisecond)), booking.CodeConflict)
		must(t, expire(expires))
		got, err := s.BookingByID(t.Context(), b.ID)
		must(t, err)
		if got.Status != booking.StatusExpired {
			t.Errorf("status = %q, want expired", got.Status)
		}
	}},
	{"Transition/ClaimDatesTakenUnavailable", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		late := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Minute))
		late = moveTo(t, s, late, booking.StatusExpired)
		// Another guest took some of the nights after the hold lapsed.
		b := pendingFixture(w.prop, "2026-05-14", "2026-05-16")
		b.ExpiresAt = t0.Add(time.Hour)
		create(t, s, b, t0.Add(2*time.Minute))
		claim := booking.Transition{From: []booking.Status{booking.StatusExpired}, To: booking.StatusConfirmed,
			At: t0.Add(3 * time.Minute), ClaimDates: true, Confirmed: true}
		_, err := s.Transition(t.Context(), late.ID, claim)
		wantCode(t, err, booking.CodeUnavailable)
		got, err := s.BookingByID(t.Context(), late.ID)
		must(t, err)
		sameJSON(t, "booking after refused claim", got, late)
		// Once the other hold lapses the dates can be claimed.
		claim.At = t0.Add(2 * time.Hour)
		got, err = s.Transition(t.Context(), late.ID, claim)
		must(t, err)
		if got.Status != booking.StatusConfirmed || !got.ConfirmedAt.Equal(claim.At) {
			t.Errorf("status %q confirmed at %v, want confirmed at %v", got.Status, got.ConfirmedAt, claim.At)
		}
	}},
	{"Transition/ClaimDatesBlockedUnavailable", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		late := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Minute))
		must(t, s.AddBlock(t.Context(), w.prop.ID, &booking.Block{Start: day("2026-05-12"), End: day("2026-05-13")}, t0.Add(time.Minute)))
		_, err := s.Transition(t.Context(), late.ID, booking.Transition{
			From: []booking.Status{booking.StatusPending, booking.StatusExpired}, To: booking.StatusConfirmed,
			At: t0.Add(2 * time.Minute), ClaimDates: true,
		})
		wantCode(t, err, booking.CodeUnavailable)
	}},
	{"Transition/ClaimDatesIgnoresItself", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		newPending(t, s, w.prop, "2026-05-15", "2026-05-17", t0.Add(time.Hour)) // adjacent
		_, err := s.Transition(t.Context(), b.ID, booking.Transition{
			From: []booking.Status{booking.StatusPending}, To: booking.StatusConfirmed,
			At: t0.Add(time.Minute), ClaimDates: true,
		})
		must(t, err)
	}},
	{"Transition/ConflictBeforeUnavailable", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Minute))
		b = moveTo(t, s, b, booking.StatusCancelled)
		newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		_, err := s.Transition(t.Context(), b.ID, booking.Transition{
			From: []booking.Status{booking.StatusExpired}, To: booking.StatusConfirmed, At: t0, ClaimDates: true,
		})
		wantCode(t, err, booking.CodeConflict)
	}},
	{"DeleteBooking/PendingRemovedWithItsKey", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := pendingFixture(w.prop, "2026-05-10", "2026-05-15")
		key := booking.IdempotencyRecord{Scope: "checkout", Key: "k1", RequestHash: "h1", CreatedAt: t0}
		must(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0, Idempotency: key}))
		must(t, s.DeleteBooking(t.Context(), b.ID))
		_, err := s.BookingByID(t.Context(), b.ID)
		wantCode(t, err, booking.CodeNotFound)
		_, err = s.IdempotencyRecord(t.Context(), w.org.ID, "checkout", "k1", t0.Add(-time.Hour))
		wantCode(t, err, booking.CodeNotFound)
		// Dates and key are free again.
		again := pendingFixture(w.prop, "2026-05-10", "2026-05-15")
		must(t, s.CreateBooking(t.Context(), again, booking.CreateOptions{Now: t0, Idempotency: key}))
		rec, err := s.IdempotencyRecord(t.Context(), w.org.ID, "checkout", "k1", t0.Add(-time.Hour))
		must(t, err)
		if rec.BookingID != again.ID {
			t.Errorf("key points to booking %d, want %d", rec.BookingID, again.ID)
		}
	}},
	{"DeleteBooking/NotPendingConflict", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		moveTo(t, s, b, booking.StatusConfirmed)
		wantCode(t, s.DeleteBooking(t.Context(), b.ID), booking.CodeConflict)
		if _, err := s.BookingByID(t.Context(), b.ID); err != nil {
			t.Errorf("confirmed booking gone after refused delete: %v", err)
		}
	}},
	{"DeleteBooking/UnknownNotFound", func(t *testing.T, s Stores) {
		wantCode(t, s.DeleteBooking(t.Context(), 999), booking.CodeNotFound)
	}},
	{"SetPaymentIntent/FoundByIntent", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		newPending(t, s, w.prop, "2026-06-10", "2026-06-15", t0.Add(time.Hour))
		must(t, s.SetPaymentIntent(t.Context(), b.ID, "pi_123", "pi_123_secret_abc"))
		got, err := s.BookingByIntent(t.Context(), "pi_123")
		must(t, err)
		if got.ID != b.ID || got.PaymentIntentID != "pi_123" || got.ClientSecret != "pi_123_secret_abc" {
			t.Errorf("by intent: ID %d intent %q secret %q, want %d pi_123 pi_123_secret_abc",
				got.ID, got.PaymentIntentID, got.ClientSecret, b.ID)
		}
		_, err = s.BookingByIntent(t.Context(), "pi_unknown")
		wantCode(t, err, booking.CodeNotFound)
		_, err = s.BookingByIntent(t.Context(), "")
		wantCode(t, err, booking.CodeNotFound)
		wantCode(t, s.SetPaymentIntent(t.Context(), 999, "pi_9", "s"), booking.CodeNotFound)
	}},
}
