package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/payment/paymenttest"
)

type changeOfferData struct {
	Total    json.Number `json:"total_amount"`
	Paid     json.Number `json:"paid_amount"`
	Charge   json.Number `json:"charge_amount"`
	Refund   json.Number `json:"refund_amount"`
	Retained json.Number `json:"retained_amount"`
	Quote    struct {
		Total json.Number `json:"total_amount"`
	} `json:"quote"`
}

type changeData struct {
	ID           int64           `json:"id"`
	Status       string          `json:"status"`
	Offer        changeOfferData `json:"offer"`
	ClientSecret *string         `json:"client_secret"`
}

func num(t *testing.T, n json.Number) decimal.Decimal {
	t.Helper()
	d, err := decimal.NewFromString(string(n))
	if err != nil {
		t.Fatalf("amount %q: %v", n, err)
	}
	return d
}

// A change that costs more, over HTTP: quoted, accepted (paying, with the
// secret the page completes it with), paid, then settled by the GET;
// every response is checked against the OpenAPI document.
func TestDateChangeOverHTTP(t *testing.T) {
	e := newTestEnv(t)
	_, co, _ := flow(t, e, "villa", "soleil", "2026-06-08", "2026-06-11", func(intent string) {
		if _, err := e.Pay.SimulatePaid(intent); err != nil {
			t.Fatal(err)
		}
	})
	base := "/api/v1/book/villa/booking/" + co.Token
	if r := e.do(call{method: "GET", path: base + "/change"}); r.Status != 404 || r.Env.Code != "not_found" || !strings.Contains(r.Env.Message, "modification") {
		t.Fatalf("no change yet: %d %s", r.Status, r.Body)
	}
	longer := `{"check_in": "2026-06-08", "check_out": "2026-06-12", "guests_count": 2}`
	r := e.do(call{method: "POST", path: base + "/change/quote", body: longer})
	if r.Status != 200 {
		t.Fatalf("quote: %d %s", r.Status, r.Body)
	}
	var q changeOfferData
	r.data(t, &q)
	if want := num(t, q.Total).Sub(num(t, q.Paid)); !num(t, q.Charge).Equal(want) || !want.IsPositive() || !num(t, q.Refund).IsZero() {
		t.Fatalf("quote = %+v, want the difference %s charged", q, want)
	}
	r = e.do(call{method: "POST", path: base + "/change", body: longer})
	if r.Status != 200 {
		t.Fatalf("accept: %d %s", r.Status, r.Body)
	}
	var c changeData
	r.data(t, &c)
	if c.Status != "paying" || c.ClientSecret == nil || *c.ClientSecret == "" {
		t.Fatalf("accepted = %+v, want paying with a client secret", c)
	}
	again := e.do(call{method: "POST", path: base + "/change", body: `{"check_in": "2026-06-08", "check_out": "2026-06-13", "guests_count": 2}`})
	if again.Status != 409 || again.Env.Code != "conflict" || !strings.Contains(again.Env.Message, "Une autre modification") {
		t.Fatalf("a second change while one pays: %d %s", again.Status, again.Body)
	}
	intent, _, _ := strings.Cut(*c.ClientSecret, "_secret_")
	if _, err := e.Pay.Pay(intent, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	r = e.do(call{method: "GET", path: base + "/change"})
	r.data(t, &c)
	if r.Status != 200 || c.Status != "applied" || c.ClientSecret != nil {
		t.Fatalf("after paying: %d %+v", r.Status, c)
	}
	st := e.do(call{method: "GET", path: base})
	var s struct {
		CheckOut string      `json:"check_out"`
		Total    json.Number `json:"total_amount"`
	}
	st.data(t, &s)
	if s.CheckOut != "2026-06-12" || !num(t, s.Total).Equal(num(t, q.Total)) {
		t.Fatalf("booking after the change: %+v", s)
	}
	p := e.do(call{method: "GET", path: base + "/payments?locale=en"})
	var pays struct {
		Paid  json.Number `json:"paid_amount"`
		Items []struct {
			Kind, Status string
		} `json:"items"`
	}
	p.data(t, &pays)
	if p.Status != 200 || !num(t, pays.Paid).Equal(num(t, q.Total)) || len(pays.Items) != 2 || pays.Items[1].Kind != "change_charge" || pays.Items[1].Status != "paid" {
		t.Fatalf("payments: %d %s", p.Status, p.Body)
	}
}

func TestDateChangeRefusalsOverHTTP(t *testing.T) {
	e := newTestEnv(t)
	_, co, _ := flow(t, e, "villa", "soleil", "2026-06-08", "2026-06-11", func(intent string) {
		if _, err := e.Pay.SimulatePaid(intent); err != nil {
			t.Fatal(err)
		}
	})
	base := "/api/v1/book/villa/booking/" + co.Token
	tests := []struct {
		name, path, body, locale string
		status                   int
		code, message            string
	}{
		{"StayRuleFr", "/change/quote", `{"check_in": "2026-06-08", "check_out": "2026-06-09", "guests_count": 2}`, "fr", 422, "min_stay", "nuit"},
		{"StayRuleEn", "/change/quote", `{"check_in": "2026-06-08", "check_out": "2026-06-09", "guests_count": 2}`, "en", 422, "min_stay", "night"},
		{"UnchangedEn", "/change", `{"check_in": "2026-06-08", "check_out": "2026-06-11", "guests_count": 2}`, "en", 422, "invalid", "invalid"},
		{"MissingField", "/change", `{"check_in": "2026-06-08"}`, "en", 422, "invalid", ""},
		{"Malformed", "/change", `{"check_in": `, "en", 400, "malformed_json", ""},
		{"UnknownToken", "/change/quote", `{"check_in": "2026-06-08", "check_out": "2026-06-12", "guests_count": 2}`, "en", 404, "not_found", "booking"},
		{"NoBalanceToPayFr", "/balance", `{"pay_now": true}`, "fr", 422, "booking_closed", "Aucun solde"},
		{"PayNowNotBoolean", "/balance", `{"pay_now": "yes"}`, "en", 422, "invalid", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := base + tt.path + "?locale=" + tt.locale
			if tt.name == "UnknownToken" {
				path = "/api/v1/book/villa/booking/nope" + tt.path + "?locale=" + tt.locale
			}
			r := e.do(call{method: "POST", path: path, body: tt.body})
			if r.Status != tt.status || r.Env.Code != tt.code || !strings.Contains(r.Env.Message, tt.message) {
				t.Fatalf("%d %s, want %d %s containing %q", r.Status, r.Body, tt.status, tt.code, tt.message)
			}
		})
	}
}
