package booking_test

import (
	"context"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// connectEnv is newEnv as a Connect platform charging with ct.
func connectEnv(t *testing.T, ct payment.ChargeType) (*env, *paymenttest.Platform) {
	t.Helper()
	e := newEnv(t)
	pl := paymenttest.NewPlatform(e.pay, ct)
	e.svc = booking.NewService(booking.Options{Stores: e.store.Stores(), Payments: e.pay, Clock: e.clock, Notifier: e.notified, Connect: pl})
	e.money = money.New(e.svc, money.Options{Store: e.store.Stores(), Payments: e.pay, Clock: e.clock, Notifier: e.notified, Connect: pl})
	e.connect = connect.New(connect.Options{Store: e.store, Platform: pl, Events: e.money, Clock: e.clock})
	return e, pl
}

// org finds the organisation of slug.
func (e *env) org(t *testing.T, slug string) *booking.Organization {
	t.Helper()
	org, err := e.store.OrganizationBySlug(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	return org
}

// onboard connects slug's organisation: the host follows the onboarding
// link, and account.updated reports the account able to take charges.
func onboard(t *testing.T, e *env, pl *paymenttest.Platform, slug string) string {
	t.Helper()
	ctx := context.Background()
	url, err := e.connect.StartOnboarding(ctx, e.org(t, slug), "https://host.test/done", "https://host.test/again")
	if err != nil || url == "" {
		t.Fatalf("StartOnboarding(%s) = %q, %v", slug, url, err)
	}
	st, err := e.connect.Status(ctx, e.org(t, slug))
	if err != nil || st.Account.AccountID == "" || st.Account.State != booking.OnboardingPending || st.Account.ChargesEnabled {
		t.Fatalf("status after link = %+v, %v; want a pending account", st, err)
	}
	acct := st.Account.AccountID
	again, err := e.connect.StartOnboarding(ctx, e.org(t, slug), "https://host.test/done", "https://host.test/again")
	if err != nil || again == "" {
		t.Fatal(err)
	}
	if st2, _ := e.connect.Status(ctx, e.org(t, slug)); st2.Account.AccountID != acct {
		t.Fatalf("second onboarding made account %s, want %s again", st2.Account.AccountID, acct)
	}
	pl.SetChargesEnabled(acct, true)
	connectWebhook(t, e, pl, payment.EventAccountUpdated, acct, "")
	if st, _ := e.connect.Status(ctx, e.org(t, slug)); !st.Account.ChargesEnabled || st.Account.State != booking.OnboardingComplete {
		t.Fatalf("status after account.updated = %+v; want charges enabled", st)
	}
	return acct
}

func connectWebhook(t *testing.T, e *env, pl *paymenttest.Platform, typ payment.EventType, acct, intentID string) {
	t.Helper()
	payload, sig, err := pl.SignedConnectWebhook(typ, acct, intentID)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.connect.HandleWebhook(context.Background(), payload, sig); err != nil {
		t.Fatalf("HandleWebhook(%s on %s): %v", typ, acct, err)
	}
}

// TestConnectTwoOrganisationsTwoAccounts runs the whole lifecycle for two
// organisations paid into two connected accounts of one deployment.
func TestConnectTwoOrganisationsTwoAccounts(t *testing.T) {
	for _, ct := range []payment.ChargeType{payment.ChargeDestination, payment.ChargeDirect} {
		t.Run(string(ct), func(t *testing.T) {
			e, pl := connectEnv(t, ct)
			ctx := context.Background()

			// Not onboarded: no checkout, and the config says so.
			_, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
			wantCode(t, err, booking.CodePaymentsNotReady)
			cfg, err := e.svc.Config(ctx, "demo")
			if err != nil || cfg.PaymentsReady {
				t.Fatalf("config before onboarding = %+v, %v; want not ready", cfg, err)
			}

			acctA := onboard(t, e, pl, "demo")
			acctB := onboard(t, e, pl, "demo-deposit")
			if err := e.connect.SetPlatformFee(ctx, e.org(t, "demo"), dec("10"), 0); err != nil {
				t.Fatal(err)
			}
			cfg, err = e.svc.Config(ctx, "demo")
			if err != nil || !cfg.PaymentsReady {
				t.Fatalf("config after onboarding = %+v, %v; want ready", cfg, err)
			}
			if want := map[payment.ChargeType]string{payment.ChargeDirect: acctA}[ct]; cfg.PaymentAccount != want {
				t.Errorf("config payment account = %q, want %q", cfg.PaymentAccount, want)
			}

			// Checkout: each organisation's intent lives on its account.
			resA, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
			if err != nil {
				t.Fatal(err)
			}
			resB, err := e.svc.Checkout(ctx, "demo-deposit", e.order("demo-deposit"))
			if err != nil {
				t.Fatal(err)
			}
			inA, inB := resA.Booking.PaymentIntentID, resB.Booking.PaymentIntentID
			if got, _ := e.pay.Account(inA); got != acctA {
				t.Errorf("A's intent is on %q, want %s", got, acctA)
			}
			if got, _ := e.pay.Account(inB); got != acctB {
				t.Errorf("B's intent is on %q, want %s", got, acctB)
			}
			if _, err := pl.ForAccount(acctB).GetIntent(ctx, inA); err == nil {
				t.Errorf("A's intent found from B's account")
			}

			// Both guests pay.
			for _, id := range []string{inA, inB} {
				if _, err := e.pay.Pay(id, paymenttest.CardSucceeds); err != nil {
					t.Fatal(err)
				}
			}
			// A webhook from account A naming B's intent must not touch B.
			connectWebhook(t, e, pl, payment.EventSucceeded, acctA, inB)
			if got := e.status(t, "demo-deposit", resB.Booking.Token); got != booking.StatusPending {
				t.Fatalf("B after A's event = %s, want pending (untouched)", got)
			}
			// The genuine event confirms B: from B's account with direct
			// charges, from the platform's endpoint with destination ones.
			if ct == payment.ChargeDirect {
				connectWebhook(t, e, pl, payment.EventSucceeded, acctB, inB)
			} else {
				payload, sig, err := e.pay.SignedWebhook(payment.EventSucceeded, inB)
				if err != nil {
					t.Fatal(err)
				}
				if err := e.money.HandleWebhook(ctx, payload, sig); err != nil {
					t.Fatal(err)
				}
			}
			if got := e.status(t, "demo-deposit", resB.Booking.Token); got != booking.StatusConfirmed {
				t.Fatalf("B after its own event = %s, want confirmed", got)
			}
			dA, err := e.svc.Confirm(ctx, "demo", resA.Booking.Token, booking.ConfirmRequest{})
			if err != nil || dA.Booking.Status != booking.StatusConfirmed {
				t.Fatalf("confirm A = %v, %v", dA, err)
			}

			// A connects another account later: A's booking stays on the
			// account that took its money.
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			pa, err := e.store.PaymentAccount(ctx, dA.Booking.OrgID)
			must(err)
			pa.AccountID = "acct_later"
			must(e.store.SavePaymentAccount(ctx, pa))

			// Cancel A with a full refund: refunded on A's account, and a
			// destination charge's transfer reversed with the fee.
			if _, err := e.svc.Cancel(ctx, "demo", resA.Booking.Token, true); err != nil {
				t.Fatal(err)
			}
			e.process(t)
			in, _ := e.pay.Intent(inA)
			if in.AmountRefunded != 35900 {
				t.Fatalf("A refunded %d, want 35900", in.AmountRefunded)
			}
			tr, ok := pl.Transfer(inA)
			if ct == payment.ChargeDestination {
				want := paymenttest.Transfer{Destination: acctA, Amount: 35900 - 3590, Reversed: 35900 - 3590, Fee: 3590, FeeRefunded: 3590}
				if !ok || tr != want {
					t.Errorf("A's transfer = %+v, %v; want %+v", tr, ok, want)
				}
			} else if ok {
				t.Errorf("direct charge has a transfer: %+v", tr)
			}
			if got, _ := e.pay.Intent(inB); got.AmountRefunded != 0 {
				t.Errorf("B refunded %d, want 0", got.AmountRefunded)
			}

			// B's balance is charged on its saved card, on B's account.
			e.clock.Set(balanceDue)
			e.process(t)
			bal := e.balanceIntents()
			if len(bal) != 1 || bal[0].Status != payment.StatusSucceeded {
				t.Fatalf("balance intents = %+v, want one succeeded", bal)
			}
			if got, _ := e.pay.Account(bal[0].ID); got != acctB {
				t.Errorf("balance charged on %q, want %s", got, acctB)
			}
			if got := e.booking(t, resB.Booking.ID); !got.PaidAmount.Equal(got.TotalAmount) {
				t.Errorf("B paid %s, want %s", got.PaidAmount, got.TotalAmount)
			}
		})
	}
}

func TestConnectSuspendedAccountStopsCheckouts(t *testing.T) {
	e, pl := connectEnv(t, payment.ChargeDestination)
	acct := onboard(t, e, pl, "demo")
	pl.SetChargesEnabled(acct, false)
	connectWebhook(t, e, pl, payment.EventAccountUpdated, acct, "")
	_, err := e.svc.Checkout(context.Background(), "demo", e.order("demo"))
	wantCode(t, err, booking.CodePaymentsNotReady)
	if st, _ := e.connect.Status(context.Background(), e.org(t, "demo")); st.Account.State != booking.OnboardingRestricted {
		t.Errorf("state = %s, want restricted", st.Account.State)
	}
}

func TestConnectWebhookRefusesBadSignature(t *testing.T) {
	e, pl := connectEnv(t, payment.ChargeDirect)
	payload, _, err := pl.SignedConnectWebhook(payment.EventAccountUpdated, "acct_x", "")
	if err != nil {
		t.Fatal(err)
	}
	// Signed with the platform's secret, not the Connect endpoint's.
	err = e.connect.HandleWebhook(context.Background(), payload, e.pay.SignPayload(payload, start))
	wantCode(t, err, booking.CodeInvalid)
}

func TestSingleAccountTakesNoConnectWebhooks(t *testing.T) {
	e := newEnv(t)
	cs := connect.New(connect.Options{Store: e.store, Clock: e.clock})
	err := cs.HandleWebhook(context.Background(), []byte(`{}`), "t=1,v1=00")
	wantCode(t, err, booking.CodeInvalid)
	cfg, err := e.svc.Config(context.Background(), "demo")
	if err != nil || !cfg.PaymentsReady || cfg.PaymentAccount != "" {
		t.Errorf("single-account config = %+v, %v; want ready, no account", cfg, err)
	}
}
