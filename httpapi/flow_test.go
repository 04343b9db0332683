package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// amounts are the money fields of a quote, a checkout or a status.
type amounts struct {
	Total   json.Number `json:"total_amount"`
	Charge  json.Number `json:"charge_amount"`
	Balance json.Number `json:"balance_amount"`
	Paid    json.Number `json:"paid_amount"`
}

type checkoutData struct {
	amounts
	Token        string  `json:"booking_token"`
	Status       string  `json:"status"`
	ClientSecret *string `json:"client_secret"`
	PaymentMode  string  `json:"payment_mode"`
}

type statusData struct {
	amounts
	Token         string      `json:"booking_token"`
	Status        string      `json:"status"`
	ConfirmedAt   *string     `json:"confirmed_at"`
	Refunded      json.Number `json:"refunded_amount"`
	RefundPending json.Number `json:"refund_pending_amount"`
}

// flow runs quote → checkout → early confirm (422) → payment → confirm →
// status over HTTP and returns the final status.
func flow(t *testing.T, e *testEnv, slug, prop, checkIn, checkOut string, pay func(intent string)) (amounts, checkoutData, statusData) {
	t.Helper()
	base := "/api/v1/book/" + slug
	id := e.Props[prop]
	q := e.do(call{method: "GET", path: base + "/properties/" + itoa(id) + "/price?check_in=" + checkIn + "&check_out=" + checkOut + "&guests_count=2"})
	if q.Status != 200 {
		t.Fatalf("quote: %d %s", q.Status, q.Body)
	}
	var quote amounts
	q.data(t, &quote)

	c := e.do(call{method: "POST", path: base + "/checkout", body: checkoutBody(id, checkIn, checkOut)})
	if c.Status != 201 {
		t.Fatalf("checkout: %d %s", c.Status, c.Body)
	}
	var co checkoutData
	c.data(t, &co)
	if co.Status != "pending" || co.ClientSecret == nil {
		t.Fatalf("checkout = %+v, want pending with a client secret", co)
	}
	if co.Total != quote.Total || co.Charge != quote.Charge || co.Balance != quote.Balance {
		t.Errorf("checkout amounts %+v differ from the quote's %+v", co.amounts, quote)
	}

	early := e.do(call{method: "POST", path: base + "/booking/" + co.Token + "/confirm", body: `{}`})
	if early.Status != 422 || early.Env.Code != "payment_not_confirmed" {
		t.Fatalf("confirm before paying: %d %s", early.Status, early.Body)
	}

	pay(intentOf(t, e, slug, co.Token))
	intent := intentOf(t, e, slug, co.Token)
	conf := e.do(call{method: "POST", path: base + "/booking/" + co.Token + "/confirm", body: `{"payment_intent_id":"` + intent + `"}`})
	if conf.Status != 200 {
		t.Fatalf("confirm: %d %s", conf.Status, conf.Body)
	}
	again := e.do(call{method: "POST", path: base + "/booking/" + co.Token + "/confirm"})
	if again.Status != 200 || string(again.Env.Data) != string(conf.Env.Data) {
		t.Errorf("confirming again: %d %s, want 200 with the same data as %s", again.Status, again.Env.Data, conf.Env.Data)
	}

	s := e.do(call{method: "GET", path: base + "/booking/" + co.Token})
	if s.Status != 200 {
		t.Fatalf("status: %d %s", s.Status, s.Body)
	}
	var st statusData
	s.data(t, &st)
	if st.Total != quote.Total || st.Charge != quote.Charge || st.Balance != quote.Balance {
		t.Errorf("status amounts %+v differ from the quote's %+v", st.amounts, quote)
	}
	return quote, co, st
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestFlowFullPayment(t *testing.T) {
	e := newTestEnv(t)
	quote, _, st := flow(t, e, "villa", "soleil", "2026-06-10", "2026-06-13", func(intent string) {
		if _, err := e.Pay.SimulatePaid(intent); err != nil {
			t.Fatal(err)
		}
	})
	if quote.Total != "382.00" || quote.Charge != "382.00" || quote.Balance != "0.00" {
		t.Errorf("quote = %+v, want 382.00 charged in full", quote)
	}
	if st.Status != "confirmed" || st.Paid != "382.00" || st.ConfirmedAt == nil {
		t.Errorf("status = %+v, want confirmed, 382.00 paid", st)
	}
}

func TestFlowDeposit(t *testing.T) {
	e := newTestEnv(t)
	quote, co, st := flow(t, e, "deposit-org", "chalet", "2026-07-06", "2026-07-09", func(intent string) {
		if _, err := e.Pay.SimulatePaid(intent); err != nil {
			t.Fatal(err)
		}
	})
	if quote.Total != "300.00" || quote.Charge != "90.00" || quote.Balance != "210.00" {
		t.Errorf("quote = %+v, want 90.00 of 300.00 now", quote)
	}
	if co.PaymentMode != "deposit" {
		t.Errorf("payment_mode = %s, want deposit", co.PaymentMode)
	}
	if st.Status != "confirmed" || st.Paid != "90.00" {
		t.Errorf("status = %+v, want confirmed with the deposit paid", st)
	}
	in, ok := e.Pay.Intent(intentOf(t, e, "deposit-org", co.Token))
	if !ok || in.Amount != 9000 {
		t.Errorf("intent amount = %d, want 9000 cents", in.Amount)
	}
}

func TestFlowRequest(t *testing.T) {
	e := newTestEnv(t)
	_, co, st := flow(t, e, "request-org", "loft", "2026-06-10", "2026-06-13", func(intent string) {
		if _, err := e.Pay.SimulateAuthorized(intent); err != nil {
			t.Fatal(err)
		}
	})
	if st.Status != "requested" || st.ConfirmedAt != nil {
		t.Fatalf("status = %+v, want requested", st)
	}
	if _, err := e.Service.Approve(context.Background(), "request-org", co.Token); err != nil {
		t.Fatalf("approve: %v", err)
	}
	s := e.do(call{method: "GET", path: "/api/v1/book/request-org/booking/" + co.Token})
	var after statusData
	s.data(t, &after)
	if after.Status != "confirmed" || after.Paid != after.Charge {
		t.Errorf("after approval = %+v, want confirmed and paid", after)
	}
}

func TestWebhookConfirmsWithoutConfirmCall(t *testing.T) {
	e := newTestEnv(t)
	c := e.do(call{method: "POST", path: villa + "/checkout", body: soleilCheckout(e)})
	var co checkoutData
	c.data(t, &co)
	intent := intentOf(t, e, "villa", co.Token)
	if _, err := e.Pay.SimulatePaid(intent); err != nil {
		t.Fatal(err)
	}
	payload, sig, err := e.Pay.SignedWebhook(payment.EventSucceeded, intent)
	if err != nil {
		t.Fatal(err)
	}
	// Stripe sends its own content type and no Origin.
	hdr := map[string]string{"Stripe-Signature": sig, "Content-Type": "application/json; charset=utf-8"}
	r := e.do(call{method: "POST", path: webhookPath, body: string(payload), header: hdr})
	if r.Status != 200 {
		t.Fatalf("webhook: %d %s", r.Status, r.Body)
	}
	if got := bookingStatus(t, e, "villa", co.Token); got != booking.StatusConfirmed {
		t.Errorf("status = %s, want confirmed", got)
	}
	// The same event again is accepted and changes nothing.
	if r := e.do(call{method: "POST", path: webhookPath, body: string(payload), header: hdr}); r.Status != 200 {
		t.Errorf("replayed webhook: %d %s", r.Status, r.Body)
	}
	// A store failure is a 500, so that the provider sends it again.
	payload2, sig2, err := e.Pay.SignedWebhook(payment.EventSucceeded, intent)
	if err != nil {
		t.Fatal(err)
	}
	e.Store.fail.Store(true)
	failed := e.do(call{method: "POST", path: webhookPath, body: string(payload2), header: map[string]string{"Stripe-Signature": sig2}})
	e.Store.fail.Store(false)
	if failed.Status != 500 || failed.Env.Code != "internal" || strings.Contains(string(failed.Body), "disk on fire") {
		t.Errorf("webhook with the store down: %d %s, want a safe 500", failed.Status, failed.Body)
	}
	// A tampered payload is refused.
	bad := e.do(call{method: "POST", path: webhookPath, body: string(payload) + " ", header: hdr})
	if bad.Status != 400 || bad.Env.Code != "invalid_webhook" {
		t.Errorf("tampered webhook: %d %s, want 400 invalid_webhook", bad.Status, bad.Body)
	}
}

func TestIdempotentCheckoutReplay(t *testing.T) {
	e := newTestEnv(t)
	hdr := map[string]string{"Idempotency-Key": "order-42"}
	first := e.do(call{method: "POST", path: villa + "/checkout", body: soleilCheckout(e), header: hdr})
	second := e.do(call{method: "POST", path: villa + "/checkout", body: soleilCheckout(e), header: hdr})
	if first.Status != 201 || second.Status != 201 {
		t.Fatalf("statuses %d, %d; want 201 twice\n%s", first.Status, second.Status, second.Body)
	}
	if string(first.Env.Data) != string(second.Env.Data) {
		t.Errorf("replay data differ:\n%s\n%s", first.Env.Data, second.Env.Data)
	}
	if n := len(e.bookings("villa")); n != 2 {
		t.Errorf("%d bookings, want the fixture and one new", n)
	}
}

func TestFreeStayIsConfirmedAtCheckout(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	org, err := e.Store.OrganizationBySlug(ctx, "villa")
	if err != nil {
		t.Fatal(err)
	}
	free := coupon.Coupon{OrgID: org.ID, Code: "FREE", Kind: pricing.DiscountPercent, Value: dec("100"), Active: true}
	if err := e.Store.CreateCoupon(ctx, &free); err != nil {
		t.Fatal(err)
	}
	// Cabane has no fees nor tax: a 100 % coupon makes the stay free.
	c := e.do(call{method: "POST", path: villa + "/checkout",
		body: checkoutBody(e.Props["cabane"], "2026-06-10", "2026-06-11", "coupon_code", "free")})
	if c.Status != 201 {
		t.Fatalf("checkout: %d %s", c.Status, c.Body)
	}
	wantRaw(t, c, `"total_amount":0.00,"charge_amount":0.00,"client_secret":null`, `"status":"confirmed"`, `"expires_at":null`)
	if n := len(e.Pay.Intents()); n != 1 {
		t.Errorf("%d intents, want only the fixture's", n)
	}
}

func TestConcurrentCheckoutsOfTheSameDates(t *testing.T) {
	e := newTestEnv(t)
	const n = 8
	reqs := make([]*http.Request, n)
	recs := make([]*httptest.ResponseRecorder, n)
	body := soleilCheckout(e)
	var wg sync.WaitGroup
	for i := range n {
		// Distinct addresses, so the rate limit stays out of the way.
		reqs[i] = httptest.NewRequest("POST", villa+"/checkout", strings.NewReader(body))
		reqs[i].Header.Set("Content-Type", "application/json")
		reqs[i].RemoteAddr = "198.51.100." + itoa(int64(i+1)) + ":1000"
		recs[i] = httptest.NewRecorder()
		wg.Go(func() { e.Handler.ServeHTTP(recs[i], reqs[i]) })
	}
	wg.Wait()
	created := 0
	statuses := make([]int, n)
	for i, rec := range recs {
		checkRecorded(t, reqs[i], []byte(body), rec)
		statuses[i] = rec.Code
	}
	for _, s := range statuses {
		switch s {
		case 201:
			created++
		case 422:
		default:
			t.Errorf("status %d, want 201 or 422", s)
		}
	}
	if created != 1 {
		t.Errorf("%d checkouts created a booking, want exactly 1 (%v)", created, statuses)
	}
}

// TestCancelWithRefundShowsOnTheStatus: a host's refund leaves a trace the
// guest sees: pending while the payment provider is unreachable, refunded
// once the ledger worker got it through.
func TestCancelWithRefundShowsOnTheStatus(t *testing.T) {
	e := newTestEnv(t)
	_, co, st := flow(t, e, "villa", "soleil", "2026-06-10", "2026-06-13", func(intent string) {
		if _, err := e.Pay.SimulatePaid(intent); err != nil {
			t.Fatal(err)
		}
	})
	if st.Refunded != "0.00" || st.RefundPending != "0.00" {
		t.Fatalf("paid booking shows refunded %s, pending %s; want 0.00", st.Refunded, st.RefundPending)
	}
	ctx := t.Context()
	e.Pay.SetDown(true)
	if _, err := e.Service.Cancel(ctx, "villa", co.Token, true); err != nil {
		t.Fatal(err)
	}
	status := func() statusData {
		r := e.do(call{method: "GET", path: "/api/v1/book/villa/booking/" + co.Token})
		var got statusData
		r.data(t, &got)
		return got
	}
	if got := status(); got.Status != "cancelled" || got.RefundPending != "382.00" || got.Refunded != "0.00" {
		t.Errorf("status with the provider down = %+v, want cancelled with 382.00 pending", got)
	}
	e.Pay.SetDown(false)
	e.Clock.Advance(time.Hour)
	if _, err := e.Money.ProcessPayments(ctx); err != nil {
		t.Fatal(err)
	}
	if got := status(); got.Refunded != "382.00" || got.RefundPending != "0.00" {
		t.Errorf("status after the refund went through = %+v, want 382.00 refunded", got)
	}
}
