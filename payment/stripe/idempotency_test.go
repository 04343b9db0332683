package stripe_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/stripe"
)

// mutations are the calls that take an idempotency key, with the request
// that must carry it.
var mutations = []struct {
	name    string
	call    func(p *stripe.Provider, key string) error
	wantReq string
}{
	{"Capture", func(p *stripe.Provider, key string) error {
		_, err := p.CaptureIntent(context.Background(), "pi_123", key)
		return err
	}, "POST /v1/payment_intents/pi_123/capture"},
	{"Cancel", func(p *stripe.Provider, key string) error {
		_, err := p.CancelIntent(context.Background(), "pi_123", key)
		return err
	}, "POST /v1/payment_intents/pi_123/cancel"},
	{"Refund", func(p *stripe.Provider, key string) error {
		_, err := p.Refund(context.Background(), payment.RefundParams{IntentID: "pi_123", Amount: 500, IdempotencyKey: key})
		return err
	}, "POST /v1/refunds"},
}

// answerMutations answers a refund with a refund and everything else with
// a succeeded intent.
func answerMutations(t *testing.T) func(request) answer {
	return func(r request) answer {
		if r.Path == "/v1/refunds" {
			return answer{200, `{"id":"re_1","object":"refund","amount":500,"currency":"eur","payment_intent":"pi_123","status":"succeeded"}`}
		}
		return answer{200, intentJSON(t, map[string]any{"status": "succeeded"})}
	}
}

func TestMutationsSendIdempotencyKey(t *testing.T) {
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			srv := newFakeStripe(t, answerMutations(t))
			key := "staykit:" + strings.ToLower(m.name) + ":pi_123"

			if err := m.call(newProvider(t, srv.URL, testKey), key); err != nil {
				t.Fatalf("call: %v", err)
			}

			var sent []string
			for _, r := range srv.requests() {
				if r.Method == http.MethodPost {
					sent = append(sent, r.Method+" "+r.Path+" "+r.Header.Get("Idempotency-Key"))
				}
			}
			if want := m.wantReq + " " + key; len(sent) != 1 || sent[0] != want {
				t.Errorf("writes = %q, want [%q]", sent, want)
			}
		})
	}
}

func TestMutationsRetrySendsTheSameKey(t *testing.T) {
	// A retried write after a 503 must reuse the caller's key, or Stripe
	// could apply it twice.
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			var failed atomic.Bool
			answerOK := answerMutations(t)
			srv := newFakeStripe(t, func(r request) answer {
				if r.Method == http.MethodPost && failed.CompareAndSwap(false, true) {
					return answer{503, errorJSON("api_error", "", "down")}
				}
				return answerOK(r)
			})
			p, err := stripe.New(stripe.Config{SecretKey: testKey, BackendURL: srv.URL, MaxNetworkRetries: 1})
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			if err := m.call(p, "key-1"); err != nil {
				t.Fatalf("call: %v", err)
			}
			var keys []string
			for _, r := range srv.requests() {
				if r.Method == http.MethodPost {
					keys = append(keys, r.Header.Get("Idempotency-Key"))
				}
			}
			if len(keys) != 2 || keys[0] != "key-1" || keys[1] != "key-1" {
				t.Errorf("Idempotency-Key of the writes = %q, want [key-1 key-1]", keys)
			}
		})
	}
}

func TestMutationsRefuseLongKeyWithoutRequest(t *testing.T) {
	// stripe-go refuses a key over 255 characters with an untyped error;
	// reported as ErrUnavailable, the engine would retry it forever.
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			srv := newFakeStripe(t, answerMutations(t))
			err := m.call(newProvider(t, srv.URL, testKey), strings.Repeat("k", 256))
			if !errors.Is(err, payment.ErrInvalid) || errors.Is(err, payment.ErrUnavailable) {
				t.Errorf("err = %v, want ErrInvalid only", err)
			}
			if n := len(srv.requests()); n != 0 {
				t.Errorf("requests = %d, want none", n)
			}
		})
	}
}

func TestMutationsAcceptKeyAtLimit(t *testing.T) {
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			srv := newFakeStripe(t, answerMutations(t))
			key := strings.Repeat("k", 255)
			if err := m.call(newProvider(t, srv.URL, testKey), key); err != nil {
				t.Fatalf("call: %v", err)
			}
			for _, r := range srv.requests() {
				if r.Method == http.MethodPost && r.Header.Get("Idempotency-Key") != key {
					t.Errorf("Idempotency-Key = %q, want the 255-character key", r.Header.Get("Idempotency-Key"))
				}
			}
		})
	}
}
