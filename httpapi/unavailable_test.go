package httpapi_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/payment"
)

// TestStoreUnavailableIs503: while the store cannot reach its database
// (its errors wrap booking.ErrStoreUnavailable), every route that needs it
// answers 503 service_unavailable with Retry-After, as the document says,
// never a 500 and never the cause; the cause is logged as a warning.
func TestStoreUnavailableIs503(t *testing.T) {
	e := newTestEnv(t)
	c := e.do(call{method: "POST", path: villa + "/checkout", body: soleilCheckout(e)})
	var co checkoutData
	c.data(t, &co)
	intent := intentOf(t, e, "villa", co.Token)
	if _, err := e.Pay.SimulatePaid(intent); err != nil {
		t.Fatal(err)
	}
	payload, sig, err := e.Pay.SignedWebhook(payment.EventSucceeded, intent)
	if err != nil {
		t.Fatal(err)
	}
	booked := villa + "/booking/" + co.Token
	tests := []struct {
		name string
		call call
	}{
		{"config", call{method: "GET", path: villa}},
		{"properties", call{method: "GET", path: villa + "/properties"}},
		{"availability", call{method: "GET", path: villa + "/properties/{soleil}/availability"}},
		{"price", call{method: "GET", path: villa + "/properties/{soleil}/price?" + stayQuery}},
		{"validate coupon", call{method: "POST", path: villa + "/validate-coupon", body: `{"code": "WELCOME10"}`}},
		{"checkout", call{method: "POST", path: villa + "/checkout", body: soleilCheckout(e), header: map[string]string{"Idempotency-Key": "k1"}}},
		{"booking", call{method: "GET", path: booked}},
		{"confirm", call{method: "POST", path: booked + "/confirm", body: `{}`}},
		{"cancellation", call{method: "GET", path: booked + "/cancellation"}},
		{"cancel", call{method: "POST", path: booked + "/cancel", body: `{}`}},
		{"balance", call{method: "POST", path: booked + "/balance", body: `{}`}},
		{"webhook", call{method: "POST", path: webhookPath, body: string(payload), header: map[string]string{"Stripe-Signature": sig}}},
	}
	e.Store.down.Store(true)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.call.path = e.expand(tt.call.path)
			for _, loc := range []string{"en", "fr"} {
				tt.call.header = withHeader(tt.call.header, "Accept-Language", loc)
				r := e.do(tt.call)
				checkV1Headers(t, tt.name, r)
				if r.Status != 503 || r.Env.Code != "service_unavailable" {
					t.Fatalf("%s: %d %s, want 503 service_unavailable", loc, r.Status, r.Body)
				}
				if got := r.Header.Get("Retry-After"); got != strconv.Itoa(httpapi.RetryAfterUnavailable) {
					t.Errorf("Retry-After = %q, want %d", got, httpapi.RetryAfterUnavailable)
				}
				wantNotRaw(t, r, "disk on fire", "secret.db")
				want := map[string]string{
					"en": "The service is temporarily unavailable. Please try again in a few seconds.",
					"fr": "Le service est momentanément indisponible. Veuillez réessayer dans quelques secondes.",
				}[loc]
				if r.Env.Message != want {
					t.Errorf("message = %q, want %q", r.Env.Message, want)
				}
			}
		})
	}
	logs := e.Logs.String()
	if !strings.Contains(logs, "level=WARN") || !strings.Contains(logs, "disk on fire") || strings.Contains(logs, "level=ERROR msg=\"request failed\"") {
		t.Errorf("the cause is not logged as a warning:\n%s", logs)
	}
	// Back up, the same requests are served.
	e.Store.down.Store(false)
	if r := e.do(call{method: "GET", path: booked}); r.Status != 200 {
		t.Errorf("booking once the database is back: %d %s", r.Status, r.Body)
	}
}

// withHeader returns h with name set to value, h itself unchanged.
func withHeader(h map[string]string, name, value string) map[string]string {
	out := map[string]string{name: value}
	for k, v := range h {
		if k != name {
			out[k] = v
		}
	}
	return out
}
