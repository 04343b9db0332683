package httpapi_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// update rewrites the golden files: go test ./httpapi -run Golden -update
var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// golden is what a golden file holds: one exchange with the handler,
// random values replaced by placeholders.
type golden struct {
	Request     string            `json:"request"`
	RequestBody json.RawMessage   `json:"request_body,omitempty"`
	Status      int               `json:"status"`
	Headers     map[string]string `json:"headers"`
	Body        json.RawMessage   `json:"body"`
}

// randomFields are the response fields whose values are random: tokens
// and payment secrets.
var randomFields = regexp.MustCompile(`"(booking_token|client_secret)":"[^"]*"`)

// goldenOf renders an exchange as its golden file. The request is given as
// a template ({soleil}, {pending}) so that it holds no random token.
func goldenOf(t *testing.T, method, template, body string, r response) []byte {
	t.Helper()
	g := golden{Request: method + " " + template, Status: r.Status, Headers: map[string]string{},
		Body: randomFields.ReplaceAll(r.Body, []byte(`"$1":"<$1>"`))}
	if body != "" {
		g.RequestBody = json.RawMessage(body)
	}
	for name, values := range r.Header {
		switch name {
		case "Content-Length": // follows the body
		case "X-Request-Id":
			g.Headers[name] = "<request-id>"
		default:
			g.Headers[name] = values[0]
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep <placeholders> readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(g); err != nil {
		t.Fatalf("render golden file: %v", err)
	}
	return b.Bytes()
}

// TestGoldenResponses compares the responses of the main routes, as a web
// developer sees them, with testdata/golden/*.json.
func TestGoldenResponses(t *testing.T) {
	invalidCheckout := `{"property_id":{soleil},"guest_name":"","guest_email":"ada@","guest_phone":"06 12","check_in":"2026-06-10","check_out":"2026-06-13","guests_count":2}`
	tests := []struct {
		file   string
		setup  func(t *testing.T, e *testEnv)
		method string
		path   string
		header map[string]string
		body   string
	}{
		{file: "config", method: "GET", path: villa},
		{file: "properties", method: "GET", path: villa + "/properties"},
		{file: "availability", method: "GET", path: villa + "/properties/{soleil}/availability?months=1&from=2026-09"},
		{file: "price", method: "GET", path: villa + "/properties/{soleil}/price?" + stayQuery + "&coupon_code=WELCOME10"},
		{file: "price-deposit", method: "GET", path: "/api/v1/book/deposit-org/properties/{chalet}/price?check_in=2026-07-06&check_out=2026-07-09&guests_count=2"},
		{file: "validate-coupon", method: "POST", path: villa + "/validate-coupon",
			body: `{"code":"fixed30","property_id":{soleil},"check_in":"2026-06-10","check_out":"2026-06-13","guests_count":2}`},
		{file: "checkout", method: "POST", path: villa + "/checkout",
			body: `{"property_id":{soleil},"guest_name":"Ada Lovelace","guest_email":"ada@example.com","guest_phone":"+33612345678","check_in":"2026-06-10","check_out":"2026-06-13","guests_count":2,"locale":"en"}`},
		{file: "booking-status", method: "GET", path: villa + "/booking/{pending}"},
		{file: "confirm", method: "POST", path: villa + "/booking/{pending}/confirm", body: `{}`,
			setup: func(t *testing.T, e *testEnv) { payBooking(t, e, "villa", e.Tokens["pending"]) }},
		{file: "checkout-invalid-fr", method: "POST", path: villa + "/checkout", body: invalidCheckout},
		{file: "checkout-invalid-en", method: "POST", path: villa + "/checkout", body: invalidCheckout,
			header: map[string]string{"Accept-Language": "en-GB,en;q=0.9"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			e := newTestEnv(t)
			if tt.setup != nil {
				tt.setup(t, e)
			}
			r := e.do(call{method: tt.method, path: e.expand(tt.path), header: tt.header, body: e.expand(tt.body)})
			if r.Status >= 500 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			got := goldenOf(t, tt.method, tt.path, e.expand(tt.body), r)
			path := filepath.Join("testdata", "golden", tt.file+".json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./httpapi -run Golden -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s differs from %s (if the change is intended, run go test ./httpapi -run Golden -update and review the diff):\n--- got\n%s\n--- want\n%s",
					tt.method, tt.path, path, got, want)
			}
		})
	}
}

// TestGoldenPlaceholders makes sure the placeholders hide the random values
// and only them.
func TestGoldenPlaceholders(t *testing.T) {
	r := response{Status: 201, Header: http.Header{"X-Request-Id": {"5f2b"}, "Content-Length": {"99"}, "X-Service-Api-Version": {"v1"}},
		Body: []byte(`{"success":true,"data":{"booking_token":"tok_RANDOM","client_secret":"pi_1_secret_RANDOM","total_amount":382.00,"status":"pending"}}`)}
	got := string(goldenOf(t, "POST", villa+"/checkout", "", r))
	want := `{
  "request": "POST /api/v1/book/villa/checkout",
  "status": 201,
  "headers": {
    "X-Request-Id": "<request-id>",
    "X-Service-Api-Version": "v1"
  },
  "body": {
    "success": true,
    "data": {
      "booking_token": "<booking_token>",
      "client_secret": "<client_secret>",
      "total_amount": 382.00,
      "status": "pending"
    }
  }
}
`
	if got != want {
		t.Errorf("golden rendering:\n%s\nwant:\n%s", got, want)
	}
}
