package httpapi_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/httpapi"
)

// Every response a test gets through do (and the few tests that serve
// requests themselves) is checked against the OpenAPI document here: its
// status must be documented for the operation, its headers and body must
// match. A request the handler served with a 2xx must also be one the
// document allows.

// openAPIPath is the file the handler embeds and serves at
// /api/v1/openapi.json.
const openAPIPath = "openapi.json"

// contract is the OpenAPI document of v1 made strict for the tests, with a
// router over it.
type contract struct {
	doc    *openapi3.T
	router routers.Router
}

// loadDocument loads and validates an OpenAPI document.
func loadDocument(data []byte) (*openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("load OpenAPI document: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("validate OpenAPI document: %w", err)
	}
	return doc, nil
}

// theContract is loaded once for the test binary and only read after.
var theContract = sync.OnceValues(func() (*contract, error) {
	data, err := os.ReadFile(openAPIPath)
	if err != nil {
		return nil, err
	}
	doc, err := loadDocument(data)
	if err != nil {
		return nil, err
	}
	forbidUndocumentedFields(doc)
	// The handler is mounted wherever a host wants: route on paths alone.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("OpenAPI router: %w", err)
	}
	return &contract{doc: doc, router: router}, nil
})

// loadContract returns the contract or fails tb.
func loadContract(tb testing.TB) *contract {
	tb.Helper()
	c, err := theContract()
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// forbidUndocumentedFields closes every object schema of a response that
// lists properties (additionalProperties: false), so that a field the
// handler sends without documenting it fails the tests. The document
// itself stays open: clients must ignore fields added later.
func forbidUndocumentedFields(doc *openapi3.T) {
	closed := false
	seen := map[*openapi3.Schema]bool{}
	var walk func(ref *openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		if s.Type.Is(openapi3.TypeObject) && len(s.Properties) > 0 &&
			s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
			s.AdditionalProperties.Has = &closed
		}
		for _, p := range s.Properties {
			walk(p)
		}
		walk(s.Items)
		walk(s.AdditionalProperties.Schema)
		for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, sub := range list {
				walk(sub)
			}
		}
	}
	responses := func(rs map[string]*openapi3.ResponseRef) {
		for _, r := range rs {
			if r.Value == nil {
				continue
			}
			for _, mt := range r.Value.Content {
				walk(mt.Schema)
			}
		}
	}
	responses(doc.Components.Responses)
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			responses(op.Responses.Map())
		}
	}
}

// options of every validation: an undocumented status is an error.
var validationOptions = &openapi3filter.Options{IncludeResponseStatus: true}

// exchange is one request and the response the handler gave, as the
// handler saw them (without a host's prefix).
type exchange struct {
	method     string
	path       string // with the query
	header     http.Header
	body       []byte
	status     int
	respHeader http.Header
	respBody   []byte
}

// checkContract fails t unless the exchange matches the document.
func checkContract(t testing.TB, x exchange) {
	t.Helper()
	if err := loadContract(t).check(x); err != nil {
		t.Errorf("OpenAPI contract: %s %s: %v\nresponse %d: %s", x.method, x.path, err, x.status, truncate(x.respBody, 2000))
	}
}

// checkRecorded checks a request served into a recorder.
func checkRecorded(t testing.TB, req *http.Request, body []byte, rec *httptest.ResponseRecorder) {
	t.Helper()
	checkContract(t, exchange{method: req.Method, path: req.URL.RequestURI(), header: req.Header, body: body,
		status: rec.Code, respHeader: rec.Header(), respBody: rec.Body.Bytes()})
}

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

// check validates an exchange: the request (when the handler accepted it)
// and the response.
func (c *contract) check(x exchange) error {
	ctx := context.Background()
	method := x.method
	if method == http.MethodHead {
		// HEAD answers as GET does (the body is only dropped on the wire).
		method = http.MethodGet
	}
	req := httptest.NewRequest(method, x.path, bytes.NewReader(x.body))
	req.Header = x.header.Clone()
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return c.checkUnrouted(req, err, x)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: validationOptions}
	if x.status >= 200 && x.status < 300 {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			return fmt.Errorf("the handler accepted a request the document refuses: %w", err)
		}
	}
	return validateResponse(ctx, in, x)
}

func validateResponse(ctx context.Context, in *openapi3filter.RequestValidationInput, x exchange) error {
	return openapi3filter.ValidateResponse(ctx, &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 x.status,
		Header:                 x.respHeader,
		Body:                   io.NopCloser(bytes.NewReader(x.respBody)),
		Options:                validationOptions,
	})
}

// checkUnrouted validates the answer to a request that matches no
// operation: a 404 for an unknown path; for a known path with another
// method, a 405, a preflight's 204, or the origin check's 403 or 404. The
// body must then match the component response of its status.
func (c *contract) checkUnrouted(req *http.Request, routeErr error, x exchange) error {
	var allowed map[int]string
	switch {
	case errors.Is(routeErr, routers.ErrPathNotFound):
		allowed = map[int]string{http.StatusNotFound: "NotFound"}
	case errors.Is(routeErr, routers.ErrMethodNotAllowed):
		allowed = map[int]string{http.StatusMethodNotAllowed: "MethodNotAllowed",
			http.StatusForbidden: "Forbidden", http.StatusNotFound: "NotFound"}
		if x.method == http.MethodOptions {
			allowed = map[int]string{http.StatusNoContent: "", http.StatusForbidden: "Forbidden", http.StatusNotFound: "NotFound"}
		}
	default:
		return fmt.Errorf("route: %w", routeErr)
	}
	name, ok := allowed[x.status]
	if !ok {
		return fmt.Errorf("status %d for a request without an operation (%v)", x.status, routeErr)
	}
	var resp *openapi3.ResponseRef
	if name == "" {
		// A preflight: no body, the headers of every response.
		if len(x.respBody) != 0 {
			return fmt.Errorf("a %d with a body", x.status)
		}
		r := openapi3.NewResponse().WithDescription("preflight")
		r.Headers = openapi3.Headers{
			"X-Service-API-Version": c.doc.Components.Headers["APIVersion"],
			"X-Request-ID":          c.doc.Components.Headers["RequestID"],
		}
		resp = &openapi3.ResponseRef{Value: r}
	} else if resp = c.doc.Components.Responses[name]; resp == nil {
		return fmt.Errorf("the document lacks components.responses.%s", name)
	}
	route := &routers.Route{Spec: c.doc, Path: req.URL.Path, Method: req.Method,
		Operation: &openapi3.Operation{Responses: openapi3.NewResponses(openapi3.WithStatus(x.status, resp))}}
	in := &openapi3filter.RequestValidationInput{Request: req, Route: route, Options: validationOptions}
	return validateResponse(context.Background(), in, x)
}

func TestOpenAPIDocumentIsValid31(t *testing.T) {
	data, err := os.ReadFile(openAPIPath)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := loadDocument(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := doc.OpenAPI, "3.1.0"; got != want {
		t.Errorf("openapi = %q, want %q", got, want)
	}
	if got, want := doc.Info.Title, "staykit booking API"; got != want {
		t.Errorf("title = %q, want %q", got, want)
	}
	if got, want := doc.Info.Version, "v1"; got != want {
		t.Errorf("version = %q, want %q", got, want)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "/" {
		t.Errorf("servers = %v, want the relative /", doc.Servers)
	}
	for _, want := range []string{"X-Service-API-Version", "Retry-After", "rate_limited", "field_codes", "Idempotency-Key"} {
		if !strings.Contains(doc.Info.Description, want) {
			t.Errorf("info.description does not mention %s", want)
		}
	}
	if got := doc.Components.Headers["APIVersion"].Value.Schema.Value.Const; got != "v1" {
		t.Errorf("X-Service-API-Version const = %v, want v1", got)
	}
	enums := map[string][]any{
		"PaymentMode":  {"full", "deposit", "request"},
		"Locale":       {"fr", "en"},
		"BookingState": {"pending", "requested", "confirmed", "declined", "expired", "cancelled"},
	}
	for name, want := range enums {
		if got := doc.Components.Schemas[name].Value.Enum; !slices.Equal(got, want) {
			t.Errorf("%s enum = %v, want %v", name, got, want)
		}
	}
}

// TestOpenAPIServedAsIs checks that the handler serves the file.
func TestOpenAPIServedAsIs(t *testing.T) {
	e := newTestEnv(t)
	r := e.do(call{method: "GET", path: "/api/v1/openapi.json"})
	want, err := os.ReadFile(openAPIPath)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != 200 || !bytes.Equal(r.Body, want) {
		t.Errorf("GET /api/v1/openapi.json: %d, %d bytes; want 200 with the %d bytes of %s", r.Status, len(r.Body), len(want), openAPIPath)
	}
}

// TestOpenAPIDocumentsEveryRoute checks that the document has the
// operations of the handler (routes.go), and that the handler has every
// operation of the document: another method on its path is a 405 whose
// Allow lists the operation's method.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	c := loadContract(t)
	e := newTestEnv(t)
	want := []string{
		"GET /api/v1/book/{org_slug}",
		"GET /api/v1/book/{org_slug}/properties",
		"GET /api/v1/book/{org_slug}/properties/{id}/availability",
		"GET /api/v1/book/{org_slug}/properties/{id}/price",
		"POST /api/v1/book/{org_slug}/validate-coupon",
		"POST /api/v1/book/{org_slug}/checkout",
		"GET /api/v1/book/{org_slug}/booking/{token}",
		"POST /api/v1/book/{org_slug}/booking/{token}/confirm",
		"GET /api/v1/book/{org_slug}/booking/{token}/cancellation",
		"POST /api/v1/book/{org_slug}/booking/{token}/cancel",
		"POST /api/v1/book/{org_slug}/booking/{token}/balance",
		"GET /api/v1/book/{org_slug}/properties/{id}/reviews",
		"GET /api/v1/book/{org_slug}/booking/{token}/review",
		"POST /api/v1/book/{org_slug}/booking/{token}/review",
		"GET /api/v1/book/{org_slug}/booking/{token}/checkin",
		"POST /api/v1/book/{org_slug}/booking/{token}/checkin",
		"GET /api/v1/book/{org_slug}/booking/{token}/messages",
		"POST /api/v1/book/{org_slug}/booking/{token}/messages",
		"POST /api/v1/book/{org_slug}/booking/{token}/change/quote",
		"POST /api/v1/book/{org_slug}/booking/{token}/change",
		"GET /api/v1/book/{org_slug}/booking/{token}/change",
		"GET /api/v1/book/{org_slug}/booking/{token}/payments",
		"POST /api/v1/webhooks/stripe",
		"POST /api/v1/webhooks/stripe-connect",
		"GET /api/v1/openapi.json",
	}
	var got []string
	for path, item := range c.doc.Paths.Map() {
		for method := range item.Operations() {
			got = append(got, method+" "+path)
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("operations:\n got %v\nwant %v", got, want)
	}
	fill := strings.NewReplacer("{org_slug}", "villa", "{id}", itoa(e.Props["soleil"]), "{token}", e.Tokens["pending"])
	for _, op := range got {
		method, path, _ := strings.Cut(op, " ")
		r := e.do(call{method: "PUT", path: fill.Replace(path)})
		if allow := r.Header.Get("Allow"); r.Status != 405 || !slices.Contains(strings.Split(allow, ", "), method) {
			t.Errorf("PUT %s: %d, Allow %q; want 405 allowing %s", path, r.Status, allow, method)
		}
	}
}

// TestOpenAPIErrorCodesByStatus checks that each status's component
// response lists exactly the error codes the handler maps to that status.
func TestOpenAPIErrorCodesByStatus(t *testing.T) {
	c := loadContract(t)
	components := map[int]string{400: "BadRequest", 403: "Forbidden", 404: "NotFound", 405: "MethodNotAllowed",
		409: "Conflict", 413: "PayloadTooLarge", 415: "UnsupportedMediaType", 422: "UnprocessableEntity",
		429: "TooManyRequests", 500: "InternalError", 502: "BadGateway", 503: "ServiceUnavailable"}
	want := map[int][]string{500: {"internal"}}
	for code, status := range httpapi.ErrorCodes() {
		switch code {
		case booking.CodeUnauthorized, booking.CodeForbidden, booking.CodeBusy, booking.CodeNotConfigured:
			continue // the host side's (package hostapi, the dashboard), in its own document
		}
		want[status] = append(want[status], code)
	}
	for status, name := range components {
		ref := c.doc.Components.Responses[name]
		if ref == nil {
			t.Errorf("components.responses.%s missing", name)
			continue
		}
		var got []string
		for _, sub := range ref.Value.Content.Get("application/json").Schema.Value.AllOf {
			if p := sub.Value.Properties["code"]; p != nil {
				for _, v := range p.Value.Enum {
					got = append(got, v.(string))
				}
			}
		}
		sort.Strings(got)
		sort.Strings(want[status])
		if !slices.Equal(got, want[status]) {
			t.Errorf("%s (%d) codes:\n got %v\nwant %v", name, status, got, want[status])
		}
		for _, code := range got {
			if s := httpapi.HTTPStatus(code); s != status {
				t.Errorf("%s lists %s, which the handler answers with %d", name, code, s)
			}
		}
		delete(want, status)
	}
	if len(want) > 0 {
		t.Errorf("statuses of the handler without a component response: %v", want)
	}
}

// TestContractCatchesMismatches makes sure the contract check is not a
// no-op: responses that break the document are reported.
func TestContractCatchesMismatches(t *testing.T) {
	c := loadContract(t)
	v1 := func(extra ...string) http.Header {
		h := http.Header{}
		extra = append([]string{"Content-Type", "application/json; charset=utf-8", "X-Service-API-Version", "v1", "X-Request-ID", "abc"}, extra...)
		for i := 0; i+1 < len(extra); i += 2 {
			h.Set(extra[i], extra[i+1])
			if extra[i+1] == "-" {
				h.Del(extra[i])
			}
		}
		return h
	}
	okConfig := `{"success":true,"data":{"organization":{"name":"V","slug":"v","logo":null},"config":{"payment_mode":"full","default_locale":"fr","branding":{},"terms_url":null,"min_stay_nights":null,"max_stay_nights":null,"currency":"EUR","timezone":"Europe/Paris"},"payment_public_key":"pk"}}`
	notFound := `{"success":false,"message":"Nope.","code":"not_found"}`
	tests := []struct {
		name string
		x    exchange
		// wantErr is a part of the error, "" for none.
		wantErr string
	}{
		{"config OK", exchange{method: "GET", path: "/api/v1/book/v", status: 200, respHeader: v1(), respBody: []byte(okConfig)}, ""},
		{"undocumented status", exchange{method: "GET", path: "/api/v1/book/v", status: 418, respHeader: v1(), respBody: []byte(notFound)}, `status is not supported`},
		{"missing version header", exchange{method: "GET", path: "/api/v1/book/v", status: 200,
			respHeader: v1("X-Service-API-Version", "-"), respBody: []byte(okConfig)}, `"X-Service-API-Version" missing`},
		{"wrong version header", exchange{method: "GET", path: "/api/v1/book/v", status: 200, respHeader: v1("X-Service-API-Version", "v2"), respBody: []byte(okConfig)}, `value must be 'v1'`},
		{"undocumented field", exchange{method: "GET", path: "/api/v1/book/v", status: 200, respHeader: v1(),
			respBody: []byte(strings.Replace(okConfig, `"payment_public_key":"pk"`, `"payment_public_key":"pk","secret":"x"`, 1))}, `'secret' not allowed`},
		{"missing required field", exchange{method: "GET", path: "/api/v1/book/v", status: 200, respHeader: v1(),
			respBody: []byte(strings.Replace(okConfig, `"terms_url":null,`, ``, 1))}, `missing property 'terms_url'`},
		{"enum value not documented", exchange{method: "GET", path: "/api/v1/book/v", status: 200, respHeader: v1(),
			respBody: []byte(strings.Replace(okConfig, `"full"`, `"later"`, 1))}, `payment_mode`},
		{"null where none is allowed", exchange{method: "GET", path: "/api/v1/book/v", status: 200, respHeader: v1(),
			respBody: []byte(strings.Replace(okConfig, `"name":"V"`, `"name":null`, 1))}, `got null, want string`},
		{"code of another status", exchange{method: "GET", path: "/api/v1/book/v", status: 404, respHeader: v1(),
			respBody: []byte(`{"success":false,"message":"x","code":"internal"}`)}, `value must be 'not_found'`},
		{"429 without Retry-After", exchange{method: "POST", path: "/api/v1/book/v/checkout", status: 429, respHeader: v1("RateLimit-Limit", "10", "RateLimit-Remaining", "0", "RateLimit-Reset", "6"),
			respBody: []byte(`{"success":false,"message":"x","code":"rate_limited"}`)}, `"Retry-After" missing`},
		{"unknown route 404", exchange{method: "GET", path: "/api/v1/nowhere", status: 404, respHeader: v1(), respBody: []byte(notFound)}, ""},
		{"unknown route 200", exchange{method: "GET", path: "/api/v1/nowhere", status: 200, respHeader: v1(), respBody: []byte(okConfig)}, `status 200 for a request without an operation`},
		{"405 without Allow", exchange{method: "DELETE", path: "/api/v1/book/v/checkout", status: 405, respHeader: v1(),
			respBody: []byte(`{"success":false,"message":"x","code":"method_not_allowed"}`)}, `"Allow" missing`},
		{"accepted request the document refuses", exchange{method: "GET", path: "/api/v1/book/v/properties/1/price?check_in=2026-06-10",
			status: 200, respHeader: v1(), respBody: []byte(`{"success":true,"data":{}}`)}, `"check_out" in query`},
	}
	for _, tt := range tests {
		if tt.x.header == nil {
			tt.x.header = http.Header{}
		}
		err := c.check(tt.x)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v, want no error", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.wantErr)
		}
	}
}
