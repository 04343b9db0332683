package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// The host side: a property manager answers requests and cancels bookings.
// These methods find organisations whether or not their public engine is
// enabled.

// Bookings lists an organisation's bookings, newest first, optionally only
// those with one of statuses. Errors: CodeNotFound.
func (s *Service) Bookings(ctx context.Context, slug string, statuses ...Status) ([]Booking, error) {
	org, err := s.hostOrganization(ctx, slug)
	if err != nil {
		return nil, err
	}
	return s.store.Bookings(ctx, org.ID, statuses...)
}

// Approve accepts a requested booking: the authorised amount is captured and
// the booking confirmed. Errors: CodeNotFound, CodeBookingClosed (not
// requested, or the request lapsed), CodePaymentUnavailable.
func (s *Service) Approve(ctx context.Context, slug, token string) (*Booking, error) {
	org, b, err := s.hostBooking(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	if b.Status != StatusRequested || !now.Before(b.ExpiresAt) {
		return nil, errClosed(b, "approved")
	}
	if _, err := s.payments.CaptureIntent(ctx, b.PaymentIntentID); err != nil {
		if errors.Is(err, payment.ErrState) {
			return nil, &Error{Code: CodeBookingClosed, Message: "The card authorisation is no longer valid; the request cannot be approved.", Err: err}
		}
		return nil, paymentUnavailable("capture", "The payment could not be captured. Please try again in a moment.", err)
	}
	paid := b.ChargeAmount
	updated, err := s.store.Transition(ctx, b.ID, Transition{
		From: []Status{StatusRequested}, To: StatusConfirmed, At: now,
		Confirmed: true, PaidAmount: &paid, ExpiresAt: &time.Time{},
	})
	if err != nil {
		// The request lapsed or was declined while we captured: give the
		// money back.
		if _, rerr := s.payments.Refund(context.WithoutCancel(ctx), b.PaymentIntentID, 0); rerr != nil {
			s.logger.ErrorContext(ctx, "refund capture of closed request", "booking_id", b.ID, "err", rerr)
		}
		return nil, fmt.Errorf("approve booking %d: %w", b.ID, err)
	}
	s.notify(ctx, NotifyConfirmed, org, updated)
	return updated, nil
}

// Decline refuses a requested booking and releases the card authorisation.
// Errors: CodeNotFound, CodeBookingClosed.
func (s *Service) Decline(ctx context.Context, slug, token string) (*Booking, error) {
	org, b, err := s.hostBooking(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	updated, err := s.store.Transition(ctx, b.ID, Transition{
		From: []Status{StatusRequested}, To: StatusDeclined, At: s.clock.Now(), ExpiresAt: &time.Time{},
	})
	if err != nil {
		if ErrorCode(err) == CodeConflict {
			return nil, errClosed(b, "declined")
		}
		return nil, fmt.Errorf("decline booking %d: %w", b.ID, err)
	}
	s.voidIntent(ctx, updated)
	s.notify(ctx, NotifyDeclined, org, updated)
	return updated, nil
}

// Cancel cancels a pending, requested or confirmed booking, freeing its
// dates. With refund, what the guest paid is refunded. Errors: CodeNotFound,
// CodeBookingClosed, CodePaymentUnavailable (cancelled, but the refund
// failed: refund from the provider's dashboard).
func (s *Service) Cancel(ctx context.Context, slug, token string, refund bool) (*Booking, error) {
	org, b, err := s.hostBooking(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	updated, err := s.store.Transition(ctx, b.ID, Transition{
		From: []Status{StatusPending, StatusRequested, StatusConfirmed}, To: StatusCancelled,
		At: s.clock.Now(), ExpiresAt: &time.Time{},
	})
	if err != nil {
		if ErrorCode(err) == CodeConflict {
			return nil, errClosed(b, "cancelled")
		}
		return nil, fmt.Errorf("cancel booking %d: %w", b.ID, err)
	}
	s.notify(ctx, NotifyCancelled, org, updated)
	if b.Status != StatusConfirmed {
		s.voidIntent(ctx, updated)
		return updated, nil
	}
	if refund && updated.PaidAmount.IsPositive() && updated.PaymentIntentID != "" {
		amount, err := pricing.ToMinor(updated.PaidAmount, updated.Currency)
		if err == nil {
			_, err = s.payments.Refund(ctx, updated.PaymentIntentID, amount)
		}
		if err != nil {
			return updated, paymentUnavailable("refund", "The booking is cancelled but the refund failed; refund it from the payment provider's dashboard.", err)
		}
	}
	return updated, nil
}

func (s *Service) hostBooking(ctx context.Context, slug, token string) (*Organization, *Booking, error) {
	org, err := s.hostOrganization(ctx, slug)
	if err != nil {
		return nil, nil, err
	}
	b, err := s.bookingByToken(ctx, org, token)
	if err != nil {
		return nil, nil, err
	}
	return org, b, nil
}

func errClosed(b *Booking, verb string) error {
	return &Error{Code: CodeBookingClosed, Message: "This booking is " + string(b.Status) + " and cannot be " + verb + ".",
		Params: map[string]string{"status": string(b.Status)}}
}

// voidIntent cancels the intent of a booking that will not be paid; an
// intent that cannot be cancelled any more (paid meanwhile) is left to the
// late-payment rule of the payment event.
func (s *Service) voidIntent(ctx context.Context, b *Booking) {
	if b.PaymentIntentID == "" {
		return
	}
	if _, err := s.payments.CancelIntent(context.WithoutCancel(ctx), b.PaymentIntentID); err != nil && !errors.Is(err, payment.ErrState) {
		s.logger.ErrorContext(ctx, "cancel payment intent", "booking_id", b.ID, "intent", b.PaymentIntentID, "err", err)
	}
}
