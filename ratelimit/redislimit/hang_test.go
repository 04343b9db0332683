package redislimit_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/ratelimit/redislimit"
)

// hangingRedis is a loopback TCP listener that accepts connections, reads
// what they send and never answers: a Redis that hangs. It counts the
// bytes it was sent.
type hangingRedis struct {
	ln    net.Listener
	read  atomic.Int64
	mu    sync.Mutex
	conns []net.Conn
	wg    sync.WaitGroup
}

func newHangingRedis(t *testing.T) *hangingRedis {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &hangingRedis{ln: ln}
	h.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			h.mu.Lock()
			h.conns = append(h.conns, c)
			h.mu.Unlock()
			// Counted as each read returns, not when the connection
			// ends: the client closes a timed-out connection later, at
			// a moment of its own.
			h.wg.Go(func() {
				buf := make([]byte, 4096)
				for {
					n, err := c.Read(buf)
					h.read.Add(int64(n))
					if err != nil {
						return
					}
				}
			})
		}
	})
	t.Cleanup(func() {
		ln.Close()
		h.mu.Lock()
		for _, c := range h.conns {
			c.Close()
		}
		h.mu.Unlock()
		h.wg.Wait()
	})
	return h
}

// TestHangingRedisCostsTheTimeoutThenNothing: behind a Breaker, a Redis
// that accepts and never answers costs each rate-limited request the 50 ms
// budget (not the client's 5 s read timeout), and once the breaker opens,
// nothing: requests are not sent to Redis at all.
func TestHangingRedisCostsTheTimeoutThenNothing(t *testing.T) {
	h := newHangingRedis(t)
	opts, err := redislimit.ClientOptions(h.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	client := redis.NewClient(opts)
	defer client.Close()
	l := ratelimit.NewBreaker(redislimit.New(client), ratelimit.BreakerOptions{
		Timeout: 50 * time.Millisecond, Failures: 3, Cooldown: time.Hour,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	for i := range 3 {
		start := time.Now()
		_, err := l.Allow(t.Context(), "checkout|villa|192.0.2.1", ratelimit.PerMinute(10))
		waited := time.Since(start)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("request %d: err = %v, want a timeout", i+1, err)
		}
		// Far below the client's own 5 s read timeout; loose for a busy
		// machine.
		if waited > time.Second {
			t.Errorf("request %d waited %v for a hanging Redis, want about 50ms", i+1, waited)
		}
	}
	sent := h.read.Load()
	for range 100 {
		if _, err := l.Allow(t.Context(), "checkout|villa|192.0.2.1", ratelimit.PerMinute(10)); !errors.Is(err, ratelimit.ErrBreakerOpen) {
			t.Fatalf("with the breaker open: %v, want ErrBreakerOpen", err)
		}
	}
	if now := h.read.Load(); now != sent {
		t.Errorf("Redis was sent %d more bytes while the breaker was open", now-sent)
	}
}

// TestHangingRedisInABubble: the same through the real client over an
// in-memory connection, under synctest, so the budget is exact: each
// request waits 50 ms, then none.
func TestHangingRedisInABubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		var servers []net.Conn
		opts, err := redislimit.ClientOptions("redis.invalid:6379")
		if err != nil {
			t.Fatal(err)
		}
		opts.Dialer = func(ctx context.Context, _, _ string) (net.Conn, error) {
			client, server := net.Pipe()
			mu.Lock()
			servers = append(servers, server)
			mu.Unlock()
			wg.Go(func() { io.Copy(io.Discard, server) })
			return client, nil
		}
		client := redis.NewClient(opts)
		l := ratelimit.NewBreaker(redislimit.New(client), ratelimit.BreakerOptions{
			Timeout: 50 * time.Millisecond, Failures: 3, Cooldown: time.Minute,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		for i := range 3 {
			start := time.Now()
			if _, err := l.Allow(t.Context(), "k", ratelimit.PerMinute(10)); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("request %d: %v, want a timeout", i+1, err)
			}
			if waited := time.Since(start); waited != 50*time.Millisecond {
				t.Errorf("request %d waited %v, want 50ms", i+1, waited)
			}
		}
		start := time.Now()
		for range 10 {
			if _, err := l.Allow(t.Context(), "k", ratelimit.PerMinute(10)); !errors.Is(err, ratelimit.ErrBreakerOpen) {
				t.Fatalf("with the breaker open: %v", err)
			}
		}
		if waited := time.Since(start); waited != 0 {
			t.Errorf("requests with the breaker open waited %v", waited)
		}
		client.Close()
		mu.Lock()
		for _, s := range servers {
			s.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
}

// TestClientOptions: -redis takes a bare host:port or a URL with user,
// password, database and TLS; every client gives up with its context; no
// error shows the password.
func TestClientOptions(t *testing.T) {
	tests := []struct {
		in               string
		addr, user, pass string
		db               int
		tls              bool
		wantErr          string
	}{
		{in: "127.0.0.1:6379", addr: "127.0.0.1:6379"},
		{in: "redis.internal:6380", addr: "redis.internal:6380"},
		{in: "redis://127.0.0.1:6379", addr: "127.0.0.1:6379"},
		{in: "redis://:s3cret@cache:6379/2", addr: "cache:6379", pass: "s3cret", db: 2},
		{in: "redis://app:s3cret@cache:6379/3", addr: "cache:6379", user: "app", pass: "s3cret", db: 3},
		{in: "rediss://app:s3cret@cache.example.com:6380/1", addr: "cache.example.com:6380", user: "app", pass: "s3cret", db: 1, tls: true},
		{in: "", wantErr: "empty"},
		{in: "cache", wantErr: "want host:port"},
		{in: "http://cache:6379", wantErr: "scheme"},
		{in: "redis://app:s3cret@cache:6379/notanumber", wantErr: "Redis URL redis://app:xxxxx@cache:6379/notanumber"},
	}
	for _, tt := range tests {
		o, err := redislimit.ClientOptions(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "s3cret") {
				t.Errorf("%q: err = %v, want one containing %q and no password", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if o.Addr != tt.addr || o.Username != tt.user || o.Password != tt.pass || o.DB != tt.db || (o.TLSConfig != nil) != tt.tls || !o.ContextTimeoutEnabled {
			t.Errorf("%q: addr %q user %q pass %q db %d tls %v ctx %v", tt.in, o.Addr, o.Username, o.Password, o.DB, o.TLSConfig != nil, o.ContextTimeoutEnabled)
		}
		if tt.tls && o.TLSConfig.ServerName != "cache.example.com" {
			t.Errorf("%q: TLS server name %q", tt.in, o.TLSConfig.ServerName)
		}
	}
}
