package stripe_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/staykit/staykit/payment"
)

const webhookSecret = "whsec_test"

// eventJSON is a Stripe-shaped event whose data.object is object.
func eventJSON(t *testing.T, typ, apiVersion string, object any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"id":               "evt_1",
		"object":           "event",
		"api_version":      apiVersion,
		"created":          1767225600,
		"livemode":         false,
		"pending_webhooks": 1,
		"request":          map[string]any{"id": nil, "idempotency_key": nil},
		"type":             typ,
		"data":             map[string]any{"object": object},
	})
	if err != nil {
		t.Fatalf("marshal event: %v", err)
	}
	return b
}

// eventIntent is a payment_intent object as events carry it.
func eventIntent(status, captureMethod string, extra map[string]any) map[string]any {
	pi := map[string]any{
		"id":              "pi_123",
		"object":          "payment_intent",
		"amount":          12345,
		"amount_received": 0,
		"currency":        "eur",
		"status":          status,
		"capture_method":  captureMethod,
		"client_secret":   "pi_123_secret_abc",
		"created":         1767225600,
		"metadata":        map[string]string{"booking_token": "bk_tok", "org": "acme", "property": "villa"},
		"latest_charge":   "ch_1",
	}
	for k, v := range extra {
		pi[k] = v
	}
	return pi
}

func sign(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{
		Payload: payload, Secret: secret, Timestamp: at,
	}).Header
}

func TestParseWebhookMapsIntentEvents(t *testing.T) {
	tests := []struct {
		typ           string
		status        string
		captureMethod string
		received      int64
		wantType      payment.EventType
		wantStatus    payment.IntentStatus
		wantManual    bool
	}{
		{"payment_intent.succeeded", "succeeded", "automatic", 12345, payment.EventSucceeded, payment.StatusSucceeded, false},
		{"payment_intent.amount_capturable_updated", "requires_capture", "manual", 0, payment.EventAuthorized, payment.StatusAuthorized, true},
		{"payment_intent.payment_failed", "requires_payment_method", "automatic", 0, payment.EventFailed, payment.StatusRequiresPayment, false},
		{"payment_intent.canceled", "canceled", "manual", 0, payment.EventCanceled, payment.StatusCanceled, true},
		// Not acted on, but the intent's status is the engine's own word.
		{"payment_intent.requires_action", "requires_action", "automatic", 0, "payment_intent.requires_action", payment.StatusRequiresAction, false},
	}
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			payload := eventJSON(t, tt.typ, stripego.APIVersion,
				eventIntent(tt.status, tt.captureMethod, map[string]any{"amount_received": tt.received}))
			ev, err := p.ParseWebhook(payload, sign(payload, webhookSecret, time.Now()))
			if err != nil {
				t.Fatalf("ParseWebhook: %v", err)
			}
			if ev.ID != "evt_1" || ev.Type != tt.wantType {
				t.Errorf("event = %s %s, want evt_1 %s", ev.ID, ev.Type, tt.wantType)
			}
			if ev.Intent == nil {
				t.Fatal("Intent = nil, want the payment intent")
			}
			in := ev.Intent
			if in.ID != "pi_123" || in.Status != tt.wantStatus || in.ManualCapture != tt.wantManual {
				t.Errorf("intent = %s %s manual=%v, want pi_123 %s manual=%v", in.ID, in.Status, in.ManualCapture, tt.wantStatus, tt.wantManual)
			}
			if in.Amount != 12345 || in.AmountReceived != tt.received || in.Currency != "EUR" {
				t.Errorf("intent amount = %d received %d %s, want 12345 received %d EUR", in.Amount, in.AmountReceived, in.Currency, tt.received)
			}
			if got, want := in.Metadata["booking_token"], "bk_tok"; got != want {
				t.Errorf("Metadata[booking_token] = %q, want %q", got, want)
			}
			if got, want := in.Created, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); !got.Equal(want) {
				t.Errorf("Created = %v, want %v", got, want)
			}
		})
	}
}

func TestParseWebhookRefusesBadSignatures(t *testing.T) {
	payload := eventJSON(t, "payment_intent.succeeded", stripego.APIVersion, eventIntent("succeeded", "automatic", nil))
	tampered := eventJSON(t, "payment_intent.succeeded", stripego.APIVersion, eventIntent("succeeded", "automatic", map[string]any{"amount": 1}))
	tests := []struct {
		name      string
		payload   []byte
		signature string
	}{
		{"WrongSecret", payload, sign(payload, "whsec_other", time.Now())},
		{"StaleTimestamp", payload, sign(payload, webhookSecret, time.Now().Add(-webhook.DefaultTolerance-time.Minute))},
		{"FutureTimestamp", payload, sign(payload, webhookSecret, time.Now().Add(webhook.DefaultTolerance+time.Minute))},
		{"TamperedPayload", tampered, sign(payload, webhookSecret, time.Now())},
		{"NoHeader", payload, ""},
		{"GarbageHeader", payload, "not a signature"},
		{"NoV1Signature", payload, "t=1767225600"},
	}
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := p.ParseWebhook(tt.payload, tt.signature)
			if !errors.Is(err, payment.ErrSignature) {
				t.Errorf("ParseWebhook = %+v, %v; want ErrSignature", ev, err)
			}
		})
	}
}

func TestParseWebhookAcceptsFreshTimestamps(t *testing.T) {
	payload := eventJSON(t, "payment_intent.succeeded", stripego.APIVersion, eventIntent("succeeded", "automatic", nil))
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	for _, tt := range []struct {
		name string
		at   time.Duration
	}{
		{"Now", 0},
		{"FourMinutesOld", -4 * time.Minute},
		{"FourMinutesAhead", 4 * time.Minute},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := p.ParseWebhook(payload, sign(payload, webhookSecret, time.Now().Add(tt.at)))
			if err != nil || ev.Intent == nil || ev.Intent.ID != "pi_123" {
				t.Errorf("ParseWebhook signed %v from now = %+v, %v; want the event", tt.at, ev, err)
			}
		})
	}
}

func TestParseWebhookWithoutSecretRefusesAll(t *testing.T) {
	p, err := newProviderWithWebhookSecret("")
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	payload := eventJSON(t, "payment_intent.succeeded", stripego.APIVersion, eventIntent("succeeded", "automatic", nil))
	// Signed with the empty secret: still refused.
	if _, err := p.ParseWebhook(payload, sign(payload, "", time.Now())); !errors.Is(err, payment.ErrSignature) {
		t.Errorf("err = %v, want ErrSignature", err)
	}
}

func TestParseWebhookPassesOtherEventsWithoutIntent(t *testing.T) {
	tests := []struct {
		typ        string
		object     any
		wantIntent bool
	}{
		// A charge made without a PaymentIntent is none of the engine's.
		{"charge.refunded", map[string]any{"id": "ch_1", "object": "charge", "amount_refunded": 500}, false},
		{"customer.created", map[string]any{"id": "cus_1", "object": "customer"}, false},
		// An intent event the engine does not act on still says which intent.
		{"payment_intent.created", eventIntent("requires_payment_method", "automatic", nil), true},
	}
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			payload := eventJSON(t, tt.typ, stripego.APIVersion, tt.object)
			ev, err := p.ParseWebhook(payload, sign(payload, webhookSecret, time.Now()))
			if err != nil {
				t.Fatalf("ParseWebhook: %v", err)
			}
			if got, want := ev.Type, payment.EventType(tt.typ); got != want {
				t.Errorf("Type = %q, want %q", got, want)
			}
			if got := ev.Intent != nil; got != tt.wantIntent {
				t.Errorf("Intent = %+v, want present=%v", ev.Intent, tt.wantIntent)
			}
		})
	}
}

func TestParseWebhookAcceptsOtherAPIVersions(t *testing.T) {
	tests := []struct {
		name       string
		apiVersion string
		extra      map[string]any
	}{
		{"Older", "2020-08-27", nil},
		{"Newer", "2025-03-31.basil", nil},
		// Fields the engine does not read may change shape between
		// versions without making the event unreadable.
		{"NewerWithReshapedFields", "2099-01-01", map[string]any{
			"latest_charge":          map[string]any{"id": "ch_1", "surprise": []int{1}},
			"payment_method_options": "now a string",
			"amount_details":         42,
		}},
	}
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			payload := eventJSON(t, "payment_intent.succeeded", tt.apiVersion, eventIntent("succeeded", "automatic", tt.extra))
			ev, err := p.ParseWebhook(payload, sign(payload, webhookSecret, time.Now()))
			if err != nil {
				t.Fatalf("ParseWebhook: %v", err)
			}
			if ev.Type != payment.EventSucceeded || ev.Intent == nil || ev.Intent.Status != payment.StatusSucceeded {
				t.Errorf("event = %+v, want a succeeded intent", ev)
			}
		})
	}
}

func TestParseWebhookRefusesMalformedPayloads(t *testing.T) {
	tests := []struct {
		name    string
		payload []byte
	}{
		{"NotJSON", []byte("{not json")},
		{"Empty", []byte("")},
		{"NoIDOrType", []byte(`{"object":"event","data":{"object":{}}}`)},
		{"IntentEventWithoutObject", []byte(`{"id":"evt_1","type":"payment_intent.succeeded"}`)},
		{"IntentEventWithCharge", eventJSON(t, "payment_intent.succeeded", stripego.APIVersion, map[string]any{"id": "ch_1", "object": "charge"})},
		{"IntentAmountNotNumber", eventJSON(t, "payment_intent.succeeded", stripego.APIVersion, eventIntent("succeeded", "automatic", map[string]any{"amount": "12345"}))},
	}
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := p.ParseWebhook(tt.payload, sign(tt.payload, webhookSecret, time.Now()))
			if !errors.Is(err, payment.ErrInvalid) {
				t.Errorf("ParseWebhook = %+v, %v; want ErrInvalid", ev, err)
			}
		})
	}
}
