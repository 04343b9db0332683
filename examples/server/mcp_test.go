package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	hostcli "github.com/staykit/staykit/internal/cli"
	"github.com/staykit/staykit/mcpserver"
)

// bearer adds a host API key to every request of an MCP client.
type bearer struct {
	key  string
	next http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.key != "" {
		r.Header.Set("Authorization", b.key)
	}
	return b.next.RoundTrip(r)
}

// mcpSession connects an MCP client to the server's /mcp over streamable
// HTTP, sending authorization (a host key's header, or "") with each
// request.
func mcpSession(t *testing.T, ts *testServer, authorization string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "staykit-test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   ts.URL + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{key: authorization, next: http.DefaultTransport}},
	}, nil)
	if err != nil {
		t.Fatalf("connect to %s/mcp: %v", ts.URL, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTool calls a tool and returns its result's data, decoded.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (any, *mcp.CallToolResult) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("call %s: %d contents, want 1", name, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("call %s: content %T, want text", name, res.Content[0])
	}
	if res.IsError {
		return nil, res
	}
	dec := json.NewDecoder(strings.NewReader(text.Text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("call %s: decode %q: %v", name, text.Text, err)
	}
	return v, res
}

// mustTool is callTool for a call that must succeed.
func mustTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) any {
	t.Helper()
	v, res := callTool(t, cs, name, args)
	if res.IsError {
		t.Fatalf("call %s(%v): tool error %s", name, args, res.Content[0].(*mcp.TextContent).Text)
	}
	return v
}

// TestMCPServerBooksAStay is issue #30's "the MCP server books a stay": an
// MCP client on /mcp lists the tools, searches, quotes, checks out, pays
// with the fake provider's card step, confirms and reads the status
// (confirmed), then reads the booking with the host tools.
func TestMCPServerBooksAStay(t *testing.T) {
	ts := startServer(t, nil)
	auth := hostKey(t, ts, "demo")["Authorization"]
	cs := mcpSession(t, ts, auth)

	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	var names, want []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	for _, tool := range mcpserver.Tools() {
		want = append(want, tool.Name)
	}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}

	in, out := stayDates(45, 3)
	found := mustTool(t, cs, "search_properties", map[string]any{"org_slug": "demo", "check_in": in, "check_out": out, "guests_count": 2})
	props, _ := found.([]any)
	if len(props) == 0 {
		t.Fatalf("search_properties: %v, want properties", found)
	}
	first, _ := props[0].(map[string]any)
	id, err := first["id"].(json.Number).Int64()
	if err != nil {
		t.Fatalf("first property %v: %v", first, err)
	}

	quote := mustTool(t, cs, "get_quote", map[string]any{"org_slug": "demo", "id": id, "check_in": in, "check_out": out, "guests_count": 2}).(map[string]any)
	// The tool answers what the HTTP API answers.
	r := call(t, http.MethodGet, ts.URL+"/api/v1/book/demo/properties/"+first["id"].(json.Number).String()+
		"/price?check_in="+in+"&check_out="+out+"&guests_count=2", nil, nil)
	if r.Status != http.StatusOK || num(r.data(t), "total_amount") != num(quote, "total_amount") || num(quote, "total_amount") == "" {
		t.Fatalf("quote total: tool %v, API %d %s", quote["total_amount"], r.Status, r.Raw)
	}

	order := mustTool(t, cs, "checkout", map[string]any{
		"org_slug": "demo", "property_id": id, "check_in": in, "check_out": out, "guests_count": 2,
		"guest_name": "Ada Lovelace", "guest_email": "ada@example.com", "guest_phone": "+33612345678",
		"idempotency_key": "mcp-test-1",
	}).(map[string]any)
	token, secret := str(order, "booking_token"), str(order, "client_secret")
	if token == "" || secret == "" || num(order, "total_amount") != num(quote, "total_amount") {
		t.Fatalf("checkout = %v, want a token, a client secret and the quote's total %v", order, quote["total_amount"])
	}
	if v := mustTool(t, cs, "get_booking_status", map[string]any{"org_slug": "demo", "token": token}).(map[string]any); str(v, "status") != "pending" {
		t.Errorf("status before payment = %v, want pending", v["status"])
	}
	// Not paid yet: the API's 422, as a tool error with its code.
	if _, res := callTool(t, cs, "confirm_booking", map[string]any{"org_slug": "demo", "token": token}); !res.IsError ||
		!strings.Contains(res.Content[0].(*mcp.TextContent).Text, "payment_not_confirmed") {
		t.Fatalf("confirm before payment: %+v, want tool error payment_not_confirmed", res)
	}

	if r := call(t, http.MethodPost, ts.URL+"/fakepay/intents/"+intentOf(secret), map[string]any{"card_number": "4242424242424242"}, nil); r.Status != http.StatusOK {
		t.Fatalf("fake card step: %d %s", r.Status, r.Raw)
	}
	mustTool(t, cs, "confirm_booking", map[string]any{"org_slug": "demo", "token": token})
	status := mustTool(t, cs, "get_booking_status", map[string]any{"org_slug": "demo", "token": token}).(map[string]any)
	if str(status, "status") != "confirmed" {
		t.Fatalf("status after payment = %v, want confirmed", status)
	}

	// The host tools see it, with the key of the MCP request.
	list := mustTool(t, cs, "host_list_bookings", map[string]any{"org_slug": "demo", "status": "confirmed"})
	var bookingID string
	for _, b := range list.(map[string]any)["items"].([]any) {
		b := b.(map[string]any)
		if str(b, "check_in") == in {
			bookingID = b["id"].(json.Number).String()
		}
	}
	if bookingID == "" {
		t.Fatalf("host_list_bookings = %v, want the booking of %s", list, in)
	}
	got := mustTool(t, cs, "host_get_booking", map[string]any{"org_slug": "demo", "id": bookingID}).(map[string]any)
	if str(got, "status") != "confirmed" {
		t.Errorf("host_get_booking = %v, want confirmed", got)
	}

	// Another organisation: the host API's 403, as a tool error.
	if _, res := callTool(t, cs, "host_list_bookings", map[string]any{"org_slug": "demo-deposit"}); !res.IsError ||
		!strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"status":403`) {
		t.Errorf("another organisation's bookings: %+v, want a 403 tool error", res.Content[0])
	}
}

// TestMCPHostToolsNeedAKey: without Authorization the host tools get the
// host API's 401; the public tools work.
func TestMCPHostToolsNeedAKey(t *testing.T) {
	ts := startServer(t, nil)
	cs := mcpSession(t, ts, "")
	if _, res := callTool(t, cs, "host_list_bookings", map[string]any{"org_slug": "demo"}); !res.IsError ||
		!strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"status":401`) {
		t.Errorf("host_list_bookings without a key: %+v, want a 401 tool error", res.Content[0])
	}
	cfg := mustTool(t, cs, "get_organisation", map[string]any{"org_slug": "demo"}).(map[string]any)
	if org, _ := cfg["organization"].(map[string]any); str(org, "slug") != "demo" {
		t.Errorf("get_organisation = %v, want demo", cfg)
	}
}

// TestMCPCommand runs the mcp command over pipes, as Claude Desktop
// starts it: its tools reach the running server at -url for -org, the
// host tools with STAYKIT_HOST_API_KEY.
func TestMCPCommand(t *testing.T) {
	ts := startServer(t, nil)
	key := strings.TrimPrefix(hostKey(t, ts, "demo")["Authorization"], "Bearer ")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var stderr syncBuffer
	go func() {
		env := map[string]string{"STAYKIT_HOST_API_KEY": key}
		done <- runWith(ctx, []string{"mcp", "-url", ts.URL, "-org", "demo"}, func(k string) string { return env[k] }, inR, hostcli.Terminal{}, outW, &stderr)
		outW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "staykit-test", Version: "v0"}, nil).Connect(ctx,
		&mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		cancel()
		t.Fatalf("connect: %v (stderr %s)", err, stderr.String())
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if strings.Contains(string(mustJSON(t, tool.InputSchema)), `"org_slug"`) {
			t.Errorf("%s takes org_slug with -org", tool.Name)
		}
	}
	cfg := mustTool(t, cs, "get_organisation", nil).(map[string]any)
	if org, _ := cfg["organization"].(map[string]any); str(org, "slug") != "demo" {
		t.Errorf("get_organisation = %v, want demo", cfg)
	}
	props := mustTool(t, cs, "host_list_properties", nil).(map[string]any)
	if items, _ := props["items"].([]any); len(items) == 0 {
		t.Errorf("host_list_properties = %v, want the demo's properties", props)
	}
	cs.Close()
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("mcp command: %v (stderr %s)", err, stderr.String())
	}
	cancel()

	if err := runWith(context.Background(), []string{"mcp", "-url", "ftp://x"}, func(string) string { return "" }, strings.NewReader(""), hostcli.Terminal{}, io.Discard, io.Discard); err != errUsage {
		t.Errorf("mcp -url ftp://x: %v, want usage", err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestREADMEMCPTools: the README's table of tools names every tool with
// its operation, and no other.
func TestREADMEMCPTools(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "## MCP server (AI assistants)")
	if !ok {
		t.Fatal("README has no MCP server section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	listed := map[string]string{} // tool → its row
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, "|")
		for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(cells[1], -1) {
			listed[m[1]] = line
		}
	}
	for _, tool := range mcpserver.Tools() {
		row, ok := listed[tool.Name]
		if !ok {
			t.Errorf("README lists no tool %s", tool.Name)
			continue
		}
		if !strings.Contains(row, "`"+tool.OperationID+"`") || !strings.Contains(row, string(tool.API)) {
			t.Errorf("README row %q does not name %s %s", row, tool.API, tool.OperationID)
		}
		delete(listed, tool.Name)
	}
	for name := range listed {
		t.Errorf("README lists %s, which is no tool", name)
	}
}
