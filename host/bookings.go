package host

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
)

// BookingFilter selects bookings; zero fields select all.
type BookingFilter struct {
	Statuses []booking.Status
	// From and To keep stays overlapping [From, To) (either may be zero).
	From, To   civil.Date
	PropertyID int64
	// Before is the cursor: only bookings with a lower ID.
	Before int64
	// Limit is the page size.
	Limit int
}

// Bookings lists an organisation's bookings newest first (by ID), a page
// at a time; next is the cursor of the next page, 0 on the last.
func (s *Service) Bookings(ctx context.Context, org *booking.Organization, f BookingFilter) (page []booking.Booking, next int64, err error) {
	all, err := s.store.Bookings(ctx, org.ID, f.Statuses...)
	if err != nil {
		return nil, 0, fmt.Errorf("list bookings: %w", err)
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	slices.SortFunc(all, func(a, b booking.Booking) int { return cmp.Compare(b.ID, a.ID) })
	for _, b := range all {
		switch {
		case f.Before > 0 && b.ID >= f.Before,
			f.PropertyID != 0 && b.PropertyID != f.PropertyID,
			!f.From.IsZero() && !f.From.Before(b.CheckOut),
			!f.To.IsZero() && !b.CheckIn.Before(f.To):
			continue
		}
		if len(page) == f.Limit {
			return page, page[len(page)-1].ID, nil
		}
		page = append(page, b)
	}
	return page, 0, nil
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
