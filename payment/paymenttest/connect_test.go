package paymenttest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

func TestPlatformScopesIntentsByAccount(t *testing.T) {
	ctx := context.Background()
	pl := paymenttest.NewPlatform(paymenttest.New(), payment.ChargeDestination)
	pl.SetChargesEnabled("acct_a", true)
	pl.SetChargesEnabled("acct_b", true)
	a, b := pl.ForAccount("acct_a"), pl.ForAccount("acct_b")

	in, err := a.CreateIntent(ctx, payment.CreateParams{Amount: 10000, Currency: "EUR", ApplicationFee: 500})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.GetIntent(ctx, in.ID); !errors.Is(err, payment.ErrNotFound) {
		t.Errorf("GetIntent from account B: err = %v, want ErrNotFound", err)
	}
	if _, err := pl.Provider().GetIntent(ctx, in.ID); !errors.Is(err, payment.ErrNotFound) {
		t.Errorf("GetIntent from the platform: err = %v, want ErrNotFound", err)
	}
	if _, err := b.CancelIntent(ctx, in.ID, "k"); !errors.Is(err, payment.ErrNotFound) {
		t.Errorf("CancelIntent from account B: err = %v, want ErrNotFound", err)
	}
	if _, err := pl.Provider().SimulatePaid(in.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Refund(ctx, payment.RefundParams{IntentID: in.ID, Amount: 100}); !errors.Is(err, payment.ErrNotFound) {
		t.Errorf("Refund from account B: err = %v, want ErrNotFound", err)
	}
	if _, err := a.Refund(ctx, payment.RefundParams{IntentID: in.ID, Amount: 4000, IdempotencyKey: "r1"}); err != nil {
		t.Fatal(err)
	}
	got, ok := pl.Transfer(in.ID)
	want := paymenttest.Transfer{Destination: "acct_a", Amount: 9500, Reversed: 3800, Fee: 500, FeeRefunded: 200}
	if !ok || got != want {
		t.Errorf("Transfer = %+v, %v; want %+v", got, ok, want)
	}
}

func TestPlatformRefusesChargesUntilEnabled(t *testing.T) {
	ctx := context.Background()
	pl := paymenttest.NewPlatform(paymenttest.New(), payment.ChargeDirect)
	acct, err := pl.CreateAccount(ctx, payment.AccountParams{Country: "FR", IdempotencyKey: "org-1"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := pl.CreateAccount(ctx, payment.AccountParams{Country: "FR", IdempotencyKey: "org-1"})
	if err != nil || again.ID != acct.ID {
		t.Fatalf("repeated CreateAccount = %v, %v; want %s", again, err, acct.ID)
	}
	p := pl.ForAccount(acct.ID)
	if _, err := p.CreateIntent(ctx, payment.CreateParams{Amount: 1000, Currency: "EUR"}); !errors.Is(err, payment.ErrInvalid) {
		t.Errorf("CreateIntent before onboarding: err = %v, want ErrInvalid", err)
	}
	pl.SetChargesEnabled(acct.ID, true)
	if _, err := p.CreateIntent(ctx, payment.CreateParams{Amount: 1000, Currency: "EUR"}); err != nil {
		t.Errorf("CreateIntent after onboarding: %v", err)
	}
	url, err := pl.AccountLink(ctx, payment.AccountLinkParams{Account: acct.ID, RefreshURL: "https://x.test/r", ReturnURL: "https://x.test/ok"})
	if err != nil || url == "" {
		t.Errorf("AccountLink = %q, %v", url, err)
	}
}

func TestPlatformConnectWebhookCarriesAccount(t *testing.T) {
	pl := paymenttest.NewPlatform(paymenttest.New(), payment.ChargeDirect)
	pl.SetChargesEnabled("acct_a", true)
	payload, sig, err := pl.SignedConnectWebhook(payment.EventAccountUpdated, "acct_a", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pl.Provider().ParseWebhook(payload, sig); !errors.Is(err, payment.ErrSignature) {
		t.Errorf("platform endpoint accepted a Connect payload: %v", err)
	}
	ev, err := pl.ParseConnectWebhook(payload, sig)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Account != "acct_a" || ev.Connected == nil || !ev.Connected.ChargesEnabled {
		t.Errorf("event = %+v, connected %+v", ev, ev.Connected)
	}
}
