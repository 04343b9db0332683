package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
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

// Payments returns a booking's payments ledger, oldest first: captures,
// releases, refunds (pending, sent, refused) and disputes, for the host.
func (s *Service) Payments(ctx context.Context, b *Booking) ([]ledger.Entry, error) {
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	return entries, nil
}

// BookingTerms returns the terms a booking was sold with — its policy, its
// balance and its security deposit, each with where it stands — for the
// host; nil for a booking made before terms existed (BalanceOf reads the
// balance of either).
func (s *Service) BookingTerms(ctx context.Context, b *Booking) (*Terms, error) {
	return s.bookingTerms(ctx, b)
}

// Approve accepts a requested booking: the authorised amount is captured and
// the booking confirmed. The capture carries a key derived from the intent,
// so a retry after a lost response captures once; whatever the capture
// call answers, the intent's real state decides. Errors: CodeNotFound,
// CodeBookingClosed (not requested, the request lapsed, or the
// authorisation is gone), CodePaymentUnavailable.
func (s *Service) Approve(ctx context.Context, slug, token string) (*Booking, error) {
	org, b, err := s.hostBooking(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	if b.Status != StatusRequested || !now.Before(b.ExpiresAt) {
		return nil, errClosed(b, "approved")
	}
	pay, err := s.accounts.ForBooking(ctx, b.ID)
	if err != nil {
		return nil, err
	}
	in, err := pay.CaptureIntent(ctx, b.PaymentIntentID, captureKey(b.PaymentIntentID))
	if err != nil {
		// The capture may have been applied with its answer lost: ask.
		cur, gerr := pay.GetIntent(ctx, b.PaymentIntentID)
		if gerr != nil {
			return nil, paymentUnavailable("capture", "The payment could not be captured. Please try again in a moment.", errors.Join(err, gerr))
		}
		switch cur.Status {
		case payment.StatusSucceeded:
			in = cur
		case payment.StatusAuthorized:
			return nil, paymentUnavailable("capture", "The payment could not be captured. Please try again in a moment.", err)
		default:
			_, rerr := s.Reconcile(ctx, org, b, cur, now)
			return nil, &Error{Code: CodeBookingClosed, Message: "The card authorisation is no longer valid; the request cannot be approved.", Err: errors.Join(err, rerr)}
		}
	}
	return s.confirmCaptured(ctx, org, b, in, now)
}

// Decline refuses a requested booking; the card authorisation is released
// through the ledger. Errors: CodeNotFound, CodeBookingClosed.
func (s *Service) Decline(ctx context.Context, slug, token string) (*Booking, error) {
	org, b, err := s.hostBooking(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	updated, err := s.store.Transition(ctx, b.ID, Transition{
		From: []Status{StatusRequested}, To: StatusDeclined, At: now, ExpiresAt: &time.Time{},
		Record: releaseRecord(b, ledger.ReasonDeclined), Outbox: tell(NotifyDeclined, b),
	})
	if err != nil {
		if ErrorCode(err) == CodeConflict {
			return nil, errClosed(b, "declined")
		}
		return nil, fmt.Errorf("decline booking %d: %w", b.ID, err)
	}
	s.sendBookingEntries(ctx, updated.ID)
	s.notify(ctx, NotifyDeclined, org, updated)
	return updated, nil
}

// Cancel cancels a pending, requested or confirmed booking, freeing its
// dates. An unpaid intent is released; with refund, what the guest paid of
// a confirmed booking goes back. Either is written to the ledger with the
// cancellation and sent at once; if the provider is unreachable the worker
// retries until it has it, and the booking shows the refund as pending.
// Errors: CodeNotFound, CodeBookingClosed.
func (s *Service) Cancel(ctx context.Context, slug, token string, refund bool) (*Booking, error) {
	rule := RefundNone
	if refund {
		rule = RefundFull
	}
	return s.CancelWithOptions(ctx, slug, token, CancelOptions{Refund: rule})
}

// releaseRecord is the release of a booking's intent, if it has one, for a
// Transition.
func releaseRecord(b *Booking, reason string) []ledger.Entry {
	if b.PaymentIntentID == "" {
		return nil
	}
	return []ledger.Entry{ReleaseEntry(b, b.PaymentIntentID, reason)}
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
		Params: map[string]string{"status": string(b.Status), "action": verb}}
}
