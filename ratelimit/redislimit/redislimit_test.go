package redislimit_test

import (
	"context"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/ratelimit/redislimit"
)

// testAddr returns the Redis the tests may use (see internal/testenv).
func testAddr(t *testing.T) string {
	t.Helper()
	return testenv.RedisAddr(t)
}

// newClient returns a client of the test Redis, closed when the test ends.
func newClient(t *testing.T) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: testAddr(t)})
	t.Cleanup(func() { c.Close() })
	return c
}

// newPrefix returns a key prefix of the test's own; the keys under it are
// deleted when the test ends.
func newPrefix(t *testing.T) string {
	t.Helper()
	prefix := "staykit:test:" + strings.ToLower(rand.Text()[:12]) + ":"
	c := redis.NewClient(&redis.Options{Addr: testAddr(t)})
	t.Cleanup(func() {
		defer c.Close()
		ctx := context.Background()
		// redis_rate puts "rate:" before our keys.
		keys, err := c.Keys(ctx, "rate:"+prefix+"*").Result()
		if err != nil {
			t.Errorf("list test keys: %v", err)
			return
		}
		if len(keys) > 0 {
			if err := c.Del(ctx, keys...).Err(); err != nil {
				t.Errorf("delete test keys: %v", err)
			}
		}
	})
	return prefix
}

func TestTenPerMinuteAllowsTenThenRetryAfterSixSeconds(t *testing.T) {
	l := redislimit.New(newClient(t), redislimit.WithPrefix(newPrefix(t)))
	limit := ratelimit.PerMinute(10)
	for i := range 10 {
		d, err := l.Allow(t.Context(), "checkout|villa|192.0.2.1", limit)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Allowed || d.Limit != 10 || d.Remaining != 9-i || d.RetryAfter != 0 {
			t.Fatalf("request %d: %+v, want allowed, limit 10, remaining %d, no retry", i+1, d, 9-i)
		}
	}
	d, err := l.Allow(t.Context(), "checkout|villa|192.0.2.1", limit)
	if err != nil {
		t.Fatal(err)
	}
	if d.Allowed || d.Remaining != 0 || d.Limit != 10 {
		t.Fatalf("11th request: %+v, want refused, remaining 0", d)
	}
	// One request comes back every 6 s; the ten took a few ms.
	if d.RetryAfter <= 5*time.Second || d.RetryAfter > 6*time.Second {
		t.Errorf("RetryAfter = %v, want just under 6s", d.RetryAfter)
	}
	if d.ResetAfter <= 55*time.Second || d.ResetAfter > time.Minute {
		t.Errorf("ResetAfter = %v, want just under 1m", d.ResetAfter)
	}
	// Another client has its own count.
	d, err = l.Allow(t.Context(), "checkout|villa|192.0.2.2", limit)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Allowed || d.Remaining != 9 {
		t.Errorf("other client: %+v, want allowed with 9 left", d)
	}
}

func TestTwoReplicasShareOneCount(t *testing.T) {
	prefix := newPrefix(t)
	// Two replicas: two limiters, each with its own connection pool.
	replicas := []*redislimit.Limiter{
		redislimit.New(newClient(t), redislimit.WithPrefix(prefix)),
		redislimit.New(newClient(t), redislimit.WithPrefix(prefix)),
	}
	limit := ratelimit.PerMinute(10)
	for i := range 10 {
		d, err := replicas[i%2].Allow(t.Context(), "checkout|villa|192.0.2.1", limit)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Allowed || d.Remaining != 9-i {
			t.Fatalf("request %d on replica %d: %+v, want allowed with %d left", i+1, i%2, d, 9-i)
		}
	}
	for i, l := range replicas {
		d, err := l.Allow(t.Context(), "checkout|villa|192.0.2.1", limit)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed || d.RetryAfter <= 0 {
			t.Errorf("11th request on replica %d: %+v, want refused with a RetryAfter", i, d)
		}
	}
}

func TestRefusedRequestCountsNothing(t *testing.T) {
	l := redislimit.New(newClient(t), redislimit.WithPrefix(newPrefix(t)))
	limit := ratelimit.Limit{Requests: 2, Period: 400 * time.Millisecond}
	for range 2 {
		if d, err := l.Allow(t.Context(), "k", limit); err != nil || !d.Allowed {
			t.Fatalf("first requests: %+v, %v, want allowed", d, err)
		}
	}
	var retry time.Duration
	for range 5 {
		d, err := l.Allow(t.Context(), "k", limit)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed {
			t.Fatalf("request over the limit allowed: %+v", d)
		}
		retry = d.RetryAfter
	}
	// Had the refusals counted, the wait would be longer than one interval.
	if retry <= 0 || retry > 200*time.Millisecond {
		t.Fatalf("RetryAfter = %v, want at most one interval (200ms)", retry)
	}
	time.Sleep(retry + 20*time.Millisecond)
	if d, err := l.Allow(t.Context(), "k", limit); err != nil || !d.Allowed {
		t.Errorf("after RetryAfter: %+v, %v, want allowed", d, err)
	}
}

func TestPrefixesKeepCountsApart(t *testing.T) {
	c := newClient(t)
	a := redislimit.New(c, redislimit.WithPrefix(newPrefix(t)))
	b := redislimit.New(c, redislimit.WithPrefix(newPrefix(t)))
	limit := ratelimit.PerMinute(1)
	if d, err := a.Allow(t.Context(), "k", limit); err != nil || !d.Allowed {
		t.Fatalf("a: %+v, %v, want allowed", d, err)
	}
	if d, err := b.Allow(t.Context(), "k", limit); err != nil || !d.Allowed {
		t.Errorf("b, same key under another prefix: %+v, %v, want allowed", d, err)
	}
	if d, err := a.Allow(t.Context(), "k", limit); err != nil || d.Allowed {
		t.Errorf("a again: %+v, %v, want refused", d, err)
	}
}

// unreachable returns a client of an address where no Redis listens.
func unreachable(t *testing.T) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	return c
}

func TestZeroLimitAllowsWithoutRedis(t *testing.T) {
	l := redislimit.New(unreachable(t))
	for _, limit := range []ratelimit.Limit{{}, {Requests: 0, Period: time.Minute}, {Requests: 5}} {
		d, err := l.Allow(t.Context(), "k", limit)
		if err != nil || d != (ratelimit.Decision{Allowed: true}) {
			t.Errorf("limit %+v: %+v, %v, want allowed only", limit, d, err)
		}
	}
}

func TestRedisDownError(t *testing.T) {
	l := redislimit.New(unreachable(t))
	d, err := l.Allow(t.Context(), "checkout|villa|192.0.2.1", ratelimit.PerMinute(10))
	if err == nil {
		t.Fatalf("Allow with Redis down: %+v, want an error", d)
	}
	if !strings.HasPrefix(err.Error(), "redislimit: allow") || d.Allowed {
		t.Errorf("error %q, decision %+v, want a wrapped error and no allowance", err, d)
	}
}

func TestDefaultPrefix(t *testing.T) {
	c := newClient(t)
	l := redislimit.New(c)
	key := "test|" + strings.ToLower(rand.Text()[:12])
	full := "rate:" + redislimit.DefaultPrefix + key
	t.Cleanup(func() { c.Del(context.Background(), full) })
	if _, err := l.Allow(t.Context(), key, ratelimit.PerMinute(10)); err != nil {
		t.Fatal(err)
	}
	n, err := c.Exists(t.Context(), full).Result()
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("key %q not in Redis", full)
	}
}
