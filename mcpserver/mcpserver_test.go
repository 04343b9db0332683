package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// documentFiles are the documents the APIs embed and serve.
var documentFiles = map[API]string{Public: "../httpapi/openapi.json", Host: "../hostapi/openapi.json"}

// contract is an API's document as kin-openapi reads it: a parser
// independent of this package's.
type contract struct {
	raw    []byte
	doc    *openapi3.T
	router routers.Router
}

// theContracts are loaded once for the test binary and only read after.
var theContracts = sync.OnceValues(func() (map[API]*contract, error) {
	out := map[API]*contract{}
	for api, file := range documentFiles {
		raw, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		doc, err := openapi3.NewLoader().LoadFromData(raw)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", file, err)
		}
		doc.Servers = nil
		router, err := gorillamux.NewRouter(doc)
		if err != nil {
			return nil, fmt.Errorf("router of %s: %w", file, err)
		}
		out[api] = &contract{raw: raw, doc: doc, router: router}
	}
	return out, nil
})

func loadContracts(t *testing.T) map[API]*contract {
	t.Helper()
	c, err := theContracts()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// seen is a request a tool made, as the stub API received it.
type seen struct {
	api         API
	operationID string
	method      string
	path        string
	query       url.Values
	body        map[string]any
	header      http.Header
	remoteAddr  string
}

// stubAPI serves the real documents and answers every other request with
// answer, after checking it against its document: a request no route of
// the document matches, or one the document refuses, fails the test.
type stubAPI struct {
	t         *testing.T
	contracts map[API]*contract
	docs      map[API][]byte // what it serves as the documents
	answer    func(operationID string) (int, string)

	mu   sync.Mutex
	reqs []seen
}

func newStub(t *testing.T) *stubAPI {
	s := &stubAPI{t: t, contracts: loadContracts(t), docs: map[API][]byte{}}
	for api, c := range s.contracts {
		s.docs[api] = c.raw
	}
	s.answer = func(string) (int, string) { return http.StatusOK, `{"success":true,"data":{"ok":true}}` }
	return s
}

func (s *stubAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for api, p := range documentPath {
		if r.URL.Path == p && r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "application/json")
			w.Write(s.docs[api])
			return
		}
	}
	api := Public
	if strings.HasPrefix(r.URL.Path, "/api/v1/host/") {
		api = Host
	}
	raw, _ := io.ReadAll(r.Body)
	check := r.Clone(r.Context())
	check.Body = io.NopCloser(bytes.NewReader(raw))
	route, params, err := s.contracts[api].router.FindRoute(check)
	if err != nil {
		s.t.Errorf("%s %s: no operation of the %s document: %v", r.Method, r.URL, api, err)
		http.Error(w, "unrouted", http.StatusNotFound)
		return
	}
	in := &openapi3filter.RequestValidationInput{Request: check, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		s.t.Errorf("%s %s %s: the document refuses the request: %v", r.Method, r.URL, raw, err)
	}
	got := seen{api: api, operationID: route.Operation.OperationID, method: r.Method, path: r.URL.Path,
		query: r.URL.Query(), header: r.Header.Clone(), remoteAddr: r.RemoteAddr}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &got.body); err != nil {
			s.t.Errorf("body %q: %v", raw, err)
		}
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, got)
	s.mu.Unlock()
	status, body := s.answer(got.operationID)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Request-ID", "req-1")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// last returns the requests received since the previous call.
func (s *stubAPI) take() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.reqs
	s.reqs = nil
	return r
}

// connect builds the server over api and connects a client to it in
// memory.
func connect(t *testing.T, opts Options) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv, err := New(ctx, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func listTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		out[tool.Name] = tool
	}
	return out
}

// schemaOf reads a listed tool's input schema.
type schemaOf struct {
	Type                 string                     `json:"type"`
	Properties           map[string]json.RawMessage `json:"properties"`
	Required             []string                   `json:"required"`
	AdditionalProperties *bool                      `json:"additionalProperties"`
}

func inputSchema(t *testing.T, tool *mcp.Tool) schemaOf {
	t.Helper()
	b, err := json.Marshal(tool.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var s schemaOf
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// typeOf is a JSON schema's "type", as a list.
func typeOf(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var s struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	switch v := s.Type.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, x.(string))
		}
		return out
	}
	return nil
}

// findOperation returns an operation and its parameters, the path
// item's included (the operation's win).
func findOperation(doc *openapi3.T, id string) (*openapi3.Operation, openapi3.Parameters) {
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.OperationID != id {
				continue
			}
			params := slices.Clone(op.Parameters)
			for _, p := range item.Parameters {
				if op.Parameters.GetByInAndName(p.Value.In, p.Value.Name) == nil {
					params = append(params, p)
				}
			}
			return op, params
		}
	}
	return nil, nil
}

// TestToolsAreTheDocumentsOperations is the drift check, made with
// kin-openapi's reading of the documents: every tool is an operation of
// its API's document; each input is one of the operation's parameters or
// body properties with the same type, required exactly when the document
// requires it; and no parameter or body property is left out except the
// headers no tool takes and the query locale the checkout body shadows.
func TestToolsAreTheDocumentsOperations(t *testing.T) {
	stub := newStub(t)
	listed := listTools(t, connect(t, Options{API: stub}))
	if len(listed) != len(Tools()) {
		t.Errorf("%d tools listed, want %d", len(listed), len(Tools()))
	}
	for _, tool := range Tools() {
		t.Run(tool.Name, func(t *testing.T) {
			lt := listed[tool.Name]
			if lt == nil {
				t.Fatal("not listed")
			}
			op, params := findOperation(stub.contracts[tool.API].doc, tool.OperationID)
			if op == nil {
				t.Fatalf("operationId %s is not in the %s document", tool.OperationID, tool.API)
			}
			if !strings.Contains(lt.Description, op.Summary) || (tool.Writes == lt.Annotations.ReadOnlyHint) {
				t.Errorf("description %q (read-only %v) does not carry the summary %q or the write hint %v", lt.Description, lt.Annotations.ReadOnlyHint, op.Summary, tool.Writes)
			}
			s := inputSchema(t, lt)
			if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
				t.Errorf("schema type %q additionalProperties %v, want a closed object", s.Type, s.AdditionalProperties)
			}
			want := map[string][]string{} // input → type
			wantRequired := []string{}
			var bodyProps openapi3.Schemas
			if op.RequestBody != nil {
				body := op.RequestBody.Value.Content.Get("application/json").Schema.Value
				bodyProps = body.Properties
				for name, p := range bodyProps {
					want[name] = p.Value.Type.Slice()
				}
				if op.RequestBody.Value.Required {
					wantRequired = append(wantRequired, body.Required...)
				}
			}
			for _, p := range params {
				p := p.Value
				switch {
				case p.In == "header" && (p.Name == "Accept-Language" || p.Name == "Origin"):
					continue
				case p.In == "query" && bodyProps[p.Name] != nil:
					continue
				}
				name := p.Name
				if p.In == "header" {
					name = strings.ReplaceAll(strings.ToLower(name), "-", "_")
				}
				want[name] = p.Schema.Value.Type.Slice()
				if p.Required {
					wantRequired = append(wantRequired, name)
				}
			}
			for name, typ := range want {
				got, ok := s.Properties[name]
				if !ok {
					t.Errorf("input %s (%v) of the operation is missing", name, typ)
					continue
				}
				if gt := typeOf(t, got); !slices.Equal(gt, typ) {
					t.Errorf("input %s: type %v, the document says %v", name, gt, typ)
				}
			}
			for name := range s.Properties {
				if _, ok := want[name]; !ok {
					t.Errorf("input %s is no parameter or body property of %s", name, tool.OperationID)
				}
			}
			slices.Sort(wantRequired)
			if !slices.Equal(s.Required, wantRequired) {
				t.Errorf("required %v, the document requires %v", s.Required, wantRequired)
			}
		})
	}
}

func textOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d contents, want 1", len(res.Content))
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// TestToolCallsMakeTheDocumentedRequest calls every tool and checks the
// request it makes (the stub checks it against the document too).
func TestToolCallsMakeTheDocumentedRequest(t *testing.T) {
	stub := newStub(t)
	cs := connect(t, Options{API: stub, HostAPIKey: "sk_host_stdio"})
	checkout := map[string]any{"org_slug": "demo", "property_id": 3, "check_in": "2027-06-10", "check_out": "2027-06-13",
		"guests_count": 2, "guest_name": "Ada Lovelace", "guest_email": "ada@example.com", "guest_phone": "+33612345678",
		"locale": "en", "extras": []any{map[string]any{"code": "breakfast", "quantity": 2}}, "idempotency_key": "k-1"}
	for _, tc := range []struct {
		tool   string
		args   map[string]any
		path   string
		query  url.Values
		body   map[string]any
		header map[string]string
	}{
		{"get_organisation", map[string]any{"org_slug": "demo", "locale": "en"}, "/api/v1/book/demo", url.Values{"locale": {"en"}}, nil, nil},
		{"search_properties", map[string]any{"org_slug": "demo", "check_in": "2027-06-10", "check_out": "2027-06-13", "guests_count": 2, "limit": 10},
			"/api/v1/book/demo/properties", url.Values{"check_in": {"2027-06-10"}, "check_out": {"2027-06-13"}, "guests_count": {"2"}, "limit": {"10"}}, nil, nil},
		{"get_availability", map[string]any{"org_slug": "demo", "id": 3, "from": "2027-06", "months": 2},
			"/api/v1/book/demo/properties/3/availability", url.Values{"from": {"2027-06"}, "months": {"2"}}, nil, nil},
		{"get_quote", map[string]any{"org_slug": "demo", "id": 3, "check_in": "2027-06-10", "check_out": "2027-06-13", "guests_count": 2, "coupon_code": "WELCOME10"},
			"/api/v1/book/demo/properties/3/price", url.Values{"check_in": {"2027-06-10"}, "check_out": {"2027-06-13"}, "guests_count": {"2"}, "coupon_code": {"WELCOME10"}}, nil, nil},
		{"validate_coupon", map[string]any{"org_slug": "demo", "code": "WELCOME10", "property_id": 3},
			"/api/v1/book/demo/validate-coupon", url.Values{}, map[string]any{"code": "WELCOME10", "property_id": float64(3)}, nil},
		{"checkout", checkout, "/api/v1/book/demo/checkout", url.Values{},
			map[string]any{"property_id": float64(3), "check_in": "2027-06-10", "check_out": "2027-06-13", "guests_count": float64(2),
				"guest_name": "Ada Lovelace", "guest_email": "ada@example.com", "guest_phone": "+33612345678", "locale": "en",
				"extras": []any{map[string]any{"code": "breakfast", "quantity": float64(2)}}},
			map[string]string{"Idempotency-Key": "k-1", "Content-Type": "application/json"}},
		{"get_booking_status", map[string]any{"org_slug": "demo", "token": "tok en"}, "/api/v1/book/demo/booking/tok%20en", url.Values{}, nil, nil},
		{"confirm_booking", map[string]any{"org_slug": "demo", "token": "abc"}, "/api/v1/book/demo/booking/abc/confirm", url.Values{}, map[string]any{}, nil},
		{"host_list_properties", map[string]any{"org_slug": "demo", "limit": 5}, "/api/v1/host/demo/properties", url.Values{"limit": {"5"}}, nil,
			map[string]string{"Authorization": "Bearer sk_host_stdio"}},
		{"host_get_property", map[string]any{"org_slug": "demo", "id": "3"}, "/api/v1/host/demo/properties/3", url.Values{}, nil,
			map[string]string{"Authorization": "Bearer sk_host_stdio"}},
		{"host_list_bookings", map[string]any{"org_slug": "demo", "status": "confirmed", "from": "2027-06-01", "property_id": 3},
			"/api/v1/host/demo/bookings", url.Values{"status": {"confirmed"}, "from": {"2027-06-01"}, "property_id": {"3"}}, nil,
			map[string]string{"Authorization": "Bearer sk_host_stdio"}},
		{"host_get_booking", map[string]any{"org_slug": "demo", "id": "12"}, "/api/v1/host/demo/bookings/12", url.Values{}, nil,
			map[string]string{"Authorization": "Bearer sk_host_stdio"}},
		{"host_get_calendar", map[string]any{"org_slug": "demo", "id": "3", "from": "2027-06-01", "to": "2027-07-01"},
			"/api/v1/host/demo/properties/3/calendar", url.Values{"from": {"2027-06-01"}, "to": {"2027-07-01"}}, nil,
			map[string]string{"Authorization": "Bearer sk_host_stdio"}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError || textOf(t, res) != `{"ok":true}` {
				t.Fatalf("result %v %q, want the envelope's data", res.IsError, textOf(t, res))
			}
			reqs := stub.take()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			got := reqs[0]
			want := map[string]string{}
			for _, tool := range Tools() {
				if tool.Name == tc.tool {
					want["op"] = string(tool.API) + " " + tool.OperationID
				}
			}
			if op := string(got.api) + " " + got.operationID; op != want["op"] {
				t.Errorf("operation %s, want %s", op, want["op"])
			}
			if escaped := (&url.URL{Path: got.path}).EscapedPath(); got.path != tc.path && escaped != tc.path {
				t.Errorf("path %s, want %s", got.path, tc.path)
			}
			if got.query.Encode() != tc.query.Encode() {
				t.Errorf("query %v, want %v", got.query, tc.query)
			}
			gb, _ := json.Marshal(got.body)
			wb, _ := json.Marshal(tc.body)
			if string(gb) != string(wb) {
				t.Errorf("body %s, want %s", gb, wb)
			}
			for k, v := range tc.header {
				if got.header.Get(k) != v {
					t.Errorf("header %s = %q, want %q", k, got.header.Get(k), v)
				}
			}
			if _, ok := tc.header["Authorization"]; !ok && got.header.Get("Authorization") != "" {
				t.Errorf("a public tool sent Authorization %q", got.header.Get("Authorization"))
			}
			if got.remoteAddr != localPeer {
				t.Errorf("remote address %q over stdio, want %q", got.remoteAddr, localPeer)
			}
		})
	}
}

// TestToolErrors: an API error is a tool error with its status, code,
// message and field errors; arguments outside the input schema are a tool
// error and no request.
func TestToolErrors(t *testing.T) {
	stub := newStub(t)
	cs := connect(t, Options{API: stub})
	for _, tc := range []struct {
		name     string
		tool     string
		args     map[string]any
		answer   string
		status   int
		requests int
		want     []string
	}{
		{"API error", "get_quote", map[string]any{"org_slug": "demo", "id": 1, "check_in": "2027-06-10", "check_out": "2027-06-11"},
			`{"success":false,"message":"Minimum stay: 2 nights.","code":"min_stay","errors":{"check_out":["too soon"]}}`, 422, 1,
			[]string{`"status":422`, `"code":"min_stay"`, `"message":"Minimum stay: 2 nights."`, `"check_out":["too soon"]`, `"request_id":"req-1"`}},
		{"no envelope", "get_organisation", map[string]any{"org_slug": "demo"}, `<html>`, 502, 1, []string{"502", "no JSON envelope"}},
		{"wrong type", "get_quote", map[string]any{"org_slug": "demo", "id": "one", "check_in": "2027-06-10", "check_out": "2027-06-11"}, "", 0, 0,
			[]string{"invalid arguments"}},
		{"unknown input", "get_organisation", map[string]any{"org_slug": "demo", "admin": true}, "", 0, 0, []string{"invalid arguments"}},
		{"missing path input", "get_booking_status", map[string]any{"org_slug": "demo"}, "", 0, 0, []string{"invalid arguments", "token"}},
		{"dot segment", "get_booking_status", map[string]any{"org_slug": "demo", "token": ".."}, "", 0, 0, []string{"not a path segment"}},
		{"slash", "get_booking_status", map[string]any{"org_slug": "demo", "token": "x/../../host"}, "", 0, 0, []string{"not a path segment"}},
		{"bad org slug", "get_organisation", map[string]any{"org_slug": "../host"}, "", 0, 0, []string{"invalid arguments"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stub.answer = func(string) (int, string) { return tc.status, tc.answer }
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			text := textOf(t, res)
			if !res.IsError {
				t.Fatalf("result %q is no tool error", text)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("error %q lacks %q", text, w)
				}
			}
			if n := len(stub.take()); n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
		})
	}
}

// TestOneOrganisation: with Options.Org no tool takes org_slug, and every
// request is the organisation's.
func TestOneOrganisation(t *testing.T) {
	stub := newStub(t)
	cs := connect(t, Options{API: stub, Org: "villa"})
	for name, tool := range listTools(t, cs) {
		if _, ok := inputSchema(t, tool).Properties["org_slug"]; ok {
			t.Errorf("%s takes org_slug", name)
		}
	}
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "host_get_booking", Arguments: map[string]any{"id": "7"}}); err != nil || res.IsError {
		t.Fatalf("host_get_booking: %v %+v", err, res)
	}
	reqs := stub.take()
	if len(reqs) != 1 || reqs[0].path != "/api/v1/host/villa/bookings/7" || reqs[0].header.Get("Authorization") != "" {
		t.Errorf("requests %+v, want GET /api/v1/host/villa/bookings/7 without a key (none configured)", reqs)
	}
}

// TestNewRefusesADocumentWithoutAToolsOperation: an operation renamed or
// removed from a document stops the server from being built, naming the
// tool.
func TestNewRefusesADocumentWithoutAToolsOperation(t *testing.T) {
	stub := newStub(t)
	stub.docs[Public] = bytes.Replace(stub.docs[Public], []byte(`"operationId": "checkout"`), []byte(`"operationId": "startBooking"`), 1)
	if bytes.Equal(stub.docs[Public], stub.contracts[Public].raw) {
		t.Fatal("the test did not rename checkout's operationId")
	}
	_, err := New(context.Background(), Options{API: stub})
	if err == nil || !strings.Contains(err.Error(), "tool checkout") {
		t.Fatalf("New = %v, want an error naming tool checkout", err)
	}
}

// TestHandler serves the tools over streamable HTTP: the client's address
// reaches the API (whatever the client claims in the server's own
// header), its Authorization reaches the host tools, and a cross-origin
// browser POST or a loopback request naming another host is refused.
func TestHandler(t *testing.T) {
	stub := newStub(t)
	srv, err := New(context.Background(), Options{API: stub, HostAPIKey: "sk_host_fallback", Hosts: []string{"book.example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := &http.Client{Transport: headers{"Authorization": "Bearer sk_host_mine", peerHeader: "203.0.113.9:1"}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, name := range []string{"host_list_bookings", "get_organisation"} {
		if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"org_slug": "demo"}}); err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
	}
	reqs := stub.take()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for _, r := range reqs {
		if !strings.HasPrefix(r.remoteAddr, "127.0.0.1:") || r.remoteAddr == localPeer {
			t.Errorf("%s: remote address %q, want the MCP client's", r.path, r.remoteAddr)
		}
	}
	if got := reqs[0].header.Get("Authorization"); got != "Bearer sk_host_mine" {
		t.Errorf("host tool's Authorization %q, want the MCP request's", got)
	}
	if got := reqs[1].header.Get("Authorization"); got != "" {
		t.Errorf("public tool's Authorization %q, want none", got)
	}

	for _, tc := range []struct {
		name   string
		host   string
		header map[string]string
		want   int
	}{
		{"loopback", "", nil, http.StatusOK},
		{"localhost", "localhost:8080", nil, http.StatusOK},
		{"the public host behind a local proxy", "Book.Example.com", nil, http.StatusOK},
		{"another host (DNS rebinding)", "evil.example", nil, http.StatusForbidden},
		{"cross-origin browser POST", "", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.want {
				t.Errorf("status %d %s, want %d", res.StatusCode, body, tc.want)
			}
			if tc.want == http.StatusOK && !strings.Contains(string(body), `"get_quote"`) {
				t.Errorf("tools/list answered %s", body)
			}
		})
	}
}

// headers sets headers on every request.
type headers map[string]string

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}
