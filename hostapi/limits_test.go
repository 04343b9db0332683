package hostapi_test

import (
	"io"
	"log/slog"
	"net/http"
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
