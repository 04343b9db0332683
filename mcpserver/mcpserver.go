// Package mcpserver is staykit's MCP server (Model Context Protocol): the
// public booking flow — the organisation's configuration, a search of its
// properties by dates and guests, availability, a quote, a coupon check,
// checkout (which holds the dates and creates the payment), the booking's
// status and its confirmation — and the host API's reads (properties,
// bookings, calendar) as tools an AI assistant calls.
//
// It cannot drift from the HTTP APIs: each tool is an operation of the
// public or the host API's OpenAPI document (Tools names its operationId),
// its input schema is derived, when the server is built, from the
// document the API serves (the operation's path and query parameters,
// Idempotency-Key as idempotency_key, and its JSON request body's
// properties), and a call is that HTTP request served by the API's own
// handler in the same process: the same validation, errors, rate limits,
// idempotency and envelope. A tool's result is the envelope's data; an
// API error is a tool error with its status, code, message and field
// errors.
//
// Host tools send a host API key: the Authorization header of the MCP
// HTTP request (each client its own key), else Options.HostAPIKey (a
// command run over stdio).
//
// Serve it over streamable HTTP with Handler (stateless: every POST stands
// alone, no session is kept) or over any transport with Run, such as
// &mcp.StdioTransport{}.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure the server. API is required.
type Options struct {
	// API serves the public booking API (/api/v1/book/…,
	// /api/v1/openapi.json) and the host API (/api/v1/host/…): the
	// handlers a tool's request goes to, in this process. An
	// httputil.ReverseProxy to a running server works too.
	API http.Handler
	// Org, when set, is the only organisation the tools act for: org_slug
	// is then no input of any tool. Empty: each call names it.
	Org string
	// HostAPIKey is the host API key the host tools send when the MCP
	// request carries no Authorization header (over stdio). Empty: such
	// calls get the host API's 401.
	HostAPIKey string
	// Hosts are the host names (no port) Handler accepts in the Host
	// header of a request that reached a loopback address, besides
	// localhost and loopback addresses: the public host name when a
	// reverse proxy on the same machine forwards to the server. Any other
	// name is refused (DNS rebinding).
	Hosts []string
	// Version is the server's version in the MCP handshake; default "v1".
	Version string
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// Server is the MCP server over the staykit APIs.
type Server struct {
	opts  Options
	log   *slog.Logger
	mcp   *mcp.Server
	tools map[string]*boundTool
}

// boundTool is a Tool with the operation it calls, read from the API's
// document.
type boundTool struct {
	Tool
	op       *operation
	resolved *jsonschema.Resolved
}

// New reads the APIs' OpenAPI documents from opts.API and builds the
// tools. It fails when a tool's operation is missing from its document or
// its parameters and body cannot make one input schema.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.API == nil {
		return nil, errors.New("mcpserver: Options.API is required")
	}
	s := &Server{opts: opts, log: opts.Logger, tools: map[string]*boundTool{}}
	if s.log == nil {
		s.log = slog.Default()
	}
	version := opts.Version
	if version == "" {
		version = "v1"
	}
	docs := map[API]*document{}
	for _, api := range []API{Public, Host} {
		d, err := s.fetchDocument(ctx, api)
		if err != nil {
			return nil, err
		}
		docs[api] = d
	}
	fixed := map[string]bool{}
	if opts.Org != "" {
		fixed["org_slug"] = true
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "staykit", Title: "staykit booking engine", Version: version},
		&mcp.ServerOptions{Logger: sdkLogger(s.log), Instructions: instructions})
	for _, t := range Tools() {
		op, err := docs[t.API].operation(t.OperationID, fixed)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: tool %s: %w", t.Name, err)
		}
		b, err := json.Marshal(op.schema)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: tool %s: %w", t.Name, err)
		}
		var js jsonschema.Schema
		if err := json.Unmarshal(b, &js); err != nil {
			return nil, fmt.Errorf("mcpserver: tool %s: input schema: %w", t.Name, err)
		}
		resolved, err := js.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: tool %s: input schema: %w", t.Name, err)
		}
		bt := &boundTool{Tool: t, op: op, resolved: resolved}
		s.tools[t.Name] = bt
		s.mcp.AddTool(&mcp.Tool{
			Name:        t.Name,
			Title:       op.summary,
			Description: describe(t, op),
			InputSchema: json.RawMessage(b),
			Annotations: &mcp.ToolAnnotations{
				Title:           op.summary,
				ReadOnlyHint:    !t.Writes,
				DestructiveHint: new(false),
				IdempotentHint:  !t.Writes,
				OpenWorldHint:   new(false),
			},
		}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return s.call(ctx, bt, req)
		})
	}
	return s, nil
}

// instructions tell an assistant how the tools fit together.
const instructions = "staykit books short-term rental stays. Guest flow: get_organisation, " +
	"search_properties with check_in, check_out and guests_count, get_quote, then checkout with the guest's " +
	"name, e-mail and phone; the guest pays with the returned client_secret on the booking page, then " +
	"confirm_booking and get_booking_status with the booking_token. Dates are YYYY-MM-DD; amounts are exact " +
	"decimals in the organisation's currency. host_* tools read the host's own data and need its API key."

// describe is a tool's description: the operation's summary and
// description from the document, and the tool's note.
func describe(t Tool, op *operation) string {
	parts := []string{}
	for _, p := range []string{op.summary, op.description, t.Note} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, strings.TrimSuffix(p, ".")+".")
		}
	}
	return strings.Join(parts, " ")
}

// MCP returns the underlying SDK server (to add a transport of one's own).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one MCP session over t (such as &mcp.StdioTransport{}) until
// the client disconnects or ctx is done.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.mcp.Run(ctx, t)
}

// peerHeader carries the MCP HTTP request's peer address to the tools'
// requests, so that the APIs' per-client limits count the real client.
// Handler sets it on every request, whatever the client sent.
const peerHeader = "X-Staykit-Mcp-Peer"

// Handler serves MCP over streamable HTTP, stateless: each POST is a
// whole exchange, and carries its own Authorization for the host tools.
// Cross-origin browser requests are refused (http.CrossOriginProtection),
// and so are requests to a loopback address naming a host that is neither
// a loopback one nor one of Options.Hosts (DNS rebinding).
func (s *Server) Handler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: sdkLogger(s.log),
			// Checked below, with Options.Hosts.
			DisableLocalhostProtection: true})
	csrf := http.NewCrossOriginProtection()
	return csrf.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r) {
			http.Error(w, "Forbidden: this server is not reached by that host name.", http.StatusForbidden)
			return
		}
		r.Header.Set(peerHeader, r.RemoteAddr)
		h.ServeHTTP(w, r)
	}))
}

// hostAllowed says whether a request may name its Host: any name when it
// reached a non-loopback address, else a loopback name or one of
// Options.Hosts.
func (s *Server) hostAllowed(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil || !loopback(local.String()) {
		return true
	}
	if loopback(r.Host) {
		return true
	}
	name := r.Host
	if h, _, err := net.SplitHostPort(r.Host); err == nil {
		name = h
	}
	return slices.ContainsFunc(s.opts.Hosts, func(h string) bool { return strings.EqualFold(h, name) })
}

// loopback says whether a host or host:port is localhost or a loopback
// address.
func loopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// fetchDocument reads an API's OpenAPI document from the API itself.
func (s *Server) fetchDocument(ctx context.Context, api API) (*document, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, documentPath[api], nil)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	req.RemoteAddr = localPeer
	req.Body = http.NoBody
	rec := newRecorder()
	s.opts.API.ServeHTTP(rec, req)
	if rec.status != http.StatusOK {
		return nil, fmt.Errorf("mcpserver: GET %s: status %d", documentPath[api], rec.status)
	}
	d, err := parseDocument(rec.body.Bytes())
	if err != nil {
		return nil, fmt.Errorf("mcpserver: %s API: %w", api, err)
	}
	return d, nil
}

// localPeer is the peer address of a tool's request when the MCP request
// came over no network (stdio).
const localPeer = "127.0.0.1:0"

// call runs a tool: validates its arguments against its input schema,
// makes the operation's HTTP request to the API and turns the envelope
// into the tool's result.
func (s *Server) call(ctx context.Context, t *boundTool, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := arguments(req.Params.Arguments)
	if err == nil {
		err = t.validate(req.Params.Arguments)
	}
	if err != nil {
		return toolError(fmt.Sprintf("invalid arguments: %v", err), nil), nil
	}
	var header http.Header
	if req.Extra != nil {
		header = req.Extra.Header
	}
	hreq, err := s.request(ctx, t, args, header)
	if err != nil {
		return toolError(fmt.Sprintf("invalid arguments: %v", err), nil), nil
	}
	rec := newRecorder()
	s.opts.API.ServeHTTP(rec, hreq)
	return result(rec), nil
}

// arguments decodes a call's arguments, numbers kept as written.
func arguments(raw json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return args, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return nil, errors.New("the arguments are not a JSON object")
	}
	return args, nil
}

// validate checks the arguments against the tool's input schema.
func (t *boundTool) validate(raw json.RawMessage) error {
	var v map[string]any
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &v); err != nil {
			return errors.New("the arguments are not a JSON object")
		}
	}
	if v == nil {
		v = map[string]any{}
	}
	return t.resolved.Validate(v)
}

// request builds the operation's HTTP request from a call's arguments.
// header is the MCP HTTP request's (nil over stdio).
func (s *Server) request(ctx context.Context, t *boundTool, args map[string]any, header http.Header) (*http.Request, error) {
	path := t.op.path
	if s.opts.Org != "" {
		path = strings.ReplaceAll(path, "{org_slug}", url.PathEscape(s.opts.Org))
	}
	query := url.Values{}
	body := map[string]any{}
	hdr := http.Header{}
	for name, v := range args {
		in, ok := t.op.inputs[name]
		if !ok {
			return nil, fmt.Errorf("unknown input %q", name)
		}
		if in.in == inBody {
			body[in.name] = v
			continue
		}
		str, err := scalar(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		switch in.in {
		case inPath:
			// Escaped, a value stays one segment; no API has a path
			// value that is empty, a dot segment or holds a slash.
			if str == "" || str == "." || str == ".." || strings.Contains(str, "/") {
				return nil, fmt.Errorf("%s: %q is not a path segment", name, str)
			}
			path = strings.ReplaceAll(path, "{"+in.name+"}", url.PathEscape(str))
		case inQuery:
			query.Set(in.name, str)
		case inHeader:
			hdr.Set(in.name, str)
		}
	}
	if strings.Contains(path, "{") {
		return nil, fmt.Errorf("a path parameter of %s is missing", t.op.path)
	}
	target := path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var rd io.Reader
	if t.op.hasBody {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("request body: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, t.op.method, target, rd)
	if err != nil {
		return nil, err
	}
	if rd == nil {
		req.Body = http.NoBody // as a server's request always has one
	}
	req.Header = hdr
	if t.op.hasBody {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "staykit-mcp")
	req.RemoteAddr = localPeer
	if peer := header.Get(peerHeader); peer != "" {
		req.RemoteAddr = peer
		if xff := header.Values("X-Forwarded-For"); len(xff) > 0 {
			req.Header["X-Forwarded-For"] = xff
		}
	}
	if t.API == Host {
		if auth := header.Get("Authorization"); auth != "" {
			req.Header.Set("Authorization", auth)
		} else if s.opts.HostAPIKey != "" {
			req.Header.Set("Authorization", "Bearer "+s.opts.HostAPIKey)
		}
	}
	return req, nil
}

// scalar writes a path, query or header argument as text.
func scalar(v any) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case json.Number:
		return t.String(), nil
	case bool:
		return strconv.FormatBool(t), nil
	}
	return "", errors.New("must be a string, a number or a boolean")
}

// envelope is the APIs' answer.
type envelope struct {
	Success bool                `json:"success"`
	Data    json.RawMessage     `json:"data"`
	Message string              `json:"message"`
	Code    string              `json:"code"`
	Errors  map[string][]string `json:"errors"`
}

// result turns an API answer into a tool result: the envelope's data on
// success (also as structured content when it is an object), else a tool
// error with the status, code, message and field errors.
func result(rec *recorder) *mcp.CallToolResult {
	var env envelope
	if err := json.Unmarshal(rec.body.Bytes(), &env); err != nil {
		return toolError(fmt.Sprintf("the API answered %d with no JSON envelope", rec.status), map[string]any{"status": rec.status})
	}
	if rec.status >= 300 || !env.Success {
		detail := map[string]any{"status": rec.status, "code": env.Code, "message": env.Message}
		if len(env.Errors) > 0 {
			detail["errors"] = env.Errors
		}
		if id := rec.header.Get("X-Request-ID"); id != "" {
			detail["request_id"] = id
		}
		b, _ := json.Marshal(detail)
		return toolError(string(b), detail)
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(env.Data)}}}
	var obj map[string]any
	if json.Unmarshal(env.Data, &obj) == nil && obj != nil {
		res.StructuredContent = obj
	}
	return res
}

func toolError(text string, structured map[string]any) *mcp.CallToolResult {
	res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	if structured != nil {
		res.StructuredContent = structured
	}
	return res
}

// recorder is the http.ResponseWriter of an in-process request.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}

// sdkLogger is the SDK's logger: warnings and errors only, since a
// stateless server connects and disconnects a session per request (the
// API logs each tool's request itself).
func sdkLogger(l *slog.Logger) *slog.Logger {
	return slog.New(minLevel{Handler: l.Handler(), min: slog.LevelWarn})
}

// minLevel drops records below min.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(a []slog.Attr) slog.Handler {
	return minLevel{Handler: h.Handler.WithAttrs(a), min: h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: h.Handler.WithGroup(name), min: h.min}
}
