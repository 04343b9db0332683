package booking

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
)

// NotifyReminder: the stay starts in a few days (Service.QueueReminders).
const NotifyReminder = "booking.reminder"

// OutboxStore keeps the durable outbox (package outbox): events written
// with the changes they tell about, their deliveries (the delivery log),
// and the organisations' webhook endpoints and contact addresses.
type OutboxStore interface {
	// RecordOutbox stores events and sets their IDs. An event whose Key is
	// recorded already is not stored again: it gets the stored event, so
	// writing the same event twice is harmless. Zero CreatedAt and
	// NextAttemptAt become now. Errors: CodeInvalid (no key, kind or
	// organisation).
	RecordOutbox(ctx context.Context, events []outbox.Event, now time.Time) ([]outbox.Event, error)
	// ClaimOutboxEvents returns up to limit events not yet dispatched and
	// due at now, oldest first, and in the same atomic step moves their
	// NextAttemptAt to leaseUntil.
	ClaimOutboxEvents(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Event, error)
	// DispatchOutboxEvent stores an event's deliveries (one per target:
	// a second call adds none twice) and marks it dispatched, atomically.
	// Zero CreatedAt, UpdatedAt and NextAttemptAt become now, an empty
	// Status pending. Errors: CodeNotFound.
	DispatchOutboxEvent(ctx context.Context, eventID int64, deliveries []outbox.Delivery, now time.Time) error
	// OutboxEvent finds an event. Errors: CodeNotFound.
	OutboxEvent(ctx context.Context, id int64) (*outbox.Event, error)
	// ClaimOutboxDeliveries returns up to limit pending deliveries due at
	// now, oldest first, leased until leaseUntil as ClaimOutboxEvents.
	ClaimOutboxDeliveries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Delivery, error)
	// UpdateOutboxDelivery saves d's Status, Attempts, NextAttemptAt,
	// LastError, ResponseCode, UpdatedAt and DeliveredAt. Errors:
	// CodeNotFound.
	UpdateOutboxDelivery(ctx context.Context, d *outbox.Delivery) error
	// OutboxDeliveries lists deliveries, newest first: of one event when
	// eventID is not 0, of one webhook endpoint when endpointID is not 0,
	// below the id before when it is not 0 (a page's cursor), at most limit
	// (≤ 0: all).
	OutboxDeliveries(ctx context.Context, eventID, endpointID, before int64, limit int) ([]outbox.Delivery, error)
	// OutboxDelivery finds a delivery. Errors: CodeNotFound.
	OutboxDelivery(ctx context.Context, id int64) (*outbox.Delivery, error)
	// RedeliverOutbox makes a delivery pending and due at now again, with
	// its attempts reset. Errors: CodeNotFound.
	RedeliverOutbox(ctx context.Context, deliveryID int64, now time.Time) error

	// SaveWebhookEndpoint creates e (ID 0, ID set) or replaces it.
	// Errors: CodeNotFound (organisation, endpoint), CodeInvalid.
	SaveWebhookEndpoint(ctx context.Context, e *outbox.Endpoint) error
	// WebhookEndpoints lists an organisation's endpoints by ID.
	WebhookEndpoints(ctx context.Context, orgID int64) ([]outbox.Endpoint, error)
	// WebhookEndpoint finds an endpoint of an organisation (orgID 0: of
	// any). Errors: CodeNotFound.
	WebhookEndpoint(ctx context.Context, orgID, id int64) (*outbox.Endpoint, error)
	// DeleteWebhookEndpoint removes an endpoint and its delivery log.
	// Errors: CodeNotFound.
	DeleteWebhookEndpoint(ctx context.Context, orgID, id int64) error
	// RecordWebhookAttempt counts an attempt of an endpoint made at now
	// (outbox.Endpoint.RecordAttempt) in one atomic step, so that
	// replicas counting at once lose no attempt; when the attempt pauses
	// the endpoint, outbox.PausedEvent is recorded in the same step. It
	// returns the endpoint as saved and whether this attempt paused it.
	// Errors: CodeNotFound.
	RecordWebhookAttempt(ctx context.Context, endpointID int64, ok bool, now time.Time) (*outbox.Endpoint, bool, error)
	// ResumeWebhookEndpoint clears an endpoint's pause and failures
	// (outbox.Endpoint.Resume) and makes due at now, attempts reset, each
	// of its pending deliveries waiting out a backoff (due after now +
	// outbox.MaxLease: none under way) and, with replay, each of its
	// deliveries that failed since its failures began (FailingSince, else
	// PausedAt): what its outage lost, held ones included. It returns the
	// endpoint and the number of deliveries made due. Errors:
	// CodeNotFound (also another organisation's endpoint).
	ResumeWebhookEndpoint(ctx context.Context, orgID, id int64, replay bool, now time.Time) (*outbox.Endpoint, int, error)

	// SettleLedgerEntry is UpdateLedgerEntry and RecordOutbox(events) in
	// one atomic step: a settled refund and the message telling about it
	// are stored together or not at all. Errors: CodeNotFound, CodeInvalid.
	SettleLedgerEntry(ctx context.Context, e *ledger.Entry, events []outbox.Event, now time.Time) error

	// SetContactEmail sets the address the host's e-mails go to ("" for
	// none). Errors: CodeNotFound (organisation).
	SetContactEmail(ctx context.Context, orgID int64, email string) error
	// ContactEmail returns the host's address, "" when none is set.
	ContactEmail(ctx context.Context, orgID int64) (string, error)
}

// PrepareOutbox checks events for RecordOutbox or Transition.Outbox and
// fills in what the contract defaults, so that every Store applies the same
// rules. Errors: CodeInvalid.
func PrepareOutbox(events []outbox.Event, bookingID int64, now time.Time) ([]outbox.Event, error) {
	out := make([]outbox.Event, len(events))
	for i, e := range events {
		if bookingID != 0 {
			e.BookingID = bookingID
		}
		if e.Key == "" || e.Kind == "" || e.OrgID == 0 {
			return nil, Errorf(CodeInvalid, "An outbox event needs a key, a kind and an organisation.")
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
func PrepareDeliveries(ds []outbox.Delivery, eventID int64, now time.Time) []outbox.Delivery {
	out := make([]outbox.Delivery, len(ds))
	for i, d := range ds {
		d.EventID = eventID
		if d.Status == "" {
			d.Status = outbox.StatusPending
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

// tell is the outbox event of a booking's status change: one per kind and
// booking, as a booking reaches each status once.
func tell(kind string, b *Booking) []outbox.Event {
	return []outbox.Event{{Key: kind + ":" + strconv.FormatInt(b.ID, 10), Kind: kind, OrgID: b.OrgID, BookingID: b.ID}}
}

// tellLater records an event that follows a change stored on its own (a
// ledger entry settled by the worker, a provider event). Its key comes from
// that change, so a retry records it once.
func (s *Service) tellLater(ctx context.Context, kind, key string, b *Booking, entryID int64) {
	ev := outbox.Event{Key: key, Kind: kind, OrgID: b.OrgID, BookingID: b.ID, EntryID: entryID}
	if _, err := s.store.RecordOutbox(context.WithoutCancel(ctx), []outbox.Event{ev}, s.clock.Now()); err != nil {
		s.logger.ErrorContext(ctx, "record outbox event", "kind", kind, "booking_id", b.ID, "err", err)
	}
}

// QueueReminders records a reminder for each confirmed booking whose stay
// starts in days days, in its organisation's time zone. Each booking is
// reminded once (the event's key), so running it often is harmless. It
// returns how many reminders it recorded or found recorded.
func (s *Service) QueueReminders(ctx context.Context, days int) (int, error) {
	orgs, err := s.store.Organizations(ctx)
	if err != nil {
		return 0, fmt.Errorf("list organisations: %w", err)
	}
	now := s.clock.Now()
	n := 0
	for i := range orgs {
		org := &orgs[i]
		arrival := s.today(org, now).AddDays(days)
		bookings, err := s.store.BookingsArriving(ctx, org.ID, arrival, StatusConfirmed)
		if err != nil {
			return n, fmt.Errorf("list bookings of organisation %d arriving %s: %w", org.ID, arrival, err)
		}
		var events []outbox.Event
		for j := range bookings {
			events = append(events, tell(NotifyReminder, &bookings[j])...)
		}
		if len(events) == 0 {
			continue
		}
		if _, err := s.store.RecordOutbox(ctx, events, now); err != nil {
			return n, fmt.Errorf("record reminders of organisation %d: %w", org.ID, err)
		}
		n += len(events)
	}
	return n, nil
}

// ValidateEndpoint checks a webhook endpoint for SaveWebhookEndpoint and
// fills in its times. Errors: CodeInvalid (no organisation, URL or secret).
func ValidateEndpoint(e *outbox.Endpoint) error {
	if e.OrgID == 0 || e.URL == "" || e.Secret == "" {
		return Errorf(CodeInvalid, "A webhook endpoint needs an organisation, a URL and a secret.")
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now().UTC().Truncate(time.Millisecond)
	}
	if e.UpdatedAt.IsZero() {
		e.UpdatedAt = e.CreatedAt
	}
	return nil
}
