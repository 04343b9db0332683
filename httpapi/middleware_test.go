package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
)

func TestRequestID(t *testing.T) {
	e := newTestEnv(t)
	generated := regexp.MustCompile(`^[0-9a-f]{32}$`)
	tests := []struct {
		name string
		in   string
		echo bool
	}{
		{"sane id is echoed", "abc-123_X.y", true},
		{"64 characters are echoed", strings.Repeat("a", 64), true},
		{"65 characters are replaced", strings.Repeat("a", 65), false},
		{"spaces are replaced", "a b", false},
		{"header injection is replaced", "a\r\nSet-Cookie: x", false},
		{"missing is generated", "", false},
	}
	for _, tt := range tests {
		h := map[string]string{}
		if tt.in != "" {
			h["X-Request-ID"] = tt.in
		}
		r := e.do(call{method: "GET", path: "/api/v1/nowhere", header: h})
		got := r.Header.Get("X-Request-ID")
		if tt.echo && got != tt.in {
			t.Errorf("%s: X-Request-ID = %q, want %q", tt.name, got, tt.in)
		}
		if !tt.echo && !generated.MatchString(got) {
			t.Errorf("%s: X-Request-ID = %q, want a generated id", tt.name, got)
		}
	}
}

func TestLogsHideTokensAndGuests(t *testing.T) {
	e := newTestEnv(t)
	c := e.do(call{method: "POST", path: villa + "/checkout", body: soleilCheckout(e), header: map[string]string{"X-Request-ID": "req-log-1"}})
	if c.Status != 201 {
		t.Fatalf("checkout: %d %s", c.Status, c.Body)
	}
	token := c.obj(t)["booking_token"].(string)
	e.do(call{method: "GET", path: villa + "/booking/" + token})
	e.do(call{method: "POST", path: villa + "/booking/" + token + "/confirm?x=" + token, body: `{}`})
	logs := e.Logs.String()
	for _, secret := range []string{token, "ada@example.com", "+33612345678", "Ada Lovelace"} {
		if strings.Contains(logs, secret) {
			t.Errorf("logs contain %q:\n%s", secret, logs)
		}
	}
	for _, want := range []string{"request_id=req-log-1", "route=checkout", "status=201", "path=/api/v1/book/villa/booking/{token}/confirm", "route=confirm", "status=422"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
	if n := strings.Count(logs, `msg="http request"`); n != 3 {
		t.Errorf("%d request lines, want 3", n)
	}
}

func TestHeadOfGetRoute(t *testing.T) {
	e := newTestEnv(t)
	r := e.do(call{method: "HEAD", path: villa})
	checkV1Headers(t, "HEAD", r)
	if r.Status != 200 {
		t.Errorf("HEAD: %d, want 200", r.Status)
	}
}

func TestNewPanicsWithoutService(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New without a Service did not panic")
		}
	}()
	httpapi.New(httpapi.Options{})
}

func TestNilLimiterDefaultsToMemory(t *testing.T) {
	e := newTestEnv(t)
	payments := paymenttest.New()
	svc := booking.NewService(booking.Options{Stores: e.Store.Stores(), Payments: payments, Clock: e.Clock})
	pay := money.New(svc, money.Options{Store: e.Store.Stores(), Payments: payments, Clock: e.Clock})
	h := httpapi.New(httpapi.Options{Service: svc, Money: pay, Logger: discardLogger()})
	for i := range 10 {
		if r := do(t, h, call{method: "POST", path: villa + "/checkout", body: `{}`}); r.Status != 422 {
			t.Fatalf("checkout %d: %d", i+1, r.Status)
		}
	}
	if r := do(t, h, call{method: "POST", path: villa + "/checkout", body: `{}`}); r.Status != 429 {
		t.Errorf("11th checkout: %d, want 429 from the default limiter", r.Status)
	}
}

func TestResponsesAreNotTextPlain(t *testing.T) {
	// Whatever the mux would have answered itself comes back as JSON.
	e := newTestEnv(t)
	for _, c := range []call{
		{method: "GET", path: "/"},
		{method: "PATCH", path: villa + "/properties"},
		{method: "GET", path: "/api/v1//book/villa"},
		{method: "GET", path: "/api/v1/book/villa/properties/1/availability/"},
		{method: "BREW", path: "/api/v1/openapi.json"},
	} {
		req := httptest.NewRequest(c.method, c.path, nil)
		rec := httptest.NewRecorder()
		e.Handler.ServeHTTP(rec, req)
		checkRecorded(t, req, nil, rec)
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") || !strings.HasPrefix(rec.Body.String(), `{"success":false`) {
			t.Errorf("%s %s: %d %q %s", c.method, c.path, rec.Code, ct, rec.Body)
		}
		if rec.Code == http.StatusMovedPermanently || rec.Code == http.StatusTemporaryRedirect {
			t.Errorf("%s %s redirected", c.method, c.path)
		}
	}
}
