package stripe_test

import (
	"context"
	"strings"
	"testing"

	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/stripe"
)

// wantForm fails unless each key of want was sent once with its value.
func wantForm(t *testing.T, r request, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got := r.Form[k]; len(got) != 1 || got[0] != v {
			t.Errorf("%s %s: form %s = %q, want [%q]", r.Method, r.Path, k, got, v)
		}
	}
}

func TestCreateIntentSavesCardForLater(t *testing.T) {
	srv := newFakeStripe(t, func(request) answer {
		return answer{200, intentJSON(t, map[string]any{"customer": "cus_1"})}
	})
	p := newProvider(t, srv.URL, testKey)
	in, err := p.CreateIntent(context.Background(), payment.CreateParams{Amount: 9000, Currency: "EUR",
		IdempotencyKey: "booking-tok-9000", Customer: "cus_1", SaveCard: true})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.onlyRequest(t)
	wantForm(t, r, map[string]string{"customer": "cus_1", "setup_future_usage": "off_session", "amount": "9000"})
	if in.Customer != "cus_1" {
		t.Errorf("Customer = %q, want cus_1", in.Customer)
	}
}

func TestCreateCustomerRequest(t *testing.T) {
	srv := newFakeStripe(t, func(request) answer {
		return answer{200, `{"id":"cus_42","object":"customer"}`}
	})
	p := newProvider(t, srv.URL, testKey)
	id, err := p.CreateCustomer(context.Background(), payment.CustomerParams{Email: "camille@example.com", Name: "Camille",
		IdempotencyKey: "customer-tok", Metadata: map[string]string{"booking_token": "tok"}})
	if err != nil || id != "cus_42" {
		t.Fatalf("CreateCustomer = %q, %v; want cus_42", id, err)
	}
	r := srv.onlyRequest(t)
	if r.Method+" "+r.Path != "POST /v1/customers" || r.Header.Get("Idempotency-Key") != "customer-tok" {
		t.Errorf("request %s %s key %q, want POST /v1/customers with key customer-tok", r.Method, r.Path, r.Header.Get("Idempotency-Key"))
	}
	wantForm(t, r, map[string]string{"email": "camille@example.com", "name": "Camille", "metadata[booking_token]": "tok"})
}

func TestChargeSavedRequestAndOutcomes(t *testing.T) {
	tests := []struct {
		name       string
		answer     answer
		wantStatus payment.IntentStatus
		wantError  string
	}{
		{"succeeded", answer{200, ""}, payment.StatusSucceeded, ""},
		{"declined", answer{402, ""}, payment.StatusRequiresPayment, payment.ErrorCardDeclined},
		{"authentication required", answer{402, ""}, payment.StatusRequiresAction, payment.ErrorAuthenticationRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := intentJSON(t, map[string]any{"status": "succeeded", "amount_received": 21000, "amount": 21000})
			switch tt.wantError {
			case payment.ErrorCardDeclined:
				pi := intentJSON(t, map[string]any{"amount": 21000, "last_payment_error": map[string]any{"code": "card_declined", "type": "card_error"}})
				body = `{"error":{"type":"card_error","code":"card_declined","message":"Your card was declined.","payment_intent":` + pi + `}}`
			case payment.ErrorAuthenticationRequired:
				pi := intentJSON(t, map[string]any{"amount": 21000, "status": "requires_action",
					"last_payment_error": map[string]any{"code": "authentication_required", "decline_code": "authentication_required", "type": "card_error"}})
				body = `{"error":{"type":"card_error","code":"authentication_required","message":"Authentication required.","payment_intent":` + pi + `}}`
			}
			srv := newFakeStripe(t, func(request) answer { return answer{tt.answer.Status, body} })
			p := newProvider(t, srv.URL, testKey)
			in, err := p.ChargeSaved(context.Background(), payment.SavedChargeParams{Customer: "cus_1", PaymentMethod: "pm_1",
				Amount: 21000, Currency: "EUR", IdempotencyKey: "balance:pi_1", Metadata: map[string]string{"purpose": "balance"}})
			if err != nil {
				t.Fatalf("ChargeSaved: %v", err)
			}
			if in.Status != tt.wantStatus || in.LastPaymentError != tt.wantError {
				t.Errorf("intent %s (%q), want %s (%q)", in.Status, in.LastPaymentError, tt.wantStatus, tt.wantError)
			}
			r := srv.onlyRequest(t)
			wantForm(t, r, map[string]string{"customer": "cus_1", "payment_method": "pm_1", "off_session": "true",
				"confirm": "true", "amount": "21000", "currency": "eur", "metadata[purpose]": "balance"})
			if r.Header.Get("Idempotency-Key") != "balance:pi_1" {
				t.Errorf("Idempotency-Key = %q, want balance:pi_1", r.Header.Get("Idempotency-Key"))
			}
			if _, ok := r.Form["capture_method"]; ok {
				t.Errorf("a balance is captured at once, got capture_method %q", r.Form["capture_method"])
			}
		})
	}
}

func TestSecurityDepositHoldAndPartialCapture(t *testing.T) {
	srv := newFakeStripe(t, func(r request) answer {
		if r.Method == "GET" {
			return answer{200, intentJSON(t, map[string]any{"status": "requires_capture", "capture_method": "manual", "amount": 30000})}
		}
		return answer{200, intentJSON(t, map[string]any{"status": "requires_capture", "capture_method": "manual", "amount": 30000})}
	})
	p := newProvider(t, srv.URL, testKey)
	ctx := context.Background()
	if _, err := p.ChargeSaved(ctx, payment.SavedChargeParams{Customer: "cus_1", PaymentMethod: "pm_1", Amount: 30000,
		Currency: "EUR", ManualCapture: true, IdempotencyKey: "deposit-hold:pi_1"}); err != nil {
		t.Fatal(err)
	}
	wantForm(t, srv.requests()[0], map[string]string{"capture_method": "manual", "off_session": "true", "confirm": "true"})
	if _, err := p.CaptureAmount(ctx, "pi_123", 12000, "deposit-claim:pi_123"); err != nil {
		t.Fatal(err)
	}
	last := srv.requests()[len(srv.requests())-1]
	if last.Method+" "+last.Path != "POST /v1/payment_intents/pi_123/capture" || last.Header.Get("Idempotency-Key") != "deposit-claim:pi_123" {
		t.Errorf("capture request %s %s key %q", last.Method, last.Path, last.Header.Get("Idempotency-Key"))
	}
	wantForm(t, last, map[string]string{"amount_to_capture": "12000"})
}

func TestConfirmSavedRequest(t *testing.T) {
	srv := newFakeStripe(t, func(request) answer {
		return answer{200, intentJSON(t, map[string]any{"status": "succeeded", "amount_received": 12345})}
	})
	p := newProvider(t, srv.URL, testKey)
	in, err := p.ConfirmSaved(context.Background(), "pi_123", "pm_1", "balance:pi_1:retry:1")
	if err != nil || in.Status != payment.StatusSucceeded {
		t.Fatalf("ConfirmSaved = %+v, %v", in, err)
	}
	r := srv.onlyRequest(t)
	if r.Method+" "+r.Path != "POST /v1/payment_intents/pi_123/confirm" || r.Header.Get("Idempotency-Key") != "balance:pi_1:retry:1" {
		t.Errorf("request %s %s key %q", r.Method, r.Path, r.Header.Get("Idempotency-Key"))
	}
	wantForm(t, r, map[string]string{"off_session": "true", "payment_method": "pm_1"})
}

// TestStripeMockAcceptsSavedCardRequests sends the saved-card calls to
// stripe-mock, which checks them against Stripe's OpenAPI description.
func TestStripeMockAcceptsSavedCardRequests(t *testing.T) {
	url := testenv.StripeMockURL(t)
	p, err := stripe.New(stripe.Config{SecretKey: "sk_test_123", PublishableKey: "pk_test_123", BackendURL: url, MaxNetworkRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cus, err := p.CreateCustomer(ctx, payment.CustomerParams{Email: "camille@example.com", Name: "Camille", IdempotencyKey: "staykit-mock-customer"})
	if err != nil || !strings.HasPrefix(cus, "cus_") {
		t.Fatalf("CreateCustomer = %q, %v", cus, err)
	}
	in, err := p.CreateIntent(ctx, payment.CreateParams{Amount: 9000, Currency: "EUR", Customer: cus, SaveCard: true, IdempotencyKey: "staykit-mock-save"})
	if err != nil || !strings.HasPrefix(in.ID, "pi_") {
		t.Fatalf("CreateIntent saving the card = %+v, %v", in, err)
	}
	for _, manual := range []bool{false, true} {
		in, err := p.ChargeSaved(ctx, payment.SavedChargeParams{Customer: cus, PaymentMethod: "pm_card_visa", Amount: 21000,
			Currency: "EUR", ManualCapture: manual, IdempotencyKey: "staykit-mock-offsession-" + map[bool]string{false: "balance", true: "deposit"}[manual]})
		if err != nil || !strings.HasPrefix(in.ID, "pi_") {
			t.Fatalf("ChargeSaved (manual %v) = %+v, %v", manual, in, err)
		}
	}
	if in, err := p.ConfirmSaved(ctx, "pi_123", "pm_card_visa", "staykit-mock-confirm"); err != nil || !strings.HasPrefix(in.ID, "pi_") {
		t.Fatalf("ConfirmSaved = %+v, %v", in, err)
	}
	if in, err := p.CaptureAmount(ctx, "pi_123", 500, "staykit-mock-capture-amount"); err != nil || !strings.HasPrefix(in.ID, "pi_") {
		t.Fatalf("CaptureAmount = %+v, %v", in, err)
	}
}
