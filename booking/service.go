package booking

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/payment"
)

// Service is the booking engine's use cases: what the public API calls
// (Config, Properties, Availability, Quote, ValidateCoupon, Checkout, Booking,
// Confirm) and what the host and its jobs call (Approve, Decline, Cancel,
// ExpireHolds). The money I/O (sending the ledger's entries, the
// provider's events) is package money's, which the lifecycle calls
// through its MoneyMover. It is safe for concurrent use.
type Service struct {
	store    Stores
	payments payment.Provider
	connect  payment.Connect
	accounts Accounts
	clock    Clock
	notifier Notifier
	logger   *slog.Logger
	sameDay  SameDayGuard
	// mover is the money I/O (SetMoneyMover); nil until set.
	mover atomic.Pointer[moneyMover]

	zones sync.Map // time zone name → *time.Location
	// lowest holds each property's PriceFrom of a day (priceFromMemo).
	lowest sync.Map
}

// Options configure a Service. Stores and Payments are required.
type Options struct {
	// Stores are the store seams the use cases consume: db.Stores() of a
	// store/sqlite or store/postgres DB. A use case needs the seams it
	// reaches; a test's fake may leave the others nil.
	Stores   Stores
	Payments payment.Provider
	// Clock defaults to the wall clock.
	Clock Clock
	// Notifier is told about confirmed, requested, expired, declined and
	// cancelled bookings; nil means nobody is told.
	Notifier Notifier
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Connect, when set, makes the engine a payment platform: each
	// organisation is paid into its own connected account, and Payments
	// is the platform's own account. Nil is the single-account mode.
	// Package connect onboards the accounts and keeps them current.
	Connect payment.Connect
	// SameDay, when set, may refuse stays arriving today (package
	// closeout); nil allows them as every other stay.
	SameDay SameDayGuard
}

// NewService returns a Service. It panics when Stores has no seam at all or
// Payments is nil, a programming error.
func NewService(o Options) *Service {
	if o.Stores.empty() || o.Payments == nil {
		panic("booking: NewService needs Stores and a payment Provider")
	}
	s := &Service{store: o.Stores, payments: o.Payments, clock: o.Clock, notifier: o.Notifier, logger: o.Logger, connect: o.Connect, sameDay: o.SameDay,
		accounts: Accounts{Payments: o.Payments, Connect: o.Connect, Store: o.Stores.PaymentAccountStore}}
	if s.clock == nil {
		s.clock = SystemClock{}
	}
	if s.notifier == nil {
		s.notifier = nopNotifier{}
	}
	if s.logger == nil {
		s.logger = slog.Default()
	}
	return s
}

// Organization returns the organisation behind a public slug. Errors:
// CodeNotFound when the slug is unknown or its public engine is disabled.
func (s *Service) Organization(ctx context.Context, slug string) (*Organization, error) {
	if !ValidSlug(slug) {
		return nil, errOrgNotFound()
	}
	org, err := s.store.OrganizationBySlug(ctx, slug)
	if err != nil {
		if ErrorCode(err) == CodeNotFound {
			return nil, errOrgNotFound()
		}
		return nil, fmt.Errorf("find organisation %q: %w", slug, err)
	}
	if !org.PublicEngineEnabled {
		return nil, errOrgNotFound()
	}
	return org, nil
}

func errOrgNotFound() error {
	return withParam(CodeNotFound, "This organisation does not exist or does not take bookings online.", ParamSubject, "organization")
}

// hostOrganization returns an organisation whether or not its public engine
// is enabled: the host manages bookings either way.
func (s *Service) hostOrganization(ctx context.Context, slug string) (*Organization, error) {
	org, err := s.store.OrganizationBySlug(ctx, slug)
	if err != nil {
		return nil, fmt.Errorf("find organisation %q: %w", slug, err)
	}
	return org, nil
}

// organizationByID finds the organisation of a booking reached without a
// slug (payment events, the periodic jobs).
func (s *Service) organizationByID(ctx context.Context, id int64) (*Organization, error) {
	org, err := s.store.OrganizationByID(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("find organisation %d: %w", id, err)
	}
	return org, nil
}

// bookableProperty returns an active property of org. Errors: CodeNotFound.
func (s *Service) bookableProperty(ctx context.Context, org *Organization, id int64) (*Property, error) {
	p, err := s.store.Property(ctx, org.ID, id)
	if err != nil {
		if ErrorCode(err) == CodeNotFound {
			return nil, errPropertyNotFound()
		}
		return nil, fmt.Errorf("find property %d: %w", id, err)
	}
	if !p.Active {
		return nil, errPropertyNotFound()
	}
	return p, nil
}

func errPropertyNotFound() error {
	return withParam(CodeNotFound, "This property does not exist.", ParamSubject, "property")
}

// location returns the organisation's time zone, loading each zone once.
func (s *Service) location(org *Organization) *time.Location {
	if loc, ok := s.zones.Load(org.Timezone); ok {
		return loc.(*time.Location)
	}
	loc := org.Location()
	s.zones.Store(org.Timezone, loc)
	return loc
}

// today is the organisation's current date.
func (s *Service) today(org *Organization, now time.Time) civil.Date {
	return civil.Today(now, s.location(org))
}

// notify tells the host about a change; failures are logged, not returned,
// because the change is already stored.
func (s *Service) notify(ctx context.Context, kind string, org *Organization, b *Booking) {
	n := Notification{Kind: kind, Organization: *org, Booking: *b}
	if err := s.notifier.Notify(ctx, n); err != nil {
		s.logger.ErrorContext(ctx, "notify host", "kind", kind, "booking_id", b.ID, "err", err)
	}
}
