package booking

import (
	"context"
	"time"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/policy"
)

// Settings are what a host sets about cancellations and security deposits,
// for a whole organisation (PropertyID 0) or one property, whose settings
// take precedence.
type Settings struct {
	OrgID      int64 `json:"-"`
	PropertyID int64 `json:"-"`
	// Policy is the cancellation policy; nil leaves it to the
	// organisation's (for a property) or to DefaultPolicy.
	Policy *policy.Policy `json:"policy,omitempty"`
	// SecurityDeposit is held on the guest's card around the stay; zero
	// for none.
	SecurityDeposit Money `json:"security_deposit"`
	// DepositHoldDays is how many days before check-in the deposit is
	// held; DepositReleaseDays how many days after check-out it is
	// released unless claimed.
	DepositHoldDays    int `json:"deposit_hold_days"`
	DepositReleaseDays int `json:"deposit_release_days"`
}

// PolicyAnchor is the check-in date b's cancellation policy counts its
// tiers from under terms t (nil: none): t.PolicyCheckIn when set and
// earlier than b's check-in, else b's check-in.
func PolicyAnchor(b *Booking, t *Terms) civil.Date {
	if t != nil && !t.PolicyCheckIn.IsZero() && t.PolicyCheckIn.Before(b.CheckIn) {
		return t.PolicyCheckIn
	}
	return b.CheckIn
}

// DefaultPolicy applies when a host set none.
const DefaultPolicy = policy.Flexible

// BalanceStatus is where the collection of a deposit-mode balance stands.
type BalanceStatus string

// Balance statuses.
const (
	// BalanceNone: nothing is owed after checkout.
	BalanceNone BalanceStatus = "none"
	// BalanceScheduled: the saved card is charged on the due date.
	BalanceScheduled BalanceStatus = "scheduled"
	// BalanceManual: no card could be saved; the host collects it.
	BalanceManual BalanceStatus = "manual"
	// BalancePaid: the balance was charged.
	BalancePaid BalanceStatus = "paid"
	// BalanceActionRequired: the bank asked the guest to authenticate;
	// the guest completes it from the booking page.
	BalanceActionRequired BalanceStatus = "action_required"
	// BalanceRetrying: the card was declined; it is tried again.
	BalanceRetrying BalanceStatus = "retrying"
	// BalanceFailed: every attempt was declined; the host is told.
	BalanceFailed BalanceStatus = "failed"
	// BalanceCancelled: the booking was cancelled before the due date.
	BalanceCancelled BalanceStatus = "cancelled"
)

// DepositStatus is where a security deposit stands.
type DepositStatus string

// Security deposit statuses.
const (
	DepositNone      DepositStatus = "none"
	DepositScheduled DepositStatus = "scheduled"
	DepositHeld      DepositStatus = "held"
	DepositReleased  DepositStatus = "released"
	DepositClaimed   DepositStatus = "claimed"
	DepositFailed    DepositStatus = "failed"
	DepositCancelled DepositStatus = "cancelled"
	// DepositLapsed: the card authorisation ran out before the release
	// date (off-session holds last about five days); the hold was let go
	// and the host told.
	DepositLapsed DepositStatus = "lapsed"
)

// Terms are what a booking was sold with, copied from the host's settings
// at checkout so that a later change does not alter it, and where its
// later payments stand.
type Terms struct {
	BookingID int64 `json:"-"`
	// Version is the stored version; SaveTerms refuses a stale one.
	Version int `json:"-"`

	Policy policy.Policy `json:"policy"`
	// PolicyCheckIn, when set, is the check-in the policy's tiers count
	// from: the earliest check-in of a booking whose dates were changed
	// (package datechange), so that moving a stay later never makes a
	// cancellation more generous. Zero: the booking's own check-in.
	PolicyCheckIn civil.Date `json:"policy_check_in,omitzero"`
	// Customer is the provider's customer the guest's card is saved on;
	// empty when no card was saved.
	Customer string `json:"customer,omitempty"`

	BalanceStatus   BalanceStatus `json:"balance_status"`
	BalanceIntentID string        `json:"balance_intent_id,omitempty"`
	BalanceDeclines int           `json:"balance_declines,omitempty"`

	Deposit            Money         `json:"deposit"`
	DepositHoldDays    int           `json:"deposit_hold_days"`
	DepositReleaseDays int           `json:"deposit_release_days"`
	DepositStatus      DepositStatus `json:"deposit_status"`
	DepositIntentID    string        `json:"deposit_intent_id,omitempty"`
	DepositClaimed     Money         `json:"deposit_claimed"`
	UpdatedAt          time.Time     `json:"updated_at"`
}

// TermsStore keeps hosts' Settings and bookings' Terms.
type TermsStore interface {
	// SaveSettings replaces the settings of s.OrgID and s.PropertyID (0:
	// the organisation's). Errors: CodeNotFound (organisation or
	// property).
	SaveSettings(ctx context.Context, s Settings) error
	// Settings finds the settings of an organisation (propertyID 0) or a
	// property, as saved. Errors: CodeNotFound when none were saved.
	Settings(ctx context.Context, orgID, propertyID int64) (*Settings, error)
	// SaveTerms stores t when t.Version is the stored version (0: none
	// stored yet) and increments t.Version. Errors: CodeConflict (another
	// writer saved first: read again), CodeNotFound (booking).
	SaveTerms(ctx context.Context, t *Terms) error
	// Terms finds a booking's terms. Errors: CodeNotFound.
	Terms(ctx context.Context, bookingID int64) (*Terms, error)
}
