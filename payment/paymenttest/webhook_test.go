package paymenttest_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

func TestEvent(t *testing.T) {
	p := paymenttest.New()
	in := intentIn(t, p, succeededAuto)

	a, err := p.Event(payment.EventSucceeded, in.ID)
	if err != nil {
		t.Fatalf("Event: %v", err)
	}
	b, err := p.Event(payment.EventSucceeded, in.ID)
	if err != nil {
		t.Fatalf("Event: %v", err)
	}
	if !strings.HasPrefix(a.ID, "evt_") || a.ID == b.ID {
		t.Errorf("event ids %q, %q: want distinct evt_ ids", a.ID, b.ID)
	}
	if a.Type != payment.EventSucceeded {
		t.Errorf("Type = %s, want %s", a.Type, payment.EventSucceeded)
	}
	stored, _ := p.Intent(in.ID)
	if a.Intent == nil || !equalIntent(*a.Intent, stored) {
		t.Errorf("event intent = %+v, want %+v", a.Intent, stored)
	}

	none, err := p.Event("charge.refunded", "")
	if err != nil || none.Intent != nil {
		t.Errorf("Event without intent = %+v, %v; want nil intent, nil error", none, err)
	}
	if _, err := p.Event(payment.EventSucceeded, "pi_unknown"); !errors.Is(err, payment.ErrNotFound) {
		t.Errorf("Event(unknown) err = %v, want ErrNotFound", err)
	}
}

func TestWebhookRoundTrip(t *testing.T) {
	created := time.Date(2026, 3, 1, 10, 0, 0, 123, time.UTC)
	tests := []struct {
		name string
		typ  payment.EventType
		from start
	}{
		{"succeeded", payment.EventSucceeded, succeededAuto},
		{"authorized", payment.EventAuthorized, authorizedManual},
		{"failed", payment.EventFailed, requiresPaymentAuto},
		{"canceled", payment.EventCanceled, canceledAuto},
		{"refunded", payment.EventRefunded, succeededAuto},
		{"requires action", "payment_intent.requires_action", requiresActionAuto},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := paymenttest.New(
				paymenttest.WithClock(func() time.Time { return created }),
				paymenttest.WithWebhookSecret("whsec_test"),
			)
			in := intentIn(t, p, tt.from)
			if tt.from.status == payment.StatusSucceeded {
				if _, err := p.Refund(t.Context(), payment.RefundParams{IntentID: in.ID, Amount: 100}); err != nil {
					t.Fatalf("Refund: %v", err)
				}
			}

			payload, sig, err := p.SignedWebhook(tt.typ, in.ID)
			if err != nil {
				t.Fatalf("SignedWebhook: %v", err)
			}
			if !strings.HasPrefix(sig, "t=1772359200,v1=") {
				t.Errorf("signature = %q, want t=<clock unix>,v1=...", sig)
			}
			ev, err := p.ParseWebhook(payload, sig)
			if err != nil {
				t.Fatalf("ParseWebhook: %v", err)
			}
			if !strings.HasPrefix(ev.ID, "evt_") || ev.Type != tt.typ {
				t.Errorf("event = %s %s, want evt_... %s", ev.ID, ev.Type, tt.typ)
			}
			want, _ := p.Intent(in.ID)
			want.Metadata = nil // created without metadata
			if ev.Intent == nil || !equalIntent(*ev.Intent, want) {
				t.Errorf("event intent = %+v, want %+v", ev.Intent, want)
			}
		})
	}
}

func TestWebhookRoundTripMetadataAndNoIntent(t *testing.T) {
	p := paymenttest.New()
	in, err := p.CreateIntent(t.Context(), payment.CreateParams{
		Amount: 100, Currency: "EUR", Metadata: map[string]string{"booking": "b1"},
	})
	if err != nil {
		t.Fatalf("CreateIntent: %v", err)
	}
	payload, sig, err := p.SignedWebhook(payment.EventFailed, in.ID)
	if err != nil {
		t.Fatalf("SignedWebhook: %v", err)
	}
	ev, err := p.ParseWebhook(payload, sig)
	if err != nil {
		t.Fatalf("ParseWebhook: %v", err)
	}
	if got := ev.Intent.Metadata["booking"]; got != "b1" {
		t.Errorf("metadata booking = %q, want b1", got)
	}

	payload, sig, err = p.SignedWebhook("charge.refunded", "")
	if err != nil {
		t.Fatalf("SignedWebhook without intent: %v", err)
	}
	ev, err = p.ParseWebhook(payload, sig)
	if err != nil {
		t.Fatalf("ParseWebhook: %v", err)
	}
	if ev.Type != "charge.refunded" || ev.Intent != nil {
		t.Errorf("event = %s intent %+v, want charge.refunded, nil intent", ev.Type, ev.Intent)
	}
}

func TestParseWebhookErrSignature(t *testing.T) {
	p := paymenttest.New(paymenttest.WithWebhookSecret("whsec_right"))
	in := intentIn(t, p, succeededAuto)
	payload, sig, err := p.SignedWebhook(payment.EventSucceeded, in.ID)
	if err != nil {
		t.Fatalf("SignedWebhook: %v", err)
	}
	ts, mac, _ := strings.Cut(sig, ",")
	tampered := bytes.Replace(payload, []byte(`"amount":12000`), []byte(`"amount":1`), 1)
	if bytes.Equal(tampered, payload) {
		t.Fatalf("payload %s has no amount to tamper with", payload)
	}
	_, otherSig, _ := paymenttest.New(paymenttest.WithWebhookSecret("whsec_wrong")).SignedWebhook("x", "")

	tests := []struct {
		name    string
		payload []byte
		sig     string
	}{
		{"tampered payload", tampered, sig},
		{"empty signature", payload, ""},
		{"no timestamp", payload, mac},
		{"no v1", payload, ts},
		{"other timestamp", payload, "t=1," + mac},
		{"v1 not hex", payload, ts + ",v1=zz"},
		{"other secret", payload, otherSig},
		{"truncated mac", payload, sig[:len(sig)-2]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := p.ParseWebhook(tt.payload, tt.sig)
			if !errors.Is(err, payment.ErrSignature) {
				t.Fatalf("err = %v, want ErrSignature", err)
			}
			if ev != nil {
				t.Errorf("event = %+v, want nil", ev)
			}
		})
	}
}

func TestParseWebhookSeveralV1(t *testing.T) {
	p := paymenttest.New()
	in := create(t, p, false)
	payload, sig, err := p.SignedWebhook(payment.EventFailed, in.ID)
	if err != nil {
		t.Fatalf("SignedWebhook: %v", err)
	}
	ts, mac, _ := strings.Cut(sig, ",")
	rotated := ts + ",v1=" + strings.Repeat("00", 32) + "," + mac
	if _, err := p.ParseWebhook(payload, rotated); err != nil {
		t.Errorf("ParseWebhook with an old and a matching v1: %v", err)
	}
}

func TestParseWebhookErrInvalid(t *testing.T) {
	tests := []struct {
		name    string
		payload string
	}{
		{"not JSON", `{"id":`},
		{"no id", `{"type":"payment_intent.succeeded","intent":null}`},
		{"no type", `{"id":"evt_1","intent":null}`},
		{"intent without id", `{"id":"evt_1","type":"payment_intent.succeeded","intent":{"status":"succeeded"}}`},
		{"unknown status", `{"id":"evt_1","type":"payment_intent.succeeded","intent":{"id":"pi_1","status":"requires_capture"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := paymenttest.New()
			sig := p.SignPayload([]byte(tt.payload), time.Now())
			ev, err := p.ParseWebhook([]byte(tt.payload), sig)
			if !errors.Is(err, payment.ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if ev != nil {
				t.Errorf("event = %+v, want nil", ev)
			}
		})
	}
}

func TestSignedWebhookErrNotFound(t *testing.T) {
	_, _, err := paymenttest.New().SignedWebhook(payment.EventSucceeded, "pi_unknown")
	if !errors.Is(err, payment.ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
}

func TestParseWebhookTimestampWindow(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	p := paymenttest.New(paymenttest.WithClock(func() time.Time { return now }))
	payload := []byte(`{"id":"evt_1","type":"payment_intent.succeeded","created":1,"intent":null}`)
	tests := []struct {
		name   string
		signed time.Time
		ok     bool
	}{
		{"Now", now, true},
		{"FourMinutesOld", now.Add(-4 * time.Minute), true},
		{"AtTheTolerance", now.Add(-paymenttest.WebhookTolerance), true},
		{"Stale", now.Add(-paymenttest.WebhookTolerance - time.Second), false},
		{"AnHourOld", now.Add(-time.Hour), false},
		{"FourMinutesAhead", now.Add(4 * time.Minute), true},
		{"TooFarAhead", now.Add(paymenttest.WebhookTolerance + time.Second), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := p.ParseWebhook(payload, p.SignPayload(payload, tt.signed))
			switch {
			case tt.ok && err != nil:
				t.Fatalf("ParseWebhook signed %v from now: %v, want the event", tt.signed.Sub(now), err)
			case !tt.ok && !errors.Is(err, payment.ErrSignature):
				t.Fatalf("ParseWebhook signed %v from now = %+v, %v; want ErrSignature", tt.signed.Sub(now), ev, err)
			}
		})
	}
}
