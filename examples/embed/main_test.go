package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// TestEmbedBooksAndConfirms runs the program as main does, on a free port
// and a fresh database, and follows its doc comment's walk-through:
// quote, checkout, pay with the fake, confirm, read the booking.
func TestEmbedBooksAndConfirms(t *testing.T) {
	base, _ := startEmbed(t)
	api := base + "/api/v1/book/lac"
	paris, _ := time.LoadLocation("Europe/Paris")
	in := civil.Today(time.Now(), paris).AddDays(30)
	out := in.AddDays(3)

	props := do(t, "GET", api+"/properties", nil)
	list, _ := props["data"].([]any)
	if len(list) != 1 {
		t.Fatalf("properties = %v, want the seeded property", props)
	}
	if desc, _ := list[0].(map[string]any)["description"].(string); !strings.Contains(desc, "lac d'Annecy") {
		t.Errorf("description = %q, want the seed's", desc)
	}

	quote := data(t, do(t, "GET", api+"/properties/1/price?check_in="+in.String()+"&check_out="+out.String()+"&guests_count=2&coupon_code=BIENVENUE", nil))
	co := data(t, do(t, "POST", api+"/checkout", map[string]any{
		"property_id": 1, "check_in": in.String(), "check_out": out.String(), "guests_count": 2, "coupon_code": "BIENVENUE",
		"guest_name": "Ada Lovelace", "guest_email": "ada@example.com", "guest_phone": "+33612345678",
	}))
	if quote["total_amount"] != co["total_amount"] || co["status"] != "pending" {
		t.Errorf("checkout %v after quote %v: want the quoted total and a pending booking", co, quote)
	}
	token, _ := co["booking_token"].(string)
	secret, _ := co["client_secret"].(string)
	intent, _, _ := strings.Cut(secret, "_secret_")

	paid := do(t, "POST", base+"/fakepay/intents/"+intent, map[string]string{"card_number": paymenttest.CardSucceeds})
	if paid["status"] != "succeeded" {
		t.Fatalf("pay = %v, want succeeded", paid)
	}
	confirmed := data(t, do(t, "POST", api+"/booking/"+token+"/confirm", map[string]string{"payment_intent_id": intent}))
	if confirmed["status"] != "confirmed" {
		t.Errorf("confirm = %v, want confirmed", confirmed)
	}
	b := data(t, do(t, "GET", api+"/booking/"+token, nil))
	if b["status"] != "confirmed" || b["paid_amount"] != co["charge_amount"] {
		t.Errorf("booking = %v, want confirmed and paid %v", b, co["charge_amount"])
	}

	// The fake's webhook route cannot be signed from outside.
	forged := paymenttest.New()
	payload := []byte(`{"id":"evt_x","type":"payment_intent.succeeded","created":1,"intent":null}`)
	req, _ := http.NewRequest("POST", base+"/api/v1/webhooks/stripe", bytes.NewReader(payload))
	req.Header.Set("Stripe-Signature", forged.SignPayload(payload, time.Now()))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("webhook signed with paymenttest's default secret = %d, want 400", res.StatusCode)
	}
}

// startEmbed runs the program on a free port and a fresh database until
// the test ends; it returns the base URL and the database's path.
func startEmbed(t *testing.T) (base, dbPath string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dbPath = sqlitetest.Path(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, ln, dbPath, slog.New(slog.DiscardHandler)) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("run after cancel = %v, want nil", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("run still serving after its context ended")
		}
	})
	base = "http://" + ln.Addr().String()
	for deadline := time.Now().Add(5 * time.Second); ; {
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the program does not answer: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return base, dbPath
}

// TestEmbedHostSide: the host API answers a key of the organisation, and
// the dashboard signs a host in, whose session the host API accepts. The
// key and the user are made as the command line makes them, on the
// program's database file.
func TestEmbedHostSide(t *testing.T) {
	base, dbPath := startEmbed(t)
	ctx := context.Background()
	db, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hs := host.New(host.Options{Stores: db.HostStores(), Bookings: booking.NewService(booking.Options{Stores: db.Stores(), Payments: paymenttest.New()})})
	org, err := hs.Organization(ctx, "lac")
	if err != nil {
		t.Fatal(err)
	}
	actor := host.Actor{Kind: "user", Name: "test"}
	key, _, err := hs.CreateAPIKey(ctx, org, "pms", actor)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hs.CreateUser(ctx, org, "host@example.com", "a long secret phrase", actor); err != nil {
		t.Fatal(err)
	}

	req, _ := http.NewRequest("GET", base+"/api/v1/host/lac/properties", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "Gîte du Lac") {
		t.Errorf("host API with a key = %d %s, want 200 with the property", res.StatusCode, body)
	}

	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err = browser.PostForm(base+"/host/login", url.Values{"email": {"host@example.com"}, "password": {"a long secret phrase"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/host/") {
		t.Fatalf("sign-in = %d to %q, want 303 to the dashboard", res.StatusCode, res.Header.Get("Location"))
	}
	for _, path := range []string{"/host/", "/api/v1/host/lac/settings"} {
		res, err = browser.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s signed in = %d, want 200", path, res.StatusCode)
		}
	}
	res, err = http.Get(base + "/api/v1/host/lac/settings")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("host API without key or session = %d, want 401", res.StatusCode)
	}
}

// do sends a request with an optional JSON body and decodes the answer.
func do(t *testing.T, method, url string, body any) map[string]any {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	dec := json.NewDecoder(res.Body)
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%s %s: %d, decode: %v", method, url, res.StatusCode, err)
	}
	if res.StatusCode >= 300 {
		t.Fatalf("%s %s = %d %v", method, url, res.StatusCode, m)
	}
	return m
}

func data(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	d, ok := m["data"].(map[string]any)
	if !ok {
		t.Fatalf("no data in %v", m)
	}
	return d
}
