package datechange

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
)

// Changes lists the changes of a booking of org, newest first, for the
// host. Errors: booking.CodeNotFound.
func (s *Service) Changes(ctx context.Context, org *booking.Organization, token string) ([]Change, error) {
	b, err := s.store.BookingByToken(ctx, org.ID, token)
	if err != nil {
		return nil, err
	}
	changes, err := s.store.DateChanges(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("read changes of booking %d: %w", b.ID, err)
	}
	return changes, nil
}

// Approve carries out a requested change of org, priced again now (the
// policy and the new stay's price as they are at this moment, which the
// guest agreed to be asked again for only if it differs: see the README),
// as Accept would without approval. Errors: booking.CodeNotFound,
// booking.CodeConflict (reason ReasonChangeClosed: not requested any
// more, or lapsed), those of Quote (the new stay refused now: the change
// is declined with that reason).
func (s *Service) Approve(ctx context.Context, org *booking.Organization, id int64) (*View, error) {
	c, err := s.store.DateChange(ctx, org.ID, id)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	if c.Status != StatusRequested || !now.Before(c.ExpiresAt) {
		return nil, ErrChangeClosed()
	}
	b, err := s.store.BookingByID(ctx, c.BookingID)
	if err != nil {
		return nil, fmt.Errorf("find booking of change %d: %w", c.ID, err)
	}
	sub, err := s.read(ctx, org, b)
	if err != nil {
		return nil, err
	}
	o, rs, err := s.offer(ctx, sub, Request{CheckIn: c.Offer.CheckIn, CheckOut: c.Offer.CheckOut, Guests: c.Offer.Guests, Locale: b.Locale}, now)
	if err != nil {
		switch booking.ErrorCode(err) {
		case booking.CodeInternal, booking.CodeServiceUnavailable, booking.CodePaymentUnavailable:
			return nil, err
		}
		if _, cerr := s.store.CloseDateChange(ctx, Close{ID: c.ID, From: []Status{StatusRequested}, To: StatusDeclined,
			Reason: "refused when approved: " + err.Error(), At: now}); cerr != nil && booking.ErrorCode(cerr) != booking.CodeConflict {
			return nil, cerr
		}
		return nil, err
	}
	o.ApprovalRequired = true
	c.Offer = *o
	return s.execute(ctx, sub, c, rs.Guard, now)
}

// Decline ends a requested change of org; the booking keeps its stay.
// Errors: booking.CodeNotFound, booking.CodeConflict (reason
// ReasonChangeClosed).
func (s *Service) Decline(ctx context.Context, org *booking.Organization, id int64, reason string) (*Change, error) {
	if _, err := s.store.DateChange(ctx, org.ID, id); err != nil {
		return nil, err
	}
	if reason == "" {
		reason = "declined by the host"
	}
	return s.store.CloseDateChange(ctx, Close{ID: id, From: []Status{StatusRequested}, To: StatusDeclined, Reason: reason, At: s.clock.Now()})
}

// Approval reports whether org's host approves changes before they apply.
func (s *Service) Approval(ctx context.Context, org *booking.Organization) (bool, error) {
	return s.store.DateChangeApproval(ctx, org.ID)
}

// SetApproval sets whether org's host approves changes before they apply;
// changes already requested stay requested.
func (s *Service) SetApproval(ctx context.Context, org *booking.Organization, required bool) error {
	return s.store.SetDateChangeApproval(ctx, org.ID, required)
}
