package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/internal/serverenv"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
)

func TestServerServesTheDemoOnFirstStart(t *testing.T) {
	ts := startServer(t, nil)
	tests := []struct {
		name, method, path string
		wantStatus         int
		wantType           string
		wantBody           string
	}{
		{"health", "GET", "/healthz", 200, "application/json", `{"status":"ok"}`},
		{"booking page", "GET", "/", 200, "text/html", `<select id="org-select"`},
		{"page script", "GET", "/app.js", 200, "text/javascript", "_secret_"},
		{"page style", "GET", "/style.css", 200, "text/css", ".calendar"},
		{"property photo", "GET", "/img/villa-soleil.svg", 200, "image/svg+xml", "<svg"},
		{"page config", "GET", "/app-config.json", 200, "application/json", `"payments":"fake"`},
		{"api", "GET", "/api/v1/book/demo/properties", 200, "application/json", `"name":"Villa Soleil"`},
		{"openapi", "GET", "/api/v1/openapi.json", 200, "application/json", `"openapi"`},
		{"unknown page", "GET", "/nope.html", 404, "text/plain", "404 page not found"},
		{"page is read-only", "POST", "/", 405, "text/plain", "method not allowed"},
		{"fake payments are mounted", "GET", "/fakepay/intents/pi_x", 405, "application/json", `"error":"method_not_allowed"`},
		{"plant store is mounted", "POST", "/plants", 401, "application/json", `"error":401`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, tt.method, ts.URL+tt.path, nil, nil)
			if r.Status != tt.wantStatus {
				t.Errorf("status = %d, want %d (%s)", r.Status, tt.wantStatus, r.Raw)
			}
			if got := r.Header.Get("Content-Type"); !strings.HasPrefix(got, tt.wantType) {
				t.Errorf("Content-Type = %q, want %q", got, tt.wantType)
			}
			if !strings.Contains(r.Raw, tt.wantBody) {
				t.Errorf("body does not contain %q: %.300s", tt.wantBody, r.Raw)
			}
			if r.Header.Get("X-Request-ID") == "" {
				t.Error("no X-Request-ID")
			}
		})
	}

	page := call(t, "GET", ts.URL+"/", nil, nil)
	csp := page.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self';") || strings.Contains(csp, "stripe") {
		t.Errorf("page CSP = %q, want scripts from this server only in fake mode", csp)
	}
	if got := page.Header.Get("Referrer-Policy"); got != "no-referrer" {
		t.Errorf("Referrer-Policy = %q, want no-referrer (the URL may hold a booking token)", got)
	}

	cfg := call(t, "GET", ts.URL+"/app-config.json", nil, nil)
	var slugs []string
	for _, o := range cfg.Body["organizations"].([]any) {
		slugs = append(slugs, str(o.(map[string]any), "slug"))
	}
	if want := []string{"demo", "demo-deposit", "demo-request"}; !reflect.DeepEqual(slugs, want) {
		t.Errorf("app-config organisations = %v, want %v", slugs, want)
	}

	logs := ts.logs.String()
	for _, want := range []string{"first start: seed loaded", `msg="booking page" url="` + ts.URL + `/?org=demo"`,
		`curl="curl -s ` + ts.URL + `/api/v1/book/demo/properties"`, "price a stay"} {
		if !strings.Contains(logs, want) {
			t.Errorf("startup log lacks %q:\n%s", want, logs)
		}
	}
	if !strings.Contains(logs, `msg="http request" method=GET path=/healthz status=200`) {
		t.Errorf("requests outside the API are not logged with their status:\n%s", logs)
	}
}

// TestCurlExamplesWork runs the README's commands: they are what a new user
// types first.
func TestCurlExamplesWork(t *testing.T) {
	ts := startServer(t, nil)
	r := call(t, "GET", ts.URL+"/api/v1/book/demo/properties", nil, nil)
	if r.Status != 200 || r.Body["success"] != true {
		t.Fatalf("properties: %d %s", r.Status, r.Raw)
	}
	in, out := stayDates(30, 3)
	r = call(t, "GET", ts.URL+"/api/v1/book/demo/properties/1/price?check_in="+in+"&check_out="+out+"&guests_count=2&coupon_code=WELCOME10", nil, nil)
	if r.Status != 200 {
		t.Fatalf("price: %d %s", r.Status, r.Raw)
	}
	q := r.data(t)
	if got := str(q, "coupon"); got != "WELCOME10" {
		t.Errorf("quote coupon = %q, want WELCOME10", got)
	}
	if q["nights"].(interface{ String() string }).String() != "3" || str(q, "currency") != "EUR" {
		t.Errorf("quote = %s", r.Raw)
	}
}

func TestDemoSeedHasTheDocumentedFacts(t *testing.T) {
	ts := startServer(t, nil)
	ctx := context.Background()
	store := ts.srv.back.Store
	wantModes := map[string]pricing.PaymentMode{"demo": pricing.ModeFull, "demo-deposit": pricing.ModeDeposit, "demo-request": pricing.ModeRequest}
	orgs, err := store.Organizations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(orgs) != len(wantModes) {
		t.Fatalf("organisations = %d, want %d", len(orgs), len(wantModes))
	}
	for _, o := range orgs {
		t.Run(o.Slug, func(t *testing.T) {
			if o.PaymentMode != wantModes[o.Slug] {
				t.Errorf("payment mode = %s, want %s", o.PaymentMode, wantModes[o.Slug])
			}
			if o.Slug == "demo-deposit" && !o.DepositPercent.Equal(decimal.NewFromInt(30)) {
				t.Errorf("deposit = %s%%, want 30%%", o.DepositPercent)
			}
			got := []any{o.Currency, o.Timezone, o.DefaultLocale, *o.MinStayNights, *o.MaxStayNights, o.PublicEngineEnabled}
			if want := []any{"EUR", "Europe/Paris", "fr", 2, 28, true}; !reflect.DeepEqual(got, want) {
				t.Errorf("currency, zone, locale, min, max, enabled = %v, want %v", got, want)
			}
			hasLocal := slices.Contains(o.AllowedOrigins, "http://localhost:3000")
			if hasLocal != (o.Slug == "demo") {
				t.Errorf("allowed_origins = %v: http://localhost:3000 must be allowed for demo only", o.AllowedOrigins)
			}

			props, err := store.Properties(ctx, o.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(props) < 2 {
				t.Fatalf("properties = %d, want at least 2", len(props))
			}
			thisYear := time.Now().Year()
			for _, p := range props {
				r := p.Rates
				hasSummer := slices.ContainsFunc(r.Seasons, func(s pricing.Season) bool {
					return s.Name == "Summer" && s.Start.Year == thisYear && s.Start.Month == time.June && s.Start.Day == 15 && s.End.Month == time.September
				})
				switch {
				case !p.Active || p.MaxGuests < 4:
					t.Errorf("%s: active %v, max guests %d; want bookable for 4+", p.Name, p.Active, p.MaxGuests)
				case !r.BaseRate.IsPositive() || r.WeekendRate == nil || !r.WeekendRate.GreaterThan(r.BaseRate):
					t.Errorf("%s: base %s, weekend %v; want a weekend rate above the base rate", p.Name, r.BaseRate, r.WeekendRate)
				case !hasSummer:
					t.Errorf("%s: no summer season (06-15 to 09-15) this year in %v", p.Name, r.Seasons)
				case !p.Fees.Cleaning.IsPositive() || !p.Fees.ExtraGuest.IsPositive() || p.Fees.GuestsIncluded < 1:
					t.Errorf("%s: fees %+v; want cleaning and extra-guest fees", p.Name, p.Fees)
				case !p.Tax.PerGuestPerNight.IsPositive():
					t.Errorf("%s: no tourist tax", p.Name)
				}
			}

			coupons := map[string]struct {
				status int
				kind   string
				value  string
				code   string
			}{
				"WELCOME10": {200, "percent", "10", ""},
				"FIXED50":   {200, "fixed", "50.00", ""},
				"EXPIRED10": {422, "", "", "coupon_expired"},
			}
			for code, want := range coupons {
				r := call(t, "POST", ts.URL+"/api/v1/book/"+o.Slug+"/validate-coupon", map[string]any{"code": code}, nil)
				if r.Status != want.status {
					t.Errorf("%s: status %d, want %d (%s)", code, r.Status, want.status, r.Raw)
					continue
				}
				if want.status == 200 {
					d := r.data(t)
					if str(d, "discount_type") != want.kind || num(d, "discount_value") != want.value {
						t.Errorf("%s = %s %s, want %s %s", code, str(d, "discount_type"), num(d, "discount_value"), want.kind, want.value)
					}
				} else if got := str(r.Body, "code"); got != want.code {
					t.Errorf("%s: code %q, want %q", code, got, want.code)
				}
			}
		})
	}
}

func TestOriginsAllowedForThePage(t *testing.T) {
	ts := startServer(t, nil)
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	ids := propertyIDs(t, ts, "demo-deposit")
	tests := []struct {
		name   string
		org    string
		origin string
		want   int
	}{
		// demo-deposit's second property has no seasonal minimum stay.
		{"same origin", "demo-deposit", ts.URL, 201},
		{"same server as localhost", "demo-deposit", "http://localhost:" + port, 201},
		{"demo's allowed origin", "demo", "http://localhost:3000", 201},
		{"demo's origin is not demo-deposit's", "demo-deposit", "http://localhost:3000", 403},
		{"stranger", "demo-deposit", "http://evil.example", 403},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := ids[1]
			if tt.org == "demo" {
				id = propertyIDs(t, ts, "demo")[0]
			}
			in, out := stayDates(40+5*i, 2)
			r := call(t, "POST", ts.URL+"/api/v1/book/"+tt.org+"/checkout", map[string]any{
				"property_id": id, "check_in": in, "check_out": out, "guests_count": 2,
				"guest_name": "Ada", "guest_email": "ada@example.com", "guest_phone": "+33612345678",
			}, map[string]string{"Origin": tt.origin})
			if r.Status != tt.want {
				t.Errorf("checkout from %s: %d, want %d (%s)", tt.origin, r.Status, tt.want, r.Raw)
			}
		})
	}
}

func TestFakePay(t *testing.T) {
	// Property ids of a freshly seeded demo database.
	demo, request := []int{1, 2}, []int{5, 6}
	tests := []struct {
		name       string
		org        string
		property   int
		intent     func(secret string) string
		body       string
		ctype      string
		locale     string
		wantStatus int
		wantBody   string
		// wantBooking is the booking's status afterwards, with no confirm
		// call: the payment event alone moves it.
		wantBooking string
	}{
		{name: "test card pays", org: "demo", property: demo[0], body: `{"card_number": "4242424242424242"}`,
			wantStatus: 200, wantBody: `"status":"succeeded"`, wantBooking: "confirmed"},
		{name: "spaces and dashes are ignored", org: "demo", property: demo[1], body: `{"card_number": "4242 4242-4242 4242"}`,
			wantStatus: 200, wantBody: `"status":"succeeded"`, wantBooking: "confirmed"},
		{name: "manual capture is authorised", org: "demo-request", property: request[0], body: `{"card_number": "4242424242424242"}`,
			wantStatus: 200, wantBody: `"status":"authorized"`, wantBooking: "requested"},
		{name: "declined card", org: "demo", property: demo[0], body: `{"card_number": "4000000000000002"}`,
			wantStatus: 402, wantBody: `{"error":"card_declined","message":"Your card was declined. Try another card."}`, wantBooking: "pending"},
		{name: "declined card in French", org: "demo", property: demo[0], body: `{"card_number": "4000000000000002"}`, locale: "fr",
			wantStatus: 402, wantBody: `"message":"Votre carte a été refusée. Essayez une autre carte."`, wantBooking: "pending"},
		{name: "unknown intent", org: "demo", property: demo[0], intent: func(string) string { return "pi_unknown" },
			body: `{"card_number": "4242424242424242"}`, wantStatus: 404, wantBody: `"error":"intent_not_found"`, wantBooking: "pending"},
		{name: "not a test card", org: "demo", property: demo[0], body: `{"card_number": "1234567812345678"}`,
			wantStatus: 400, wantBody: `"error":"invalid_card"`, wantBooking: "pending"},
		{name: "no card number", org: "demo", property: demo[0], body: `{}`,
			wantStatus: 400, wantBody: `"error":"card_number_required"`, wantBooking: "pending"},
		{name: "malformed JSON", org: "demo", property: demo[0], body: `{"card_number":`,
			wantStatus: 400, wantBody: `"error":"malformed_json"`, wantBooking: "pending"},
		{name: "not JSON", org: "demo", property: demo[0], body: `card_number=4242424242424242`, ctype: "application/x-www-form-urlencoded",
			wantStatus: 415, wantBody: `"error":"unsupported_media_type"`, wantBooking: "pending"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, nil) // each its own rate-limit budget
			co := checkout(t, ts, tt.org, tt.property, 20+4*i, 2, 2)
			intent := intentOf(str(co, "client_secret"))
			if tt.intent != nil {
				intent = tt.intent(str(co, "client_secret"))
			}
			url := ts.URL + "/fakepay/intents/" + intent
			if tt.locale != "" {
				url += "?locale=" + tt.locale
			}
			ctype := tt.ctype
			if ctype == "" {
				ctype = "application/json"
			}
			res, err := http.Post(url, ctype, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.wantStatus || !strings.Contains(string(body), tt.wantBody) {
				t.Errorf("POST /fakepay = %d %s, want %d with %s", res.StatusCode, body, tt.wantStatus, tt.wantBody)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type = %q, want JSON", ct)
			}
			b := call(t, "GET", ts.URL+"/api/v1/book/"+tt.org+"/booking/"+str(co, "booking_token"), nil, nil).data(t)
			if got := str(b, "status"); got != tt.wantBooking {
				t.Errorf("booking status = %q, want %q", got, tt.wantBooking)
			}
			if tt.wantBooking == "confirmed" && num(b, "paid_amount") != num(co, "charge_amount") {
				t.Errorf("paid %s, want the charge %s", num(b, "paid_amount"), num(co, "charge_amount"))
			}
		})
	}

	t.Run("paying twice", func(t *testing.T) {
		ts := startServer(t, nil)
		co := checkout(t, ts, "demo", demo[1], 90, 2, 2)
		url := ts.URL + "/fakepay/intents/" + intentOf(str(co, "client_secret"))
		first := call(t, "POST", url, map[string]string{"card_number": paymenttest.CardSucceeds}, nil)
		second := call(t, "POST", url, map[string]string{"card_number": paymenttest.CardSucceeds}, nil)
		if first.Status != 200 || second.Status != 409 || str(second.Body, "error") != "intent_not_payable" {
			t.Errorf("two payments = %d then %d %s, want 200 then 409 intent_not_payable", first.Status, second.Status, second.Raw)
		}
	})
	t.Run("declined then paid", func(t *testing.T) {
		ts := startServer(t, nil)
		co := checkout(t, ts, "demo", demo[1], 96, 2, 2)
		url := ts.URL + "/fakepay/intents/" + intentOf(str(co, "client_secret"))
		declined := call(t, "POST", url, map[string]string{"card_number": paymenttest.CardDeclined}, nil)
		paid := call(t, "POST", url, map[string]string{"card_number": paymenttest.CardSucceeds}, nil)
		if declined.Status != 402 || paid.Status != 200 {
			t.Errorf("declined then paid = %d, %d; want 402, 200", declined.Status, paid.Status)
		}
		confirm := call(t, "POST", ts.URL+"/api/v1/book/demo/booking/"+str(co, "booking_token")+"/confirm",
			map[string]string{"payment_intent_id": intentOf(str(co, "client_secret"))}, nil)
		if confirm.Status != 200 || str(confirm.data(t), "status") != "confirmed" {
			t.Errorf("confirm after the event = %d %s, want 200 confirmed", confirm.Status, confirm.Raw)
		}
	})
}

func TestStripeModeHasNoFakePayments(t *testing.T) {
	ts := startServer(t, map[string]string{
		"STRIPE_SECRET_KEY": "sk_test_123", "STRIPE_PUBLISHABLE_KEY": "pk_test_123", "STRIPE_WEBHOOK_SECRET": "whsec_123",
	})
	r := call(t, "POST", ts.URL+"/fakepay/intents/pi_123", map[string]string{"card_number": paymenttest.CardSucceeds}, nil)
	if r.Status != 404 {
		t.Errorf("POST /fakepay with Stripe keys = %d %s, want 404", r.Status, r.Raw)
	}
	cfg := call(t, "GET", ts.URL+"/app-config.json", nil, nil)
	if str(cfg.Body, "payments") != "stripe" || str(cfg.Body, "stripe_publishable_key") != "pk_test_123" {
		t.Errorf("app-config = %s, want stripe with the publishable key", cfg.Raw)
	}
	if strings.Contains(cfg.Raw, "sk_test") || strings.Contains(cfg.Raw, "whsec") {
		t.Errorf("app-config leaks a secret: %s", cfg.Raw)
	}
	apiCfg := call(t, "GET", ts.URL+"/api/v1/book/demo", nil, nil).data(t)
	if got := str(apiCfg, "payment_public_key"); got != "pk_test_123" {
		t.Errorf("payment_public_key = %q, want pk_test_123", got)
	}
	csp := call(t, "GET", ts.URL+"/", nil, nil).Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self' https://js.stripe.com;") {
		t.Errorf("CSP = %q, want Stripe.js allowed", csp)
	}
	if logs := ts.logs.String(); strings.Contains(logs, "sk_test_123") || strings.Contains(logs, "whsec_123") {
		t.Errorf("the log holds a Stripe secret:\n%s", logs)
	}
}

func TestPlantStoreTakesTokensFromTheEnvironment(t *testing.T) {
	ts := startServer(t, map[string]string{"PLANTSTORE_TOKENS": " alpha , beta "})
	tests := []struct {
		name   string
		token  string
		body   map[string]any
		status int
	}{
		{"no token", "", map[string]any{"id": 1, "name": "Fern"}, 401},
		{"unknown token", "gamma", map[string]any{"id": 1, "name": "Fern"}, 401},
		{"second token", "beta", map[string]any{"id": 1, "name": "Fern", "tag": "green"}, 200},
		{"same id again", "alpha", map[string]any{"id": 1, "name": "Fern"}, 409},
	}
	for _, tt := range tests {
		h := map[string]string{}
		if tt.token != "" {
			h["Authorization"] = "Bearer " + tt.token
		}
		if r := call(t, "POST", ts.URL+"/plants", tt.body, h); r.Status != tt.status {
			t.Errorf("%s: %d %s, want %d", tt.name, r.Status, r.Raw, tt.status)
		}
	}
	if !strings.Contains(ts.logs.String(), `path=/plants status=409`) {
		t.Error("plant store requests are not logged")
	}
}

func TestStartupLogNamesTheStore(t *testing.T) {
	ts := startServer(t, nil)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(ts.logs.String(), "reference server ready") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	logs := ts.logs.String()
	if !strings.Contains(logs, "store=sqlite path="+ts.dbPath) || strings.Contains(logs, " db=") {
		t.Errorf("startup log = %s\nwant store=sqlite path=%s", logs, ts.dbPath)
	}
}

func TestPostgresWithoutStripeKeysRefusesToStart(t *testing.T) {
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"-postgres", "postgres://u@127.0.0.1:1/x"}, func(string) string { return "" }, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), "-fake-payments") || !strings.Contains(err.Error(), "replica") {
		t.Errorf("run -postgres without Stripe keys = %v, want a refusal naming -fake-payments", err)
	}
}

func TestHostCommands(t *testing.T) {
	ts := startServer(t, nil)
	ctx := context.Background()
	request := propertyIDs(t, ts, "demo-request")
	pay := func(co map[string]any) {
		t.Helper()
		r := call(t, "POST", ts.URL+"/fakepay/intents/"+intentOf(str(co, "client_secret")), map[string]string{"card_number": paymenttest.CardSucceeds}, nil)
		if r.Status != 200 {
			t.Fatalf("pay: %d %s", r.Status, r.Raw)
		}
	}
	toApprove := checkout(t, ts, "demo-request", request[0], 30, 2, 2)
	toDecline := checkout(t, ts, "demo-request", request[0], 40, 2, 2)
	toCancel := checkout(t, ts, "demo-request", request[1], 30, 2, 2)
	for _, co := range []map[string]any{toApprove, toDecline, toCancel} {
		pay(co)
	}
	host := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := run(ctx, append(args, "-db", ts.dbPath), func(string) string { return "" }, &out, &errOut)
		return out.String() + errOut.String(), err
	}
	status := func(co map[string]any) string {
		return str(call(t, "GET", ts.URL+"/api/v1/book/demo-request/booking/"+str(co, "booking_token"), nil, nil).data(t), "status")
	}

	out, err := host("bookings", "-org", "demo-request", "-status", "requested")
	if err != nil {
		t.Fatalf("bookings: %v\n%s", err, out)
	}
	if got := strings.Count(out, " requested "); got != 3 || !strings.HasPrefix(out, "TOKEN") || !strings.Contains(out, "ada@example.com") {
		t.Errorf("bookings -status requested listed %d requested bookings, want 3:\n%s", got, out)
	}
	for _, co := range []map[string]any{toApprove, toDecline, toCancel} {
		if !strings.Contains(out, str(co, "booking_token")) {
			t.Errorf("bookings lacks %s:\n%s", str(co, "booking_token"), out)
		}
	}

	steps := []struct {
		args       []string
		booking    map[string]any
		wantOut    string
		wantStatus string
	}{
		{[]string{"approve", "-org", "demo-request", "-token", str(toApprove, "booking_token")}, toApprove, "is now confirmed", "confirmed"},
		{[]string{"decline", "-org", "demo-request", "-token", str(toDecline, "booking_token")}, toDecline, "is now declined", "declined"},
		{[]string{"approve", "-org", "demo-request", "-token", str(toCancel, "booking_token")}, toCancel, "is now confirmed", "confirmed"},
		{[]string{"cancel", "-org", "demo-request", "-token", str(toCancel, "booking_token"), "-refund"}, toCancel, "is now cancelled", "cancelled"},
	}
	for _, st := range steps {
		out, err := host(st.args...)
		if err != nil || !strings.Contains(out, st.wantOut) {
			t.Errorf("%v = %q, %v; want %q", st.args, out, err, st.wantOut)
		}
		if got := status(st.booking); got != st.wantStatus {
			t.Errorf("after %v the API says %q, want %q", st.args, got, st.wantStatus)
		}
	}
	out, err = host("decline", "-org", "demo-request", "-token", str(toApprove, "booking_token"))
	if booking.ErrorCode(err) != booking.CodeBookingClosed {
		t.Errorf("declining a confirmed booking = %v (%s), want booking_closed", err, out)
	}
	out, err = host("bookings", "-org", "demo-request", "-status", "confirmed,cancelled")
	if err != nil || strings.Count(out, "\n") != 3 {
		t.Errorf("bookings -status confirmed,cancelled = %v:\n%s; want a header and 2 lines", err, out)
	}
	// The refund leaves a trace: in the host's list and on the guest's page.
	paid := call(t, "GET", ts.URL+"/api/v1/book/demo-request/booking/"+str(toCancel, "booking_token"), nil, nil).data(t)
	if paid["refunded_amount"] != paid["paid_amount"] || fmt.Sprint(paid["paid_amount"]) == "0" {
		t.Errorf("cancelled with -refund: refunded_amount %v, paid_amount %v; want equal", paid["refunded_amount"], paid["paid_amount"])
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, str(toCancel, "booking_token")) {
			// TOTAL CURRENCY PAID REFUNDED REFUND-PENDING DISPUTED
			f := strings.Fields(line)
			i := slices.Index(f, "EUR")
			if !strings.Contains(out, "REFUNDED") || i < 0 || len(f) < i+5 || f[i+1] != f[i+2] || f[i+3] != "0.00" {
				t.Errorf("bookings line of the refunded booking %q: want PAID = REFUNDED, nothing pending", line)
			}
		}
	}

	usage := []struct {
		args []string
		want string
	}{
		{[]string{"bookings"}, "-org is required"},
		{[]string{"approve", "-org", "demo"}, "-token is required"},
		{[]string{"bookings", "-org", "demo", "-status", "paid"}, `unknown status "paid"`},
		{[]string{"approve", "-org", "demo", "-token", "x", "-refund"}, "-refund applies to cancel only"},
		{[]string{"cancel", "-org", "demo", "-token", "x", "-refund", "policy", "-amount", "5"}, "-refund and -amount exclude each other"},
		{[]string{"cancel", "-org", "demo", "-token", "x", "-amount", "lots"}, "is not an amount"},
	}
	for _, u := range usage {
		out, err := host(u.args...)
		if !errors.Is(err, errUsage) || !strings.Contains(out, u.want) {
			t.Errorf("%v = %v, %q; want a usage error saying %q", u.args, err, out, u.want)
		}
	}
	var out2 bytes.Buffer
	err = run(ctx, []string{"bookings", "-org", "demo", "-db", filepath.Join(t.TempDir(), "none.db")}, func(string) string { return "" }, &out2, &out2)
	if err == nil || !strings.Contains(err.Error(), "no database at") {
		t.Errorf("bookings on a missing database = %v, want a clear error", err)
	}
}

func TestSeedFlagLoadsAHostsFileOnlyOnFirstStart(t *testing.T) {
	dir := t.TempDir()
	seedPath := filepath.Join(dir, "mine.json")
	writeFile(t, seedPath, `{"organizations": [{"slug": "chez-nous", "name": "Chez Nous", "default_locale": "en",
		"properties": [{"name": "Cabin", "max_guests": 3, "rates": {"base_rate": 80}}]}]}`)
	dbPath := filepath.Join(dir, "host.db")
	logger := slog.New(slog.DiscardHandler)
	for i := range 2 {
		cfg, err := serverenv.Parse([]string{"-db", dbPath, "-seed", seedPath}, func(string) string { return "" }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		s, err := newServer(context.Background(), cfg, logger)
		if err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
		orgs, err := s.back.Store.Organizations(context.Background())
		s.Close()
		if err != nil || len(orgs) != 1 || orgs[0].Slug != "chez-nous" {
			t.Errorf("start %d: organisations = %v, %v; want only chez-nous, once", i, orgs, err)
		}
	}

	bad := filepath.Join(dir, "bad.json")
	writeFile(t, bad, `{"organizations": [{"slug": "x", "name": "X", "properties": [{"name": "P", "max_guests": 0, "rates": {"base_rate": 1}}]}]}`)
	cfg, _ := serverenv.Parse([]string{"-db", filepath.Join(dir, "other.db"), "-seed", bad}, func(string) string { return "" }, io.Discard)
	_, err := newServer(context.Background(), cfg, logger)
	if err == nil || !strings.Contains(err.Error(), "organizations[0].properties[0].max_guests: out_of_range") {
		t.Errorf("bad seed = %v, want the problem with its path", err)
	}
}

func TestRequestIDIsKeptWhenSane(t *testing.T) {
	ts := startServer(t, nil)
	for in, keep := range map[string]bool{"abc-123_x.y": true, "bad id": false, strings.Repeat("a", 65): false} {
		got := call(t, "GET", ts.URL+"/healthz", nil, map[string]string{"X-Request-ID": in}).Header.Get("X-Request-ID")
		if (got == in) != keep || got == "" {
			t.Errorf("X-Request-ID %q answered %q, keep = %v", in, got, keep)
		}
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestRequestIDLoggedAsAnswered: the access log's line of a request names
// the X-Request-ID the client got, whichever API answered (the public
// API and the host API set their own headers behind the access log).
func TestRequestIDLoggedAsAnswered(t *testing.T) {
	ts := startServer(t, nil)
	// One connection: once the last answer is in, the lines of the
	// requests before it are written.
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	get := func(path string) string {
		t.Helper()
		res, err := client.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.Header.Get("X-Request-ID")
	}
	ids := map[string]string{}
	for _, path := range []string{"/api/v1/book/demo", "/api/v1/book/demo/properties", "/api/v1/host/demo/bookings", "/healthz"} {
		ids[path] = get(path)
	}
	get("/healthz")
	logs := ts.logs.String()
	for path, id := range ids {
		if id == "" || !strings.Contains(logs, "request_id="+id) {
			t.Errorf("%s answered X-Request-ID %q, which no log line names:\n%s", path, id, logs)
		}
	}
}
