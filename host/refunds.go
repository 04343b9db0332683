package host

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
)

// CancelWithOptions cancels a booking of org as a host, refunding what o
// says of a confirmed one: by its policy, in full, nothing, or an amount
// (booking.Service.CancelWithOptions); the audit entry records the rule.
// Errors: CodeNotFound, CodeBookingClosed, CodeInvalid.
func (s *Service) CancelWithOptions(ctx context.Context, org *booking.Organization, id int64, o booking.CancelOptions, by Actor) (*booking.Booking, error) {
	b, err := s.booking(ctx, org, id)
	if err != nil {
		return nil, err
	}
	updated, err := s.bookings.CancelWithOptions(ctx, org.Slug, b.Token, o)
	if err != nil {
		return nil, err
	}
	action := "booking.cancel_refund"
	if o.Refund == booking.RefundNone {
		action = "booking.cancel"
	}
	type before struct {
		Status booking.Status `json:"status"`
	}
	type after struct {
		Status booking.Status     `json:"status"`
		Refund booking.RefundRule `json:"refund"`
		Amount *booking.Money     `json:"amount,omitempty"`
	}
	a := after{Status: updated.Status, Refund: o.Refund}
	if o.Refund == booking.RefundAmount {
		a.Amount = &o.Amount
	}
	if err := s.audit(ctx, org, by, action, target("booking", id), before{b.Status}, a); err != nil {
		return nil, err
	}
	return updated, nil
}

// BookingTerms returns the terms a booking of org was sold with (its
// policy, its security deposit and where the deposit stands), nil for a
// booking made before terms existed. Errors: CodeNotFound.
func (s *Service) BookingTerms(ctx context.Context, org *booking.Organization, b *booking.Booking) (*booking.Terms, error) {
	if b.OrgID != org.ID {
		return nil, errNotFound("booking")
	}
	t, err := s.store.Terms(ctx, b.ID)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read terms of booking %d: %w", b.ID, err)
	}
	return t, nil
}

// ClaimDeposit takes amount of a booking's held security deposit for the
// host (damage); the rest is released (booking.Service.ClaimDeposit), as
// the deposit claim command does. Errors: CodeNotFound, CodeInvalid,
// CodeBookingClosed (no deposit held), CodePaymentUnavailable.
func (s *Service) ClaimDeposit(ctx context.Context, org *booking.Organization, id int64, amount decimal.Decimal, by Actor) (*booking.Terms, error) {
	b, err := s.booking(ctx, org, id)
	if err != nil {
		return nil, err
	}
	t, err := s.bookings.ClaimDeposit(ctx, org.Slug, b.Token, amount)
	if err != nil {
		return nil, err
	}
	type deposit struct {
		Status  booking.DepositStatus `json:"deposit_status"`
		Claimed *booking.Money        `json:"deposit_claimed,omitempty"`
	}
	if err := s.audit(ctx, org, by, "deposit.claim", target("booking", id), deposit{Status: booking.DepositHeld},
		deposit{Status: t.DepositStatus, Claimed: &t.DepositClaimed}); err != nil {
		return nil, err
	}
	return t, nil
}
