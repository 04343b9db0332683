package booking

import (
	"context"
	"errors"
	"fmt"
	"strconv"
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
// platform and the platform's fee on its charges.
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

// ConnectStore keeps each organisation's connected account and the account
// each booking's payments belong to.
type ConnectStore interface {
	// PaymentAccount returns an organisation's account. Errors:
	// CodeNotFound when none was saved.
	PaymentAccount(ctx context.Context, orgID int64) (*PaymentAccount, error)
	// PaymentAccountByAccountID finds the organisation's account with a
	// provider account id. Errors: CodeNotFound.
	PaymentAccountByAccountID(ctx context.Context, accountID string) (*PaymentAccount, error)
	// SavePaymentAccount creates or replaces the account of a.OrgID.
	// Errors: CodeInvalid, CodeNotFound (organisation), CodeConflict (the
	// provider account belongs to another organisation).
	SavePaymentAccount(ctx context.Context, a *PaymentAccount) error
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

// eventHome is the account whose events may concern a booking's intents:
// a direct charge's connected account, else the platform ("").
func (s *Service) eventHome(bookingAccount string) string {
	if s.connect != nil && s.connect.ChargeType() == payment.ChargeDirect {
		return bookingAccount
	}
	return ""
}

// eventMatches reports whether an event of account may touch booking id:
// an event from one account never touches another account's bookings.
func (s *Service) eventMatches(ctx context.Context, bookingID int64, account string) (bool, error) {
	if !s.connected() {
		return account == "", nil
	}
	acct, err := s.store.BookingPaymentAccount(ctx, bookingID)
	if err != nil {
		return false, fmt.Errorf("read payment account of booking %d: %w", bookingID, err)
	}
	return s.eventHome(acct) == account, nil
}

// HandleConnectWebhook verifies a payload of the platform's Connect
// webhook endpoint and applies its event, scoped to the event's account.
// Errors: CodeInvalid when the signature or payload is not valid, or the
// engine is not a Connect platform; any other error means the provider
// should send it again.
func (s *Service) HandleConnectWebhook(ctx context.Context, payload []byte, signature string) error {
	if s.connect == nil {
		return &Error{Code: CodeInvalid, Message: "This server takes no Connect webhooks."}
	}
	ev, err := s.connect.ParseConnectWebhook(payload, signature)
	if err != nil {
		return &Error{Code: CodeInvalid, Message: "The webhook signature or payload is invalid.", Err: err}
	}
	if ev.Account == "" {
		return &Error{Code: CodeInvalid, Message: "The Connect event names no account."}
	}
	return s.HandlePaymentEvent(ctx, *ev)
}

// applyAccountUpdated keeps an organisation's ChargesEnabled and state
// current; an account staykit does not know is ignored.
func (s *Service) applyAccountUpdated(ctx context.Context, ev payment.Event) error {
	c := ev.Connected
	if c == nil || c.ID == "" || (ev.Account != "" && ev.Account != c.ID) {
		return nil
	}
	a, err := s.store.PaymentAccountByAccountID(ctx, c.ID)
	if err != nil {
		if ErrorCode(err) == CodeNotFound {
			return nil
		}
		return fmt.Errorf("find organisation of account %s: %w", c.ID, err)
	}
	a.ChargesEnabled, a.State, a.UpdatedAt = c.ChargesEnabled, onboardingState(c), s.clock.Now()
	if err := s.store.SavePaymentAccount(ctx, a); err != nil {
		return fmt.Errorf("save payment account of organisation %d: %w", a.OrgID, err)
	}
	return nil
}

func onboardingState(c *payment.Account) OnboardingState {
	switch {
	case c.ChargesEnabled:
		return OnboardingComplete
	case c.DetailsSubmitted:
		return OnboardingRestricted
	}
	return OnboardingPending
}

// PaymentAccountStatus is an organisation's Connect onboarding as the host
// sees it.
type PaymentAccountStatus struct {
	// Enabled: the engine runs as a Connect platform; when false the
	// other fields are empty and checkouts need no onboarding.
	Enabled    bool
	ChargeType payment.ChargeType
	Account    PaymentAccount
}

// PaymentAccountStatus returns the organisation's onboarding state, as
// stored (kept current by account.updated). Errors: CodeNotFound.
func (s *Service) PaymentAccountStatus(ctx context.Context, slug string) (*PaymentAccountStatus, error) {
	org, err := s.hostOrganization(ctx, slug)
	if err != nil {
		return nil, err
	}
	st := &PaymentAccountStatus{Account: PaymentAccount{OrgID: org.ID, State: OnboardingNone}}
	if !s.connected() {
		return st, nil
	}
	st.Enabled, st.ChargeType = true, s.connect.ChargeType()
	a, err := s.orgPaymentAccount(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	if a != nil {
		st.Account = *a
	}
	return st, nil
}

// StartOnboarding returns a provider onboarding link for the
// organisation's connected account, creating the account first when it has
// none. Creating is idempotent: the provider call's key is derived from the
// organisation, and the account is stored before the link is made, so a
// retried or concurrent call reuses it. Errors: CodeNotFound,
// CodeInvalid (not a Connect platform, or URLs refused),
// CodePaymentUnavailable.
func (s *Service) StartOnboarding(ctx context.Context, slug, returnURL, refreshURL string) (string, error) {
	if !s.connected() {
		return "", &Error{Code: CodeInvalid, Message: "This server does not run as a payment platform: there is no account to connect."}
	}
	org, err := s.hostOrganization(ctx, slug)
	if err != nil {
		return "", err
	}
	a, err := s.orgPaymentAccount(ctx, org.ID)
	if err != nil {
		return "", err
	}
	if a == nil {
		a = &PaymentAccount{OrgID: org.ID, State: OnboardingNone, FeePercent: decimal.Zero}
	}
	if a.AccountID == "" {
		created, err := s.connect.CreateAccount(ctx, payment.AccountParams{Country: org.country(),
			IdempotencyKey: "connect-account-org-" + strconv.FormatInt(org.ID, 10),
			Metadata:       map[string]string{"org": org.Slug}})
		if err != nil {
			return "", connectError("create", err)
		}
		a.AccountID, a.State, a.ChargesEnabled, a.UpdatedAt = created.ID, onboardingState(created), created.ChargesEnabled, s.clock.Now()
		if err := s.store.SavePaymentAccount(ctx, a); err != nil {
			return "", fmt.Errorf("save payment account of organisation %d: %w", org.ID, err)
		}
	}
	url, err := s.connect.AccountLink(ctx, payment.AccountLinkParams{Account: a.AccountID, ReturnURL: returnURL, RefreshURL: refreshURL})
	if err != nil {
		return "", connectError("link", err)
	}
	return url, nil
}

// SetPlatformFee sets the platform's fee on an organisation's charges.
// Errors: CodeNotFound, CodeInvalid.
func (s *Service) SetPlatformFee(ctx context.Context, slug string, percent decimal.Decimal, fixed int64) error {
	org, err := s.hostOrganization(ctx, slug)
	if err != nil {
		return err
	}
	a, err := s.orgPaymentAccount(ctx, org.ID)
	if err != nil {
		return err
	}
	if a == nil {
		a = &PaymentAccount{OrgID: org.ID, State: OnboardingNone}
	}
	a.FeePercent, a.FeeFixed, a.UpdatedAt = percent, fixed, s.clock.Now()
	return s.store.SavePaymentAccount(ctx, a)
}

func connectError(step string, err error) error {
	if errors.Is(err, payment.ErrInvalid) {
		return &Error{Code: CodeInvalid, Message: "The payment provider refused the onboarding request.", Err: err}
	}
	return paymentUnavailable(step, "The payment provider could not be reached. Please try again in a moment.", err)
}
