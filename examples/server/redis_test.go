package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/internal/testenv"
)

// TestRedisThatHangs: the server shares its rate limits through a Redis
// that starts hanging (it accepts and reads, and never answers). A
// rate-limited request then costs at most -redis-timeout (200ms here), not the
// client's seconds of timeouts; after five failures Redis is skipped and
// requests are answered at once, allowed uncounted (fail open); the
// breaker's opening is logged once, not each request.
func TestRedisThatHangs(t *testing.T) {
	proxy := newTCPProxy(t, testenv.RedisAddr(t))
	ts := startServer(t, nil, "-redis", "redis://"+proxy.addr+"/0", "-redis-timeout", "200ms")
	coupon := func() (time.Duration, response) {
		start := time.Now()
		r := call(t, http.MethodPost, ts.URL+"/api/v1/book/demo/validate-coupon", map[string]any{"code": "WELCOME10"}, nil)
		return time.Since(start), r
	}
	if _, r := coupon(); r.Status != http.StatusOK || r.Header.Get("RateLimit-Limit") == "" {
		t.Fatalf("with Redis answering: %d %v %s, want 200 counted", r.Status, r.Header, r.Raw)
	}
	proxy.stalled.Store(true)
	for i := range 12 {
		waited, r := coupon()
		if r.Status != http.StatusOK {
			t.Fatalf("request %d with Redis hanging: %d %s, want it allowed", i+1, r.Status, r.Raw)
		}
		// Far below go-redis's 5 s read timeout; loose for a busy machine.
		if waited > time.Second {
			t.Errorf("request %d waited %v with Redis hanging", i+1, waited)
		}
	}
	logs := ts.logs.String()
	if n := strings.Count(logs, "rate limiter failing"); n != 1 {
		t.Errorf("%d breaker warnings, want 1:\n%s", n, logs)
	}
	if n := strings.Count(logs, "rate limiter failed; request allowed"); n != 5 {
		t.Errorf("%d request errors logged, want the 5 before the breaker opened:\n%s", n, logs)
	}
}
