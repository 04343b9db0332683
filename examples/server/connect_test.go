package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/staykit/staykit/internal/serverenv"
)

func TestConnectFlags(t *testing.T) {
	keys := map[string]string{"STRIPE_SECRET_KEY": "sk_test_1", "STRIPE_PUBLISHABLE_KEY": "pk_test_1", "STRIPE_WEBHOOK_SECRET": "whsec_1"}
	withConnect := map[string]string{"STRIPE_CONNECT_WEBHOOK_SECRET": "whsec_c"}
	for k, v := range keys {
		withConnect[k] = v
	}
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
	}{
		{"single account by default", nil, keys, ""},
		{"fee without connect", []string{"-platform-fee-percent", "5"}, keys, "need -stripe-connect"},
		{"unknown charge type", []string{"-stripe-connect", "separate"}, withConnect, "want destination or direct"},
		{"connect without keys", []string{"-stripe-connect", "direct"}, nil, "needs STRIPE_SECRET_KEY"},
		{"connect without its webhook secret", []string{"-stripe-connect", "direct"}, keys, "STRIPE_CONNECT_WEBHOOK_SECRET"},
		{"on_behalf_of with direct", []string{"-stripe-connect", "direct", "-stripe-on-behalf-of"}, withConnect, "destination only"},
		{"fee out of range", []string{"-stripe-connect", "destination", "-platform-fee-percent", "120"}, withConnect, "from 0 to 100"},
		{"destination with fee", []string{"-stripe-connect", "destination", "-stripe-on-behalf-of", "-platform-fee-percent", "2.5", "-platform-fee-fixed", "30"}, withConnect, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := serverenv.Parse(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("err = %v, want one with %q", err, tt.wantErr)
			}
			if tt.name == "destination with fee" && (c.Stripe.ChargeType != "destination" || !c.Stripe.OnBehalfOf ||
				c.Stripe.ConnectWebhookSecret != "whsec_c" || c.PlatformFeePercent.String() != "2.5" || c.PlatformFeeFixed != 30) {
				t.Errorf("config = %+v", c)
			}
			if tt.name == "single account by default" && c.Stripe.ChargeType != "" {
				t.Errorf("charge type = %q, want none", c.Stripe.ChargeType)
			}
		})
	}
}

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
	st, err := s.srv.svc.PaymentAccountStatus(context.Background(), "demo")
	if err != nil || !st.Enabled || st.Account.FeePercent.String() != "3" {
		t.Errorf("demo's payment account = %+v, %v; want Connect with a 3 %% fee", st, err)
	}
	r = call(t, "POST", s.URL+"/api/v1/webhooks/stripe-connect", map[string]any{"id": "evt_1"}, map[string]string{"Stripe-Signature": "t=1,v1=00"})
	if r.Status != 400 {
		t.Errorf("unsigned Connect webhook = %d %s; want 400", r.Status, r.Raw)
	}
}
