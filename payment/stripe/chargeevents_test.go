package stripe_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	stripego "github.com/stripe/stripe-go/v76"

	"github.com/staykit/staykit/payment"
)

// eventCharge is a charge object as charge.refunded carries it.
func eventCharge(extra map[string]any) map[string]any {
	c := map[string]any{
		"id":              "ch_1",
		"object":          "charge",
		"payment_intent":  "pi_123",
		"amount":          12345,
		"amount_captured": 12345,
		"amount_refunded": 500,
		"currency":        "eur",
		"refunded":        false,
		"status":          "succeeded",
	}
	for k, v := range extra {
		c[k] = v
	}
	return c
}

// eventRefund is a refund object as charge.refund.updated carries it.
func eventRefund(status string, extra map[string]any) map[string]any {
	r := map[string]any{
		"id":             "re_1",
		"object":         "refund",
		"payment_intent": "pi_123",
		"charge":         "ch_1",
		"amount":         500,
		"currency":       "eur",
		"status":         status,
	}
	for k, v := range extra {
		r[k] = v
	}
	return r
}

func TestParseWebhookChargeRefunded(t *testing.T) {
	tests := []struct {
		name   string
		charge map[string]any
		want   payment.Intent
	}{
		{"Partial", eventCharge(nil), payment.Intent{ID: "pi_123", Amount: 12345, AmountReceived: 12345,
			AmountRefunded: 500, Currency: "EUR", Status: payment.StatusSucceeded}},
		{"ISK", eventCharge(map[string]any{"amount": 100000, "amount_captured": 100000, "amount_refunded": 100000, "currency": "isk"}),
			payment.Intent{ID: "pi_123", Amount: 1000, AmountReceived: 1000, AmountRefunded: 1000, Currency: "ISK", Status: payment.StatusSucceeded}},
	}
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			payload := eventJSON(t, "charge.refunded", stripego.APIVersion, tt.charge)
			ev, err := p.ParseWebhook(payload, sign(payload, webhookSecret, time.Now()))
			if err != nil {
				t.Fatalf("ParseWebhook: %v", err)
			}
			if ev.ID != "evt_1" || ev.Type != payment.EventRefunded {
				t.Errorf("event = %s %s, want evt_1 %s", ev.ID, ev.Type, payment.EventRefunded)
			}
			if ev.Intent == nil {
				t.Fatal("Intent = nil, want the charge's intent")
			}
			got := *ev.Intent
			if got.ID != tt.want.ID || got.Amount != tt.want.Amount || got.AmountReceived != tt.want.AmountReceived ||
				got.AmountRefunded != tt.want.AmountRefunded || got.Currency != tt.want.Currency || got.Status != tt.want.Status {
				t.Errorf("intent = %+v, want %+v", got, tt.want)
			}
			if ev.Refund != nil || ev.Dispute != nil {
				t.Errorf("Refund, Dispute = %+v, %+v; want nil, nil", ev.Refund, ev.Dispute)
			}
		})
	}
}

func TestParseWebhookChargeRefundUpdated(t *testing.T) {
	tests := []struct {
		status string
		want   payment.RefundStatus
	}{
		{"succeeded", payment.RefundSucceeded},
		{"failed", payment.RefundFailed},
		{"canceled", payment.RefundCanceled},
		{"pending", payment.RefundPending},
		{"requires_action", payment.RefundPending},
		{"some_future_status", payment.RefundPending},
	}
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	for _, tt := range tests {
		t.Run(tt.status, func(t *testing.T) {
			payload := eventJSON(t, "charge.refund.updated", stripego.APIVersion, eventRefund(tt.status, nil))
			ev, err := p.ParseWebhook(payload, sign(payload, webhookSecret, time.Now()))
			if err != nil {
				t.Fatalf("ParseWebhook: %v", err)
			}
			if ev.Type != payment.EventRefundUpdated {
				t.Errorf("Type = %s, want %s", ev.Type, payment.EventRefundUpdated)
			}
			want := payment.Refund{ID: "re_1", IntentID: "pi_123", Amount: 500, Currency: "EUR", Status: tt.want}
			if ev.Refund == nil || !reflect.DeepEqual(*ev.Refund, want) {
				t.Errorf("Refund = %+v, want %+v", ev.Refund, want)
			}
		})
	}
	t.Run("MGA", func(t *testing.T) {
		payload := eventJSON(t, "charge.refund.updated", stripego.APIVersion, eventRefund("succeeded", map[string]any{"amount": 1500, "currency": "mga"}))
		ev, err := p.ParseWebhook(payload, sign(payload, webhookSecret, time.Now()))
		if err != nil {
			t.Fatalf("ParseWebhook: %v", err)
		}
		if ev.Refund.Amount != 150000 || ev.Refund.Currency != "MGA" {
			t.Errorf("refund = %d %s, want 150000 MGA", ev.Refund.Amount, ev.Refund.Currency)
		}
	})
}

func TestParseWebhookChargeDisputeCreated(t *testing.T) {
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	payload := eventJSON(t, "charge.dispute.created", stripego.APIVersion, map[string]any{
		"id": "dp_1", "object": "dispute", "charge": "ch_1", "payment_intent": "pi_123",
		"amount": 12345, "currency": "eur", "reason": "fraudulent", "status": "needs_response",
	})
	ev, err := p.ParseWebhook(payload, sign(payload, webhookSecret, time.Now()))
	if err != nil {
		t.Fatalf("ParseWebhook: %v", err)
	}
	if ev.Type != payment.EventDisputed {
		t.Errorf("Type = %s, want %s", ev.Type, payment.EventDisputed)
	}
	want := payment.Dispute{ID: "dp_1", IntentID: "pi_123", Amount: 12345, Currency: "EUR", Reason: "fraudulent", Status: "needs_response"}
	if ev.Dispute == nil || *ev.Dispute != want {
		t.Errorf("Dispute = %+v, want %+v", ev.Dispute, want)
	}
}

func TestParseWebhookChargeEventsRefuseOtherObjects(t *testing.T) {
	tests := []struct {
		name    string
		typ     string
		object  any
		payload []byte // used instead of typ and object when set
	}{
		{"RefundedWithRefund", "charge.refunded", eventRefund("succeeded", nil), nil},
		{"RefundUpdatedWithCharge", "charge.refund.updated", eventCharge(nil), nil},
		{"RefundUpdatedWithoutID", "charge.refund.updated", eventRefund("failed", map[string]any{"id": ""}), nil},
		{"DisputeWithCharge", "charge.dispute.created", eventCharge(nil), nil},
		{"RefundedAmountNotNumber", "charge.refunded", eventCharge(map[string]any{"amount_refunded": "500"}), nil},
		{"NoDataObject", "", nil, []byte(`{"id":"evt_1","object":"event","type":"charge.refunded"}`)},
	}
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			payload := tt.payload
			if payload == nil {
				payload = eventJSON(t, tt.typ, stripego.APIVersion, tt.object)
			}
			ev, err := p.ParseWebhook(payload, sign(payload, webhookSecret, time.Now()))
			if !errors.Is(err, payment.ErrInvalid) {
				t.Errorf("ParseWebhook = %+v, %v; want ErrInvalid", ev, err)
			}
		})
	}
}

func TestParseWebhookChargeEventsRefuseBadSignature(t *testing.T) {
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	payload := eventJSON(t, "charge.refund.updated", stripego.APIVersion, eventRefund("failed", nil))
	if _, err := p.ParseWebhook(payload, sign(payload, "whsec_other", time.Now())); !errors.Is(err, payment.ErrSignature) {
		t.Errorf("err = %v, want ErrSignature", err)
	}
}
