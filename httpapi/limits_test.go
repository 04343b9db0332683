package httpapi_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/ratelimit"
)

// exhaust sends n checkouts with an empty (invalid) body from remote with
// the given X-Forwarded-For, failing on any 429.
func exhaust(t *testing.T, e *testEnv, n int, remote, xff string) {
	t.Helper()
	for i := range n {
		h := map[string]string{}
		if xff != "" {
			h["X-Forwarded-For"] = xff
		}
		r := e.do(call{method: "POST", path: villa + "/checkout", body: `{}`, remote: remote, header: h})
		if r.Status == 429 {
			t.Fatalf("request %d from %s (XFF %q) limited too early", i+1, remote, xff)
		}
		if got, want := r.Header.Get("RateLimit-Remaining"), strconv.Itoa(n-1-i); n == 10 && got != want {
			t.Errorf("request %d: RateLimit-Remaining = %q, want %s", i+1, got, want)
		}
	}
}

func checkout429(t *testing.T, e *testEnv, remote, xff string) response {
	t.Helper()
	h := map[string]string{}
	if xff != "" {
		h["X-Forwarded-For"] = xff
	}
	return e.do(call{method: "POST", path: villa + "/checkout", body: soleilCheckout(e), remote: remote, header: h})
}

func TestCheckoutRateLimit(t *testing.T) {
	e := newTestEnv(t)
	exhaust(t, e, 10, "203.0.113.5:1111", "")

	r := checkout429(t, e, "203.0.113.5:2222", "")
	checkV1Headers(t, "429", r)
	if r.Status != 429 || r.Env.Code != "rate_limited" {
		t.Fatalf("11th checkout: %d %s, want 429", r.Status, r.Body)
	}
	retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || retry < 1 || retry > 60 {
		t.Errorf("Retry-After = %q, want whole seconds in 1..60", r.Header.Get("Retry-After"))
	}
	for _, h := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
		if r.Header.Get(h) == "" {
			t.Errorf("429 without %s", h)
		}
	}
	if n := len(e.bookings("villa")); n != 1 {
		t.Errorf("a limited checkout created a booking: %d bookings", n)
	}

	// Another address is not limited, nor the same address on another
	// organisation.
	if r := checkout429(t, e, "203.0.113.6:1111", ""); r.Status != 201 {
		t.Errorf("other address: %d %s, want 201", r.Status, r.Body)
	}
	if r := e.do(call{method: "POST", path: "/api/v1/book/other-org/checkout", body: `{}`, remote: "203.0.113.5:1"}); r.Status == 429 {
		t.Error("the limit of villa applied to other-org")
	}
	// X-Forwarded-For from an untrusted peer is ignored.
	if r := checkout429(t, e, "203.0.113.5:3333", "198.51.100.7"); r.Status != 429 {
		t.Errorf("spoofed X-Forwarded-For: %d, want 429", r.Status)
	}
	// The bucket refills: one request every 6 seconds.
	e.Clock.Advance(time.Duration(retry) * time.Second)
	if r := checkout429(t, e, "203.0.113.5:4444", ""); r.Status == 429 {
		t.Errorf("after Retry-After: still 429")
	}
}

func TestRateLimitBehindTrustedProxy(t *testing.T) {
	e := newTestEnv(t, withTrustedProxies("10.0.0.0/8"))
	exhaust(t, e, 10, "10.0.0.1:5000", "198.51.100.9, 10.0.0.2")
	if r := checkout429(t, e, "10.0.0.3:5000", "198.51.100.9"); r.Status != 429 {
		t.Errorf("same client through another proxy: %d, want 429", r.Status)
	}
	if r := checkout429(t, e, "10.0.0.1:5000", "198.51.100.10, 10.0.0.2"); r.Status != 201 {
		t.Errorf("another client through the proxy: %d %s, want 201", r.Status, r.Body)
	}
	// The client cannot pick its address by prepending hops: the rightmost
	// untrusted hop counts.
	if r := checkout429(t, e, "10.0.0.1:5000", "1.2.3.4, 198.51.100.9"); r.Status != 429 {
		t.Errorf("prepended hop: %d, want 429", r.Status)
	}
}

func TestRateLimitIPv6CountsPerSlash64(t *testing.T) {
	e := newTestEnv(t)
	for i := range 10 {
		remote := "[2001:db8:1:2::" + strconv.FormatInt(int64(i+1), 16) + "]:443"
		if r := e.do(call{method: "POST", path: villa + "/checkout", body: `{}`, remote: remote}); r.Status == 429 {
			t.Fatalf("request %d limited too early", i+1)
		}
	}
	if r := checkout429(t, e, "[2001:db8:1:2::ffff]:443", ""); r.Status != 429 {
		t.Errorf("same /64: %d, want 429", r.Status)
	}
	if r := checkout429(t, e, "[2001:db8:1:3::1]:443", ""); r.Status == 429 {
		t.Error("another /64 limited")
	}
}

func TestRateLimitsConfigurable(t *testing.T) {
	e := newTestEnv(t, withLimits(map[string]ratelimit.Limit{
		"checkout":   {},                     // off
		"properties": ratelimit.PerMinute(2), // on
	}))
	exhaust(t, e, 15, "203.0.113.5:1", "")
	for i := range 2 {
		r := e.do(call{method: "GET", path: villa + "/properties"})
		if r.Status != 200 || r.Header.Get("RateLimit-Limit") != "2" {
			t.Fatalf("properties %d: %d, RateLimit-Limit %q", i+1, r.Status, r.Header.Get("RateLimit-Limit"))
		}
	}
	if r := e.do(call{method: "GET", path: villa + "/properties"}); r.Status != 429 {
		t.Errorf("third properties: %d, want 429", r.Status)
	}
	// Unlimited routes carry no RateLimit headers.
	if r := e.do(call{method: "GET", path: villa}); r.Header.Get("RateLimit-Limit") != "" {
		t.Error("RateLimit-Limit on an unlimited route")
	}
}

// brokenLimiter fails every call.
type brokenLimiter struct{}

func (brokenLimiter) Allow(context.Context, string, ratelimit.Limit) (ratelimit.Decision, error) {
	return ratelimit.Decision{}, errors.New("redis: connection refused")
}

func TestRateLimiterFailureFailsOpen(t *testing.T) {
	e := newTestEnv(t, withLimiter(brokenLimiter{}))
	for range 12 {
		if r := e.do(call{method: "POST", path: villa + "/checkout", body: `{}`}); r.Status != 422 {
			t.Fatalf("status = %d, want 422 (served)", r.Status)
		}
	}
	if !strings.Contains(e.Logs.String(), "connection refused") {
		t.Error("the limiter's failure is not logged")
	}
}
