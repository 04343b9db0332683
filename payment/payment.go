// Package payment is the contract between the booking engine and a card
// payment provider. Statuses and events here are the engine's own words;
// adapters (payment/stripe, payment/paymenttest) translate to and from the
// provider's.
package payment

import (
	"context"
	"errors"
	"time"
)

// IntentStatus is where a payment intent stands.
type IntentStatus string

// Intent statuses, independent of any provider's names.
const (
	// StatusRequiresPayment: the guest has not paid yet, or a card was
	// declined and another may be tried.
	StatusRequiresPayment IntentStatus = "requires_payment"
	// StatusRequiresAction: the guest must complete a step (3-D Secure)
	// in the browser before the payment can go through.
	StatusRequiresAction IntentStatus = "requires_action"
	// StatusProcessing: the provider is still working on it.
	StatusProcessing IntentStatus = "processing"
	// StatusAuthorized: the amount is held on the card (manual capture) and
	// waits for Capture or Cancel.
	StatusAuthorized IntentStatus = "authorized"
	// StatusSucceeded: the money is taken.
	StatusSucceeded IntentStatus = "succeeded"
	// StatusCanceled: the intent is void; nothing was or will be taken.
	StatusCanceled IntentStatus = "canceled"
)

// Intent is one payment attempt for one booking.
type Intent struct {
	ID string
	// ClientSecret lets the guest's browser complete the payment.
	ClientSecret string
	// Amount is in the currency's minor units (cents for EUR).
	Amount int64
	// AmountReceived is what has been captured, in minor units.
	AmountReceived int64
	// AmountRefunded is what has been refunded, in minor units.
	AmountRefunded int64
	// Currency is the ISO 4217 code in upper case.
	Currency      string
	Status        IntentStatus
	ManualCapture bool
	Metadata      map[string]string
	Created       time.Time
	// CaptureBefore is when an authorisation lapses (manual capture), as
	// the card network set it; zero when unknown.
	CaptureBefore time.Time
	// Customer is the provider's customer the intent belongs to; empty
	// without one.
	Customer string
	// PaymentMethod is the card the intent was paid or tried with; with
	// CreateParams.SaveCard it stays attached to Customer for later
	// off-session charges.
	PaymentMethod string
	// LastPaymentError is the provider's code of the last failed attempt
	// ("card_declined", "authentication_required"); empty when none.
	LastPaymentError string
}

// Refunded reports whether any of the intent's money went back.
func (in *Intent) Refunded() bool { return in.AmountRefunded > 0 }

// RefundStatus is where a refund stands.
type RefundStatus string

// Refund statuses, as Stripe has them.
const (
	RefundPending   RefundStatus = "pending"
	RefundSucceeded RefundStatus = "succeeded"
	RefundFailed    RefundStatus = "failed"
	RefundCanceled  RefundStatus = "canceled"
)

// Refund is money sent back to the guest.
type Refund struct {
	ID       string
	IntentID string
	// Amount is in the currency's minor units.
	Amount   int64
	Currency string
	Status   RefundStatus
	// Metadata is what the refund was created with; the engine's refunds
	// carry MetadataKey, refunds made in the provider's dashboard do not.
	Metadata map[string]string
}

// Key is the engine's key the refund carries (MetadataKey), "" for a
// refund made outside the engine.
func (r *Refund) Key() string { return r.Metadata[MetadataKey] }

// RefundParams describe a refund.
type RefundParams struct {
	IntentID string
	// Amount in minor units; must be positive.
	Amount int64
	// IdempotencyKey makes a retried refund return the first one.
	IdempotencyKey string
	// Metadata is stored with the refund (see MetadataKey).
	Metadata map[string]string
}

// MetadataKey names the metadata entry in which every intent and refund the
// engine creates carries its ledger key. Providers forget idempotency keys
// after IdempotencyWindow, and an answer can be lost after the provider
// acted: the metadata lets the engine find what a call created (Lookup)
// before it concludes that nothing was, and match refund events to its own
// refunds by key rather than by timing.
const MetadataKey = "staykit_key"

// IdempotencyWindow is how long a provider remembers an idempotency key
// (Stripe: at least 24 hours). A call retried later with the same key may be
// applied a second time, so the engine looks the first one up instead.
const IdempotencyWindow = 24 * time.Hour

// Lookup finds, at the provider, what the engine's own calls created, by
// the key they carried in MetadataKey.
type Lookup interface {
	// ListRefunds lists an intent's refunds, oldest first, with their
	// statuses and metadata. Errors: ErrNotFound, ErrUnavailable.
	ListRefunds(ctx context.Context, intentID string) ([]Refund, error)
	// IntentByKey finds the intent of customer created with key in
	// MetadataKey (an off-session charge or hold). Errors: ErrNotFound
	// (none was created), ErrUnavailable.
	IntentByKey(ctx context.Context, customer, key string) (*Intent, error)
}

// Dispute is a guest contesting a charge with their bank.
type Dispute struct {
	ID       string
	IntentID string
	Amount   int64
	Currency string
	Reason   string
	Status   string
}

// CreateParams describe a new intent.
type CreateParams struct {
	// Amount in minor units; must be positive.
	Amount int64
	// Currency is the ISO 4217 code (any case).
	Currency string
	// ManualCapture authorises now and captures later (request mode).
	ManualCapture bool
	// IdempotencyKey makes a retried create return the first intent.
	IdempotencyKey string
	Metadata       map[string]string
	// Customer, when set, is the provider's customer the intent belongs
	// to (see SavedCards).
	Customer string
	// SaveCard keeps the card the guest pays with on Customer for later
	// off-session charges (Stripe's setup_future_usage=off_session); it
	// needs Customer.
	SaveCard bool
	// ApplicationFee is the platform's fee in minor units, kept from a
	// charge into a connected account (Connect only; zero for none).
	ApplicationFee int64
}

// EventType is what a provider event says happened to an intent.
type EventType string

// Event types the engine acts on.
const (
	EventSucceeded  EventType = "payment_intent.succeeded"
	EventAuthorized EventType = "payment_intent.amount_capturable_updated"
	EventFailed     EventType = "payment_intent.payment_failed"
	EventCanceled   EventType = "payment_intent.canceled"
	// EventRefunded: money of an intent went back, possibly from the
	// provider's dashboard. Event.Intent is set; Event.Refund when the
	// provider names the refund.
	EventRefunded EventType = "charge.refunded"
	// EventRefundUpdated: a refund's status changed (a refund can fail
	// days later). Event.Refund is set.
	EventRefundUpdated EventType = "charge.refund.updated"
	// EventDisputed: the guest disputed a charge. Event.Dispute is set.
	EventDisputed EventType = "charge.dispute.created"
)

// Event is a verified notification from the provider.
type Event struct {
	// ID is unique per event; the engine processes each id once.
	ID   string
	Type EventType
	// Intent is the intent as the event describes it: a snapshot that may
	// be stale, since providers neither order nor deduplicate deliveries.
	// The engine treats it as a trigger and reads the intent's current
	// state. Nil for event types that do not concern an intent.
	Intent *Intent
	// Refund is set on refund events.
	Refund *Refund
	// Dispute is set on dispute events.
	Dispute *Dispute
	// Account is the connected account a Connect event happened on; empty
	// for the platform's (or a single account's) own events.
	Account string
	// Connected is set on EventAccountUpdated.
	Connected *Account
}

// Errors a Provider returns, wrapped with context. Callers test with
// errors.Is.
var (
	// ErrUnavailable: the provider could not be reached or failed (network
	// error, 5xx). Retrying later may work.
	ErrUnavailable = errors.New("payment provider unavailable")
	// ErrNotFound: no intent with that id.
	ErrNotFound = errors.New("payment intent not found")
	// ErrInvalid: the provider refused the request as malformed, such as an
	// amount below the currency's minimum.
	ErrInvalid = errors.New("payment request invalid")
	// ErrState: the intent's status does not allow the operation, such as
	// capturing an intent that is not authorised.
	ErrState = errors.New("payment intent in wrong state")
	// ErrSignature: a webhook payload failed verification.
	ErrSignature = errors.New("webhook signature invalid")
)

// Provider is a card payment provider. Implementations are safe for
// concurrent use.
//
// Every call that changes something takes an idempotency key, derived by
// the engine from what it has stored, never drawn at random: a call retried
// after a lost response, by another replica or by the host, is applied
// once. ErrUnavailable therefore means "unknown": the call may or may not
// have been applied, and the engine reads the intent before concluding.
type Provider interface {
	// CreateIntent starts a payment. A repeated IdempotencyKey with the same
	// parameters returns the first intent. Errors: ErrInvalid, ErrUnavailable.
	CreateIntent(ctx context.Context, p CreateParams) (*Intent, error)
	// GetIntent reads an intent. Errors: ErrNotFound, ErrUnavailable.
	GetIntent(ctx context.Context, id string) (*Intent, error)
	// CaptureIntent takes an authorised amount. Errors: ErrNotFound,
	// ErrState, ErrUnavailable.
	CaptureIntent(ctx context.Context, id, idempotencyKey string) (*Intent, error)
	// CancelIntent voids an intent that has not succeeded, releasing any
	// authorisation. Errors: ErrNotFound, ErrState, ErrUnavailable.
	CancelIntent(ctx context.Context, id, idempotencyKey string) (*Intent, error)
	// Refund returns part or all of a succeeded intent's money. Errors:
	// ErrNotFound, ErrState, ErrInvalid (more than is left), ErrUnavailable.
	Refund(ctx context.Context, p RefundParams) (*Refund, error)
	// ParseWebhook verifies a webhook payload with its signature header and
	// returns the event. Errors: ErrSignature, ErrInvalid.
	ParseWebhook(payload []byte, signature string) (*Event, error)
	// PublicKey is the key the guest's browser uses with the provider.
	PublicKey() string
	// Lookup finds what the engine created, so that an entry whose first
	// attempt may have reached the provider is resolved there before it is
	// sent again or given up.
	Lookup
}

// AmountChecker is implemented by providers that can tell before any
// request whether they can charge an amount (a minimum per currency,
// amounts their units cannot express), so a price quote can say so before
// the guest fills in the checkout form.
type AmountChecker interface {
	// CheckAmount reports whether amount minor units of the currency can
	// be charged. Errors: ErrInvalid.
	CheckAmount(amount int64, currency string) error
}

// ChargePrecision is implemented by providers that charge some currencies
// in fewer decimals than their ISO 4217 minor units (Stripe takes the
// three-decimal currencies in hundredths only, and MGA in whole units), so
// that prices can be rounded to what can actually be charged.
type ChargePrecision interface {
	// ChargeDecimals returns the decimals of the currency the provider can
	// charge, and false when it charges every ISO minor unit.
	ChargeDecimals(currency string) (int32, bool)
}

// SavedCards is implemented by providers that can keep a guest's card, with
// the guest's consent, and charge it later while the guest is away (a
// balance, a security deposit).
type SavedCards interface {
	// CreateCustomer creates the customer a saved card is kept on and
	// returns its id. A repeated IdempotencyKey returns the first
	// customer. Errors: ErrInvalid, ErrUnavailable.
	CreateCustomer(ctx context.Context, p CustomerParams) (string, error)
	// ChargeSaved creates and confirms, off session, an intent on a saved
	// card. A card the bank declines or that asks for authentication is
	// not an error: the intent comes back in StatusRequiresPayment or
	// StatusRequiresAction with LastPaymentError set. A repeated
	// IdempotencyKey returns the first intent. Errors: ErrInvalid,
	// ErrUnavailable.
	ChargeSaved(ctx context.Context, p SavedChargeParams) (*Intent, error)
	// ConfirmSaved tries an intent of ChargeSaved again, off session, with
	// the card paymentMethod, after a decline; the outcome is reported as
	// by ChargeSaved. Errors: ErrNotFound, ErrState, ErrUnavailable.
	ConfirmSaved(ctx context.Context, intentID, paymentMethod, idempotencyKey string) (*Intent, error)
	// CaptureAmount takes amount minor units of an authorised intent and
	// releases the rest. Errors: ErrNotFound, ErrState, ErrInvalid (more
	// than authorised), ErrUnavailable.
	CaptureAmount(ctx context.Context, intentID string, amount int64, idempotencyKey string) (*Intent, error)
}

// CustomerParams describe a customer.
type CustomerParams struct {
	Email          string
	Name           string
	IdempotencyKey string
	Metadata       map[string]string
}

// SavedChargeParams describe an off-session charge on a saved card.
type SavedChargeParams struct {
	Customer      string
	PaymentMethod string
	// Amount in minor units; must be positive.
	Amount   int64
	Currency string
	// ManualCapture holds the amount instead of taking it (a security
	// deposit).
	ManualCapture  bool
	IdempotencyKey string
	Metadata       map[string]string
	// ApplicationFee is the platform's fee in minor units (Connect only).
	ApplicationFee int64
}

// Payment error codes of Intent.LastPaymentError that the engine acts on.
const (
	// ErrorAuthenticationRequired: the bank wants the guest to
	// authenticate; only the guest, in the browser, can complete it.
	ErrorAuthenticationRequired = "authentication_required"
	// ErrorCardDeclined: the bank refused the charge.
	ErrorCardDeclined = "card_declined"
)

// ChargeType is how a platform charges on behalf of the connected accounts
// of its organisations (Stripe Connect).
type ChargeType string

// Charge types of a Connect platform.
const (
	// ChargeDestination: the platform's account creates and processes the
	// charge and transfers it to the connected account
	// (transfer_data[destination]), keeping the application fee. The
	// platform is merchant of record unless on_behalf_of is set; refunds
	// reverse the transfer.
	ChargeDestination ChargeType = "destination"
	// ChargeDirect: the charge is created on the connected account itself
	// (the Stripe-Account header on every call); the organisation is
	// merchant of record, and the browser initialises Stripe.js with that
	// account.
	ChargeDirect ChargeType = "direct"
)

// Valid reports whether t is a known charge type.
func (t ChargeType) Valid() bool { return t == ChargeDestination || t == ChargeDirect }

// Account is a connected account of a platform, as the provider reports it.
type Account struct {
	ID string
	// ChargesEnabled: the account may take charges now.
	ChargesEnabled bool
	// PayoutsEnabled: the account may receive payouts.
	PayoutsEnabled bool
	// DetailsSubmitted: the owner completed onboarding.
	DetailsSubmitted bool
}

// AccountParams describe a new connected account.
type AccountParams struct {
	// Country is the ISO 3166-1 alpha-2 code of the business.
	Country string
	Email   string
	// IdempotencyKey makes a retried create return the first account.
	IdempotencyKey string
	Metadata       map[string]string
}

// AccountLinkParams describe an onboarding link.
type AccountLinkParams struct {
	Account string
	// RefreshURL is where the provider sends the owner when the link
	// expired; ReturnURL when they are done (or left).
	RefreshURL string
	ReturnURL  string
}

// EventAccountUpdated: a connected account changed (charges enabled or
// disabled, onboarding completed). Event.Account and Event.Connected are
// set.
const EventAccountUpdated EventType = "account.updated"

// Connect is implemented by a platform that charges into its
// organisations' connected accounts. Every call on a payment is made
// through ForAccount, with the account the payment belongs to, so that an
// intent of one account is never read, captured, cancelled or refunded
// through another.
//
// ForAccount returns a Provider rather than each call taking an account:
// the engine's call sites stay the same, the account cannot be forgotten on
// one call, and an adapter decides in one place what the account means for
// its charge type (a Stripe-Account header, or transfer_data with a check of
// the destination).
type Connect interface {
	// ChargeType is how this platform charges.
	ChargeType() ChargeType
	// ForAccount returns the payments of one connected account. Its
	// intents are not found from another account's Provider (ErrNotFound).
	// A Provider of ForAccount also implements SavedCards when the
	// platform does.
	ForAccount(account string) Provider
	// CreateAccount creates a connected account. A repeated
	// IdempotencyKey returns the first account. Errors: ErrInvalid,
	// ErrUnavailable.
	CreateAccount(ctx context.Context, p AccountParams) (*Account, error)
	// GetAccount reads a connected account. Errors: ErrNotFound,
	// ErrUnavailable.
	GetAccount(ctx context.Context, id string) (*Account, error)
	// AccountLink returns a single-use onboarding URL for the account's
	// owner. Errors: ErrNotFound, ErrInvalid, ErrUnavailable.
	AccountLink(ctx context.Context, p AccountLinkParams) (string, error)
	// ParseConnectWebhook verifies a payload of the platform's Connect
	// webhook endpoint (its own secret) and returns the event, with
	// Event.Account naming the connected account it happened on. Errors:
	// ErrSignature, ErrInvalid.
	ParseConnectWebhook(payload []byte, signature string) (*Event, error)
}
