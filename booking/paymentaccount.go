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

// AccountReader is what Accounts reads of PaymentAccountStore.
type AccountReader interface {
	PaymentAccount(ctx context.Context, orgID int64) (*PaymentAccount, error)
	BookingPaymentAccount(ctx context.Context, bookingID int64) (string, error)
}

// Accounts routes a booking's payment calls to the provider account they
// belong to: the platform's own (or the single account), or, on a Connect
// platform, the organisation's connected account recorded for the
// booking at checkout. The booking lifecycle and package money route
// through it.
type Accounts struct {
	// Payments is the platform's own account (the only one without
	// Connect).
	Payments payment.Provider
	// Connect, when set, makes the engine a platform.
	Connect payment.Connect
	Store   AccountReader
}

// Connected reports whether the engine runs as a Connect platform.
func (a Accounts) Connected() bool { return a.Connect != nil }

// OrgAccount returns an organisation's account, nil when it has none.
func (a Accounts) OrgAccount(ctx context.Context, orgID int64) (*PaymentAccount, error) {
	acct, err := a.Store.PaymentAccount(ctx, orgID)
	switch {
	case err == nil:
		return acct, nil
	case ErrorCode(err) == CodeNotFound:
		return nil, nil
	}
	return nil, fmt.Errorf("read payment account of organisation %d: %w", orgID, err)
}

// For returns the payments of a provider account ("" the platform's own).
func (a Accounts) For(account string) payment.Provider {
	if account == "" || a.Connect == nil {
		return a.Payments
	}
	return a.Connect.ForAccount(account)
}

// ForBooking returns the payments of the account a booking's intents
// were created on, recorded at checkout: an organisation that changes
// account later does not move its past bookings.
func (a Accounts) ForBooking(ctx context.Context, bookingID int64) (payment.Provider, error) {
	if !a.Connected() {
		return a.Payments, nil
	}
	acct, err := a.Store.BookingPaymentAccount(ctx, bookingID)
	if err != nil {
		return nil, fmt.Errorf("read payment account of booking %d: %w", bookingID, err)
	}
	return a.For(acct), nil
}

// ApplicationFee is the platform's fee on a charge of amount minor units
// of an organisation; 0 in single-account mode.
func (a Accounts) ApplicationFee(ctx context.Context, orgID int64, amount int64) (int64, error) {
	if !a.Connected() {
		return 0, nil
	}
	acct, err := a.OrgAccount(ctx, orgID)
	if err != nil || acct == nil {
		return 0, err
	}
	return acct.Fee(amount), nil
}

// EventHome is the account whose events may concern a booking's intents:
// a direct charge's connected account, else the platform ("").
func (a Accounts) EventHome(bookingAccount string) string {
	if a.Connect != nil && a.Connect.ChargeType() == payment.ChargeDirect {
		return bookingAccount
	}
	return ""
}

// checkoutAccount returns the account a new checkout of org charges into:
// nil in single-account mode. Errors: CodePaymentsNotReady.
func (s *Service) checkoutAccount(ctx context.Context, org *Organization) (*PaymentAccount, error) {
	if !s.accounts.Connected() {
		return nil, nil
	}
	a, err := s.accounts.OrgAccount(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	if !a.Ready() {
		return nil, &Error{Code: CodePaymentsNotReady, Message: "This host cannot take online payments yet. Please try again later or contact the host."}
	}
	return a, nil
}
