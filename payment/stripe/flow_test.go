package stripe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// statefulStripe is a fake Stripe that keeps the intents it creates, so the
// whole engine can run on the real adapter without the internet.
type statefulStripe struct {
	mu      sync.Mutex
	intents map[string]map[string]any
	n       int
}

func (s *statefulStripe) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	id := strings.TrimPrefix(r.URL.Path, "/v1/payment_intents/")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/payment_intents":
		s.n++
		id = fmt.Sprintf("pi_flow%d", s.n)
		amount, _ := strconv.ParseInt(r.Form.Get("amount"), 10, 64)
		capture := r.Form.Get("capture_method")
		if capture == "" {
			capture = "automatic"
		}
		s.intents[id] = map[string]any{
			"id": id, "object": "payment_intent", "amount": amount, "amount_received": 0,
			"currency": r.Form.Get("currency"), "status": "requires_payment_method",
			"capture_method": capture, "client_secret": id + "_secret_x", "created": time.Now().Unix(),
			"metadata": map[string]string{"booking_token": r.Form.Get("metadata[booking_token]")},
		}
	case r.Method == http.MethodGet && s.intents[id] != nil:
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, errorJSON("invalid_request_error", "resource_missing", "No such payment_intent"))
		return
	}
	json.NewEncoder(w).Encode(s.intents[id])
}

// pay marks an intent paid, as the guest's browser would with Stripe.js.
func (s *statefulStripe) pay(id string) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	pi := s.intents[id]
	pi["status"], pi["amount_received"] = "succeeded", pi["amount"]
	return pi
}

func TestGuestWhoPaysAndLeavesIsConfirmedByWebhook(t *testing.T) {
	ctx := context.Background()
	fake := &statefulStripe{intents: map[string]map[string]any{}}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	provider := newProvider(t, srv.URL, testKey) // webhook secret whsec_test

	db := sqlitetest.Open(t)
	org := booking.Organization{Slug: "demo", Name: "Demo", PublicEngineEnabled: true}.WithDefaults()
	if err := db.CreateOrganization(ctx, &org); err != nil {
		t.Fatal(err)
	}
	prop := booking.Property{OrgID: org.ID, Name: "Loft", MaxGuests: 2, Active: true,
		Rates: pricing.RatePlan{BaseRate: decimal.RequireFromString("80.50")}}
	if err := db.CreateProperty(ctx, &prop); err != nil {
		t.Fatal(err)
	}
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: provider, Logger: slog.New(slog.DiscardHandler)})
	pay := money.New(svc, money.Options{Store: db.Stores(), Payments: provider, Logger: slog.New(slog.DiscardHandler)})
	h := httpapi.New(httpapi.Options{Service: svc, Money: pay, Logger: slog.New(slog.DiscardHandler)})

	post := func(path, body string, header map[string]string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	checkIn := time.Now().AddDate(0, 1, 0).Format(time.DateOnly)
	checkOut := time.Now().AddDate(0, 1, 2).Format(time.DateOnly)
	rec := post("/api/v1/book/demo/checkout", fmt.Sprintf(`{"property_id":%d,"guest_name":"Ada","guest_email":"ada@example.com",
		"guest_phone":"+33612345678","check_in":%q,"check_out":%q,"guests_count":2}`, prop.ID, checkIn, checkOut), nil)
	if rec.Code != http.StatusCreated {
		t.Fatalf("checkout: %d %s", rec.Code, rec.Body)
	}
	var created struct {
		Data struct {
			Token        string  `json:"booking_token"`
			ClientSecret string  `json:"client_secret"`
			Charge       float64 `json:"charge_amount"`
		} `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil {
		t.Fatal(err)
	}
	intentID, _, _ := strings.Cut(created.Data.ClientSecret, "_secret_")
	// 2 nights × 80.50 = 161.00 EUR = 16100 cents, sent to Stripe as such.
	if got := fake.intents[intentID]["amount"]; got != int64(16100) || fake.intents[intentID]["currency"] != "eur" {
		t.Fatalf("intent sent to Stripe: amount %v currency %v, want 16100 eur", got, fake.intents[intentID]["currency"])
	}

	// The guest pays and closes the tab: only Stripe's webhook arrives.
	paid := fake.pay(intentID)
	event, _ := json.Marshal(map[string]any{
		"id": "evt_flow1", "object": "event", "api_version": stripego.APIVersion, "created": time.Now().Unix(),
		"type": "payment_intent.succeeded", "data": map[string]any{"object": paid},
	})
	sign := func(payload []byte, secret string, at time.Time) map[string]string {
		s := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at})
		return map[string]string{"Stripe-Signature": s.Header}
	}
	tests := []struct {
		name    string
		payload []byte
		header  map[string]string
		want    int
	}{
		{"WrongSecret", event, sign(event, "whsec_other", time.Now()), http.StatusBadRequest},
		{"StaleTimestamp", event, sign(event, "whsec_test", time.Now().Add(-10*time.Minute)), http.StatusBadRequest},
		{"Oversized", append(event, make([]byte, 65<<10)...), sign(event, "whsec_test", time.Now()), http.StatusRequestEntityTooLarge},
		{"Valid", event, sign(event, "whsec_test", time.Now()), http.StatusOK},
		{"Replayed", event, sign(event, "whsec_test", time.Now()), http.StatusOK},
	}
	for _, tt := range tests {
		rec := post("/api/v1/webhooks/stripe", string(tt.payload), tt.header)
		if rec.Code != tt.want {
			t.Errorf("%s webhook: %d %s, want %d", tt.name, rec.Code, rec.Body, tt.want)
		}
		if tt.name == "StaleTimestamp" || tt.name == "WrongSecret" {
			if d, _ := svc.Booking(ctx, "demo", created.Data.Token); d.Booking.Status != booking.StatusPending {
				t.Errorf("after a %s webhook the booking is %s, want still pending", tt.name, d.Booking.Status)
			}
		}
	}
	d, err := svc.Booking(ctx, "demo", created.Data.Token)
	if err != nil {
		t.Fatal(err)
	}
	if d.Booking.Status != booking.StatusConfirmed || !d.Booking.PaidAmount.Equal(decimal.RequireFromString("161")) {
		t.Fatalf("after the webhook: %s paid %s, want confirmed 161", d.Booking.Status, d.Booking.PaidAmount)
	}
	// An event type staykit does not act on is acknowledged and ignored.
	other, _ := json.Marshal(map[string]any{"id": "evt_other", "object": "event", "api_version": stripego.APIVersion,
		"type": "customer.created", "data": map[string]any{"object": map[string]any{"id": "cus_1", "object": "customer"}}})
	if rec := post("/api/v1/webhooks/stripe", string(other), sign(other, "whsec_test", time.Now())); rec.Code != http.StatusOK {
		t.Errorf("unknown event type: %d %s, want 200", rec.Code, rec.Body)
	}
}
