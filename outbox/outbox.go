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
	"strconv"
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
	Active     bool
	// Failures counts deliveries that failed for good in a row; the
	// endpoint is disabled when it reaches MaxEndpointFailures.
	Failures  int
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Wants reports whether the endpoint takes events of kind.
func (e Endpoint) Wants(kind Kind) bool {
	if !e.Active {
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

// MaxEndpointFailures is how many deliveries in a row may fail for good
// before an endpoint is disabled.
const MaxEndpointFailures = 5

// NewSecret returns a fresh webhook signing secret.
func NewSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// Backoff is the wait before attempt n+1 after n failed attempts: 30 s
// doubling, capped at two hours. Deliveries are given up after
// RetryWindow.
func Backoff(attempts int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempts && d < 2*time.Hour; i++ {
		d *= 2
	}
	return min(d, 2*time.Hour)
}

// RetryWindow is how long a delivery is retried before it fails.
const RetryWindow = 24 * time.Hour
