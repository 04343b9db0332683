package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/staykit/staykit/internal/serverenv"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/sandbox"
)

// sandboxContract is the sandbox's OpenAPI document, for checking its
// answers.
var sandboxContract = sync.OnceValues(func() (routers.Router, error) {
	doc, err := openapi3.NewLoader().LoadFromData(sandbox.OpenAPI)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("validate the sandbox document: %w", err)
	}
	return gorillamux.NewRouter(doc)
})

// sandboxCall is call on a sandbox route, its answer checked against the
// sandbox's OpenAPI document.
func sandboxCall(t *testing.T, ts *testServer, method, path string, body any) response {
	t.Helper()
	r := call(t, method, ts.URL+path, body, nil)
	router, err := sandboxContract()
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(method, path, nil)
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s %s: no operation in the sandbox document: %v", method, path, err)
	}
	opts := &openapi3filter.Options{IncludeResponseStatus: true}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{RequestValidationInput: in,
		Status: r.Status, Header: r.Header, Body: io.NopCloser(bytes.NewReader([]byte(r.Raw))), Options: opts}); err != nil {
		t.Errorf("%s %s: answer %d %s does not match the sandbox document: %v", method, path, r.Status, r.Raw, err)
	}
	return r
}

// The sandbox's clock, moved over HTTP, charges a deposit booking's
// balance on its due date: the guest's page and the host API show it paid
// in full, with no wait.
func TestSandboxChargesTheBalance(t *testing.T) {
	ts := startServer(t, nil, "-sandbox")
	before := sandboxCall(t, ts, http.MethodGet, "/api/v1/sandbox/clock", nil)
	if before.Status != http.StatusOK || num(before.data(t), "offset_seconds") != "0" {
		t.Fatalf("GET clock: %d %s, want offset 0", before.Status, before.Raw)
	}

	co := checkout(t, ts, "demo-deposit", propertyIDs(t, ts, "demo-deposit")[0], 60, 5, 2)
	token := str(co, "booking_token")
	if r := call(t, http.MethodPost, ts.URL+"/fakepay/intents/"+intentOf(str(co, "client_secret")),
		map[string]string{"card_number": paymenttest.CardSucceeds}, nil); r.Status != http.StatusOK {
		t.Fatalf("pay: %d %s", r.Status, r.Raw)
	}
	status := func() map[string]any {
		t.Helper()
		r := call(t, http.MethodGet, ts.URL+"/api/v1/book/demo-deposit/booking/"+token, nil, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("booking status: %d %s", r.Status, r.Raw)
		}
		return r.data(t)
	}
	b := status()
	balance, _ := b["balance"].(map[string]any)
	if str(b, "status") != "confirmed" || str(balance, "status") != "scheduled" || num(b, "paid_amount") == num(b, "total_amount") {
		t.Fatalf("after paying the deposit: %v, want confirmed with a scheduled balance", b)
	}

	for _, tc := range []struct {
		advance string
		status  int
	}{
		{"P1M", http.StatusUnprocessableEntity}, // months have no fixed length
		{"30 days", http.StatusUnprocessableEntity},
		{"P40D", http.StatusOK},
	} {
		r := sandboxCall(t, ts, http.MethodPost, "/api/v1/sandbox/clock", map[string]string{"advance": tc.advance})
		if r.Status != tc.status {
			t.Fatalf("advance %q: %d %s, want %d", tc.advance, r.Status, r.Raw, tc.status)
		}
	}
	now := sandboxCall(t, ts, http.MethodGet, "/api/v1/sandbox/clock", nil).data(t)
	if num(now, "offset_seconds") != fmt.Sprint(40*24*3600) {
		t.Errorf("offset after P40D = %s", num(now, "offset_seconds"))
	}
	at, err := time.Parse(time.RFC3339, str(now, "now"))
	if err != nil || time.Until(at) < 39*24*time.Hour {
		t.Errorf("sandbox now = %q, want 40 days ahead", str(now, "now"))
	}

	b = status()
	balance, _ = b["balance"].(map[string]any)
	if str(balance, "status") != "paid" || num(b, "paid_amount") != num(b, "total_amount") {
		t.Fatalf("after the due date: balance %v, paid %s of %s; want paid in full", balance, num(b, "paid_amount"), num(b, "total_amount"))
	}

	// The host sees it too.
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"apikey", "create", "-org", "demo-deposit", "-name", "pms", "-db", ts.dbPath},
		func(string) string { return "" }, &out, &errOut); err != nil {
		t.Fatalf("apikey create: %v\n%s", err, errOut.String())
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	auth := map[string]string{"Authorization": "Bearer " + lines[len(lines)-1]}
	list := call(t, http.MethodGet, ts.URL+"/api/v1/host/demo-deposit/bookings", nil, auth)
	items, _ := list.data(t)["items"].([]any)
	found := false
	for _, it := range items {
		hb, _ := it.(map[string]any)
		if str(hb, "token") == token {
			found = true
			if num(hb, "paid_amount") != num(hb, "total_amount") {
				t.Errorf("host API: paid %s of %s, want all", num(hb, "paid_amount"), num(hb, "total_amount"))
			}
		}
	}
	if !found {
		t.Errorf("host API bookings %d %s lack %s", list.Status, list.Raw, token)
	}

	// The event feed tells the same story, in CloudEvents, at the
	// sandbox's time.
	events := call(t, http.MethodGet, ts.URL+"/api/v1/host/demo-deposit/events", nil, auth)
	items, _ = events.data(t)["items"].([]any)
	var types []string
	for _, it := range items {
		ev, _ := it.(map[string]any)
		types = append(types, str(ev, "type"))
		if str(ev, "specversion") != "1.0" || str(ev, "subject") != "bookings/"+token ||
			!strings.HasPrefix(str(ev, "source"), ts.URL+"/api/v1/host/demo-deposit") {
			t.Errorf("event %v: want a CloudEvent about the booking from the organisation's host API", ev)
		}
	}
	if fmt.Sprint(types) != "[booking.confirmed balance.paid]" {
		t.Errorf("event feed types = %v, want [booking.confirmed balance.paid]", types)
	}
	if r := call(t, http.MethodGet, ts.URL+"/api/v1/host/events.schema.json", nil, nil); r.Status != http.StatusOK || str(r.Body, "$schema") == "" {
		t.Errorf("events.schema.json: %d %.200s", r.Status, r.Raw)
	}
}

// Without -sandbox the routes answer 404 in the API's failure envelope;
// with Stripe keys -sandbox is refused at start.
func TestSandboxRefused(t *testing.T) {
	ts := startServer(t, nil)
	for _, tc := range []struct{ method, path string }{
		{http.MethodGet, "/api/v1/sandbox/clock"},
		{http.MethodPost, "/api/v1/sandbox/clock"},
	} {
		var body any
		if tc.method == http.MethodPost {
			body = map[string]string{"advance": "P1D"}
		}
		r := sandboxCall(t, ts, tc.method, tc.path, body)
		if r.Status != http.StatusNotFound || str(r.Body, "code") != "not_found" {
			t.Errorf("%s %s without -sandbox: %d %s, want 404 not_found", tc.method, tc.path, r.Status, r.Raw)
		}
	}
	stripe := map[string]string{"STRIPE_SECRET_KEY": "sk_test_1", "STRIPE_PUBLISHABLE_KEY": "pk_test_1", "STRIPE_WEBHOOK_SECRET": "whsec_1"}
	_, err := serverenv.Parse([]string{"-sandbox"}, func(k string) string { return stripe[k] }, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "-sandbox") {
		t.Errorf("-sandbox with Stripe keys: %v, want refused", err)
	}
}
