package stripe_test

import (
	"context"
	"strings"
	"testing"

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
}
