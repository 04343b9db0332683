package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/policy"
)

type cancellationData struct {
	Cancellable bool        `json:"cancellable"`
	Refund      json.Number `json:"refund_amount"`
	Percent     json.Number `json:"refund_percent"`
	Until       *string     `json:"refund_until"`
	Policy      struct {
		Name    string `json:"name"`
		Summary string `json:"summary"`
	} `json:"policy"`
}

type balanceData struct {
	Status       string      `json:"status"`
	Amount       json.Number `json:"amount"`
	DueDate      *string     `json:"due_date"`
	ClientSecret *string     `json:"client_secret"`
}

func TestGuestCancellationOverHTTP(t *testing.T) {
	e := newTestEnv(t)
	moderate, err := policy.Preset(policy.Moderate)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Service.SaveSettings(context.Background(), "villa", booking.Settings{Policy: &moderate}); err != nil {
		t.Fatal(err)
	}
	_, co, _ := flow(t, e, "villa", "soleil", "2026-06-10", "2026-06-13", func(intent string) {
		if _, err := e.Pay.SimulatePaid(intent); err != nil {
			t.Fatal(err)
		}
	})
	base := "/api/v1/book/villa/booking/" + co.Token
	// Five days before check-in in Paris ends at 2026-06-04T22:00Z; after
	// it, half back.
	e.Clock.Set(time.Date(2026, 6, 4, 22, 0, 0, 0, time.UTC))
	r := e.do(call{method: "GET", path: base + "/cancellation?locale=en"})
	if r.Status != 200 {
		t.Fatalf("preview: %d %s", r.Status, r.Body)
	}
	var pv cancellationData
	r.data(t, &pv)
	if !pv.Cancellable || pv.Refund != "191.00" || pv.Percent != "50" || pv.Policy.Name != "moderate" ||
		pv.Until == nil || *pv.Until != "2026-06-09T22:00:00Z" || !strings.Contains(pv.Policy.Summary, "refund if cancelled") {
		t.Fatalf("preview = %+v, want 191.00 (50 %%) until 2026-06-09T22:00:00Z under moderate, in English", pv)
	}
	c := e.do(call{method: "POST", path: base + "/cancel"})
	if c.Status != 200 {
		t.Fatalf("cancel: %d %s", c.Status, c.Body)
	}
	var st statusData
	c.data(t, &st)
	if st.Status != "cancelled" || st.Refunded != "191.00" {
		t.Errorf("after cancel: %+v, want cancelled with 191.00 refunded", st)
	}
	again := e.do(call{method: "POST", path: base + "/cancel", header: map[string]string{"Accept-Language": "en"}})
	if again.Status != 422 || again.Env.Code != booking.CodeBookingClosed || !strings.Contains(again.Env.Message, "cannot be cancelled") {
		t.Errorf("cancel again: %d %s, want 422 booking_closed saying it cannot be cancelled", again.Status, again.Body)
	}
	if got := e.Pay.Refunds(intentOf(t, e, "villa", co.Token)); len(got) != 1 || got[0].Amount != 19100 {
		t.Errorf("refunds %+v, want one of 19100", got)
	}
}

func TestBalanceOverHTTP(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	_, co, st := flow(t, e, "deposit-org", "chalet", "2026-07-06", "2026-07-09", func(intent string) {
		if _, err := e.Pay.Pay(intent, paymenttest.CardSucceeds); err != nil {
			t.Fatal(err)
		}
	})
	base := "/api/v1/book/deposit-org/booking/" + co.Token
	s := e.do(call{method: "GET", path: base})
	var withBalance struct {
		Balance balanceData `json:"balance"`
	}
	s.data(t, &withBalance)
	if b := withBalance.Balance; b.Status != "scheduled" || b.Amount != st.Balance || b.DueDate == nil || *b.DueDate != "2026-06-06" {
		t.Fatalf("balance = %+v, want scheduled for %s on 2026-06-06", b, st.Balance)
	}
	e.Pay.NextOffSession(paymenttest.OffSessionAuthenticates)
	e.Clock.Set(time.Date(2026, 6, 6, 12, 0, 0, 0, time.UTC))
	if _, err := e.Money.ProcessPayments(ctx); err != nil {
		t.Fatal(err)
	}
	r := e.do(call{method: "POST", path: base + "/balance"})
	var b balanceData
	r.data(t, &b)
	if r.Status != 200 || b.Status != "action_required" || b.ClientSecret == nil {
		t.Fatalf("balance: %d %+v, want action_required with a client secret", r.Status, b)
	}
	intent, _, _ := strings.Cut(*b.ClientSecret, "_secret_")
	if _, err := e.Pay.Pay(intent, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	r = e.do(call{method: "POST", path: base + "/balance", body: `{}`})
	r.data(t, &b)
	if r.Status != 200 || b.Status != "paid" || b.ClientSecret != nil {
		t.Fatalf("balance after authentication: %d %+v, want paid", r.Status, b)
	}
	var final statusData
	e.do(call{method: "GET", path: base}).data(t, &final)
	if final.Paid != final.Total {
		t.Errorf("paid %s, want the total %s", final.Paid, final.Total)
	}
}

func TestCheckoutStatesBalanceConsent(t *testing.T) {
	e := newTestEnv(t)
	id := e.Props["chalet"]
	tests := []struct{ locale, in, out, want string }{
		{"en", "2026-07-06", "2026-07-09", "The balance of 210.00 EUR will be charged to this card on 6 June 2026."},
		{"fr", "2026-07-13", "2026-07-16", "Le solde de 210,00 EUR sera débité sur cette carte le 13 juin 2026."},
	}
	for _, tt := range tests {
		r := e.do(call{method: "POST", path: "/api/v1/book/deposit-org/checkout?locale=" + tt.locale, body: checkoutBody(id, tt.in, tt.out)})
		if r.Status != 201 {
			t.Fatalf("checkout: %d %s", r.Status, r.Body)
		}
		var got struct {
			Consent *string `json:"balance_consent"`
			Policy  struct {
				Summary string `json:"summary"`
			} `json:"cancellation_policy"`
		}
		r.data(t, &got)
		if got.Consent == nil || *got.Consent != tt.want || got.Policy.Summary == "" {
			t.Errorf("%s: consent %v, policy %q; want %q and a policy", tt.locale, got.Consent, got.Policy.Summary, tt.want)
		}
	}
}
