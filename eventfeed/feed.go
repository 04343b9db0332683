package eventfeed

import (
	"context"
	_ "embed"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
)

// Schema is the JSON Schema (2020-12) of the feed's events: the
// CloudEvents envelope and, per event type, its data. The host API serves
// it at /api/v1/host/events.schema.json.
//
//go:embed events.schema.json
var Schema []byte

// CloudEvent is an event in the CloudEvents 1.0 JSON format. ID is the
// webhook's webhook-id and body id ("evt_" + the event id), Type its
// type, Data its data. Acknowledged is an extension attribute: whether a
// receiver acknowledged the event.
type CloudEvent struct {
	SpecVersion     string           `json:"specversion"`
	ID              string           `json:"id"`
	Source          string           `json:"source"`
	Type            string           `json:"type"`
	Subject         string           `json:"subject,omitempty"`
	Time            time.Time        `json:"time"`
	DataContentType string           `json:"datacontenttype"`
	DataSchema      string           `json:"dataschema,omitempty"`
	Acknowledged    bool             `json:"acknowledged"`
	Data            notify.EventData `json:"data"`
}

// Page is a page of the feed. Next is the cursor to read the following
// page from: after the last event of this one, or, when the page is
// empty, where it was read from (read again later for newer events).
type Page struct {
	Events []CloudEvent
	Next   int64
}

// Service reads the feed.
type Service struct {
	// Store is the feed's store; Payloads reads the events' data (the
	// same store, in the servers).
	Store    Store
	Payloads notify.PayloadStore
	// Source is the CloudEvents source of an organisation's events,
	// such as "https://example.com/api/v1/host/demo"; nil: "/api/v1/host/" + slug.
	Source func(org *booking.Organization) string
}

// Read returns the page of org's events after the cursor after, of at
// most limit events; with unacked, only unacknowledged ones. Errors:
// CodeInvalid (limit).
func (s *Service) Read(ctx context.Context, org *booking.Organization, after int64, limit int, unacked bool) (*Page, error) {
	if err := CheckLimit(limit); err != nil {
		return nil, err
	}
	entries, err := s.Store.FeedEvents(ctx, org.ID, after, limit, unacked)
	if err != nil {
		return nil, errorf("read", err)
	}
	source := "/api/v1/host/" + org.Slug
	if s.Source != nil {
		source = s.Source(org)
	}
	p := &Page{Events: make([]CloudEvent, 0, len(entries)), Next: after}
	for i := range entries {
		e := &entries[i]
		body, err := notify.EventBody(ctx, s.Payloads, &e.Event)
		if err != nil {
			return nil, errorf("event data", err)
		}
		ce := CloudEvent{SpecVersion: "1.0", ID: body.ID, Source: source, Type: e.Kind, Time: e.CreatedAt.UTC(),
			DataContentType: "application/json", Acknowledged: !e.AckedAt.IsZero(), Data: body.Data}
		if body.Data.Booking != nil {
			ce.Subject = "bookings/" + body.Data.Booking.Token
		}
		p.Events = append(p.Events, ce)
		p.Next = e.ID
	}
	return p, nil
}

// Ack acknowledges one event of org by its id.
// Errors: CodeNotFound.
func (s *Service) Ack(ctx context.Context, org *booking.Organization, eventID int64, now time.Time) error {
	return s.Store.AckFeedEvent(ctx, org.ID, eventID, now)
}

// AckUpTo acknowledges every event of org up to the cursor upTo.
func (s *Service) AckUpTo(ctx context.Context, org *booking.Organization, upTo int64, now time.Time) (int, error) {
	return s.Store.AckFeedEventsUpTo(ctx, org.ID, upTo, now)
}

// Replay sends again an endpoint's deliveries of the events created in
// [from, to). Errors: CodeInvalid (range), CodeNotFound (endpoint).
func (s *Service) Replay(ctx context.Context, org *booking.Organization, endpointID int64, from, to, now time.Time) (int, error) {
	if err := CheckRange(from, to); err != nil {
		return 0, err
	}
	return s.Store.ReplayWebhookRange(ctx, org.ID, endpointID, from, to, now)
}

// Carried reports whether webhooks carry events of kind, and so the
// feed.
func Carried(kind outbox.Kind) bool { return !outbox.Internal(kind) }
