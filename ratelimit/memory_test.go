package ratelimit_test

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/staykit/staykit/ratelimit"
)

// clock is a fake time source that moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock {
	return &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newMemory(c *clock, maxKeys int) *ratelimit.Memory {
	return ratelimit.NewMemory(ratelimit.MemoryOptions{Now: c.Now, MaxKeys: maxKeys})
}

func allow(t *testing.T, m *ratelimit.Memory, key string, l ratelimit.Limit) ratelimit.Decision {
	t.Helper()
	d, err := m.Allow(context.Background(), key, l)
	if err != nil {
		t.Fatalf("Allow(%q, %+v): %v", key, l, err)
	}
	return d
}

func TestMemoryTenPerMinuteAllowsTenThenRefuses(t *testing.T) {
	c := newClock()
	m := newMemory(c, 0)
	l := ratelimit.PerMinute(10)

	for i := range 10 {
		got := allow(t, m, "k", l)
		want := ratelimit.Decision{
			Allowed:    true,
			Limit:      10,
			Remaining:  9 - i,
			ResetAfter: time.Duration(i+1) * 6 * time.Second,
		}
		if got != want {
			t.Fatalf("call %d: got %+v, want %+v", i+1, got, want)
		}
	}
	got := allow(t, m, "k", l)
	want := ratelimit.Decision{
		Allowed:    false,
		Limit:      10,
		Remaining:  0,
		RetryAfter: 6 * time.Second,
		ResetAfter: time.Minute,
	}
	if got != want {
		t.Fatalf("11th call: got %+v, want %+v", got, want)
	}
}

func TestMemoryRefillsOneEverySixSecondsAndFullAfterAMinute(t *testing.T) {
	c := newClock()
	m := newMemory(c, 0)
	l := ratelimit.PerMinute(10)
	for range 10 {
		allow(t, m, "k", l)
	}

	// Half a token back: still refused, three seconds to go.
	c.Advance(3 * time.Second)
	if got := allow(t, m, "k", l); got.Allowed || got.RetryAfter != 3*time.Second || got.ResetAfter != 57*time.Second {
		t.Fatalf("after 3s: got %+v, want refused with RetryAfter 3s, ResetAfter 57s", got)
	}

	c.Advance(3 * time.Second)
	if got := allow(t, m, "k", l); !got.Allowed || got.Remaining != 0 {
		t.Fatalf("after 6s: got %+v, want allowed with Remaining 0", got)
	}
	if got := allow(t, m, "k", l); got.Allowed || got.RetryAfter != 6*time.Second {
		t.Fatalf("second call after 6s: got %+v, want refused with RetryAfter 6s", got)
	}

	c.Advance(time.Minute)
	for i := range 10 {
		if got := allow(t, m, "k", l); !got.Allowed || got.Remaining != 9-i {
			t.Fatalf("call %d after a minute: got %+v, want allowed with Remaining %d", i+1, got, 9-i)
		}
	}
	if got := allow(t, m, "k", l); got.Allowed {
		t.Fatalf("11th call after a minute: got %+v, want refused", got)
	}
}

func TestMemoryRefusalsDoNotConsume(t *testing.T) {
	c := newClock()
	m := newMemory(c, 0)
	l := ratelimit.PerMinute(10)
	for range 10 {
		allow(t, m, "k", l)
	}
	for i := range 50 {
		c.Advance(100 * time.Millisecond)
		if got := allow(t, m, "k", l); got.Allowed {
			t.Fatalf("refusal %d: got allowed, want refused", i+1)
		}
	}
	// 5s have passed during the refusals; 1s more gives the token back.
	c.Advance(time.Second)
	if got := allow(t, m, "k", l); !got.Allowed {
		t.Fatalf("6s after exhausting despite 50 refusals: got %+v, want allowed", got)
	}
}

// Each RetryAfter and ResetAfter is the exact nanosecond from which the
// limiter agrees, for rates that are not whole numbers of nanoseconds.
func TestMemoryRetryAndResetAfterAreExactBoundaries(t *testing.T) {
	tests := []struct {
		name  string
		limit ratelimit.Limit
	}{
		{"10 per minute", ratelimit.PerMinute(10)},
		{"7 per minute", ratelimit.PerMinute(7)},
		{"3 per second", ratelimit.Limit{Requests: 3, Period: time.Second}},
		{"49 per hour", ratelimit.Limit{Requests: 49, Period: time.Hour}},
		{"1 per day", ratelimit.Limit{Requests: 1, Period: 24 * time.Hour}},
		{"1000 per 7ms", ratelimit.Limit{Requests: 1000, Period: 7 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			m := newMemory(c, 0)
			for range tt.limit.Requests {
				if got := allow(t, m, "k", tt.limit); !got.Allowed {
					t.Fatalf("within quota: got %+v, want allowed", got)
				}
			}
			refused := allow(t, m, "k", tt.limit)
			if refused.Allowed || refused.RetryAfter <= 0 {
				t.Fatalf("over quota: got %+v, want refused with RetryAfter > 0", refused)
			}
			// RetryAfter is Period/Requests rounded up to the nanosecond; the
			// float arithmetic of x/time/rate may move it by 1ns.
			exact := (tt.limit.Period + time.Duration(tt.limit.Requests) - 1) / time.Duration(tt.limit.Requests)
			if diff := refused.RetryAfter - exact; diff < -1 || diff > 1 {
				t.Fatalf("RetryAfter: got %v, want %v ±1ns", refused.RetryAfter, exact)
			}
			// The refusal consumed nothing: the next ones are refused until
			// RetryAfter (x/time/rate allows up to 1ns early), then allowed.
			c.Advance(refused.RetryAfter - 2)
			if got := allow(t, m, "k", tt.limit); got.Allowed || got.RetryAfter != 2 {
				t.Fatalf("2ns before RetryAfter %v: got %+v, want refused with RetryAfter 2ns", refused.RetryAfter, got)
			}
			c.Advance(2)
			got := allow(t, m, "k", tt.limit)
			if !got.Allowed {
				t.Fatalf("at RetryAfter %v: got %+v, want allowed", refused.RetryAfter, got)
			}

			// At ResetAfter the whole quota is there again.
			c.Advance(got.ResetAfter)
			for i := range tt.limit.Requests {
				if got := allow(t, m, "k", tt.limit); !got.Allowed || got.Remaining != tt.limit.Requests-1-i {
					t.Fatalf("call %d at ResetAfter: got %+v, want allowed with Remaining %d", i+1, got, tt.limit.Requests-1-i)
				}
			}
		})
	}
}

func TestMemoryRetryAfterOfHugePeriodSaturates(t *testing.T) {
	m := newMemory(newClock(), 0)
	l := ratelimit.Limit{Requests: 2, Period: math.MaxInt64}
	allow(t, m, "k", l)
	allow(t, m, "k", l)
	got := allow(t, m, "k", l)
	if got.Allowed || got.ResetAfter != math.MaxInt64 {
		t.Fatalf("got %+v, want refused with ResetAfter the largest duration", got)
	}
	// Float64 holds durations this long to about a microsecond.
	if half := time.Duration(math.MaxInt64 / 2); got.RetryAfter < half || got.RetryAfter > half+4*time.Microsecond {
		t.Fatalf("RetryAfter: got %v, want %v to %v", got.RetryAfter, half, half+4*time.Microsecond)
	}
}

func TestMemoryZeroLimitAlwaysAllows(t *testing.T) {
	tests := []struct {
		name  string
		limit ratelimit.Limit
	}{
		{"zero value", ratelimit.Limit{}},
		{"no requests", ratelimit.PerMinute(0)},
		{"negative requests", ratelimit.PerMinute(-1)},
		{"no period", ratelimit.Limit{Requests: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMemory(newClock(), 0)
			for i := range 1000 {
				if got, want := allow(t, m, "k", tt.limit), (ratelimit.Decision{Allowed: true}); got != want {
					t.Fatalf("call %d: got %+v, want %+v", i+1, got, want)
				}
			}
			if got := m.Len(); got != 0 {
				t.Fatalf("Len: got %d, want 0 (a zero limit tracks nothing)", got)
			}
		})
	}
}

func TestMemorySeparateKeysAreIndependent(t *testing.T) {
	m := newMemory(newClock(), 0)
	l := ratelimit.PerMinute(2)
	allow(t, m, "a", l)
	allow(t, m, "a", l)
	if got := allow(t, m, "a", l); got.Allowed {
		t.Fatalf("a over quota: got %+v, want refused", got)
	}
	for i := range 2 {
		if got := allow(t, m, "b", l); !got.Allowed || got.Remaining != 1-i {
			t.Fatalf("b call %d: got %+v, want allowed with Remaining %d", i+1, got, 1-i)
		}
	}
	if got := m.Len(); got != 2 {
		t.Fatalf("Len: got %d, want 2", got)
	}
}

func TestMemoryChangedLimitStartsNewBucket(t *testing.T) {
	m := newMemory(newClock(), 0)
	allow(t, m, "k", ratelimit.PerMinute(1))
	if got := allow(t, m, "k", ratelimit.PerMinute(1)); got.Allowed {
		t.Fatalf("1/min twice: got %+v, want refused", got)
	}
	got := allow(t, m, "k", ratelimit.PerMinute(5))
	want := ratelimit.Decision{Allowed: true, Limit: 5, Remaining: 4, ResetAfter: 12 * time.Second}
	if got != want {
		t.Fatalf("same key at 5/min: got %+v, want %+v", got, want)
	}
	if got := m.Len(); got != 1 {
		t.Fatalf("Len: got %d, want 1", got)
	}
}

func TestMemoryLenNeverExceedsMaxKeys(t *testing.T) {
	c := newClock()
	m := newMemory(c, 10)
	for i := range 1000 {
		c.Advance(time.Millisecond)
		if got := allow(t, m, fmt.Sprint("key", i), ratelimit.PerMinute(1)); !got.Allowed {
			t.Fatalf("new key %d: got %+v, want allowed", i, got)
		}
		if got := m.Len(); got > 10 {
			t.Fatalf("after key %d: Len %d, want at most 10", i, got)
		}
	}
	if got := m.Len(); got != 10 {
		t.Fatalf("Len: got %d, want 10", got)
	}
}

func TestMemoryFullEvictsIdleKeyBeforeActiveOnes(t *testing.T) {
	c := newClock()
	m := newMemory(c, 3)
	slow := ratelimit.PerMinute(1)
	// busy1 and busy2 are the least recently used but their buckets stay
	// empty for a minute; idle is used last but is full again after 6s.
	allow(t, m, "busy1", slow)
	allow(t, m, "busy2", slow)
	c.Advance(time.Second)
	allow(t, m, "idle", ratelimit.PerMinute(10))

	c.Advance(10 * time.Second)
	if got := allow(t, m, "new", slow); !got.Allowed {
		t.Fatalf("new key: got %+v, want allowed", got)
	}
	if got := m.Len(); got != 3 {
		t.Fatalf("Len: got %d, want 3", got)
	}
	// busy1 and busy2 kept their empty buckets.
	for _, key := range []string{"busy1", "busy2"} {
		got := allow(t, m, key, slow)
		if got.Allowed || got.RetryAfter != 49*time.Second {
			t.Fatalf("%s: got %+v, want refused with RetryAfter 49s (its bucket kept)", key, got)
		}
	}
}

func TestMemoryFullEvictsLeastRecentlyUsedWhenNoneIdle(t *testing.T) {
	c := newClock()
	m := newMemory(c, 2)
	l := ratelimit.PerMinute(1)
	allow(t, m, "a", l)
	allow(t, m, "b", l)
	c.Advance(time.Second)
	allow(t, m, "a", l) // refused, but a is now the most recently used
	allow(t, m, "c", l) // evicts b

	if got := allow(t, m, "a", l); got.Allowed {
		t.Fatalf("a: got %+v, want refused (its bucket kept)", got)
	}
	if got := allow(t, m, "b", l); !got.Allowed {
		t.Fatalf("b: got %+v, want allowed (evicted, so a new bucket)", got)
	}
	if got := m.Len(); got != 2 {
		t.Fatalf("Len: got %d, want 2", got)
	}
}

func TestMemoryDropsIdleKeysLazily(t *testing.T) {
	c := newClock()
	m := newMemory(c, 0)
	for i := range 100 {
		allow(t, m, fmt.Sprint("key", i), ratelimit.PerMinute(10))
	}
	allow(t, m, "hot", ratelimit.PerMinute(1))

	// Not idle yet: nothing is dropped.
	c.Advance(5 * time.Second)
	allow(t, m, "other", ratelimit.PerMinute(10))
	if got := m.Len(); got != 102 {
		t.Fatalf("Len before the keys are idle: got %d, want 102", got)
	}

	c.Advance(2 * time.Second)
	for range 100 {
		allow(t, m, "other", ratelimit.PerMinute(10))
	}
	// The 100 keys are idle; hot is not (full after a minute); other was used.
	if got := m.Len(); got != 2 {
		t.Fatalf("Len after the keys are idle: got %d, want 2", got)
	}
	if got := allow(t, m, "hot", ratelimit.PerMinute(1)); got.Allowed {
		t.Fatalf("hot: got %+v, want refused (not idle, so kept)", got)
	}
}

func TestMemoryDefaultMaxKeys(t *testing.T) {
	c := newClock()
	m := newMemory(c, 0)
	for i := range ratelimit.DefaultMaxKeys + 1 {
		allow(t, m, fmt.Sprint("key", i), ratelimit.PerMinute(1))
	}
	if got, want := m.Len(), ratelimit.DefaultMaxKeys; got != want {
		t.Fatalf("Len: got %d, want %d", got, want)
	}
}

func TestMemoryDefaultClockIsRealTime(t *testing.T) {
	m := ratelimit.NewMemory(ratelimit.MemoryOptions{})
	l := ratelimit.Limit{Requests: 1, Period: time.Hour}
	if got := allow(t, m, "k", l); !got.Allowed {
		t.Fatalf("first call: got %+v, want allowed", got)
	}
	got := allow(t, m, "k", l)
	if got.Allowed || got.RetryAfter <= 59*time.Minute || got.RetryAfter > time.Hour {
		t.Fatalf("second call: got %+v, want refused with RetryAfter just under 1h", got)
	}
}

func TestMemoryConcurrentCallsOnOneKeyAllowExactlyTheQuota(t *testing.T) {
	m := newMemory(newClock(), 0)
	l := ratelimit.PerMinute(10)
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			d, err := m.Allow(context.Background(), "k", l)
			if err != nil {
				t.Errorf("Allow: %v", err)
				return
			}
			if d.Allowed {
				allowed.Add(1)
			}
		})
	}
	wg.Wait()
	if got := allowed.Load(); got != 10 {
		t.Fatalf("allowed: got %d, want 10", got)
	}
}

func TestMemoryConcurrentKeysStayBounded(t *testing.T) {
	c := newClock()
	m := newMemory(c, 50)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				c.Advance(time.Millisecond)
				if _, err := m.Allow(context.Background(), fmt.Sprint(g, "-", i%100), ratelimit.PerMinute(3)); err != nil {
					t.Errorf("Allow: %v", err)
					return
				}
				if n := m.Len(); n > 50 {
					t.Errorf("Len %d, want at most 50", n)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := m.Len(); got != 50 {
		t.Fatalf("Len: got %d, want 50", got)
	}
}
