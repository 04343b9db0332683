package plantstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/staykit/staykit/plantstore"
)

// contract is the OpenAPI document with a router over it.
type contract struct {
	doc    *openapi3.T
	router routers.Router
}

// loadContract loads and validates the embedded OpenAPI document.
func loadContract(tb testing.TB) *contract {
	tb.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(plantstore.OpenAPI())
	if err != nil {
		tb.Fatalf("load OpenAPI document: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		tb.Fatalf("validate OpenAPI document: %v", err)
	}
	// The server URL is a placeholder ({base_url}); the handler is mounted
	// wherever a host wants, so route on paths alone.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		tb.Fatalf("OpenAPI router: %v", err)
	}
	return &contract{doc: doc, router: router}
}

// unroutedResponses documents the answers to requests that match no
// operation: auth comes first, then 405 or 404.
var unroutedResponses = map[int]string{
	http.StatusUnauthorized:     "Unauthorized",
	http.StatusMethodNotAllowed: "MethodNotAllowed",
	http.StatusNotFound:         "NotFound",
}

// checkResponse fails tb unless rec is a response the document allows for
// req: its status is documented, and its headers and body match.
func (c *contract) checkResponse(tb testing.TB, req *http.Request, rec *httptest.ResponseRecorder) {
	tb.Helper()
	opts := &openapi3filter.Options{
		IncludeResponseStatus: true,
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		name, ok := unroutedResponses[rec.Code]
		routeNotFound := errors.Is(err, routers.ErrPathNotFound) || errors.Is(err, routers.ErrMethodNotAllowed)
		if !ok || !routeNotFound ||
			(rec.Code == http.StatusNotFound && !errors.Is(err, routers.ErrPathNotFound)) ||
			(rec.Code == http.StatusMethodNotAllowed && !errors.Is(err, routers.ErrMethodNotAllowed)) {
			tb.Fatalf("%s %s: status %d for a request the document routes with %v", req.Method, req.URL.Path, rec.Code, err)
		}
		// Validate against the component response, through a route that
		// has it as its only answer.
		ref := c.doc.Components.Responses[name]
		if ref == nil || ref.Value == nil {
			tb.Fatalf("OpenAPI document lacks components.responses.%s", name)
		}
		route = &routers.Route{
			Spec:      c.doc,
			Path:      req.URL.Path,
			Method:    req.Method,
			Operation: &openapi3.Operation{Responses: openapi3.NewResponses(openapi3.WithStatus(rec.Code, ref))},
		}
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route, Options: opts,
		},
		Status:  rec.Code,
		Header:  rec.Header(),
		Body:    io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
		Options: opts,
	}
	if err := openapi3filter.ValidateResponse(context.Background(), input); err != nil {
		tb.Fatalf("%s %s: response %d %s does not match the OpenAPI document: %v",
			req.Method, req.URL.Path, rec.Code, rec.Body.Bytes(), err)
	}
}

// requestError validates a request against the document, bearer auth
// accepted; nil means the document allows it.
func (c *contract) requestError(tb testing.TB, method, target string, header http.Header, body []byte) error {
	tb.Helper()
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	req.Header = header.Clone()
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return err
	}
	return openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	})
}

func TestOpenAPIDocumentIsValid31(t *testing.T) {
	c := loadContract(t)
	if got, want := c.doc.OpenAPI, "3.1.0"; got != want {
		t.Errorf("openapi = %q, want %q", got, want)
	}
	if !c.doc.IsOpenAPI31OrLater() {
		t.Errorf("IsOpenAPI31OrLater = false, want true")
	}
	info := c.doc.Info
	if got, want := info.Title, "OpenAPI Plant Store"; got != want {
		t.Errorf("title = %q, want %q", got, want)
	}
	if got, want := info.Version, "1.0.0"; got != want {
		t.Errorf("version = %q, want %q", got, want)
	}
	if info.License == nil || info.License.Name != "MIT" {
		t.Errorf("license = %+v, want MIT", info.License)
	}
	scheme := c.doc.Components.SecuritySchemes["bearerAuth"]
	if scheme == nil || scheme.Value.Type != "http" || scheme.Value.Scheme != "bearer" {
		t.Errorf("securitySchemes.bearerAuth = %+v, want http bearer", scheme)
	}
	for _, name := range []string{"Plant", "NewPlant", "Error"} {
		if c.doc.Components.Schemas[name] == nil {
			t.Errorf("components.schemas.%s missing", name)
		}
	}
	op := c.doc.Paths.Value("/plants").Post
	if op == nil {
		t.Fatal("POST /plants missing")
	}
	for _, status := range []int{200, 400, 401, 409, 413, 415, 500} {
		if op.Responses.Status(status) == nil {
			t.Errorf("POST /plants lacks response %d", status)
		}
	}
}

func TestOpenAPIReturnsACopy(t *testing.T) {
	a := plantstore.OpenAPI()
	a[0] = 'X'
	if b := plantstore.OpenAPI(); b[0] == 'X' {
		t.Error("OpenAPI() returned shared memory: a change to one result shows in the next")
	}
}

// TestBlankNameDocumentAgreesWithHandler: for every white-space rune the
// handler trims (unicode.IsSpace) a name of it alone is refused by both the
// handler and the document, and names of other invisible runes are
// accepted by both.
func TestBlankNameDocumentAgreesWithHandler(t *testing.T) {
	c := loadContract(t)
	header := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + goodToken}}
	var names []string
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.IsSpace(r) {
			names = append(names, string(r))
		}
	}
	accepted := []string{"x", "\u200b", "\ufeff", "\u00a0x"}
	for i, name := range append(names, accepted...) {
		body, _ := json.Marshal(map[string]any{"id": 1, "name": name})
		wantAccepted := i >= len(names)
		req := httptest.NewRequest(http.MethodPost, "/plants", bytes.NewReader(body))
		req.Header = header.Clone()
		rec := httptest.NewRecorder()
		newHandler(newStore(t)).ServeHTTP(rec, req)
		if handlerAccepted := rec.Code == http.StatusOK; handlerAccepted != wantAccepted {
			t.Errorf("name %+q: handler status %d, want accepted %v", name, rec.Code, wantAccepted)
		}
		err := c.requestError(t, http.MethodPost, "/plants", header, body)
		if docAccepted := err == nil; docAccepted != wantAccepted {
			t.Errorf("name %+q: document error %v, want accepted %v", name, err, wantAccepted)
		}
	}
}
