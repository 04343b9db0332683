package booking

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/pricing"
)

// orgFunc resolves the organisation of a use case. The slug-based Service
// methods look it up (after the checks that need no organisation); an
// OrgService has it already.
type orgFunc func(ctx context.Context) (*Organization, error)

// bySlug resolves a public organisation by its slug.
func (s *Service) bySlug(slug string) orgFunc {
	return func(ctx context.Context) (*Organization, error) { return s.Organization(ctx, slug) }
}

// OrgService is the public use cases of one organisation, resolved once:
// the HTTP handler resolves the organisation of a request once and calls
// these, and embedders that hold organisation ids rather than slugs get
// one from Service.OrgByID. Its methods behave as the Service methods of
// the same name, without the lookup. It is safe for concurrent use; it
// keeps the organisation it was made with, so make a new one per request
// (it is cheap) to see changes.
type OrgService struct {
	s   *Service
	org *Organization
}

// Org returns the handle of an organisation already resolved (by
// Organization, OrganizationByID or the embedder's own store). It does not
// check that the public engine is enabled: Organization and
// OrganizationByID do. org must not be modified afterwards.
func (s *Service) Org(org *Organization) *OrgService {
	return &OrgService{s: s, org: org}
}

// OrgByID returns the handle of the organisation with an id. Errors:
// CodeNotFound when it is unknown or its public engine is disabled.
func (s *Service) OrgByID(ctx context.Context, id int64) (*OrgService, error) {
	org, err := s.OrganizationByID(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.Org(org), nil
}

// OrganizationByID returns an organisation taking bookings online by its
// id. Errors: CodeNotFound when it is unknown or its public engine is
// disabled.
func (s *Service) OrganizationByID(ctx context.Context, id int64) (*Organization, error) {
	org, err := s.store.OrganizationByID(ctx, id)
	if err != nil {
		if ErrorCode(err) == CodeNotFound {
			return nil, errOrgNotFound()
		}
		return nil, fmt.Errorf("find organisation %d: %w", id, err)
	}
	if !org.PublicEngineEnabled {
		return nil, errOrgNotFound()
	}
	return org, nil
}

// Organization returns the handle's organisation; it must not be modified.
func (o *OrgService) Organization() *Organization { return o.org }

func (o *OrgService) resolved(context.Context) (*Organization, error) { return o.org, nil }

// Config returns the organisation's booking configuration.
func (o *OrgService) Config(ctx context.Context) (*Config, error) {
	return o.s.config(ctx, o.resolved)
}

// Properties lists the organisation's active properties.
func (o *OrgService) Properties(ctx context.Context) ([]Listing, error) {
	return o.s.properties(ctx, o.resolved)
}

// Availability returns a property's calendar; see Service.Availability.
func (o *OrgService) Availability(ctx context.Context, propertyID int64, r CalendarRequest) (*Calendar, error) {
	return o.s.availability(ctx, o.resolved, propertyID, r)
}

// Quote prices a stay; see Service.Quote.
func (o *OrgService) Quote(ctx context.Context, propertyID int64, r QuoteRequest) (*pricing.Quote, error) {
	return o.s.quote(ctx, o.resolved, propertyID, r)
}

// ValidateCoupon checks a coupon code; see Service.ValidateCoupon.
func (o *OrgService) ValidateCoupon(ctx context.Context, r CouponCheck) (*CouponResult, error) {
	return o.s.validateCoupon(ctx, o.resolved, r)
}

// Checkout starts a booking; see Service.Checkout.
func (o *OrgService) Checkout(ctx context.Context, r CheckoutRequest) (*CheckoutResult, error) {
	return o.s.checkout(ctx, o.resolved, r)
}

// Booking returns a booking by its token; see Service.Booking.
func (o *OrgService) Booking(ctx context.Context, token string) (*Details, error) {
	return o.s.booking(ctx, o.resolved, token)
}

// Confirm checks a booking's payment; see Service.Confirm.
func (o *OrgService) Confirm(ctx context.Context, token string, r ConfirmRequest) (*Details, error) {
	return o.s.confirm(ctx, o.resolved, token, r)
}

// The slug-based use cases: each looks the organisation up by its public
// slug, then does what the OrgService method of the same name does.

// Config returns the booking configuration of an organisation. Errors:
// CodeNotFound.
func (s *Service) Config(ctx context.Context, slug string) (*Config, error) {
	return s.config(ctx, s.bySlug(slug))
}

// Properties lists an organisation's active properties. Errors: CodeNotFound.
func (s *Service) Properties(ctx context.Context, slug string) ([]Listing, error) {
	return s.properties(ctx, s.bySlug(slug))
}

// Availability returns a property's calendar. Days from the booking horizon
// on (Organization.BookingHorizonDays after today) are not available: no
// night starting then can be booked. Errors: CodeNotFound, CodeInvalid
// (months out of range, or a calendar that would end after year 9999).
func (s *Service) Availability(ctx context.Context, slug string, propertyID int64, r CalendarRequest) (*Calendar, error) {
	return s.availability(ctx, s.bySlug(slug), propertyID, r)
}

// Quote prices a stay, enforcing the stay rules and availability. Errors:
// CodeNotFound, CodeInvalid, the stay rule codes, CodeUnavailable,
// CodeCouponNotFound and the coupon codes of package coupon.
func (s *Service) Quote(ctx context.Context, slug string, propertyID int64, r QuoteRequest) (*pricing.Quote, error) {
	return s.quote(ctx, s.bySlug(slug), propertyID, r)
}

// ValidateCoupon checks a coupon code before checkout. Errors: CodeInvalid,
// CodeNotFound (organisation or property), the stay rule codes (when a stay
// is given), CodeCouponNotFound and the codes of package coupon.
func (s *Service) ValidateCoupon(ctx context.Context, slug string, r CouponCheck) (*CouponResult, error) {
	return s.validateCoupon(ctx, s.bySlug(slug), r)
}

// Checkout starts a booking: it prices the stay on the server, holds the
// dates and the coupon, and creates the payment intent. A provider failure
// releases everything. Errors: CodeNotFound, CodeInvalid, the stay rule
// codes, CodeUnavailable, the coupon codes, CodeConflict (idempotency key
// reused with another request, or still in progress),
// CodePaymentUnavailable.
func (s *Service) Checkout(ctx context.Context, slug string, r CheckoutRequest) (*CheckoutResult, error) {
	return s.checkout(ctx, s.bySlug(slug), r)
}

// Booking returns a booking by its token. Errors: CodeNotFound.
func (s *Service) Booking(ctx context.Context, slug, token string) (*Details, error) {
	return s.booking(ctx, s.bySlug(slug), token)
}

// Confirm checks with the payment provider that a booking is paid (or, in
// request mode, authorised) and moves it to confirmed (or requested).
// Confirming again returns the booking unchanged. Errors: CodeNotFound,
// CodeInvalid, CodeConflict (idempotency key reused with another body),
// CodePaymentNotConfirmed, CodePaymentLate, CodeBookingClosed,
// CodePaymentUnavailable.
func (s *Service) Confirm(ctx context.Context, slug, token string, r ConfirmRequest) (*Details, error) {
	return s.confirm(ctx, s.bySlug(slug), token, r)
}
