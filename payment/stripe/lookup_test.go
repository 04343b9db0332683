package stripe_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/staykit/staykit/payment"
)

func TestRefundSendsItsKeyInMetadata(t *testing.T) {
	srv := newFakeStripe(t, func(r request) answer {
		if r.Path == "/v1/refunds" {
			return answer{200, `{"id":"re_1","object":"refund","amount":500,"currency":"eur","payment_intent":"pi_123","status":"succeeded","metadata":{"staykit_key":"refund:pi_123:cancelled"}}`}
		}
		return answer{200, intentJSON(t, map[string]any{"status": "succeeded", "amount_received": 12345})}
	})
	got, err := newProvider(t, srv.URL, testKey).Refund(context.Background(), payment.RefundParams{IntentID: "pi_123", Amount: 500,
		IdempotencyKey: "refund:pi_123:cancelled", Metadata: map[string]string{payment.MetadataKey: "refund:pi_123:cancelled"}})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if v := reqs[len(reqs)-1].Form.Get("metadata[staykit_key]"); v != "refund:pi_123:cancelled" {
		t.Errorf("metadata[staykit_key] = %q, want the ledger key", v)
	}
	if got.Key() != "refund:pi_123:cancelled" {
		t.Errorf("refund key = %q, want it read back from metadata", got.Key())
	}
}

func TestListRefunds(t *testing.T) {
	srv := newFakeStripe(t, func(r request) answer {
		// Stripe lists newest first.
		return answer{200, `{"object":"list","has_more":false,"url":"/v1/refunds","data":[
			{"id":"re_2","object":"refund","amount":300,"currency":"eur","payment_intent":"pi_123","status":"pending","metadata":{}},
			{"id":"re_1","object":"refund","amount":500,"currency":"eur","payment_intent":"pi_123","status":"succeeded","metadata":{"staykit_key":"k1"}}]}`}
	})
	got, err := newProvider(t, srv.URL, testKey).ListRefunds(context.Background(), "pi_123")
	if err != nil {
		t.Fatal(err)
	}
	r := srv.onlyRequest(t)
	if r.Method != "GET" || r.Path != "/v1/refunds" || r.Form.Get("payment_intent") != "pi_123" {
		t.Errorf("request %s %s ?%s, want GET /v1/refunds?payment_intent=pi_123", r.Method, r.Path, r.Form.Encode())
	}
	if len(got) != 2 || got[0].ID != "re_1" || got[0].Key() != "k1" || got[1].Status != payment.RefundPending || got[1].Key() != "" {
		t.Errorf("refunds %+v, want re_1 (key k1) then re_2 (pending, no key), oldest first", got)
	}
}

func TestIntentByKey(t *testing.T) {
	list := func(meta string) string {
		return fmt.Sprintf(`{"object":"list","has_more":false,"url":"/v1/payment_intents","data":[%s]}`,
			intentJSON(t, map[string]any{"id": "pi_bal", "status": "succeeded", "amount_received": 12345, "customer": "cus_1", "metadata": map[string]any{"staykit_key": meta}}))
	}
	for _, tt := range []struct {
		name, stored string
		wantErr      error
	}{
		{"found", "balance:pi_1", nil},
		{"another key", "balance:pi_9", payment.ErrNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeStripe(t, func(request) answer { return answer{200, list(tt.stored)} })
			in, err := newProvider(t, srv.URL, testKey).IntentByKey(context.Background(), "cus_1", "balance:pi_1")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			r := srv.onlyRequest(t)
			if r.Path != "/v1/payment_intents" || r.Form.Get("customer") != "cus_1" {
				t.Errorf("request %s ?%s, want the customer's intents", r.Path, r.Form.Encode())
			}
			if err == nil && (in.ID != "pi_bal" || in.AmountReceived != 12345) {
				t.Errorf("intent %+v, want pi_bal with its money", in)
			}
		})
	}
}
