package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/payment"
)

// CodePaymentsNotReady: the organisation's payment account cannot take
// charges yet (Connect onboarding not finished, or suspended), so it takes
// no checkouts.
const CodePaymentsNotReady = "payments_not_ready"

// OnboardingState is where an organisation's connected account stands.
type OnboardingState string

// Onboarding states.
const (
	// OnboardingNone: no connected account yet.
	OnboardingNone OnboardingState = "none"
	// OnboardingPending: the account exists; its owner has not finished
	// the provider's onboarding.
	OnboardingPending OnboardingState = "pending"
	// OnboardingRestricted: onboarding was submitted but the provider does
	// not let the account take charges (documents missing, suspended).
	OnboardingRestricted OnboardingState = "restricted"
	// OnboardingComplete: the account takes charges.
	OnboardingComplete OnboardingState = "complete"
)

// PaymentAccount is an organisation's connected account on a Connect
// platform and the platform's fee on its charges. Package connect keeps
// it (onboarding, account.updated, the fee); the booking lifecycle reads
// it to charge a checkout into the organisation's account. It stays in
// this package because the lifecycle's store seam returns it and package
// connect imports booking.
type PaymentAccount struct {
	OrgID int64
	// AccountID is the provider's id (acct_...); empty before onboarding
	// starts.
	AccountID string
	State     OnboardingState
	// ChargesEnabled is kept current from the provider's account.updated
	// events; only then does the organisation take checkouts.
	ChargesEnabled bool
	// FeePercent (0–100) of each charge, plus FeeFixed minor units of the
	// charge's currency, go to the platform (capped at the charge).
	FeePercent decimal.Decimal
	FeeFixed   int64
	UpdatedAt  time.Time
}

// Validate checks a payment account before it is stored.
func (a PaymentAccount) Validate() error {
	f := FieldErrors{}
	if a.FeePercent.IsNegative() || a.FeePercent.GreaterThan(decimal.NewFromInt(100)) {
		f.Add("fee_percent", "out_of_range")
	}
	if a.FeeFixed < 0 {
		f.Add("fee_fixed", "out_of_range")
	}
	switch a.State {
	case OnboardingNone, OnboardingPending, OnboardingRestricted, OnboardingComplete:
	default:
		f.Add("state", "invalid_choice")
	}
	return f.Err()
}

// Fee is the platform's application fee on a charge of amount minor units:
// FeePercent of it rounded half up, plus FeeFixed, at most the amount.
func (a PaymentAccount) Fee(amount int64) int64 {
	fee := decimal.NewFromInt(amount).Mul(a.FeePercent).Div(decimal.NewFromInt(100)).Round(0).IntPart() + a.FeeFixed
	return min(max(fee, 0), amount)
}

// Ready reports whether the account takes charges.
func (a *PaymentAccount) Ready() bool { return a != nil && a.AccountID != "" && a.ChargesEnabled }

// PaymentAccountStore is what the booking lifecycle reads to route a
// booking's payments on a Connect platform: its organisation's connected
// account at checkout, and the account each booking's payments were
// recorded on. Package connect keeps the accounts themselves
// (connect.Store).
type PaymentAccountStore interface {
	// PaymentAccount returns an organisation's account. Errors:
	// CodeNotFound when none was saved.
	PaymentAccount(ctx context.Context, orgID int64) (*PaymentAccount, error)
	// SetBookingPaymentAccount records, once, the provider account a
	// booking's intents are created on; a second call with another
	// account is CodeConflict, with the same one a no-op. Errors:
	// CodeNotFound (booking).
	SetBookingPaymentAccount(ctx context.Context, bookingID int64, accountID string) error
	// BookingPaymentAccount returns the account recorded for a booking,
	// "" when none (the platform's, or a single account's, own).
	BookingPaymentAccount(ctx context.Context, bookingID int64) (string, error)
}

// connected reports whether the engine runs as a Connect platform.
func (s *Service) connected() bool { return s.connect != nil }

// orgPaymentAccount returns an organisation's account, nil when it has
// none.
func (s *Service) orgPaymentAccount(ctx context.Context, orgID int64) (*PaymentAccount, error) {
	a, err := s.store.PaymentAccount(ctx, orgID)
	switch {
	case err == nil:
		return a, nil
	case ErrorCode(err) == CodeNotFound:
		return nil, nil
	}
	return nil, fmt.Errorf("read payment account of organisation %d: %w", orgID, err)
}

// checkoutAccount returns the account a new checkout of org charges into:
// nil in single-account mode. Errors: CodePaymentsNotReady.
func (s *Service) checkoutAccount(ctx context.Context, org *Organization) (*PaymentAccount, error) {
	if !s.connected() {
		return nil, nil
	}
	a, err := s.orgPaymentAccount(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	if !a.Ready() {
		return nil, &Error{Code: CodePaymentsNotReady, Message: "This host cannot take online payments yet. Please try again later or contact the host."}
	}
	return a, nil
}

// paymentsFor returns the payments of a provider account ("" the
// platform's own).
func (s *Service) paymentsFor(account string) payment.Provider {
	if account == "" || s.connect == nil {
		return s.payments
	}
	return s.connect.ForAccount(account)
}

// bookingPayments returns the payments of the account a booking's intents
// were created on, recorded at checkout: an organisation that changes
// account later does not move its past bookings.
func (s *Service) bookingPayments(ctx context.Context, bookingID int64) (payment.Provider, error) {
	if !s.connected() {
		return s.payments, nil
	}
	acct, err := s.store.BookingPaymentAccount(ctx, bookingID)
	if err != nil {
		return nil, fmt.Errorf("read payment account of booking %d: %w", bookingID, err)
	}
	return s.paymentsFor(acct), nil
}

// applicationFee is the platform's fee on a charge of a booking's
// organisation; 0 in single-account mode.
func (s *Service) applicationFee(ctx context.Context, orgID int64, amount int64) (int64, error) {
	if !s.connected() {
		return 0, nil
	}
	a, err := s.orgPaymentAccount(ctx, orgID)
	if err != nil || a == nil {
		return 0, err
	}
	return a.Fee(amount), nil
}
