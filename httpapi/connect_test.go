package httpapi_test

import (
	"context"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// connectHandler is the env's handler on a Service that is a Connect
// platform charging directly into connected accounts, and its Connect
// use cases.
func connectHandler(e *testEnv) (*connect.Service, *paymenttest.Platform, func(call) response) {
	pl := paymenttest.NewPlatform(e.Pay, payment.ChargeDirect)
	svc := booking.NewService(booking.Options{Stores: e.Store.Stores(), Payments: e.Pay, Clock: e.Clock, Connect: pl})
	pay := money.New(svc, money.Options{Store: e.Store.Stores(), Payments: e.Pay, Clock: e.Clock, Connect: pl})
	cs := connect.New(connect.Options{Store: e.Store, Platform: pl, Events: pay, Clock: e.Clock})
	h := httpapi.New(httpapi.Options{Service: svc, Money: pay, Connect: cs, Logger: discardLogger()})
	return cs, pl, func(c call) response { e.t.Helper(); return do(e.t, h, c) }
}

func TestConnectPaymentsNotReady(t *testing.T) {
	e := newTestEnv(t)
	cs, pl, do := connectHandler(e)

	var cfg struct {
		PaymentsReady  bool   `json:"payments_ready"`
		PaymentAccount string `json:"payment_account"`
	}
	r := do(call{method: "GET", path: villa})
	r.data(t, &cfg)
	if r.Status != 200 || cfg.PaymentsReady {
		t.Fatalf("config = %d %s; want payments_ready false", r.Status, r.Body)
	}
	for _, lang := range []struct{ locale, want string }{
		{"fr", "Cet hôte ne peut pas encore recevoir de paiements en ligne. Veuillez réessayer plus tard ou contacter l'hôte."},
		{"en", "This host cannot take online payments yet. Please try again later or contact the host."},
	} {
		r = do(call{method: "POST", path: villa + "/checkout?locale=" + lang.locale, body: checkoutBody(e.Props["soleil"], "2026-10-05", "2026-10-08")})
		if r.Status != 422 || r.Env.Code != booking.CodePaymentsNotReady || r.Env.Message != lang.want {
			t.Errorf("checkout (%s) = %d %s; want 422 payments_not_ready", lang.locale, r.Status, r.Body)
		}
	}

	// Onboarded: the config names the account for Stripe.js.
	villaOrg, err := e.Store.OrganizationBySlug(context.Background(), "villa")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.StartOnboarding(context.Background(), villaOrg, "https://h.test/ok", "https://h.test/again"); err != nil {
		t.Fatal(err)
	}
	st, err := cs.Status(context.Background(), villaOrg)
	if err != nil {
		t.Fatal(err)
	}
	pl.SetChargesEnabled(st.Account.AccountID, true)
	payload, sig, err := pl.SignedConnectWebhook(payment.EventAccountUpdated, st.Account.AccountID, "")
	if err != nil {
		t.Fatal(err)
	}
	r = do(call{method: "POST", path: "/api/v1/webhooks/stripe-connect", header: map[string]string{"Stripe-Signature": sig}, body: string(payload)})
	if r.Status != 200 {
		t.Fatalf("connect webhook = %d %s", r.Status, r.Body)
	}
	r = do(call{method: "GET", path: villa + "?locale=en"})
	r.data(t, &cfg)
	if !cfg.PaymentsReady || cfg.PaymentAccount != st.Account.AccountID {
		t.Errorf("config after onboarding = %s; want ready with account %s", r.Body, st.Account.AccountID)
	}
	r = do(call{method: "POST", path: villa + "/checkout", body: checkoutBody(e.Props["soleil"], "2026-10-05", "2026-10-08")})
	if r.Status != 201 && r.Status != 200 {
		t.Errorf("checkout after onboarding = %d %s", r.Status, r.Body)
	}
}

func TestConnectWebhookRoute(t *testing.T) {
	e := newTestEnv(t)
	_, pl, do := connectHandler(e)
	payload, _, err := pl.SignedConnectWebhook(payment.EventAccountUpdated, "acct_x", "")
	if err != nil {
		t.Fatal(err)
	}
	// Signed with the platform endpoint's secret: refused.
	r := do(call{method: "POST", path: "/api/v1/webhooks/stripe-connect",
		header: map[string]string{"Stripe-Signature": e.Pay.SignPayload(payload, e.Clock.Now())}, body: string(payload)})
	if r.Status != 400 || r.Env.Code != "invalid_webhook" {
		t.Errorf("wrong secret = %d %s; want 400 invalid_webhook", r.Status, r.Body)
	}
	// Without Connect the route refuses everything.
	r = e.do(call{method: "POST", path: "/api/v1/webhooks/stripe-connect", header: map[string]string{"Stripe-Signature": "t=1,v1=00"}, body: `{}`})
	if r.Status != 400 || r.Env.Code != "invalid_webhook" {
		t.Errorf("single account = %d %s; want 400 invalid_webhook", r.Status, r.Body)
	}
}
