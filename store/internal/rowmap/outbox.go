package rowmap

import (
	"strings"

	"github.com/staykit/staykit/outbox"
)

// EventColumns are the columns of outbox_events, in the order ScanEvent
// reads them.
const EventColumns = `id, key, kind, org_id, coalesce(booking_id, 0), entry_id, next_attempt_at, dispatched_at, created_at, data`

// DeliveryColumns are the columns of outbox_deliveries, in the order
// ScanDelivery reads them.
const DeliveryColumns = `id, event_id, channel, recipient, coalesce(endpoint_id, 0), status, attempts, next_attempt_at,
	last_error, response_code, created_at, updated_at, delivered_at`

// EndpointColumns are the columns of webhook_endpoints, in the order
// ScanEndpoint reads them.
const EndpointColumns = `id, org_id, url, secret, event_types, active, failures, failing_since, paused_at, created_at, updated_at`

// ScanEvent reads a row of EventColumns.
func ScanEvent(c Codec, s Scanner) (*outbox.Event, error) {
	var e outbox.Event
	var data string
	if err := Scan(s, &e.ID, &e.Key, &e.Kind, &e.OrgID, &e.BookingID, &e.EntryID,
		c.Time(&e.NextAttemptAt), c.Instant(&e.DispatchedAt), c.Time(&e.CreatedAt), &data); err != nil {
		return nil, err
	}
	if data != "" {
		e.Data = []byte(data)
	}
	return &e, nil
}

// ScanDelivery reads a row of DeliveryColumns.
func ScanDelivery(c Codec, s Scanner) (*outbox.Delivery, error) {
	var d outbox.Delivery
	if err := Scan(s, &d.ID, &d.EventID, (*string)(&d.Channel), &d.To, &d.EndpointID,
		(*string)(&d.Status), &d.Attempts, c.Time(&d.NextAttemptAt), &d.LastError,
		&d.ResponseCode, c.Time(&d.CreatedAt), c.Time(&d.UpdatedAt),
		c.Instant(&d.DeliveredAt)); err != nil {
		return nil, err
	}
	return &d, nil
}

// ScanEndpoint reads a row of EndpointColumns. The event types are stored
// comma separated, "" for none.
func ScanEndpoint(c Codec, s Scanner) (*outbox.Endpoint, error) {
	var (
		e     outbox.Endpoint
		types string
	)
	if err := Scan(s, &e.ID, &e.OrgID, &e.URL, &e.Secret, &types, &e.Active, &e.Failures,
		c.Instant(&e.FailingSince), c.Instant(&e.PausedAt), c.Time(&e.CreatedAt), c.Time(&e.UpdatedAt)); err != nil {
		return nil, err
	}
	if types != "" {
		e.EventTypes = strings.Split(types, ",")
	}
	return &e, nil
}
