package hostapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// amountOf reads a decimal field of a response's data.
func amountOf(t *testing.T, d map[string]any, field string) decimal.Decimal {
	t.Helper()
	s, ok := d[field].(string)
	if !ok {
		t.Fatalf("%s = %v, want a decimal string", field, d[field])
	}
	v, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatalf("%s = %q: %v", field, s, err)
	}
	return v
}

// refundsOf adds up the refund entries of a booking's payments, in minor
// units.
func refundsOf(d map[string]any) (n int64) {
	for _, p := range d["payments"].([]any) {
		if p := p.(map[string]any); p["kind"] == "refund" {
			n += int64(p["amount_minor"].(float64))
		}
	}
	return n
}

// TestSettingsContactEmail sets, reads and clears the host's contact
// e-mail through the settings, as the contact command does.
func TestSettingsContactEmail(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		settings := hostPath("villa", "/settings")
		got := e.do("villa", req{method: "GET", path: settings})
		want(t, got, http.StatusOK)
		if got.data(t)["contact_email"] != "" {
			t.Fatalf("contact_email before any = %v, want empty", got.data(t)["contact_email"])
		}
		set := e.do("villa", req{method: "PATCH", path: settings, body: map[string]any{"contact_email": " host@villa-soleil.fr "}})
		want(t, set, http.StatusOK)
		if set.data(t)["contact_email"] != "host@villa-soleil.fr" {
			t.Errorf("PATCH answered contact_email %v", set.data(t)["contact_email"])
		}
		stored, err := e.replicas[0].store.ContactEmail(t.Context(), e.orgs["villa"].ID)
		if err != nil || stored != "host@villa-soleil.fr" {
			t.Errorf("store has %q (%v), want host@villa-soleil.fr", stored, err)
		}
		if got := e.do("villa", req{method: "GET", path: settings}).data(t)["contact_email"]; got != "host@villa-soleil.fr" {
			t.Errorf("GET after PATCH: contact_email %v", got)
		}
		audit := e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log?limit=1")})
		if !strings.Contains(string(audit.body), `"action":"contact.update"`) || !strings.Contains(string(audit.body), `host@villa-soleil.fr`) {
			t.Errorf("audit after the change: %s", audit.body)
		}

		// A bad address changes nothing, not even the other fields sent with it.
		bad := e.do("villa", req{method: "PATCH", path: settings, body: map[string]any{"contact_email": "Host <host@villa.fr>", "name": "Renamed"}})
		want(t, bad, http.StatusUnprocessableEntity, "invalid")
		if !strings.Contains(string(bad.body), `"contact_email"`) {
			t.Errorf("no problem reported for contact_email: %s", bad.body)
		}
		want(t, e.do("villa", req{method: "PATCH", path: settings, body: map[string]any{"contact_email": 42}}), http.StatusUnprocessableEntity, "invalid")
		if d := e.do("villa", req{method: "GET", path: settings}).data(t); d["contact_email"] != "host@villa-soleil.fr" || d["name"] != "villa" {
			t.Errorf("after refused changes: contact_email %v, name %v", d["contact_email"], d["name"])
		}
		// Other organisations neither see nor change it.
		if got := e.do("other", req{method: "GET", path: hostPath("other", "/settings")}).data(t)["contact_email"]; got != "" {
			t.Errorf("other's contact_email = %v", got)
		}
		want(t, e.do("villa", req{method: "PATCH", path: settings, key: e.keys["other"], body: map[string]any{"contact_email": "x@example.com"}}), http.StatusForbidden, "forbidden")
		want(t, e.do("villa", req{method: "PATCH", path: settings, key: "-", body: map[string]any{"contact_email": "x@example.com"}}), http.StatusUnauthorized, "unauthorized")

		want(t, e.do("villa", req{method: "PATCH", path: settings, body: map[string]any{"contact_email": ""}}), http.StatusOK)
		if stored, _ := e.replicas[0].store.ContactEmail(t.Context(), e.orgs["villa"].ID); stored != "" {
			t.Errorf("after clearing, the store has %q", stored)
		}
	})
}

// TestCancelRefundChoice cancels confirmed bookings with each refund
// choice under the moderate policy (everything back until 5 days before
// arrival, then half) three days before arrival.
func TestCancelRefundChoice(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", "/settings"), body: map[string]any{
			"cancellation_policy": map[string]any{"name": "moderate"}}}), http.StatusOK)
		// 4–6 May, two nights at 100: 200 paid, 3 days ahead.
		cases := []struct {
			name       string
			body       any
			wantRefund int64
			rule       string
		}{
			{"policy", map[string]any{"refund": "policy"}, 10000, "policy"},
			{"full", map[string]any{"refund": "full"}, 20000, "full"},
			{"none", map[string]any{"refund": "none"}, 0, "none"},
			{"amount alone", map[string]any{"amount": "30"}, 3000, "amount"},
			{"amount rule", map[string]any{"refund": "amount", "amount": 45.5}, 4550, "amount"},
			{"true is full", map[string]any{"refund": true}, 20000, "full"},
			{"false is none", map[string]any{"refund": false}, 0, "none"},
			{"no body is none", nil, 0, "none"},
		}
		for i, c := range cases {
			in := day("2026-05-04").AddDays(10 * i)
			if i > 0 {
				// Later stays: move the clock so that each is 3 days ahead.
				e.clock.Set(testNow.AddDate(0, 0, 10*i))
			}
			id := e.paidBooking("villa", "soleil", in.String(), in.AddDays(2).String())
			path := hostPath("villa", fmt.Sprintf("/bookings/%d/cancel", id))
			got := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d", id))})
			want(t, got, http.StatusOK)
			if p, _ := got.data(t)["cancellation_policy"].(map[string]any); p["name"] != "moderate" {
				t.Errorf("%s: booking's policy = %v, want moderate", c.name, got.data(t)["cancellation_policy"])
			}
			r := e.do("villa", req{method: "POST", path: path, body: c.body})
			want(t, r, http.StatusOK)
			d := r.data(t)
			if d["status"] != "cancelled" || refundsOf(d) != c.wantRefund {
				t.Errorf("%s: status %v, refunds %d; want cancelled, %d: %s", c.name, d["status"], refundsOf(d), c.wantRefund, r.body)
			}
			for _, p := range d["payments"].([]any) {
				p := p.(map[string]any)
				if got, want := p["amount"], decimal.New(int64(p["amount_minor"].(float64)), -2).StringFixed(2); got != want {
					t.Errorf("%s: payment of %v minor units has amount %v, want %q", c.name, p["amount_minor"], got, want)
				}
			}
			// Sent at once when the provider answers, else on its way.
			back := amountOf(t, d, "refunded_amount").Add(amountOf(t, d, "refund_pending_amount"))
			if !back.Equal(decimal.New(c.wantRefund, -2)) {
				t.Errorf("%s: refunded %v + pending %v, want %d cents", c.name, d["refunded_amount"], d["refund_pending_amount"], c.wantRefund)
			}
			audit := e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log?limit=1")})
			if !strings.Contains(string(audit.body), `"refund":"`+c.rule+`"`) {
				t.Errorf("%s: audit of the cancellation = %s", c.name, audit.body)
			}
			want(t, e.do("villa", req{method: "POST", path: path, body: c.body}), http.StatusUnprocessableEntity, "booking_closed")
		}

		e.clock.Set(testNow)
		id := e.paidBooking("villa", "soleil", "2026-09-01", "2026-09-03")
		path := hostPath("villa", fmt.Sprintf("/bookings/%d/cancel", id))
		for _, bad := range []struct {
			body  any
			field string
		}{
			{map[string]any{"refund": "half"}, "refund"},
			{map[string]any{"refund": 3}, "refund"},
			{map[string]any{"refund": "amount"}, "amount"},
			{map[string]any{"refund": "full", "amount": "5"}, "refund"},
			{map[string]any{"amount": "200.01"}, "amount"},
			{map[string]any{"amount": "-5"}, "amount"},
		} {
			r := e.do("villa", req{method: "POST", path: path, body: bad.body})
			want(t, r, http.StatusUnprocessableEntity, "invalid")
			if !strings.Contains(string(r.body), `"`+bad.field+`"`) {
				t.Errorf("%v: no problem reported for %s: %s", bad.body, bad.field, r.body)
			}
		}
		if d := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d", id))}).data(t); d["status"] != "confirmed" || refundsOf(d) != 0 {
			t.Errorf("after refused cancellations: %v with %d refunded", d["status"], refundsOf(d))
		}
		want(t, e.do("villa", req{method: "POST", path: path, key: "-", body: map[string]any{"refund": "policy"}}), http.StatusUnauthorized, "unauthorized")
		want(t, e.do("villa", req{method: "POST", path: path, key: e.keys["other"], body: map[string]any{"refund": "policy"}}), http.StatusForbidden, "forbidden")
		want(t, e.do("other", req{method: "POST", path: hostPath("other", fmt.Sprintf("/bookings/%d/cancel", id)), body: map[string]any{"refund": "policy"}}), http.StatusNotFound, "not_found")
		// Moderate four months ahead: everything back by the policy.
		r := e.do("villa", req{method: "POST", path: path, body: map[string]any{"refund": "policy"}})
		want(t, r, http.StatusOK)
		if refundsOf(r.data(t)) != 20000 {
			t.Errorf("policy refund 4 months ahead = %d, want all 20000: %s", refundsOf(r.data(t)), r.body)
		}
	})
}

// TestClaimDeposit claims part of a held security deposit through the
// host API: refused before the hold is placed, above the deposit and a
// second time; the booking shows the claim.
func TestClaimDeposit(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", "/settings"), body: map[string]any{
			"security_deposit": "300", "deposit_hold_days": 1, "deposit_release_days": 2}}), http.StatusOK)
		id := e.paidBooking("villa", "soleil", "2026-06-08", "2026-06-11")
		bookingPath := hostPath("villa", fmt.Sprintf("/bookings/%d", id))
		claim := bookingPath + "/deposit/claim"
		deposit := func(r response) map[string]any {
			t.Helper()
			dep, ok := r.data(t)["security_deposit"].(map[string]any)
			if !ok {
				t.Fatalf("no security_deposit: %s", r.body)
			}
			return dep
		}
		got := e.do("villa", req{method: "GET", path: bookingPath})
		if dep := deposit(got); dep["status"] != "scheduled" || !amountOf(t, dep, "amount").Equal(decimal.NewFromInt(300)) {
			t.Fatalf("deposit before the hold = %v", dep)
		}
		want(t, e.do("villa", req{method: "POST", path: claim, body: map[string]any{"amount": "100"}}), http.StatusUnprocessableEntity, "booking_closed")

		// The hold is placed from midnight starting 7 June in Paris.
		e.clock.Set(time.Date(2026, 6, 6, 22, 0, 0, 0, time.UTC))
		if _, err := e.replicas[0].money.ProcessPayments(t.Context()); err != nil {
			t.Fatal(err)
		}
		if dep := deposit(e.do("villa", req{method: "GET", path: bookingPath})); dep["status"] != "held" {
			t.Fatalf("deposit after the hold day = %v, want held", dep)
		}
		for _, bad := range []any{map[string]any{}, map[string]any{"amount": "300.01"}, map[string]any{"amount": "0"}, map[string]any{"amount": "abc"}} {
			want(t, e.do("villa", req{method: "POST", path: claim, body: bad}), http.StatusUnprocessableEntity, "invalid")
		}
		want(t, e.do("villa", req{method: "POST", path: claim, key: "-", body: map[string]any{"amount": "120"}}), http.StatusUnauthorized, "unauthorized")
		want(t, e.do("villa", req{method: "POST", path: claim, key: e.keys["other"], body: map[string]any{"amount": "120"}}), http.StatusForbidden, "forbidden")
		want(t, e.do("other", req{method: "POST", path: hostPath("other", fmt.Sprintf("/bookings/%d/deposit/claim", id)), body: map[string]any{"amount": "120"}}), http.StatusNotFound, "not_found")
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/bookings/999999/deposit/claim"), body: map[string]any{"amount": "120"}}), http.StatusNotFound, "not_found")

		r := e.do("villa", req{method: "POST", path: claim, body: map[string]any{"amount": "120"}})
		want(t, r, http.StatusOK)
		if dep := deposit(r); dep["status"] != "claimed" || !amountOf(t, dep, "claimed_amount").Equal(decimal.NewFromInt(120)) {
			t.Errorf("deposit after the claim = %v, want claimed 120", dep)
		}
		if !strings.Contains(string(r.body), `"kind":"deposit_claim"`) {
			t.Errorf("no deposit_claim among the payments: %s", r.body)
		}
		audit := e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log?limit=1")})
		if !strings.Contains(string(audit.body), `"action":"deposit.claim"`) {
			t.Errorf("audit of the claim = %s", audit.body)
		}
		want(t, e.do("villa", req{method: "POST", path: claim, body: map[string]any{"amount": "10"}}), http.StatusUnprocessableEntity, "booking_closed")
	})
}

// TestPaymentsStartWithTheCharge: the host's payment list of a booking
// shows every movement, the guest's first payment included, and a
// cancellation's decision.
func TestPaymentsStartWithTheCharge(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		id := e.paidBooking("villa", "soleil", "2026-05-04", "2026-05-06")
		path := hostPath("villa", fmt.Sprintf("/bookings/%d", id))
		got := e.do("villa", req{method: "GET", path: path})
		want(t, got, http.StatusOK)
		payments := got.data(t)["payments"].([]any)
		if len(payments) == 0 {
			t.Fatalf("no payments: %s", got.body)
		}
		first := payments[0].(map[string]any)
		if first["kind"] != "charge" || first["status"] != "succeeded" || first["amount"] != "200.00" {
			t.Errorf("first payment %v, want the 200.00 charge, succeeded", first)
		}
		r := e.do("villa", req{method: "POST", path: path + "/cancel", body: map[string]any{"refund": "amount", "amount": "30"}})
		want(t, r, http.StatusOK)
		kinds := map[string]float64{}
		for _, p := range r.data(t)["payments"].([]any) {
			p := p.(map[string]any)
			kinds[p["kind"].(string)] += p["amount_minor"].(float64)
		}
		if kinds["charge"] != 20000 || kinds["decision"] != 17000 || kinds["refund"] != 3000 {
			t.Errorf("payments after the cancellation %v, want charge 20000, decision 17000 kept, refund 3000", kinds)
		}
	})
}
