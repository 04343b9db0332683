package stripe_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/staykit/staykit/payment/stripe"
)

// request is what the fake Stripe saw of one request.
type request struct {
	Method string
	Path   string
	Form   url.Values // query and form body together
	Header http.Header
}

// answer is what the fake Stripe replies.
type answer struct {
	Status int
	Body   string
}

// fakeStripe records every request and answers with respond.
type fakeStripe struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []request
}

func newFakeStripe(t *testing.T, respond func(request) answer) *fakeStripe {
	t.Helper()
	f := &fakeStripe{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			t.Errorf("fake stripe: parse form: %v", err)
		}
		_, _ = io.Copy(io.Discard, r.Body)
		rec := request{Method: r.Method, Path: r.URL.Path, Form: r.Form, Header: r.Header.Clone()}
		f.mu.Lock()
		f.reqs = append(f.reqs, rec)
		f.mu.Unlock()
		a := respond(rec)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_test")
		w.WriteHeader(a.Status)
		_, _ = io.WriteString(w, a.Body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeStripe) requests() []request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]request(nil), f.reqs...)
}

// onlyRequest fails unless exactly one request was made, and returns it.
func (f *fakeStripe) onlyRequest(t *testing.T) request {
	t.Helper()
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("requests = %d, want 1: %+v", len(reqs), reqs)
	}
	return reqs[0]
}

const testKey = "sk_test_staykitSECRET0123456789"

// newProvider points a provider with no retries at url.
func newProvider(t *testing.T, url, key string) *stripe.Provider {
	t.Helper()
	p, err := stripe.New(stripe.Config{
		SecretKey:         key,
		PublishableKey:    "pk_test_staykit",
		WebhookSecret:     "whsec_test",
		BackendURL:        url,
		MaxNetworkRetries: -1,
		Logger:            slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

// intentJSON is a Stripe-shaped PaymentIntent with fields overridden.
func intentJSON(t *testing.T, overrides map[string]any) string {
	t.Helper()
	pi := map[string]any{
		"id":              "pi_123",
		"object":          "payment_intent",
		"amount":          12345,
		"amount_received": 0,
		"currency":        "eur",
		"status":          "requires_payment_method",
		"capture_method":  "automatic",
		"client_secret":   "pi_123_secret_abc",
		"created":         1767225600, // 2026-01-01T00:00:00Z
		"livemode":        false,
		"metadata":        map[string]string{"booking_token": "bk_tok"},
		"latest_charge":   nil,
	}
	for k, v := range overrides {
		pi[k] = v
	}
	b, err := json.Marshal(pi)
	if err != nil {
		t.Fatalf("marshal intent: %v", err)
	}
	return string(b)
}

// errorJSON is a Stripe-shaped error body.
func errorJSON(typ, code, msg string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"type": typ, "code": code, "message": msg}})
	return string(b)
}

func newProviderWithWebhookSecret(secret string) (*stripe.Provider, error) {
	return stripe.New(stripe.Config{SecretKey: testKey, WebhookSecret: secret, MaxNetworkRetries: -1})
}
