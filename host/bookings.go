package host

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
)

// BookingFilter selects bookings; zero fields select all.
type BookingFilter = booking.BookingQuery

// Bookings lists an organisation's bookings newest first (by ID), a page
// at a time, filtered and paged by the store; next is the cursor of the
// next page, 0 on the last.
func (s *Service) Bookings(ctx context.Context, org *booking.Organization, f BookingFilter) (page []booking.Booking, next int64, err error) {
	size := f.PageSize()
	f.Limit = size + 1
	page, err = s.store.BookingsPage(ctx, org.ID, f)
	if err != nil {
		return nil, 0, fmt.Errorf("list bookings: %w", err)
	}
	if len(page) > size {
		page = page[:size]
		next = page[size-1].ID
	}
	return page, next, nil
}

// Booking finds a booking of org with its payments ledger. Errors:
// CodeNotFound.
func (s *Service) Booking(ctx context.Context, org *booking.Organization, id int64) (*booking.Booking, []ledger.Entry, error) {
	b, err := s.booking(ctx, org, id)
	if err != nil {
		return nil, nil, err
	}
	entries, err := s.bookings.Payments(ctx, b)
	if err != nil {
		return nil, nil, err
	}
	return b, entries, nil
}

func (s *Service) booking(ctx context.Context, org *booking.Organization, id int64) (*booking.Booking, error) {
	b, err := s.store.BookingByID(ctx, id)
	if err != nil {
		return nil, notFoundAs(err, "booking", "find booking")
	}
	if b.OrgID != org.ID {
		return nil, errNotFound("booking")
	}
	return b, nil
}

// Approve accepts a requested booking (booking.Service.Approve). Errors:
// CodeNotFound, CodeBookingClosed, CodePaymentUnavailable.
func (s *Service) Approve(ctx context.Context, org *booking.Organization, id int64, by Actor) (*booking.Booking, error) {
	return s.answer(ctx, org, id, by, "booking.approve", func(token string) (*booking.Booking, error) {
		return s.bookings.Approve(ctx, org.Slug, token)
	})
}

// Decline refuses a requested booking (booking.Service.Decline).
func (s *Service) Decline(ctx context.Context, org *booking.Organization, id int64, by Actor) (*booking.Booking, error) {
	return s.answer(ctx, org, id, by, "booking.decline", func(token string) (*booking.Booking, error) {
		return s.bookings.Decline(ctx, org.Slug, token)
	})
}

// Cancel cancels a booking, refunding what was paid when refund is set
// (booking.Service.Cancel).
func (s *Service) Cancel(ctx context.Context, org *booking.Organization, id int64, refund bool, by Actor) (*booking.Booking, error) {
	action := "booking.cancel"
	if refund {
		action = "booking.cancel_refund"
	}
	return s.answer(ctx, org, id, by, action, func(token string) (*booking.Booking, error) {
		return s.bookings.Cancel(ctx, org.Slug, token, refund)
	})
}

func (s *Service) answer(ctx context.Context, org *booking.Organization, id int64, by Actor, action string, do func(token string) (*booking.Booking, error)) (*booking.Booking, error) {
	b, err := s.booking(ctx, org, id)
	if err != nil {
		return nil, err
	}
	updated, err := do(b.Token)
	if err != nil {
		return nil, err
	}
	type status struct {
		Status booking.Status `json:"status"`
	}
	if err := s.audit(ctx, org, by, action, target("booking", id), status{b.Status}, status{updated.Status}); err != nil {
		return nil, err
	}
	return updated, nil
}
