package stripe_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	stripego "github.com/stripe/stripe-go/v76"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/stripe"
)

func TestCreateIntentSendsStripeParameters(t *testing.T) {
	tests := []struct {
		name          string
		manual        bool
		wantCapture   []string // form values of capture_method
		wantManualOut bool
	}{
		{name: "AutomaticCapture", manual: false, wantCapture: nil},
		{name: "ManualCapture", manual: true, wantCapture: []string{"manual"}, wantManualOut: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			captureMethod := "automatic"
			if tt.manual {
				captureMethod = "manual"
			}
			srv := newFakeStripe(t, func(request) answer {
				return answer{200, intentJSON(t, map[string]any{
					"capture_method": captureMethod,
					"metadata":       map[string]string{"booking_token": "bk_tok", "org": "acme", "property": "villa"},
				})}
			})
			p := newProvider(t, srv.URL, testKey)

			got, err := p.CreateIntent(context.Background(), payment.CreateParams{
				Amount:         12345,
				Currency:       "EUR",
				ManualCapture:  tt.manual,
				IdempotencyKey: "checkout-bk_tok",
				Metadata:       map[string]string{"booking_token": "bk_tok", "org": "acme", "property": "villa"},
			})
			if err != nil {
				t.Fatalf("CreateIntent: %v", err)
			}

			r := srv.onlyRequest(t)
			if got, want := r.Method+" "+r.Path, "POST /v1/payment_intents"; got != want {
				t.Errorf("request = %q, want %q", got, want)
			}
			wantForm := map[string]string{
				"amount":                  "12345",
				"currency":                "eur",
				"payment_method_types[0]": "card",
				"metadata[booking_token]": "bk_tok",
				"metadata[org]":           "acme",
				"metadata[property]":      "villa",
			}
			for k, want := range wantForm {
				if got := r.Form[k]; len(got) != 1 || got[0] != want {
					t.Errorf("form %s = %q, want [%q]", k, got, want)
				}
			}
			// Cards only: automatic payment methods would offer bank debits
			// that stay processing for days.
			for k := range r.Form {
				if strings.HasPrefix(k, "automatic_payment_methods") {
					t.Errorf("form has %s, want no automatic payment methods", k)
				}
			}
			if got := r.Form["capture_method"]; fmt.Sprint(got) != fmt.Sprint(tt.wantCapture) {
				t.Errorf("form capture_method = %q, want %q", got, tt.wantCapture)
			}
			if got, want := len(r.Form), len(wantForm)+len(tt.wantCapture); got != want {
				t.Errorf("form has %d parameters, want %d: %v", got, want, r.Form)
			}
			if got, want := r.Header.Get("Idempotency-Key"), "checkout-bk_tok"; got != want {
				t.Errorf("Idempotency-Key = %q, want %q", got, want)
			}
			if got, want := r.Header.Get("Authorization"), "Bearer "+testKey; got != want {
				t.Errorf("Authorization = %q, want %q", got, want)
			}
			if got, want := r.Header.Get("Stripe-Version"), stripego.APIVersion; got != want {
				t.Errorf("Stripe-Version = %q, want %q", got, want)
			}

			if got.ID != "pi_123" || got.ClientSecret != "pi_123_secret_abc" {
				t.Errorf("intent id/secret = %q/%q, want pi_123/pi_123_secret_abc", got.ID, got.ClientSecret)
			}
			if got.ManualCapture != tt.wantManualOut {
				t.Errorf("ManualCapture = %v, want %v", got.ManualCapture, tt.wantManualOut)
			}
			if got, want := got.Metadata["property"], "villa"; got != want {
				t.Errorf("Metadata[property] = %q, want %q", got, want)
			}
		})
	}
}

func TestCreateIntentWithoutIdempotencyKeyStillSendsOne(t *testing.T) {
	srv := newFakeStripe(t, func(request) answer { return answer{200, intentJSON(t, nil)} })
	p := newProvider(t, srv.URL, testKey)
	if _, err := p.CreateIntent(context.Background(), payment.CreateParams{Amount: 5000, Currency: "usd"}); err != nil {
		t.Fatalf("CreateIntent: %v", err)
	}
	// stripe-go generates one so that its own retries cannot create twice.
	if got := srv.onlyRequest(t).Header.Get("Idempotency-Key"); got == "" {
		t.Error("Idempotency-Key is empty, want a generated key")
	}
}

func TestProvidersKeepTheirOwnKeys(t *testing.T) {
	srv := newFakeStripe(t, func(request) answer { return answer{200, intentJSON(t, nil)} })
	keyA, keyB := "sk_test_AAAA", "sk_test_BBBB"
	pa := newProvider(t, srv.URL, keyA)
	pb := newProvider(t, srv.URL, keyB)

	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, id := pa, fmt.Sprintf("pi_A%d", i)
			if i%2 == 1 {
				p, id = pb, fmt.Sprintf("pi_B%d", i)
			}
			if _, err := p.GetIntent(context.Background(), id); err != nil {
				t.Errorf("GetIntent(%s): %v", id, err)
			}
		}()
	}
	wg.Wait()

	reqs := srv.requests()
	if got, want := len(reqs), 10; got != want {
		t.Fatalf("requests = %d, want %d", got, want)
	}
	for _, r := range reqs {
		want := "Bearer " + keyA
		if strings.HasPrefix(r.Path, "/v1/payment_intents/pi_B") {
			want = "Bearer " + keyB
		}
		if got := r.Header.Get("Authorization"); got != want {
			t.Errorf("%s: Authorization = %q, want %q", r.Path, got, want)
		}
	}
	if stripego.Key != "" {
		t.Errorf("stripe.Key = %q, want the package global left empty", stripego.Key)
	}
}

func TestIntentOperationsUseStripePaths(t *testing.T) {
	tests := []struct {
		name     string
		call     func(p *stripe.Provider) (*payment.Intent, error)
		wantReq  string
		wantKey  string // Idempotency-Key header; "" for none
		response map[string]any
		want     payment.IntentStatus
	}{
		{
			name:     "Get",
			call:     func(p *stripe.Provider) (*payment.Intent, error) { return p.GetIntent(context.Background(), "pi_123") },
			wantReq:  "GET /v1/payment_intents/pi_123",
			response: map[string]any{"status": "requires_capture", "capture_method": "manual"},
			want:     payment.StatusAuthorized,
		},
		{
			name: "Capture",
			call: func(p *stripe.Provider) (*payment.Intent, error) {
				return p.CaptureIntent(context.Background(), "pi_123", "capture:pi_123")
			},
			wantReq:  "POST /v1/payment_intents/pi_123/capture",
			wantKey:  "capture:pi_123",
			response: map[string]any{"status": "succeeded", "capture_method": "manual", "amount_received": 12345},
			want:     payment.StatusSucceeded,
		},
		{
			name: "Cancel",
			call: func(p *stripe.Provider) (*payment.Intent, error) {
				return p.CancelIntent(context.Background(), "pi_123", "release:pi_123")
			},
			wantReq:  "POST /v1/payment_intents/pi_123/cancel",
			wantKey:  "release:pi_123",
			response: map[string]any{"status": "canceled"},
			want:     payment.StatusCanceled,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeStripe(t, func(request) answer { return answer{200, intentJSON(t, tt.response)} })
			got, err := tt.call(newProvider(t, srv.URL, testKey))
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			r := srv.onlyRequest(t)
			if got := r.Method + " " + r.Path; got != tt.wantReq {
				t.Errorf("request = %q, want %q", got, tt.wantReq)
			}
			if got, want := r.Form.Get("expand[0]"), "latest_charge"; got != want {
				t.Errorf("expand[0] = %q, want %q", got, want)
			}
			if got := r.Header.Get("Idempotency-Key"); tt.wantKey != "" && got != tt.wantKey {
				t.Errorf("Idempotency-Key = %q, want %q", got, tt.wantKey)
			}
			if got, want := r.Header.Get("Authorization"), "Bearer "+testKey; got != want {
				t.Errorf("Authorization = %q, want %q", got, want)
			}
			if got.Status != tt.want {
				t.Errorf("Status = %q, want %q", got.Status, tt.want)
			}
		})
	}
}

func TestRefundReadsIntentThenCreatesRefund(t *testing.T) {
	tests := []struct {
		name       string
		status     string // of the refund Stripe answers with
		wantStatus payment.RefundStatus
	}{
		{"Succeeded", "succeeded", payment.RefundSucceeded},
		{"Pending", "pending", payment.RefundPending},
		// Not final either: the engine waits for charge.refund.updated.
		{"RequiresAction", "requires_action", payment.RefundPending},
		{"Failed", "failed", payment.RefundFailed},
		{"Canceled", "canceled", payment.RefundCanceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeStripe(t, func(r request) answer {
				if r.Path == "/v1/refunds" {
					return answer{200, fmt.Sprintf(`{"id":"re_1","object":"refund","amount":500,"currency":"eur","payment_intent":"pi_123","status":%q}`, tt.status)}
				}
				return answer{200, intentJSON(t, map[string]any{"status": "succeeded", "amount_received": 12345})}
			})
			got, err := newProvider(t, srv.URL, testKey).Refund(context.Background(),
				payment.RefundParams{IntentID: "pi_123", Amount: 500, IdempotencyKey: "refund:pi_123:cancelled"})
			if err != nil {
				t.Fatalf("Refund: %v", err)
			}
			reqs := srv.requests()
			if len(reqs) != 2 {
				t.Fatalf("requests = %d, want 2: %+v", len(reqs), reqs)
			}
			// The intent is read first, for the currency of the amount.
			if got, want := reqs[0].Method+" "+reqs[0].Path, "GET /v1/payment_intents/pi_123"; got != want {
				t.Errorf("first request = %q, want %q", got, want)
			}
			r := reqs[1]
			if got, want := r.Method+" "+r.Path, "POST /v1/refunds"; got != want {
				t.Errorf("second request = %q, want %q", got, want)
			}
			if got, want := r.Form.Get("payment_intent"), "pi_123"; got != want {
				t.Errorf("payment_intent = %q, want %q", got, want)
			}
			if got := r.Form["amount"]; fmt.Sprint(got) != "[500]" {
				t.Errorf("amount = %q, want [500]", got)
			}
			if got, want := r.Header.Get("Idempotency-Key"), "refund:pi_123:cancelled"; got != want {
				t.Errorf("Idempotency-Key = %q, want %q", got, want)
			}
			want := payment.Refund{ID: "re_1", IntentID: "pi_123", Amount: 500, Currency: "EUR", Status: tt.wantStatus}
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("refund = %+v, want %+v", *got, want)
			}
		})
	}
}

func TestRefundWithoutPaymentIntentInAnswerKeepsIntentID(t *testing.T) {
	srv := newFakeStripe(t, func(r request) answer {
		if r.Path == "/v1/refunds" {
			return answer{200, `{"id":"re_2","object":"refund","amount":500,"currency":"eur","payment_intent":null,"status":"succeeded"}`}
		}
		return answer{200, intentJSON(t, map[string]any{"status": "succeeded"})}
	})
	got, err := newProvider(t, srv.URL, testKey).Refund(context.Background(), payment.RefundParams{IntentID: "pi_123", Amount: 500})
	if err != nil {
		t.Fatalf("Refund: %v", err)
	}
	if got.IntentID != "pi_123" {
		t.Errorf("IntentID = %q, want pi_123", got.IntentID)
	}
}

func TestRefundMakesNoRefundWhenReadFails(t *testing.T) {
	tests := []struct {
		name   string
		answer answer
		want   error
	}{
		{"Unavailable", answer{500, errorJSON("api_error", "", "boom")}, payment.ErrUnavailable},
		{"UnknownIntent", answer{404, errorJSON("invalid_request_error", "resource_missing", "No such payment_intent")}, payment.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeStripe(t, func(r request) answer {
				if r.Path == "/v1/refunds" {
					return answer{200, `{"id":"re_9","object":"refund","amount":500,"payment_intent":"pi_123"}`}
				}
				return tt.answer
			})
			_, err := newProvider(t, srv.URL, testKey).Refund(context.Background(), payment.RefundParams{IntentID: "pi_123", Amount: 500})
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			for _, r := range srv.requests() {
				if r.Path == "/v1/refunds" {
					t.Errorf("a refund was requested although the intent could not be read")
				}
			}
		})
	}
}

func TestGetIntentMapsStatus(t *testing.T) {
	tests := []struct {
		stripe string
		want   payment.IntentStatus
	}{
		{"requires_payment_method", payment.StatusRequiresPayment},
		{"requires_confirmation", payment.StatusRequiresPayment},
		{"requires_action", payment.StatusRequiresAction},
		{"processing", payment.StatusProcessing},
		{"requires_capture", payment.StatusAuthorized},
		{"succeeded", payment.StatusSucceeded},
		{"canceled", payment.StatusCanceled},
		{"some_future_status", payment.StatusProcessing},
	}
	for _, tt := range tests {
		t.Run(tt.stripe, func(t *testing.T) {
			srv := newFakeStripe(t, func(request) answer {
				return answer{200, intentJSON(t, map[string]any{"status": tt.stripe})}
			})
			got, err := newProvider(t, srv.URL, testKey).GetIntent(context.Background(), "pi_123")
			if err != nil {
				t.Fatalf("GetIntent: %v", err)
			}
			if got.Status != tt.want {
				t.Errorf("Status = %q, want %q", got.Status, tt.want)
			}
		})
	}
}

func TestGetIntentMapsFields(t *testing.T) {
	srv := newFakeStripe(t, func(request) answer {
		return answer{200, intentJSON(t, map[string]any{
			"id":              "pi_777",
			"amount":          40000,
			"amount_received": 40000,
			"currency":        "gbp",
			"status":          "succeeded",
			"capture_method":  "automatic_async",
			"client_secret":   "pi_777_secret_x",
			"created":         1767225600,
			"metadata":        map[string]string{"booking_token": "bk_1", "org": "acme"},
			"latest_charge":   "ch_not_expanded",
		})}
	})
	got, err := newProvider(t, srv.URL, testKey).GetIntent(context.Background(), "pi_777")
	if err != nil {
		t.Fatalf("GetIntent: %v", err)
	}
	want := payment.Intent{
		ID: "pi_777", ClientSecret: "pi_777_secret_x", Amount: 40000, AmountReceived: 40000,
		AmountRefunded: 0, Currency: "GBP", Status: payment.StatusSucceeded, ManualCapture: false,
		Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	want.Metadata = map[string]string{"booking_token": "bk_1", "org": "acme"}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("intent = %+v, want %+v", *got, want)
	}
}

func TestCreateIntentRefusesBadAmountsWithoutRequest(t *testing.T) {
	tests := []struct {
		name     string
		amount   int64
		currency string
		key      string
	}{
		{"EURBelowMinimum", 49, "EUR", ""},
		{"USDBelowMinimum", 49, "usd", ""},
		{"GBPBelowMinimum", 29, "GBP", ""},
		{"JPYBelowMinimum", 49, "JPY", ""},
		{"DKKBelowMinimum", 249, "DKK", ""},
		{"HUFBelowMinimum", 17499, "HUF", ""},
		{"Zero", 0, "EUR", ""},
		{"Negative", -100, "EUR", ""},
		{"UnknownCurrencyZero", 0, "KWD", ""},
		{"CurrencyNotACode", 5000, "EURO", ""},
		{"CurrencyEmpty", 5000, "", ""},
		{"CurrencyNotLetters", 5000, "E1R", ""},
		{"IdempotencyKeyTooLong", 5000, "EUR", strings.Repeat("k", 256)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeStripe(t, func(request) answer { return answer{200, intentJSON(t, nil)} })
			_, err := newProvider(t, srv.URL, testKey).CreateIntent(context.Background(),
				payment.CreateParams{Amount: tt.amount, Currency: tt.currency, IdempotencyKey: tt.key})
			if !errors.Is(err, payment.ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
			if n := len(srv.requests()); n != 0 {
				t.Errorf("requests = %d, want none", n)
			}
		})
	}
}

func TestCreateIntentSendsAmountsAtOrAboveMinimum(t *testing.T) {
	tests := []struct {
		name     string
		amount   int64
		currency string
	}{
		{"EURAtMinimum", 50, "EUR"},
		{"GBPAtMinimum", 30, "gbp"},
		{"JPYAtMinimum", 50, "JPY"},
		// Stripe publishes no minimum for KWD: its check is left to Stripe
		// (10, since KWD amounts at Stripe must end in 0).
		{"UnlistedCurrency", 10, "KWD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeStripe(t, func(request) answer { return answer{200, intentJSON(t, nil)} })
			_, err := newProvider(t, srv.URL, testKey).CreateIntent(context.Background(),
				payment.CreateParams{Amount: tt.amount, Currency: tt.currency})
			if err != nil {
				t.Fatalf("CreateIntent: %v", err)
			}
			if got, want := srv.onlyRequest(t).Form.Get("amount"), fmt.Sprint(tt.amount); got != want {
				t.Errorf("amount = %q, want %q", got, want)
			}
		})
	}
}

func TestMinimumAmount(t *testing.T) {
	tests := []struct {
		currency string
		want     int64
		wantOK   bool
	}{
		{"USD", 50, true}, {"eur", 50, true}, {"GBP", 30, true}, {"CHF", 50, true},
		{"JPY", 50, true}, {"CAD", 50, true}, {"AUD", 50, true}, {"DKK", 250, true},
		{"NOK", 300, true}, {"SEK", 300, true}, {"HUF", 17500, true}, {"MXN", 1000, true},
		{"KWD", 0, false},
	}
	for _, tt := range tests {
		got, ok := stripe.MinimumAmount(tt.currency)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("MinimumAmount(%q) = %d, %v; want %d, %v", tt.currency, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestErrorsMapToPaymentErrors(t *testing.T) {
	get := func(p *stripe.Provider) error { _, err := p.GetIntent(context.Background(), "pi_123"); return err }
	capture := func(p *stripe.Provider) error {
		_, err := p.CaptureIntent(context.Background(), "pi_123", "capture:pi_123")
		return err
	}
	create := func(p *stripe.Provider) error {
		_, err := p.CreateIntent(context.Background(), payment.CreateParams{Amount: 5000, Currency: "EUR"})
		return err
	}
	refund := func(p *stripe.Provider) error {
		_, err := p.Refund(context.Background(), payment.RefundParams{IntentID: "pi_123", Amount: 500})
		return err
	}

	tests := []struct {
		name    string
		call    func(*stripe.Provider) error
		answer  answer
		want    error
		wantMsg string
	}{
		{"ServerError", get, answer{500, errorJSON("api_error", "", "internal")}, payment.ErrUnavailable, "internal"},
		{"ServerErrorOnCreate", create, answer{503, errorJSON("api_error", "", "down")}, payment.ErrUnavailable, "down"},
		{"BadGatewayNotJSON", get, answer{502, "<html>bad gateway</html>"}, payment.ErrUnavailable, ""},
		{"RateLimited", get, answer{429, errorJSON("invalid_request_error", "rate_limit", "slow down")}, payment.ErrUnavailable, "slow down"},
		{"BadKey", create, answer{401, errorJSON("invalid_request_error", "", "Invalid API Key provided: sk_test_****7890")}, payment.ErrUnavailable, "Invalid API Key"},
		{"NotFound", get, answer{404, errorJSON("invalid_request_error", "resource_missing", "No such payment_intent: 'pi_123'")}, payment.ErrNotFound, "No such payment_intent"},
		{"RefundUnknownIntent", refund, answer{404, errorJSON("invalid_request_error", "resource_missing", "No such payment_intent")}, payment.ErrNotFound, "No such payment_intent"},
		{"UnexpectedState", capture, answer{400, errorJSON("invalid_request_error", "payment_intent_unexpected_state", "This PaymentIntent could not be captured because it has a status of requires_payment_method.")}, payment.ErrState, "could not be captured"},
		{"AlreadyRefunded", refund, answer{400, errorJSON("invalid_request_error", "charge_already_refunded", "Charge has already been refunded.")}, payment.ErrState, "already been refunded"},
		{"OtherBadRequest", create, answer{400, errorJSON("invalid_request_error", "parameter_invalid_integer", "Invalid integer: abc")}, payment.ErrInvalid, "Invalid integer: abc"},
		{"AmountTooSmall", create, answer{400, errorJSON("invalid_request_error", "amount_too_small", "Amount must be at least €0.50 eur")}, payment.ErrInvalid, "Amount must be at least"},
		{"CardError", create, answer{402, errorJSON("card_error", "card_declined", "Your card was declined.")}, payment.ErrInvalid, "declined"},
	}
	sentinels := []error{payment.ErrUnavailable, payment.ErrNotFound, payment.ErrInvalid, payment.ErrState, payment.ErrSignature}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeStripe(t, func(r request) answer {
				// Refund reads the intent first: let that read succeed, so
				// the error is the refund's own.
				if r.Method == http.MethodGet && tt.name == "AlreadyRefunded" {
					return answer{200, intentJSON(t, map[string]any{"status": "succeeded"})}
				}
				return tt.answer
			})
			err := tt.call(newProvider(t, srv.URL, testKey))
			for _, s := range sentinels {
				if got, want := errors.Is(err, s), s == tt.want; got != want {
					t.Errorf("errors.Is(%v, %v) = %v, want %v", err, s, got, want)
				}
			}
			if err != nil && !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("err = %q, want it to contain %q", err, tt.wantMsg)
			}
		})
	}
}

func TestClosedServerIsUnavailable(t *testing.T) {
	srv := newFakeStripe(t, func(request) answer { return answer{200, intentJSON(t, nil)} })
	url := srv.URL
	srv.Close()
	_, err := newProvider(t, url, testKey).GetIntent(context.Background(), "pi_123")
	if !errors.Is(err, payment.ErrUnavailable) {
		t.Errorf("err = %v, want ErrUnavailable", err)
	}
}

func TestCanceledContextIsUnavailableAndCanceled(t *testing.T) {
	srv := newFakeStripe(t, func(request) answer { return answer{200, intentJSON(t, nil)} })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newProvider(t, srv.URL, testKey).GetIntent(ctx, "pi_123")
	if !errors.Is(err, payment.ErrUnavailable) || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want ErrUnavailable wrapping context.Canceled", err)
	}
}

func TestEmptyIDIsNotFoundWithoutRequest(t *testing.T) {
	srv := newFakeStripe(t, func(request) answer { return answer{200, intentJSON(t, nil)} })
	p := newProvider(t, srv.URL, testKey)
	calls := map[string]func() error{
		"Get":     func() error { _, err := p.GetIntent(context.Background(), ""); return err },
		"Capture": func() error { _, err := p.CaptureIntent(context.Background(), "", "k"); return err },
		"Cancel":  func() error { _, err := p.CancelIntent(context.Background(), "", "k"); return err },
		"Refund": func() error {
			_, err := p.Refund(context.Background(), payment.RefundParams{Amount: 500, IdempotencyKey: "k"})
			return err
		},
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, payment.ErrNotFound) {
			t.Errorf("%s: err = %v, want ErrNotFound", name, err)
		}
	}
	for _, amount := range []int64{0, -1} {
		if _, err := p.Refund(context.Background(), payment.RefundParams{IntentID: "pi_123", Amount: amount}); !errors.Is(err, payment.ErrInvalid) {
			t.Errorf("Refund(%d): err = %v, want ErrInvalid", amount, err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("requests = %d, want none", n)
	}
}

func TestRetriesFollowMaxNetworkRetries(t *testing.T) {
	srv := newFakeStripe(t, func(request) answer { return answer{503, errorJSON("api_error", "", "down")} })
	p, err := stripe.New(stripe.Config{SecretKey: testKey, BackendURL: srv.URL, MaxNetworkRetries: 1})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if _, err := p.GetIntent(context.Background(), "pi_123"); !errors.Is(err, payment.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	reqs := srv.requests()
	if got, want := len(reqs), 2; got != want {
		t.Fatalf("requests = %d, want %d (one retry)", got, want)
	}
}

func TestCreateRetryReusesIdempotencyKey(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	srv := newFakeStripe(t, func(request) answer {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			return answer{503, errorJSON("api_error", "", "down")}
		}
		return answer{200, intentJSON(t, nil)}
	})
	p, err := stripe.New(stripe.Config{SecretKey: testKey, BackendURL: srv.URL, MaxNetworkRetries: 1})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if _, err := p.CreateIntent(context.Background(), payment.CreateParams{Amount: 5000, Currency: "EUR", IdempotencyKey: "k1"}); err != nil {
		t.Fatalf("CreateIntent: %v", err)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want 2", len(reqs))
	}
	for i, r := range reqs {
		if got := r.Header.Get("Idempotency-Key"); got != "k1" {
			t.Errorf("request %d Idempotency-Key = %q, want k1", i, got)
		}
	}
}

func TestLogsNeverHoldSecretKey(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := newFakeStripe(t, func(r request) answer {
		if r.Method == http.MethodGet {
			return answer{401, errorJSON("invalid_request_error", "", "Invalid API Key provided")}
		}
		return answer{200, intentJSON(t, nil)}
	})
	cfg := stripe.Config{SecretKey: testKey, WebhookSecret: "whsec_SECRET", BackendURL: srv.URL, MaxNetworkRetries: -1, Logger: logger}
	p, err := stripe.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if _, err := p.CreateIntent(context.Background(), payment.CreateParams{Amount: 5000, Currency: "EUR"}); err != nil {
		t.Fatalf("CreateIntent: %v", err)
	}
	_, err = p.GetIntent(context.Background(), "pi_123")
	logger.Info("config", "stripe", cfg)

	for name, text := range map[string]string{"log": buf.String(), "error": err.Error(), "String": cfg.String(), "%+v": fmt.Sprintf("%+v", cfg)} {
		for _, secret := range []string{testKey, "whsec_SECRET"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds secret %q: %s", name, secret, text)
			}
		}
	}
	// The logger is wired: stripe-go's request lines and the 401 arrived.
	if !strings.Contains(buf.String(), "/v1/payment_intents") || !strings.Contains(buf.String(), "level=WARN") {
		t.Errorf("log lacks stripe-go's request and error lines:\n%s", buf.String())
	}
	// Debug lines carry response bodies, client secrets included.
	if strings.Contains(buf.String(), "pi_123_secret_abc") {
		t.Errorf("log holds a client secret:\n%s", buf.String())
	}
}

func TestNewRejectsBadKeys(t *testing.T) {
	tests := []struct {
		name string
		cfg  stripe.Config
	}{
		{"NoSecretKey", stripe.Config{PublishableKey: "pk_test_1"}},
		{"PublishableAsSecret", stripe.Config{SecretKey: "pk_test_1"}},
		{"SecretAsPublishable", stripe.Config{SecretKey: "sk_test_1", PublishableKey: "sk_test_1"}},
		{"RestrictedAsPublishable", stripe.Config{SecretKey: "sk_test_1", PublishableKey: "rk_test_1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p, err := stripe.New(tt.cfg); err == nil {
				t.Errorf("New = %v, nil; want an error", p)
			}
		})
	}
}

func TestPublicKeyIsPublishableKey(t *testing.T) {
	p, err := stripe.New(stripe.Config{SecretKey: "sk_test_1", PublishableKey: "pk_test_1"})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if got, want := p.PublicKey(), "pk_test_1"; got != want {
		t.Errorf("PublicKey = %q, want %q", got, want)
	}
}

func TestGetIntentReadsCaptureBefore(t *testing.T) {
	tests := []struct {
		name         string
		latestCharge any
		want         time.Time
	}{
		{"Card", map[string]any{"id": "ch_1", "object": "charge", "payment_method_details": map[string]any{
			"type": "card", "card": map[string]any{"capture_before": 1767830400},
		}}, time.Date(2026, 1, 8, 0, 0, 0, 0, time.UTC)},
		{"CardWithoutCaptureBefore", map[string]any{"id": "ch_1", "object": "charge", "payment_method_details": map[string]any{
			"type": "card", "card": map[string]any{},
		}}, time.Time{}},
		{"NoPaymentMethodDetails", map[string]any{"id": "ch_1", "object": "charge"}, time.Time{}},
		{"ChargeNotExpanded", "ch_1", time.Time{}},
		{"NoCharge", nil, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeStripe(t, func(request) answer {
				return answer{200, intentJSON(t, map[string]any{
					"status": "requires_capture", "capture_method": "manual", "latest_charge": tt.latestCharge,
				})}
			})
			got, err := newProvider(t, srv.URL, testKey).GetIntent(context.Background(), "pi_123")
			if err != nil {
				t.Fatalf("GetIntent: %v", err)
			}
			if !got.CaptureBefore.Equal(tt.want) || got.CaptureBefore.Location() != time.UTC {
				t.Errorf("CaptureBefore = %v, want %v in UTC", got.CaptureBefore, tt.want)
			}
		})
	}
}
