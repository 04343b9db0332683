// Package connect runs staykit as a Stripe Connect platform: each
// organisation is paid into its own connected account, and the platform
// takes a fee on its charges. It holds the Connect use cases a host or an
// embedder calls:
//
//   - Status: where an organisation's onboarding stands (its account, its
//     state, whether it takes charges, the platform's fee);
//   - StartOnboarding: the provider's onboarding link, creating the
//     connected account first, once;
//   - SetPlatformFee: the platform's fee on an organisation's charges;
//   - HandleWebhook: the Connect endpoint's events, account.updated kept
//     here and the payments of connected accounts handed to the money
//     service (money.Service.HandlePaymentEvent), scoped to their account.
//
// The booking engine and the money service route each booking's payments
// to its organisation's account themselves (booking.Options.Connect,
// money.Options.Connect, booking.PaymentAccountStore); this package keeps
// the accounts current. An embedder wires them on one platform and one
// database:
//
//	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: platform, Connect: platform})
//	pay := money.New(svc, money.Options{Store: db.Stores(), Payments: platform, Connect: platform})
//	cs := connect.New(connect.Options{Store: db, Platform: platform, Events: pay})
//	link, err := cs.StartOnboarding(ctx, org, returnURL, refreshURL)
//
// The zero Service is an engine that is no Connect platform: Status
// reports it not enabled, and the other use cases refuse (CodeInvalid).
package connect

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/payment"
)

// Store keeps each organisation's connected account and the provider
// events already applied. store/sqlite's and store/postgres's DB implement
// it; store/storetest checks the contract. Methods that find one thing
// return a booking.CodeNotFound *booking.Error when there is none.
type Store interface {
	// PaymentAccount returns an organisation's account. Errors:
	// booking.CodeNotFound when none was saved.
	PaymentAccount(ctx context.Context, orgID int64) (*booking.PaymentAccount, error)
	// PaymentAccountByAccountID finds the organisation's account with a
	// provider account id. Errors: booking.CodeNotFound.
	PaymentAccountByAccountID(ctx context.Context, accountID string) (*booking.PaymentAccount, error)
	// SavePaymentAccount creates or replaces the account of a.OrgID.
	// Errors: booking.CodeInvalid, booking.CodeNotFound (organisation),
	// booking.CodeConflict (the provider account belongs to another
	// organisation).
	SavePaymentAccount(ctx context.Context, a *booking.PaymentAccount) error
	// EventProcessed reports whether a provider event id is recorded
	// (booking.BookingStore's, shared with the booking engine's events).
	EventProcessed(ctx context.Context, eventID string) (bool, error)
	// MarkEventProcessed records a provider event id. It reports false
	// when the id was recorded already.
	MarkEventProcessed(ctx context.Context, eventID string, at time.Time) (bool, error)
}

// Events applies a verified provider event to bookings:
// money.Service.HandlePaymentEvent.
type Events interface {
	// HandlePaymentEvent applies ev; an error means the provider should
	// send it again.
	HandlePaymentEvent(ctx context.Context, ev payment.Event) error
}

// Options configure a Service.
type Options struct {
	// Store keeps the accounts; required.
	Store Store
	// Platform is the Connect platform (the one booking.Options.Connect
	// names); nil means the engine is no platform: Status reports it not
	// enabled, StartOnboarding and HandleWebhook refuse, and
	// SetPlatformFee still records the fee.
	Platform payment.Connect
	// Events applies the payment events of connected accounts (their
	// intents, refunds and disputes): the money.Service charging on
	// Platform. Required with Platform.
	Events Events
	// Clock defaults to the wall clock.
	Clock booking.Clock
}

// Service runs the Connect use cases. It is safe for concurrent use. The
// zero Service is no platform and has no store: Status reports Connect
// not enabled, and the other methods refuse with CodeInvalid.
type Service struct {
	store    Store
	platform payment.Connect
	events   Events
	clock    booking.Clock
}

// New returns a Service. It panics without Store, or with Platform but
// without Events, a programming error.
func New(o Options) *Service {
	if o.Store == nil || (o.Platform != nil && o.Events == nil) {
		panic("connect: New needs a Store, and Events with a Platform")
	}
	s := &Service{store: o.Store, platform: o.Platform, events: o.Events, clock: o.Clock}
	if s.clock == nil {
		s.clock = booking.SystemClock{}
	}
	return s
}

// Status is an organisation's Connect onboarding as the host sees it.
type Status struct {
	// Enabled: the engine runs as a Connect platform; when false the
	// other fields are empty and checkouts need no onboarding.
	Enabled    bool
	ChargeType payment.ChargeType
	Account    booking.PaymentAccount
}

// Status returns org's onboarding state, as stored (kept current by
// account.updated).
func (s *Service) Status(ctx context.Context, org *booking.Organization) (*Status, error) {
	st := &Status{Account: booking.PaymentAccount{OrgID: org.ID, State: booking.OnboardingNone}}
	if s.platform == nil {
		return st, nil
	}
	st.Enabled, st.ChargeType = true, s.platform.ChargeType()
	a, err := s.account(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	if a != nil {
		st.Account = *a
	}
	return st, nil
}

// StartOnboarding returns a provider onboarding link for org's connected
// account, creating the account first when it has none. Creating is
// idempotent: the provider call's key is derived from the organisation,
// and the account is stored before the link is made, so a retried or
// concurrent call reuses it. Errors: booking.CodeInvalid (not a Connect
// platform, or URLs refused), booking.CodePaymentUnavailable.
func (s *Service) StartOnboarding(ctx context.Context, org *booking.Organization, returnURL, refreshURL string) (string, error) {
	if s.platform == nil {
		return "", &booking.Error{Code: booking.CodeInvalid, Message: "This server does not run as a payment platform: there is no account to connect."}
	}
	a, err := s.account(ctx, org.ID)
	if err != nil {
		return "", err
	}
	if a == nil {
		a = &booking.PaymentAccount{OrgID: org.ID, State: booking.OnboardingNone, FeePercent: decimal.Zero}
	}
	if a.AccountID == "" {
		created, err := s.platform.CreateAccount(ctx, payment.AccountParams{Country: country(org),
			IdempotencyKey: "connect-account-org-" + strconv.FormatInt(org.ID, 10),
			Metadata:       map[string]string{"org": org.Slug}})
		if err != nil {
			return "", providerError("create", err)
		}
		a.AccountID, a.State, a.ChargesEnabled, a.UpdatedAt = created.ID, onboardingState(created), created.ChargesEnabled, s.clock.Now()
		if err := s.store.SavePaymentAccount(ctx, a); err != nil {
			return "", fmt.Errorf("save payment account of organisation %d: %w", org.ID, err)
		}
	}
	url, err := s.platform.AccountLink(ctx, payment.AccountLinkParams{Account: a.AccountID, ReturnURL: returnURL, RefreshURL: refreshURL})
	if err != nil {
		return "", providerError("link", err)
	}
	return url, nil
}

// SetPlatformFee sets the platform's fee on org's charges: percent (0–100)
// of each charge plus fixed minor units of its currency. Errors:
// booking.CodeInvalid.
func (s *Service) SetPlatformFee(ctx context.Context, org *booking.Organization, percent decimal.Decimal, fixed int64) error {
	if s.store == nil {
		return &booking.Error{Code: booking.CodeInvalid, Message: "This server does not run as a payment platform: there is no fee to set."}
	}
	a, err := s.account(ctx, org.ID)
	if err != nil {
		return err
	}
	if a == nil {
		a = &booking.PaymentAccount{OrgID: org.ID, State: booking.OnboardingNone}
	}
	a.FeePercent, a.FeeFixed, a.UpdatedAt = percent, fixed, s.clock.Now()
	return s.store.SavePaymentAccount(ctx, a)
}

// account returns an organisation's account, nil when it has none.
func (s *Service) account(ctx context.Context, orgID int64) (*booking.PaymentAccount, error) {
	a, err := s.store.PaymentAccount(ctx, orgID)
	switch {
	case err == nil:
		return a, nil
	case booking.ErrorCode(err) == booking.CodeNotFound:
		return nil, nil
	}
	return nil, fmt.Errorf("read payment account of organisation %d: %w", orgID, err)
}

// country is the organisation's country, booking.DefaultCountry when
// unset: where its connected account is opened.
func country(org *booking.Organization) string {
	if org.Country == "" {
		return booking.DefaultCountry
	}
	return org.Country
}

// onboardingState is where a provider account stands.
func onboardingState(c *payment.Account) booking.OnboardingState {
	switch {
	case c.ChargesEnabled:
		return booking.OnboardingComplete
	case c.DetailsSubmitted:
		return booking.OnboardingRestricted
	}
	return booking.OnboardingPending
}

// providerError is a failed onboarding call at step: CodeInvalid when the
// provider refused the request, else CodePaymentUnavailable.
func providerError(step string, err error) error {
	if errors.Is(err, payment.ErrInvalid) {
		return &booking.Error{Code: booking.CodeInvalid, Message: "The payment provider refused the onboarding request.", Err: err}
	}
	return &booking.Error{Code: booking.CodePaymentUnavailable, Message: "The payment provider could not be reached. Please try again in a moment.",
		Params: map[string]string{booking.ParamStep: step}, Err: err}
}
