// Package outbox holds the messages staykit owes the outside world: an
// Event is written in the same transaction as the change it tells about
// (booking.Transition.Outbox), so a crash never loses nor invents one; a
// worker (package notify) fans each event out into Deliveries (the guest's
// e-mail, the host's, each webhook endpoint) and sends them at least once,
// retrying with backoff. Several workers share the tables through leases:
// a claimed row is not due again before its lease ends.
package outbox

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	mrand "math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Kind names an event. The set is open: "booking.confirmed",
// "payment.refunded", "booking.reminder"... (booking.Notify* constants).
type Kind = string

// Event is one thing that happened to a booking.
type Event struct {
	ID int64
	// Key makes writing the same event twice store it once; it is also
	// the idempotency id receivers see ("evt_" + Key for webhooks).
	Key       string
	Kind      Kind
	OrgID     int64
	BookingID int64
	// EntryID is the ledger entry of payment events, else 0.
	EntryID int64
	// Data is what the event tells beyond its booking as it is when sent,
	// fixed when the event is written with the change it tells about
	// (JSON: a date change's old and new stay, notify.ChangeData); nil
	// for most kinds.
	Data []byte
	// NextAttemptAt is when the worker may fan the event out (a lease
	// once claimed); DispatchedAt is set once it has.
	NextAttemptAt time.Time
	DispatchedAt  time.Time
	CreatedAt     time.Time
}

// Channel is how a delivery travels.
type Channel string

const (
	ChannelMail    Channel = "mail"
	ChannelWebhook Channel = "webhook"
)

// Mail recipients.
const (
	ToGuest = "guest"
	ToHost  = "host"
)

// Status of a delivery.
type Status string

const (
	StatusPending   Status = "pending"
	StatusDelivered Status = "delivered"
	StatusFailed    Status = "failed"
)

// Delivery is one event sent to one target, with its retry state: the
// delivery log.
type Delivery struct {
	ID      int64
	EventID int64
	Channel Channel
	// To is ToGuest or ToHost for mail.
	To string
	// EndpointID is the webhook endpoint, else 0.
	EndpointID    int64
	Status        Status
	Attempts      int
	NextAttemptAt time.Time
	LastError     string
	// ResponseCode is the last HTTP status of a webhook attempt (0: none).
	ResponseCode int
	CreatedAt    time.Time
	UpdatedAt    time.Time
	DeliveredAt  time.Time
}

// Target names a delivery's destination, unique per event.
func (d Delivery) Target() string {
	if d.Channel == ChannelWebhook {
		return "webhook:" + strconv.FormatInt(d.EndpointID, 10)
	}
	return string(d.Channel) + ":" + d.To
}

// Endpoint is an organisation's outbound webhook.
type Endpoint struct {
	ID    int64
	OrgID int64
	URL   string
	// Secret signs deliveries (Standard Webhooks: "whsec_" + base64).
	Secret string
	// EventTypes the endpoint wants; empty means all.
	EventTypes []string
	// Active is the host's switch: an inactive endpoint gets no delivery.
	Active bool
	// Failures counts the attempts that failed in a row, FailingSince is
	// when the first of them was made (zero after a success).
	Failures     int
	FailingSince time.Time
	// PausedAt is when staykit paused the endpoint (zero: not paused), its
	// attempts having failed as the pause policy says (RecordAttempt).
	// A paused endpoint still gets its deliveries, held without an
	// attempt, until the host resumes it and replays them.
	PausedAt  time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

// The pause policy of webhook endpoints. An endpoint is paused when
// PauseFailures attempts in a row have failed over at least PauseSpan
// (the first of them PauseSpan or more before the last): after an hour
// for an endpoint that gets many deliveries, after about four hours of
// retries (30 s doubling) for one with a single delivery, instead of days.
// The host is told by e-mail (KindEndpointPaused) and resumes it, with
// or without a replay of what failed meanwhile.
const (
	PauseFailures = 10
	PauseSpan     = time.Hour
)

// Paused reports whether staykit paused the endpoint.
func (e Endpoint) Paused() bool { return !e.PausedAt.IsZero() }

// RecordAttempt counts an attempt of the endpoint made at now: a success
// clears the failures, a failure adds one and pauses the endpoint when the
// pause policy says so. It reports whether this attempt paused it.
func (e *Endpoint) RecordAttempt(ok bool, now time.Time) (paused bool) {
	if ok {
		e.Failures, e.FailingSince = 0, time.Time{}
		return false
	}
	e.Failures++
	if e.FailingSince.IsZero() {
		e.FailingSince = now
	}
	if !e.Paused() && e.Failures >= PauseFailures && now.Sub(e.FailingSince) >= PauseSpan {
		e.PausedAt = now
		return true
	}
	return false
}

// Resume clears a pause and the failures that led to it.
func (e *Endpoint) Resume() {
	e.PausedAt, e.Failures, e.FailingSince = time.Time{}, 0, time.Time{}
}

// KindEndpointPaused is the event of an endpoint staykit paused: the host
// gets an e-mail; no webhook is sent for it.
const KindEndpointPaused Kind = "webhook.paused"

// KindMessage is the event of a message the host scheduled for a guest
// (package schedule): the guest gets an e-mail; no webhook is sent for it
// and the event feed does not carry it.
const KindMessage Kind = "message.scheduled"

// KindGuestMessage is the event of a message a guest wrote to the host
// on their booking's page (package conversation): the host gets an
// e-mail. KindHostMessage is the host's message to the guest: the guest
// gets an e-mail. No webhook is sent for them and the event feed does not
// carry them.
const (
	KindGuestMessage Kind = "message.from_guest"
	KindHostMessage  Kind = "message.from_host"
)

// InternalKinds are the kinds of events that are staykit's own business,
// carried by no webhook nor the event feed, in a stable order (stores
// leave them out of their queries).
func InternalKinds() []Kind {
	return []Kind{KindEndpointPaused, KindMessage, KindGuestMessage, KindHostMessage}
}

// Internal reports whether events of kind are staykit's own business
// (InternalKinds): KindEndpointPaused, KindMessage, KindGuestMessage and
// KindHostMessage.
func Internal(kind Kind) bool {
	switch kind {
	case KindEndpointPaused, KindMessage, KindGuestMessage, KindHostMessage:
		return true
	}
	return false
}

// PausedEvent is the event telling that e was paused at e.PausedAt. Its
// key names the endpoint and the pause, so that one pause is told once.
func PausedEvent(e Endpoint) Event {
	return Event{Key: fmt.Sprintf("%s:%d:%d", KindEndpointPaused, e.ID, e.PausedAt.UnixMilli()), Kind: KindEndpointPaused,
		OrgID: e.OrgID}
}

// PausedEndpoint returns the endpoint a KindEndpointPaused event tells
// about; ok is false for any other event.
func PausedEndpoint(ev Event) (id int64, ok bool) {
	rest, found := strings.CutPrefix(ev.Key, KindEndpointPaused+":")
	if !found || ev.Kind != KindEndpointPaused {
		return 0, false
	}
	idText, _, _ := strings.Cut(rest, ":")
	id, err := strconv.ParseInt(idText, 10, 64)
	return id, err == nil
}

// Wants reports whether the endpoint takes events of kind: active, and
// one of its types. It takes no internal event (Internal).
func (e Endpoint) Wants(kind Kind) bool {
	if !e.Active || Internal(kind) {
		return false
	}
	if len(e.EventTypes) == 0 {
		return true
	}
	for _, t := range e.EventTypes {
		if t == kind || t == "*" {
			return true
		}
	}
	return false
}

// NewSecret returns a fresh webhook signing secret.
func NewSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// Backoff is the wait before attempt n+1 after n failed attempts: 30 s
// doubling, capped at two hours. Deliveries are given up after
// RetryWindow; the worker shortens each wait by a random jitter (Jitter)
// so that the deliveries of one outage do not come back all at once.
func Backoff(attempts int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempts && d < 2*time.Hour; i++ {
		d *= 2
	}
	return min(d, 2*time.Hour)
}

// Jitter is d shortened by a random part of up to a tenth, in whole
// milliseconds (what the stores keep): never later than Backoff says, so
// a retry is due by then.
func Jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return d
	}
	return d - mrand.N(d/10+1).Truncate(time.Millisecond)
}

// MaxLease is the longest a worker may lease a delivery (package notify
// leases one for 30 s): a pending delivery due later than now + MaxLease
// is waiting out a backoff, not being attempted, and may be made due at
// once without risk of a second attempt in parallel.
const MaxLease = time.Minute

// RetryWindow is how long a delivery is retried before it fails: 72
// hours, about forty attempts at Backoff's pace. An endpoint whose
// attempts all fail is paused long before (PauseFailures, PauseSpan):
// its deliveries are then held for the host's resume and replay, and the
// event feed (package eventfeed) keeps every event whatever happens to
// its deliveries.
const RetryWindow = 72 * time.Hour
