package hostapi_test

import (
	"net/http"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

func TestStripeOnboarding(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			var pl *paymenttest.Platform
			e := newEnv(t, open(t, 2), func(o *booking.Options) {
				if pl == nil {
					pl = paymenttest.NewPlatform(o.Payments.(*paymenttest.Provider), payment.ChargeDestination)
				}
				o.Connect = pl
			})
			status := hostPath("villa", "/stripe")
			r := e.do("villa", req{method: "GET", path: status})
			want(t, r, http.StatusOK)
			if d := r.data(t); d["connect"] != true || d["state"] != "none" || d["account_id"] != nil || d["charge_type"] != "destination" {
				t.Fatalf("before onboarding: %s", r.body)
			}
			body := map[string]string{"return_url": "https://host.test/done", "refresh_url": "https://host.test/again"}
			want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/stripe/onboarding"),
				body: map[string]string{"return_url": "nope"}}), http.StatusUnprocessableEntity, "invalid")
			first := e.do("villa", req{method: "POST", path: hostPath("villa", "/stripe/onboarding"), body: body})
			want(t, first, http.StatusOK)
			if u, _ := first.data(t)["url"].(string); u == "" {
				t.Fatalf("no url: %s", first.body)
			}
			// Again, from the other replica: the same account.
			want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/stripe/onboarding"), body: body, replica: 1}), http.StatusOK)
			r = e.do("villa", req{method: "GET", path: status})
			d := r.data(t)
			acct, _ := d["account_id"].(string)
			if acct == "" || d["state"] != "pending" || d["charges_enabled"] != false {
				t.Fatalf("after onboarding link: %s", r.body)
			}
			if n := len(pl.Provider().Intents()); n != 0 {
				t.Errorf("%d intents created by onboarding", n)
			}
			// The other organisation has its own, separate state.
			r = e.do("other", req{method: "GET", path: hostPath("other", "/stripe")})
			if r.data(t)["account_id"] != nil {
				t.Errorf("other organisation sees an account: %s", r.body)
			}
		})
	}
}

func TestStripeOnboardingWithoutConnect(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		r := e.do("villa", req{method: "GET", path: hostPath("villa", "/stripe")})
		want(t, r, http.StatusOK)
		if d := r.data(t); d["connect"] != false || d["charge_type"] != nil {
			t.Errorf("single account: %s", r.body)
		}
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/stripe/onboarding"),
			body: map[string]string{"return_url": "https://h.test/a", "refresh_url": "https://h.test/b"}}), http.StatusUnprocessableEntity, "invalid")
	})
}
