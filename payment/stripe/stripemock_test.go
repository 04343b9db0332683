package stripe_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/stripe"
)

// TestStripeMockAcceptsRequests runs every call against stripe-mock, which
// validates requests against Stripe's OpenAPI description and answers with
// fixtures: it proves Stripe accepts the parameters sent, not the amounts
// or statuses that come back. Start it with .ci/stripe-mock.sh.
func TestStripeMockAcceptsRequests(t *testing.T) {
	url := testenv.StripeMockURL(t)
	p, err := stripe.New(stripe.Config{
		SecretKey:         "sk_test_123",
		PublishableKey:    "pk_test_123",
		BackendURL:        url,
		MaxNetworkRetries: -1,
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ctx := context.Background()
	isIntent := func(t *testing.T, op string, in *payment.Intent, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if !strings.HasPrefix(in.ID, "pi_") {
			t.Errorf("%s: ID = %q, want a pi_ id", op, in.ID)
		}
		if in.Currency == "" || in.Currency != strings.ToUpper(in.Currency) {
			t.Errorf("%s: Currency = %q, want an upper-case code", op, in.Currency)
		}
	}

	for _, manual := range []bool{false, true} {
		in, err := p.CreateIntent(ctx, payment.CreateParams{
			Amount:         12345,
			Currency:       "EUR",
			ManualCapture:  manual,
			IdempotencyKey: "staykit-stripe-mock-" + map[bool]string{false: "auto", true: "manual"}[manual],
			Metadata:       map[string]string{"booking_token": "bk_tok", "org": "acme", "property": "villa"},
		})
		isIntent(t, "CreateIntent", in, err)
	}

	in, err := p.GetIntent(ctx, "pi_123")
	isIntent(t, "GetIntent", in, err)
	in, err = p.CaptureIntent(ctx, "pi_123", "staykit-stripe-mock-capture")
	isIntent(t, "CaptureIntent", in, err)
	in, err = p.CancelIntent(ctx, "pi_123", "staykit-stripe-mock-cancel")
	isIntent(t, "CancelIntent", in, err)

	for _, key := range []string{"staykit-stripe-mock-refund-1", "staykit-stripe-mock-refund-2"} {
		r, err := p.Refund(ctx, payment.RefundParams{IntentID: "pi_123", Amount: 500, IdempotencyKey: key})
		if err != nil {
			t.Fatalf("Refund %s: %v", key, err)
		}
		if !strings.HasPrefix(r.ID, "re_") || r.IntentID == "" {
			t.Errorf("Refund %s: ID = %q, IntentID = %q; want a re_ id and an intent", key, r.ID, r.IntentID)
		}
		if r.Currency == "" || r.Currency != strings.ToUpper(r.Currency) {
			t.Errorf("Refund %s: Currency = %q, want an upper-case code", key, r.Currency)
		}
		switch r.Status {
		case payment.RefundPending, payment.RefundSucceeded, payment.RefundFailed, payment.RefundCanceled:
		default:
			t.Errorf("Refund %s: Status = %q, want one of payment's refund statuses", key, r.Status)
		}
	}
	// The lookups the engine makes before it sends again (payment.Lookup).
	if _, err := p.Refund(ctx, payment.RefundParams{IntentID: "pi_123", Amount: 500, IdempotencyKey: "staykit-stripe-mock-refund-meta",
		Metadata: map[string]string{payment.MetadataKey: "refund:pi_123:cancelled"}}); err != nil {
		t.Fatalf("Refund with metadata: %v", err)
	}
	refunds, err := p.ListRefunds(ctx, "pi_123")
	if err != nil {
		t.Fatalf("ListRefunds: %v", err)
	}
	for _, r := range refunds {
		if !strings.HasPrefix(r.ID, "re_") {
			t.Errorf("ListRefunds: ID = %q, want a re_ id", r.ID)
		}
	}
	if _, err := p.IntentByKey(ctx, "cus_123", "balance:pi_123"); err != nil && !errors.Is(err, payment.ErrNotFound) {
		t.Fatalf("IntentByKey: %v, want found or ErrNotFound (stripe-mock's fixtures carry no key)", err)
	}
}

// wireRecorder stands between a Provider and stripe-mock: it keeps every
// request as sent on the wire, and answers in the currency under test.
// stripe-mock is stateless: it echoes a created intent's amount and
// currency, but reads back (and refunds) its usd fixture, whereas Stripe
// answers in the intent's currency, which the adapter converts by.
type wireRecorder struct {
	next     http.RoundTripper
	currency string

	mu   sync.Mutex
	sent []request
}

func (w *wireRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			return nil, err
		}
		_ = r.Body.Close()
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, fmt.Errorf("wire recorder: form body %q: %w", body, err)
	}
	w.mu.Lock()
	w.sent = append(w.sent, request{Method: r.Method, Path: r.URL.Path, Form: form, Header: r.Header.Clone()})
	w.mu.Unlock()

	out := r.Clone(r.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := w.next.RoundTrip(out)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	raw, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("wire recorder: stripe-mock answered %q: %w", raw, err)
	}
	setCurrency(obj, strings.ToLower(w.currency))
	if raw, err = json.Marshal(obj); err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	resp.ContentLength = int64(len(raw))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// setCurrency sets the currency of an object and of the objects embedded
// in it (an intent's latest charge).
func setCurrency(obj map[string]any, currency string) {
	if _, ok := obj["currency"]; ok {
		obj["currency"] = currency
	}
	for _, v := range obj {
		if m, ok := v.(map[string]any); ok {
			setCurrency(m, currency)
		}
	}
}

// posts returns the POST requests sent to path.
func (w *wireRecorder) posts(path string) []request {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []request
	for _, r := range w.sent {
		if r.Method == http.MethodPost && r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// forms are the bodies of requests, headers (the key) left out.
func forms(reqs []request) []url.Values {
	out := make([]url.Values, len(reqs))
	for i, r := range reqs {
		out[i] = r.Form
	}
	return out
}

// TestStripeMockCurrencyUnits creates an intent, charges a saved card,
// captures part of a hold and refunds, in each currency whose units are
// odd, against stripe-mock, and checks the amounts on the wire: what
// Stripe is sent, in Stripe's units (https://docs.stripe.com/currencies),
// for amounts in the engine's ISO 4217 minor units. Amounts Stripe would
// refuse never leave the process.
func TestStripeMockCurrencyUnits(t *testing.T) {
	mock := testenv.StripeMockURL(t)
	tests := []struct {
		currency       string
		amount, refund int64  // ISO minor units
		wantAmount     string // on the wire
		wantRefund     string
		fee            int64  // ISO minor units
		wantFee        string // on the wire
		refused        int64  // an amount Stripe cannot take; 0 for none
	}{
		{"JPY", 5000, 1500, "5000", "1500", 500, "500", 0},
		{"KRW", 65000, 5000, "65000", "5000", 6500, "6500", 0},
		{"ISK", 15000, 2500, "1500000", "250000", 1500, "150000", 0},
		{"UGX", 150000, 37000, "15000000", "3700000", 15000, "1500000", 0},
		{"HUF", 17545, 5050, "17545", "5050", 1755, "1755", 0},
		{"TWD", 100050, 20025, "100050", "20025", 10005, "10005", 0},
		{"KWD", 12340, 1230, "12340", "1230", 1234, "1230", 12345},
		{"BHD", 25500, 5010, "25500", "5010", 2555, "2550", 25501},
		{"MGA", 150000, 50000, "1500", "500", 15050, "150", 150050},
		{"EUR", 12345, 500, "12345", "500", 1235, "1235", 0},
	}
	for _, tt := range tests {
		t.Run(tt.currency, func(t *testing.T) {
			wire := &wireRecorder{next: http.DefaultTransport, currency: tt.currency}
			cfg := stripe.Config{SecretKey: "sk_test_123", PublishableKey: "pk_test_123", BackendURL: mock,
				HTTPClient: &http.Client{Transport: wire, Timeout: 10 * time.Second}, MaxNetworkRetries: -1}
			p, err := stripe.New(cfg)
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			cfg.ChargeType = payment.ChargeDirect
			platform, err := stripe.New(cfg)
			if err != nil {
				t.Fatalf("New platform: %v", err)
			}
			ctx := context.Background()
			key := "staykit-units-" + tt.currency + "-"

			in, err := p.CreateIntent(ctx, payment.CreateParams{Amount: tt.amount, Currency: tt.currency, IdempotencyKey: key + "create"})
			if err != nil {
				t.Fatalf("CreateIntent: %v", err)
			}
			if in.Amount != tt.amount || in.Currency != tt.currency {
				t.Errorf("intent read back = %d %s, want %d %s", in.Amount, in.Currency, tt.amount, tt.currency)
			}
			var saved payment.SavedCards = p
			if _, err := saved.ChargeSaved(ctx, payment.SavedChargeParams{Customer: "cus_123", PaymentMethod: "pm_123",
				Amount: tt.amount, Currency: tt.currency, IdempotencyKey: key + "saved"}); err != nil {
				t.Fatalf("ChargeSaved: %v", err)
			}
			if _, err := platform.ForAccount("acct_123").CreateIntent(ctx, payment.CreateParams{Amount: tt.amount, Currency: tt.currency,
				ApplicationFee: tt.fee, IdempotencyKey: key + "fee"}); err != nil {
				t.Fatalf("Connect CreateIntent: %v", err)
			}
			creates := wire.posts("/v1/payment_intents")
			if len(creates) != 3 {
				t.Fatalf("intents created = %d, want 3", len(creates))
			}
			for i, r := range creates {
				if got := r.Form.Get("amount"); got != tt.wantAmount {
					t.Errorf("create %d: amount sent = %s, want %s", i, got, tt.wantAmount)
				}
				if got := r.Form.Get("currency"); got != strings.ToLower(tt.currency) {
					t.Errorf("create %d: currency sent = %s", i, got)
				}
			}
			if got := creates[2].Form.Get("application_fee_amount"); got != tt.wantFee {
				t.Errorf("application_fee_amount sent = %s, want %s", got, tt.wantFee)
			}

			if _, err := saved.CaptureAmount(ctx, "pi_123", tt.refund, key+"capture"); err != nil {
				t.Fatalf("CaptureAmount: %v", err)
			}
			if c := wire.posts("/v1/payment_intents/pi_123/capture"); len(c) != 1 || c[0].Form.Get("amount_to_capture") != tt.wantRefund {
				t.Errorf("captures sent = %v, want one of amount_to_capture %s", forms(c), tt.wantRefund)
			}
			r, err := p.Refund(ctx, payment.RefundParams{IntentID: "pi_123", Amount: tt.refund, IdempotencyKey: key + "refund"})
			if err != nil {
				t.Fatalf("Refund: %v", err)
			}
			refunds := wire.posts("/v1/refunds")
			if len(refunds) != 1 || refunds[0].Form.Get("amount") != tt.wantRefund {
				t.Fatalf("refunds sent = %v, want one of amount %s", forms(refunds), tt.wantRefund)
			}
			if r.Amount != tt.refund || r.Currency != tt.currency {
				t.Errorf("refund read back = %d %s, want %d %s", r.Amount, r.Currency, tt.refund, tt.currency)
			}

			if tt.refused == 0 {
				return
			}
			if _, err := p.CreateIntent(ctx, payment.CreateParams{Amount: tt.refused, Currency: tt.currency}); !errors.Is(err, payment.ErrInvalid) {
				t.Errorf("CreateIntent(%d %s) = %v, want ErrInvalid", tt.refused, tt.currency, err)
			}
			if _, err := p.Refund(ctx, payment.RefundParams{IntentID: "pi_123", Amount: tt.refused, IdempotencyKey: key + "refused"}); !errors.Is(err, payment.ErrInvalid) {
				t.Errorf("Refund(%d %s) = %v, want ErrInvalid", tt.refused, tt.currency, err)
			}
			if n, m := len(wire.posts("/v1/payment_intents")), len(wire.posts("/v1/refunds")); n != 3 || m != 1 {
				t.Errorf("after refused amounts: %d creates and %d refunds sent, want 3 and 1", n, m)
			}
		})
	}
}
