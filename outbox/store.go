package outbox

import (
	"context"
	"time"

	"github.com/staykit/staykit/ledger"
)

// Store keeps the durable outbox: events written with the changes they
// tell about, their deliveries (the delivery log), and the organisations'
// webhook endpoints and contact addresses. Its errors carry the codes of
// booking.Error (CodeNotFound, CodeInvalid); store/storetest checks the
// contract, and store/sqlite's and store/postgres's DB are one.
type Store interface {
	// RecordOutbox stores events and sets their IDs. An event whose Key is
	// recorded already is not stored again: it gets the stored event, so
	// writing the same event twice is harmless. Zero CreatedAt and
	// NextAttemptAt become now. Errors: CodeInvalid (no key, kind or
	// organisation).
	RecordOutbox(ctx context.Context, events []Event, now time.Time) ([]Event, error)
	// ClaimOutboxEvents returns up to limit events not yet dispatched and
	// due at now, oldest first, and in the same atomic step moves their
	// NextAttemptAt to leaseUntil.
	ClaimOutboxEvents(ctx context.Context, now, leaseUntil time.Time, limit int) ([]Event, error)
	// DispatchOutboxEvent stores an event's deliveries (one per target:
	// a second call adds none twice) and marks it dispatched, atomically.
	// Zero CreatedAt, UpdatedAt and NextAttemptAt become now, an empty
	// Status pending. Errors: CodeNotFound.
	DispatchOutboxEvent(ctx context.Context, eventID int64, deliveries []Delivery, now time.Time) error
	// OutboxEvent finds an event. Errors: CodeNotFound.
	OutboxEvent(ctx context.Context, id int64) (*Event, error)
	// ClaimOutboxDeliveries returns up to limit pending deliveries due at
	// now, oldest first, leased until leaseUntil as ClaimOutboxEvents.
	ClaimOutboxDeliveries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]Delivery, error)
	// UpdateOutboxDelivery saves d's Status, Attempts, NextAttemptAt,
	// LastError, ResponseCode, UpdatedAt and DeliveredAt. Errors:
	// CodeNotFound.
	UpdateOutboxDelivery(ctx context.Context, d *Delivery) error
	// OutboxDeliveries lists deliveries, newest first: of one event when
	// eventID is not 0, of one webhook endpoint when endpointID is not 0,
	// below the id before when it is not 0 (a page's cursor), at most limit
	// (≤ 0: all).
	OutboxDeliveries(ctx context.Context, eventID, endpointID, before int64, limit int) ([]Delivery, error)
	// OutboxDelivery finds a delivery. Errors: CodeNotFound.
	OutboxDelivery(ctx context.Context, id int64) (*Delivery, error)
	// RedeliverOutbox makes a delivery pending and due at now again, with
	// its attempts reset. Errors: CodeNotFound.
	RedeliverOutbox(ctx context.Context, deliveryID int64, now time.Time) error

	// SaveWebhookEndpoint creates e (ID 0, ID set) or replaces it.
	// Errors: CodeNotFound (organisation, endpoint), CodeInvalid.
	SaveWebhookEndpoint(ctx context.Context, e *Endpoint) error
	// WebhookEndpoints lists an organisation's endpoints by ID.
	WebhookEndpoints(ctx context.Context, orgID int64) ([]Endpoint, error)
	// WebhookEndpoint finds an endpoint of an organisation (orgID 0: of
	// any). Errors: CodeNotFound.
	WebhookEndpoint(ctx context.Context, orgID, id int64) (*Endpoint, error)
	// DeleteWebhookEndpoint removes an endpoint and its delivery log.
	// Errors: CodeNotFound.
	DeleteWebhookEndpoint(ctx context.Context, orgID, id int64) error
	// RecordWebhookAttempt counts an attempt of an endpoint made at now
	// (Endpoint.RecordAttempt) in one atomic step, so that
	// replicas counting at once lose no attempt; when the attempt pauses
	// the endpoint, PausedEvent is recorded in the same step. It
	// returns the endpoint as saved and whether this attempt paused it.
	// Errors: CodeNotFound.
	RecordWebhookAttempt(ctx context.Context, endpointID int64, ok bool, now time.Time) (*Endpoint, bool, error)
	// ResumeWebhookEndpoint clears an endpoint's pause and failures
	// (Endpoint.Resume) and makes due at now, attempts reset, each
	// of its pending deliveries waiting out a backoff (due after now +
	// MaxLease: none under way) and, with replay, each of its
	// deliveries that failed since its failures began (FailingSince, else
	// PausedAt): what its outage lost, held ones included. It returns the
	// endpoint and the number of deliveries made due. Errors:
	// CodeNotFound (also another organisation's endpoint).
	ResumeWebhookEndpoint(ctx context.Context, orgID, id int64, replay bool, now time.Time) (*Endpoint, int, error)

	// SettleLedgerEntry is UpdateLedgerEntry(e), RecordLedger(owed) and
	// RecordOutbox(events) in one atomic step: a settled refund, the
	// refund that owes its money again when it failed, and the message
	// telling about it are stored together or not at all. Errors:
	// CodeNotFound, CodeInvalid.
	SettleLedgerEntry(ctx context.Context, e *ledger.Entry, owed []ledger.Entry, events []Event, now time.Time) error

	// SetContactEmail sets the address the host's e-mails go to ("" for
	// none). Errors: CodeNotFound (organisation).
	SetContactEmail(ctx context.Context, orgID int64, email string) error
	// ContactEmail returns the host's address, "" when none is set.
	ContactEmail(ctx context.Context, orgID int64) (string, error)
}

// InvalidError is the refusal of an event, delivery or endpoint that lacks
// what a Store needs (PrepareEvents, ValidateEndpoint). Stores report it as
// a booking.CodeInvalid error with its Message (booking.Invalid).
type InvalidError struct {
	Message string
}

func (e *InvalidError) Error() string { return e.Message }

// PrepareEvents checks events for RecordOutbox or booking.Transition.Outbox
// and fills in what the contract defaults, so that every Store applies the
// same rules. Errors: *InvalidError (a store reports it as
// booking.CodeInvalid).
func PrepareEvents(events []Event, bookingID int64, now time.Time) ([]Event, error) {
	out := make([]Event, len(events))
	for i, e := range events {
		if bookingID != 0 {
			e.BookingID = bookingID
		}
		if e.Key == "" || e.Kind == "" || e.OrgID == 0 {
			return nil, &InvalidError{Message: "An outbox event needs a key, a kind and an organisation."}
		}
		if e.CreatedAt.IsZero() {
			e.CreatedAt = now
		}
		if e.NextAttemptAt.IsZero() {
			e.NextAttemptAt = now
		}
		out[i] = e
	}
	return out, nil
}

// PrepareDeliveries fills in what DispatchOutboxEvent defaults.
func PrepareDeliveries(ds []Delivery, eventID int64, now time.Time) []Delivery {
	out := make([]Delivery, len(ds))
	for i, d := range ds {
		d.EventID = eventID
		if d.Status == "" {
			d.Status = StatusPending
		}
		if d.CreatedAt.IsZero() {
			d.CreatedAt = now
		}
		if d.UpdatedAt.IsZero() {
			d.UpdatedAt = d.CreatedAt
		}
		if d.NextAttemptAt.IsZero() {
			d.NextAttemptAt = now
		}
		out[i] = d
	}
	return out
}

// ValidateEndpoint checks a webhook endpoint for SaveWebhookEndpoint and
// fills in its times. Errors: *InvalidError (no organisation, URL or
// secret; a store reports it as booking.CodeInvalid).
func ValidateEndpoint(e *Endpoint) error {
	if e.OrgID == 0 || e.URL == "" || e.Secret == "" {
		return &InvalidError{Message: "A webhook endpoint needs an organisation, a URL and a secret."}
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now().UTC().Truncate(time.Millisecond)
	}
	if e.UpdatedAt.IsZero() {
		e.UpdatedAt = e.CreatedAt
	}
	return nil
}
