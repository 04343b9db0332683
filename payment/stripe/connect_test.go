package stripe_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/stripe"
)

// newPlatform points a Connect platform with no retries at url.
func newPlatform(t *testing.T, url string, ct payment.ChargeType, onBehalfOf bool) *stripe.Provider {
	t.Helper()
	p, err := stripe.New(stripe.Config{
		SecretKey: testKey, PublishableKey: "pk_test_staykit", WebhookSecret: "whsec_test",
		ConnectWebhookSecret: "whsec_connect", BackendURL: url, MaxNetworkRetries: -1,
		Logger: slog.New(slog.DiscardHandler), ChargeType: ct, OnBehalfOf: onBehalfOf,
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

func TestConnectDirectChargesCarryTheAccountHeader(t *testing.T) {
	srv := newFakeStripe(t, func(r request) answer {
		if strings.HasPrefix(r.Path, "/v1/refunds") {
			return answer{200, `{"id":"re_1","object":"refund","amount":500,"currency":"eur","status":"succeeded","payment_intent":"pi_123"}`}
		}
		return answer{200, intentJSON(t, map[string]any{"status": "succeeded", "amount_received": 12345})}
	})
	p := newPlatform(t, srv.URL, payment.ChargeDirect, false).ForAccount("acct_A")
	ctx := context.Background()
	if _, err := p.CreateIntent(ctx, payment.CreateParams{Amount: 12345, Currency: "EUR", ApplicationFee: 600, IdempotencyKey: "k"}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.GetIntent(ctx, "pi_123"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.CaptureIntent(ctx, "pi_123", "cap"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.CancelIntent(ctx, "pi_123", "can"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Refund(ctx, payment.RefundParams{IntentID: "pi_123", Amount: 500, IdempotencyKey: "ref"}); err != nil {
		t.Fatal(err)
	}
	saved := p.(payment.SavedCards)
	if _, err := saved.CreateCustomer(ctx, payment.CustomerParams{Email: "g@x.test", IdempotencyKey: "cus"}); err != nil {
		t.Fatal(err)
	}
	if _, err := saved.ChargeSaved(ctx, payment.SavedChargeParams{Customer: "cus_1", PaymentMethod: "pm_1", Amount: 5000, Currency: "EUR", ApplicationFee: 100, IdempotencyKey: "bal"}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) < 8 {
		t.Fatalf("requests = %d, want at least 8", len(reqs))
	}
	for _, r := range reqs {
		if got := r.Header.Get("Stripe-Account"); got != "acct_A" {
			t.Errorf("%s %s: Stripe-Account = %q, want acct_A", r.Method, r.Path, got)
		}
		if r.Form.Get("transfer_data[destination]") != "" || r.Form.Get("reverse_transfer") != "" {
			t.Errorf("%s %s: destination-charge parameters on a direct charge: %v", r.Method, r.Path, r.Form)
		}
	}
	if got := reqs[0].Form.Get("application_fee_amount"); got != "600" {
		t.Errorf("create: application_fee_amount = %q, want 600", got)
	}
	last := reqs[len(reqs)-1]
	if got := last.Form.Get("application_fee_amount"); got != "100" {
		t.Errorf("charge saved: application_fee_amount = %q, want 100", got)
	}
}

func TestConnectDestinationCharges(t *testing.T) {
	for _, onBehalf := range []bool{false, true} {
		srv := newFakeStripe(t, func(r request) answer {
			if strings.HasPrefix(r.Path, "/v1/refunds") {
				return answer{200, `{"id":"re_1","object":"refund","amount":500,"currency":"eur","status":"succeeded","payment_intent":"pi_123"}`}
			}
			return answer{200, intentJSON(t, map[string]any{"status": "succeeded", "amount_received": 12345,
				"transfer_data": map[string]any{"destination": "acct_A"}})}
		})
		p := newPlatform(t, srv.URL, payment.ChargeDestination, onBehalf).ForAccount("acct_A")
		ctx := context.Background()
		if _, err := p.CreateIntent(ctx, payment.CreateParams{Amount: 12345, Currency: "EUR", ApplicationFee: 600}); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Refund(ctx, payment.RefundParams{IntentID: "pi_123", Amount: 500, IdempotencyKey: "ref"}); err != nil {
			t.Fatal(err)
		}
		reqs := srv.requests()
		for _, r := range reqs {
			if got := r.Header.Get("Stripe-Account"); got != "" {
				t.Errorf("%s %s: Stripe-Account = %q on a destination charge", r.Method, r.Path, got)
			}
		}
		create := reqs[0].Form
		wantOBO := ""
		if onBehalf {
			wantOBO = "acct_A"
		}
		if create.Get("transfer_data[destination]") != "acct_A" || create.Get("application_fee_amount") != "600" || create.Get("on_behalf_of") != wantOBO {
			t.Errorf("on_behalf_of=%v: create form = %v", onBehalf, create)
		}
		refund := reqs[len(reqs)-1]
		if refund.Path != "/v1/refunds" || refund.Form.Get("reverse_transfer") != "true" || refund.Form.Get("refund_application_fee") != "true" {
			t.Errorf("refund = %s %v; want reverse_transfer and refund_application_fee", refund.Path, refund.Form)
		}
	}
}

func TestConnectDestinationIntentOfAnotherAccountIsNotFound(t *testing.T) {
	srv := newFakeStripe(t, func(r request) answer {
		return answer{200, intentJSON(t, map[string]any{"status": "requires_capture", "capture_method": "manual",
			"transfer_data": map[string]any{"destination": "acct_A"}})}
	})
	p := newPlatform(t, srv.URL, payment.ChargeDestination, false).ForAccount("acct_B")
	ctx := context.Background()
	if _, err := p.GetIntent(ctx, "pi_123"); !errors.Is(err, payment.ErrNotFound) {
		t.Errorf("GetIntent: err = %v, want ErrNotFound", err)
	}
	if _, err := p.CaptureIntent(ctx, "pi_123", "cap"); !errors.Is(err, payment.ErrNotFound) {
		t.Errorf("CaptureIntent: err = %v, want ErrNotFound", err)
	}
	if _, err := p.CancelIntent(ctx, "pi_123", "can"); !errors.Is(err, payment.ErrNotFound) {
		t.Errorf("CancelIntent: err = %v, want ErrNotFound", err)
	}
	for _, r := range srv.requests() {
		if r.Method != "GET" {
			t.Errorf("%s %s sent for another account's intent", r.Method, r.Path)
		}
	}
}

func TestConnectAccountsAndLinks(t *testing.T) {
	srv := newFakeStripe(t, func(r request) answer {
		if r.Path == "/v1/account_links" {
			return answer{200, `{"object":"account_link","url":"https://connect.stripe.com/setup/e/acct_A/xyz","created":1,"expires_at":2}`}
		}
		return answer{200, `{"id":"acct_A","object":"account","charges_enabled":true,"payouts_enabled":false,"details_submitted":true}`}
	})
	p := newPlatform(t, srv.URL, payment.ChargeDestination, false)
	ctx := context.Background()
	a, err := p.CreateAccount(ctx, payment.AccountParams{Country: "FR", Email: "h@x.test", IdempotencyKey: "connect-account:1"})
	if err != nil || a.ID != "acct_A" || !a.ChargesEnabled || a.PayoutsEnabled || !a.DetailsSubmitted {
		t.Fatalf("CreateAccount = %+v, %v", a, err)
	}
	if _, err := p.GetAccount(ctx, "acct_A"); err != nil {
		t.Fatal(err)
	}
	url, err := p.AccountLink(ctx, payment.AccountLinkParams{Account: "acct_A", RefreshURL: "https://h.test/r", ReturnURL: "https://h.test/ok"})
	if err != nil || url != "https://connect.stripe.com/setup/e/acct_A/xyz" {
		t.Fatalf("AccountLink = %q, %v", url, err)
	}
	reqs := srv.requests()
	create, get, link := reqs[0], reqs[1], reqs[2]
	if create.Path != "/v1/accounts" || create.Form.Get("type") != "express" || create.Form.Get("country") != "FR" ||
		create.Form.Get("capabilities[card_payments][requested]") != "true" || create.Form.Get("capabilities[transfers][requested]") != "true" ||
		create.Header.Get("Idempotency-Key") != "connect-account:1" {
		t.Errorf("create account = %s %v %v", create.Path, create.Form, create.Header.Get("Idempotency-Key"))
	}
	if get.Method != "GET" || get.Path != "/v1/accounts/acct_A" {
		t.Errorf("get account = %s %s", get.Method, get.Path)
	}
	if link.Path != "/v1/account_links" || link.Form.Get("type") != "account_onboarding" || link.Form.Get("account") != "acct_A" ||
		link.Form.Get("return_url") != "https://h.test/ok" || link.Form.Get("refresh_url") != "https://h.test/r" {
		t.Errorf("account link = %s %v", link.Path, link.Form)
	}
}

func TestParseConnectWebhook(t *testing.T) {
	p := newPlatform(t, "http://127.0.0.1:1", payment.ChargeDirect, false)
	withAccount := func(payload []byte, acct string) []byte {
		var m map[string]any
		_ = json.Unmarshal(payload, &m)
		m["account"] = acct
		b, _ := json.Marshal(m)
		return b
	}
	now := time.Now()
	intentEv := withAccount(eventJSON(t, "payment_intent.succeeded", "2023-10-16", eventIntent("succeeded", "automatic", nil)), "acct_A")
	ev, err := p.ParseConnectWebhook(intentEv, sign(intentEv, "whsec_connect", now))
	if err != nil || ev.Account != "acct_A" || ev.Intent == nil || ev.Intent.ID != "pi_123" {
		t.Fatalf("ParseConnectWebhook = %+v, %v", ev, err)
	}
	if _, err := p.ParseConnectWebhook(intentEv, sign(intentEv, "whsec_test", now)); !errors.Is(err, payment.ErrSignature) {
		t.Errorf("signed with the platform secret: err = %v, want ErrSignature", err)
	}
	if _, err := p.ParseWebhook(intentEv, sign(intentEv, "whsec_connect", now)); !errors.Is(err, payment.ErrSignature) {
		t.Errorf("platform endpoint took the Connect secret: err = %v, want ErrSignature", err)
	}
	noAccount := eventJSON(t, "payment_intent.succeeded", "2023-10-16", eventIntent("succeeded", "automatic", nil))
	if _, err := p.ParseConnectWebhook(noAccount, sign(noAccount, "whsec_connect", now)); !errors.Is(err, payment.ErrInvalid) {
		t.Errorf("no account: err = %v, want ErrInvalid", err)
	}
	upd := withAccount(eventJSON(t, "account.updated", "2023-10-16", map[string]any{"id": "acct_A", "object": "account",
		"charges_enabled": true, "payouts_enabled": true, "details_submitted": true}), "acct_A")
	ev, err = p.ParseConnectWebhook(upd, sign(upd, "whsec_connect", now))
	if err != nil || ev.Type != payment.EventAccountUpdated || ev.Connected == nil || !ev.Connected.ChargesEnabled || ev.Connected.ID != "acct_A" {
		t.Fatalf("account.updated = %+v, %v", ev, err)
	}
}

// TestStripeMockAcceptsConnectRequests sends every Connect call to
// stripe-mock, which checks the parameters against Stripe's OpenAPI
// description.
func TestStripeMockAcceptsConnectRequests(t *testing.T) {
	url := testenv.StripeMockURL(t)
	ctx := context.Background()
	pl := newPlatform(t, url, payment.ChargeDestination, true)
	a, err := pl.CreateAccount(ctx, payment.AccountParams{Country: "FR", Email: "h@x.test", IdempotencyKey: "mock-account"})
	if err != nil || !strings.HasPrefix(a.ID, "acct_") {
		t.Fatalf("CreateAccount = %+v, %v", a, err)
	}
	if _, err := pl.GetAccount(ctx, a.ID); err != nil {
		t.Fatalf("GetAccount: %v", err)
	}
	if u, err := pl.AccountLink(ctx, payment.AccountLinkParams{Account: a.ID, RefreshURL: "https://h.test/r", ReturnURL: "https://h.test/ok"}); err != nil || u == "" {
		t.Fatalf("AccountLink = %q, %v", u, err)
	}
	dest := pl.ForAccount("acct_A")
	if _, err := dest.CreateIntent(ctx, payment.CreateParams{Amount: 12345, Currency: "EUR", ApplicationFee: 600, IdempotencyKey: "mock-dest"}); err != nil {
		t.Fatalf("destination CreateIntent: %v", err)
	}
	if _, err := dest.(payment.SavedCards).ChargeSaved(ctx, payment.SavedChargeParams{Customer: "cus_1", PaymentMethod: "pm_1",
		Amount: 5000, Currency: "EUR", ApplicationFee: 100, IdempotencyKey: "mock-dest-saved"}); err != nil {
		t.Fatalf("destination ChargeSaved: %v", err)
	}

	direct := newPlatform(t, url, payment.ChargeDirect, false).ForAccount("acct_A")
	if _, err := direct.CreateIntent(ctx, payment.CreateParams{Amount: 12345, Currency: "EUR", ApplicationFee: 600, IdempotencyKey: "mock-direct"}); err != nil {
		t.Fatalf("direct CreateIntent: %v", err)
	}
	if _, err := direct.GetIntent(ctx, "pi_123"); err != nil {
		t.Fatalf("direct GetIntent: %v", err)
	}
	if _, err := direct.CaptureIntent(ctx, "pi_123", "mock-direct-capture"); err != nil {
		t.Fatalf("direct CaptureIntent: %v", err)
	}
	if _, err := direct.CancelIntent(ctx, "pi_123", "mock-direct-cancel"); err != nil {
		t.Fatalf("direct CancelIntent: %v", err)
	}
	if _, err := direct.Refund(ctx, payment.RefundParams{IntentID: "pi_123", Amount: 500, IdempotencyKey: "mock-direct-refund"}); err != nil {
		t.Fatalf("direct Refund: %v", err)
	}
	if _, err := direct.(payment.SavedCards).CreateCustomer(ctx, payment.CustomerParams{Email: "g@x.test", IdempotencyKey: "mock-direct-cus"}); err != nil {
		t.Fatalf("direct CreateCustomer: %v", err)
	}
}
