package ratelimit_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/staykit/staykit/ratelimit"
)

// fakeLimiter answers as told: hang (until its context ends, or for good
// when it ignores it), fail, or allow; it counts its calls.
type fakeLimiter struct {
	mu        sync.Mutex
	hang      bool
	ignoreCtx bool
	fail      error
	calls     atomic.Int64
	forever   chan struct{} // what a limiter ignoring its context waits on
}

func newFake() *fakeLimiter { return &fakeLimiter{forever: make(chan struct{})} }

func (f *fakeLimiter) set(hang, ignoreCtx bool, fail error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hang, f.ignoreCtx, f.fail = hang, ignoreCtx, fail
}

func (f *fakeLimiter) Allow(ctx context.Context, _ string, l ratelimit.Limit) (ratelimit.Decision, error) {
	f.calls.Add(1)
	f.mu.Lock()
	hang, ignore, fail := f.hang, f.ignoreCtx, f.fail
	f.mu.Unlock()
	switch {
	case hang && ignore:
		<-f.forever
		return ratelimit.Decision{}, errors.New("released")
	case hang:
		<-ctx.Done()
		return ratelimit.Decision{}, ctx.Err()
	case fail != nil:
		return ratelimit.Decision{}, fail
	}
	return ratelimit.Decision{Allowed: true, Limit: l.Requests, Remaining: l.Requests - 1}, nil
}

// logSink records log lines.
type logSink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *logSink) count(part string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Count(s.buf.String(), part)
}

func newBreaker(f *fakeLimiter, logs *logSink) *ratelimit.Breaker {
	return ratelimit.NewBreaker(f, ratelimit.BreakerOptions{
		Timeout: 40 * time.Millisecond, Failures: 3, Cooldown: 5 * time.Second,
		Logger: slog.New(slog.NewTextHandler(logs, nil)),
	})
}

const (
	opened = "rate limiter failing"
	closed = "rate limiter answers again"
)

var tenPerMinute = ratelimit.PerMinute(10)

// TestBreakerBoundsTheWait: a limiter that hangs costs each request the
// timeout and no more, whether it honours its context or not.
func TestBreakerBoundsTheWait(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			f := newFake()
			f.set(true, ignore, nil)
			b := newBreaker(f, &logSink{})
			start := time.Now()
			_, err := b.Allow(t.Context(), "k", tenPerMinute)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("ignoring its context %v: err = %v, want a deadline", ignore, err)
			}
			if waited := time.Since(start); waited != 40*time.Millisecond {
				t.Errorf("ignoring its context %v: waited %v, want the 40ms timeout", ignore, waited)
			}
			close(f.forever)
		})
	}
}

// TestBreakerOpensThenProbes: after three failures in a row the breaker
// opens — requests get ErrBreakerOpen at once, the limiter is not asked,
// one warning is logged — and after the cool-down a single probe goes:
// failing, the breaker stays open without another warning; succeeding, it
// closes with one info line and requests are counted again.
func TestBreakerOpensThenProbes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake()
		logs := &logSink{}
		b := newBreaker(f, logs)
		ctx := t.Context()
		f.set(true, false, nil) // Redis hangs
		for i := range 3 {
			if _, err := b.Allow(ctx, "k", tenPerMinute); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("call %d: %v, want a timeout", i+1, err)
			}
		}
		if n := logs.count(opened); n != 1 {
			t.Fatalf("%d opening warnings after 3 failures, want 1", n)
		}
		start := time.Now()
		for range 100 {
			if _, err := b.Allow(ctx, "k", tenPerMinute); !errors.Is(err, ratelimit.ErrBreakerOpen) {
				t.Fatalf("while open: %v, want ErrBreakerOpen", err)
			}
		}
		if waited := time.Since(start); waited != 0 {
			t.Errorf("100 requests while open waited %v, want no wait", waited)
		}
		if n := f.calls.Load(); n != 3 {
			t.Errorf("the limiter was asked %d times, want 3 (none while open)", n)
		}

		// After the cool-down, one probe: still hanging.
		time.Sleep(5 * time.Second)
		if _, err := b.Allow(ctx, "k", tenPerMinute); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("probe: %v, want the limiter's timeout", err)
		}
		if _, err := b.Allow(ctx, "k", tenPerMinute); !errors.Is(err, ratelimit.ErrBreakerOpen) {
			t.Fatalf("after a failed probe: %v, want ErrBreakerOpen", err)
		}
		if n := f.calls.Load(); n != 4 {
			t.Errorf("the limiter was asked %d times, want 4 (one probe)", n)
		}
		if n := logs.count(opened); n != 1 {
			t.Errorf("%d opening warnings, want still 1", n)
		}

		// Redis is back: the next probe closes the breaker.
		f.set(false, false, nil)
		time.Sleep(5 * time.Second)
		for i := range 3 {
			d, err := b.Allow(ctx, "k", tenPerMinute)
			if err != nil || !d.Allowed || d.Limit != 10 {
				t.Fatalf("call %d once back: %+v, %v", i+1, d, err)
			}
		}
		if n := f.calls.Load(); n != 7 {
			t.Errorf("the limiter was asked %d times, want 7", n)
		}
		if n := logs.count(closed); n != 1 {
			t.Errorf("%d closing lines, want 1", n)
		}
	})
}

// TestBreakerOneProbeAtATime: while the probe waits, other requests do
// not pile onto the limiter.
func TestBreakerOneProbeAtATime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake()
		b := newBreaker(f, &logSink{})
		f.set(false, false, errors.New("connection refused"))
		for range 3 {
			b.Allow(t.Context(), "k", tenPerMinute)
		}
		time.Sleep(5 * time.Second)
		f.set(true, false, nil)
		var wg sync.WaitGroup
		var open atomic.Int64
		for range 10 {
			wg.Go(func() {
				if _, err := b.Allow(t.Context(), "k", tenPerMinute); errors.Is(err, ratelimit.ErrBreakerOpen) {
					open.Add(1)
				}
			})
		}
		wg.Wait()
		if n := f.calls.Load(); n != 4 {
			t.Errorf("the limiter was asked %d times, want 3 failures and 1 probe", n)
		}
		if open.Load() != 9 {
			t.Errorf("%d requests got ErrBreakerOpen, want the 9 that were not the probe", open.Load())
		}
	})
}

// TestBreakerIgnoresCallersThatGiveUp: a client hanging up is no failure
// of the limiter, and a success in between starts the count again.
func TestBreakerIgnoresCallersThatGiveUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake()
		logs := &logSink{}
		b := newBreaker(f, logs)
		f.set(true, false, nil)
		for range 5 {
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Millisecond)
			if _, err := b.Allow(ctx, "k", tenPerMinute); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want the caller's deadline", err)
			}
			cancel()
		}
		f.set(false, false, errors.New("refused"))
		b.Allow(t.Context(), "k", tenPerMinute)
		b.Allow(t.Context(), "k", tenPerMinute)
		f.set(false, false, nil)
		b.Allow(t.Context(), "k", tenPerMinute)
		f.set(false, false, errors.New("refused"))
		b.Allow(t.Context(), "k", tenPerMinute)
		b.Allow(t.Context(), "k", tenPerMinute)
		if n := logs.count(opened); n != 0 {
			t.Errorf("the breaker opened (%d warnings) without 3 failures in a row", n)
		}
	})
}

// TestBreakerZeroLimit: a route without a limit never reaches the
// limiter, open breaker or not.
func TestBreakerZeroLimit(t *testing.T) {
	f := newFake()
	f.set(true, true, nil)
	b := newBreaker(f, &logSink{})
	d, err := b.Allow(t.Context(), "k", ratelimit.Limit{})
	if err != nil || !d.Allowed || f.calls.Load() != 0 {
		t.Errorf("zero limit: %+v, %v, %d calls; want allowed without a call", d, err, f.calls.Load())
	}
}
