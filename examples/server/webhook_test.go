package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// TestFakeModeWebhookCannotBeForged sends payment_intent.succeeded for an
// unpaid booking to the real server in fake-payment mode: only a payload
// signed now with the process's own secret is accepted, and even then the
// event is a trigger: the intent's real state decides, so an event that
// says "paid" for an unpaid intent confirms nothing.
func TestFakeModeWebhookCannotBeForged(t *testing.T) {
	ts := startServer(t, nil)
	ids := propertyIDs(t, ts, "demo")
	tests := []struct {
		name string
		// sign returns the Stripe-Signature header of payload.
		sign func(payload []byte) string
		// paid: the guest really paid before the event arrives.
		paid        bool
		wantStatus  int
		wantBooking string
	}{
		{"PublishedDefaultSecret", func(p []byte) string { return paymenttest.New().SignPayload(p, time.Now()) },
			false, http.StatusBadRequest, "pending"},
		{"GuessedSecret", func(p []byte) string {
			return paymenttest.New(paymenttest.WithWebhookSecret("whsec_test")).SignPayload(p, time.Now())
		}, false, http.StatusBadRequest, "pending"},
		{"ServerSecretStale", func(p []byte) string { return ts.srv.fake.SignPayload(p, time.Now().Add(-10*time.Minute)) },
			true, http.StatusBadRequest, "pending"},
		{"ServerSecretFreshButUnpaid", func(p []byte) string { return ts.srv.fake.SignPayload(p, time.Now()) },
			false, http.StatusOK, "pending"},
		{"ServerSecretFreshPaid", func(p []byte) string { return ts.srv.fake.SignPayload(p, time.Now()) },
			true, http.StatusOK, "confirmed"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			co := checkout(t, ts, "demo", ids[0], 20+4*i, 2, 2)
			intent := intentOf(str(co, "client_secret"))
			payload := paidEvent(t, ts, intent)
			if tt.paid {
				if _, err := ts.srv.fake.SimulatePaid(intent); err != nil {
					t.Fatal(err)
				}
			}
			req, err := http.NewRequest(http.MethodPost, ts.URL+"/api/v1/webhooks/stripe", strings.NewReader(string(payload)))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Stripe-Signature", tt.sign(payload))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tt.wantStatus {
				t.Errorf("webhook = %d, want %d", res.StatusCode, tt.wantStatus)
			}
			b := call(t, "GET", ts.URL+"/api/v1/book/demo/booking/"+str(co, "booking_token"), nil, nil).data(t)
			if got := str(b, "status"); got != tt.wantBooking {
				t.Errorf("booking after the webhook = %q, want %q", got, tt.wantBooking)
			}
		})
	}
}

// paidEvent is the fake's payment_intent.succeeded payload for an intent,
// rewritten to say it was paid in full: what a forger would send. The
// intent itself stays unpaid in the server's fake.
func paidEvent(t *testing.T, ts *testServer, intentID string) []byte {
	t.Helper()
	payload, _, err := ts.srv.fake.SignedWebhook(payment.EventSucceeded, intentID)
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(payload, &ev); err != nil {
		t.Fatal(err)
	}
	in := ev["intent"].(map[string]any)
	in["status"] = string(payment.StatusSucceeded)
	in["amount_received"] = in["amount"]
	out, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
