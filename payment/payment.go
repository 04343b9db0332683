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
}

// EventType is what a provider event says happened to an intent.
type EventType string

// Event types the engine acts on.
const (
	EventSucceeded  EventType = "payment_intent.succeeded"
	EventAuthorized EventType = "payment_intent.amount_capturable_updated"
	EventFailed     EventType = "payment_intent.payment_failed"
	EventCanceled   EventType = "payment_intent.canceled"
)

// Event is a verified notification from the provider.
type Event struct {
	// ID is unique per event; the engine processes each id once.
	ID   string
	Type EventType
	// Intent is the intent as the event describes it. Nil for event types
	// that do not concern an intent.
	Intent *Intent
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
type Provider interface {
	// CreateIntent starts a payment. A repeated IdempotencyKey with the same
	// parameters returns the first intent. Errors: ErrInvalid, ErrUnavailable.
	CreateIntent(ctx context.Context, p CreateParams) (*Intent, error)
	// GetIntent reads an intent. Errors: ErrNotFound, ErrUnavailable.
	GetIntent(ctx context.Context, id string) (*Intent, error)
	// CaptureIntent takes an authorised amount. Errors: ErrNotFound,
	// ErrState, ErrUnavailable.
	CaptureIntent(ctx context.Context, id string) (*Intent, error)
	// CancelIntent voids an intent that has not succeeded, releasing any
	// authorisation. Errors: ErrNotFound, ErrState, ErrUnavailable.
	CancelIntent(ctx context.Context, id string) (*Intent, error)
	// Refund returns amount minor units (0: everything received) of a
	// succeeded intent. Errors: ErrNotFound, ErrState, ErrInvalid,
	// ErrUnavailable.
	Refund(ctx context.Context, id string, amount int64) (*Intent, error)
	// ParseWebhook verifies a webhook payload with its signature header and
	// returns the event. Errors: ErrSignature, ErrInvalid.
	ParseWebhook(payload []byte, signature string) (*Event, error)
	// PublicKey is the key the guest's browser uses with the provider.
	PublicKey() string
}
