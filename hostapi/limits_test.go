package hostapi_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/ratelimit"
)

// TestRequestsLimitedPerKey: every answer to an authenticated request
// carries the RateLimit-* headers of its API key's limit; over it the
// answer is 429 with Retry-After, from any client address, while another
// key of the organisation is not affected; the quota comes back with the
// period.
func TestRequestsLimitedPerKey(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	limiter := ratelimit.NewMemory(ratelimit.MemoryOptions{Now: e.clock.Now})
	api := hostapi.New(hostapi.Options{Host: e.replicas[0].host, Logger: logger, Limiter: limiter, Clock: e.clock,
		KeyRequests: ratelimit.PerMinute(3)})
	// The test names the client's address in X-Test-Remote.
	e.replicas[0].server = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a := r.Header.Get("X-Test-Remote"); a != "" {
			r.RemoteAddr = a
		}
		api.ServeHTTP(w, r)
	})
	second, _, err := e.replicas[0].host.CreateAPIKey(t.Context(), e.orgs["villa"], "second", host.Actor{Kind: "user", ID: 1, Name: "setup"})
	if err != nil {
		t.Fatal(err)
	}
	path := hostPath("villa", "/settings")
	from := func(addr string) map[string]string { return map[string]string{"X-Test-Remote": addr + ":4000"} }
	for i, addr := range []string{"192.0.2.1", "192.0.2.2", "198.51.100.7"} {
		r := e.do("villa", req{method: "GET", path: path, header: from(addr)})
		want(t, r, http.StatusOK)
		if r.header.Get("RateLimit-Limit") != "3" || r.header.Get("RateLimit-Remaining") != strconv.Itoa(2-i) ||
			r.header.Get("RateLimit-Reset") == "" || r.header.Get("Retry-After") != "" {
			t.Errorf("request %d: headers %v, want RateLimit-Limit 3, Remaining %d, a Reset, no Retry-After", i+1, r.header, 2-i)
		}
	}
	for _, tc := range []struct {
		name   string
		method string
		addr   string
	}{
		{"a read from a new address", http.MethodGet, "203.0.113.9"},
		{"a write", http.MethodPatch, "192.0.2.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("villa", req{method: tc.method, path: path, body: map[string]any{}, header: from(tc.addr)})
			want(t, r, http.StatusTooManyRequests, "rate_limited")
			retry, err := strconv.Atoi(r.header.Get("Retry-After"))
			if err != nil || retry < 1 || retry > 60 || r.header.Get("RateLimit-Remaining") != "0" || r.header.Get("RateLimit-Limit") != "3" {
				t.Errorf("429 headers %v, want Retry-After in 1..60, RateLimit-Limit 3, Remaining 0", r.header)
			}
		})
	}
	// Another key of the organisation has its own quota.
	if r := e.do("villa", req{method: "GET", path: path, key: second}); r.status != http.StatusOK || r.header.Get("RateLimit-Remaining") != "2" {
		t.Errorf("the second key: %d, RateLimit-Remaining %q; want 200 and its own quota", r.status, r.header.Get("RateLimit-Remaining"))
	}
	e.clock.Advance(time.Minute)
	want(t, e.do("villa", req{method: "GET", path: path}), http.StatusOK)
	// The refusals changed nothing.
	settings := e.do("villa", req{method: "GET", path: path})
	if settings.status != http.StatusOK || settings.data(t)["slug"] != "villa" {
		t.Errorf("settings after the limit: %d %s", settings.status, settings.body)
	}
}

// TestPublishedKeyLimit: every operation behind authentication publishes
// the per-credential limit (x-ratelimit) that DefaultKeyRequests sets, and
// declares the RateLimit-* headers of its successes.
func TestPublishedKeyLimit(t *testing.T) {
	data, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	type operation struct {
		OperationID string `json:"operationId"`
		RateLimit   *struct {
			Limit  int `json:"limit"`
			Period int `json:"period_seconds"`
		} `json:"x-ratelimit"`
		Responses map[string]struct {
			Ref     string                     `json:"$ref"`
			Headers map[string]json.RawMessage `json:"headers"`
		} `json:"responses"`
	}
	limited := 0
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			var op operation
			if method == "parameters" || json.Unmarshal(raw, &op) != nil || path == "/api/v1/host/openapi.json" {
				continue
			}
			limited++
			if op.RateLimit == nil || op.RateLimit.Limit != hostapi.DefaultKeyRequests.Requests ||
				op.RateLimit.Period != int(hostapi.DefaultKeyRequests.Period.Seconds()) {
				t.Errorf("%s publishes %+v, want the default per-key limit", op.OperationID, op.RateLimit)
			}
			for code, resp := range op.Responses {
				if code[0] == '2' && resp.Ref == "" && resp.Headers["RateLimit-Remaining"] == nil {
					t.Errorf("%s %s does not declare RateLimit-Remaining", op.OperationID, code)
				}
			}
		}
	}
	if limited < 40 {
		t.Errorf("%d operations checked, want every operation of the host API", limited)
	}
}
