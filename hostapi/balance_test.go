package hostapi_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/pricing"
)

// TestBookingDetailShowsTheBalance: the host sees a deposit booking's
// balance — how much, when it is due, where it stands — as the guest's
// status page shows it; a booking paid in one go has none.
func TestBookingDetailShowsTheBalance(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		ctx := t.Context()
		org := *e.orgs["villa"]
		org.PaymentMode, org.DepositPercent, org.BalanceDueDays = pricing.ModeDeposit, decimal.NewFromInt(30), 30
		if err := e.replicas[0].store.UpdateOrganization(ctx, &org); err != nil {
			t.Fatal(err)
		}
		id := e.paidBooking("villa", "soleil", "2026-08-10", "2026-08-13")
		r := e.do("villa", req{method: "GET", path: hostPath("villa", "/bookings/"+strconv.FormatInt(id, 10))})
		want(t, r, http.StatusOK)
		d := r.data(t)
		bal, ok := d["balance"].(map[string]any)
		if !ok {
			t.Fatalf("no balance in %v", d)
		}
		// 3 nights at 100: 90 now, 210 on 11 July (30 days before arrival).
		if bal["status"] != "scheduled" || bal["due_date"] != "2026-07-11" || !amountOf(t, bal, "amount").Equal(decimal.NewFromInt(210)) {
			t.Errorf("balance = %v, want 210 scheduled on 2026-07-11", bal)
		}
		if !amountOf(t, bal, "amount").Equal(amountOf(t, d, "balance_amount")) {
			t.Errorf("balance amount %v, booking's balance_amount %v", bal["amount"], d["balance_amount"])
		}
		// The guest's status page says the same.
		g := e.do("villa", req{method: "GET", path: "/api/v1/book/villa/booking/" + d["token"].(string)})
		want(t, g, http.StatusOK)
		var guest struct {
			Data struct {
				Balance struct {
					Status  string          `json:"status"`
					Amount  decimal.Decimal `json:"amount"`
					DueDate string          `json:"due_date"`
				} `json:"balance"`
			} `json:"data"`
		}
		if err := json.Unmarshal(g.body, &guest); err != nil {
			t.Fatal(err)
		}
		if gb := guest.Data.Balance; gb.Status != bal["status"] || gb.DueDate != bal["due_date"] || !gb.Amount.Equal(amountOf(t, bal, "amount")) {
			t.Errorf("guest sees %+v, host sees %v", gb, bal)
		}

		full := e.paidBooking("request-org", "loft", "2026-08-10", "2026-08-13")
		r = e.do("request-org", req{method: "GET", path: hostPath("request-org", "/bookings/"+strconv.FormatInt(full, 10))})
		want(t, r, http.StatusOK)
		bal = r.data(t)["balance"].(map[string]any)
		if bal["status"] != "none" || bal["due_date"] != nil || !amountOf(t, bal, "amount").IsZero() {
			t.Errorf("balance of a booking paid in one go = %v, want none", bal)
		}
	})
}
