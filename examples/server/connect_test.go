package main

import (
	"context"
	"testing"

	"github.com/staykit/staykit/internal/serverenv"
)

func TestConnectServerRefusesCheckoutUntilOnboarded(t *testing.T) {
	env := map[string]string{"STRIPE_SECRET_KEY": "sk_test_1", "STRIPE_PUBLISHABLE_KEY": "pk_test_1",
		"STRIPE_WEBHOOK_SECRET": "whsec_1", "STRIPE_CONNECT_WEBHOOK_SECRET": "whsec_c"}
	s := startServerWith(t, env, func(c *serverenv.Config) { c.Stripe.BackendURL = "http://127.0.0.1:1" },
		"-stripe-connect", "destination", "-platform-fee-percent", "3")
	r := call(t, "GET", s.URL+"/api/v1/book/demo", nil, nil)
	data, _ := r.Body["data"].(map[string]any)
	if r.Status != 200 || data["payments_ready"] != false {
		t.Fatalf("config = %d %s; want payments_ready false", r.Status, r.Raw)
	}
	demo, err := s.srv.back.Store.OrganizationBySlug(context.Background(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.srv.connect.Status(context.Background(), demo)
	if err != nil || !st.Enabled || st.Account.FeePercent.String() != "3" {
		t.Errorf("demo's payment account = %+v, %v; want Connect with a 3 %% fee", st, err)
	}
	r = call(t, "POST", s.URL+"/api/v1/webhooks/stripe-connect", map[string]any{"id": "evt_1"}, map[string]string{"Stripe-Signature": "t=1,v1=00"})
	if r.Status != 400 {
		t.Errorf("unsigned Connect webhook = %d %s; want 400", r.Status, r.Raw)
	}
}
