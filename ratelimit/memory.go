package ratelimit

import (
	"container/heap"
	"container/list"
	"context"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// DefaultMaxKeys is the number of keys a Memory tracks when
// MemoryOptions.MaxKeys is not set.
const DefaultMaxKeys = 100_000

// sweepBatch bounds how many idle keys one Allow call drops, so that no
// single request pays for sweeping a large backlog.
const sweepBatch = 16

// maxSettle bounds how many nanoseconds untilTokens takes off its estimate.
const maxSettle = 8

// MemoryOptions configures a Memory. The zero value is usable.
type MemoryOptions struct {
	// MaxKeys bounds how many keys are tracked at once; zero or less means
	// DefaultMaxKeys. When it is reached, a key whose bucket is full again
	// is dropped first, else the least recently used key.
	MaxKeys int
	// Now returns the current time; nil means time.Now. Tests pass a fake
	// clock so they do not sleep.
	Now func() time.Time
}

// Memory is a Limiter for one process: a token bucket per key that holds
// Requests tokens and refills them evenly over Period, so "10 per minute"
// allows 10 requests at once and then one every 6 seconds.
//
// Memory use is bounded. A key whose bucket is full again (at the latest one
// period after its last use) is idle: later calls forget it lazily, which
// changes no decision since a new key starts full. At most MaxKeys keys are
// tracked; past that, an idle key is dropped, else the least recently used
// one, whose client then starts again with a full quota. Each call costs
// O(log keys). A key used with a different Limit than before starts a new
// bucket, so a key should name its limit (route) as well as its client.
//
// A Memory is safe for concurrent use. It starts no goroutine and needs no
// closing.
type Memory struct {
	now     func() time.Time
	maxKeys int

	mu   sync.Mutex
	keys map[string]*bucket
	lru  *list.List // of *bucket; front is the most recently used
	idle fullHeap   // min-heap on fullAt: the first to be full again on top
}

var _ Limiter = (*Memory)(nil)

// bucket is the state of one key.
type bucket struct {
	key    string
	limit  Limit
	lim    *rate.Limiter
	fullAt time.Time     // when the bucket holds Requests tokens again
	elem   *list.Element // position in Memory.lru
	index  int           // position in Memory.idle
}

// NewMemory returns an empty in-memory limiter.
func NewMemory(o MemoryOptions) *Memory {
	if o.MaxKeys <= 0 {
		o.MaxKeys = DefaultMaxKeys
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Memory{
		now:     o.Now,
		maxKeys: o.MaxKeys,
		keys:    make(map[string]*bucket),
		lru:     list.New(),
	}
}

// Allow takes one token from the bucket of key, if one is there. A refused
// call takes nothing. A zero limit (see Limit.IsZero) always allows and
// tracks nothing; its Decision has only Allowed set. Allow never returns an
// error.
func (m *Memory) Allow(_ context.Context, key string, limit Limit) (Decision, error) {
	if limit.IsZero() {
		return Decision{Allowed: true}, nil
	}

	m.mu.Lock()
	defer m.mu.Unlock()

	// Read the clock under the lock so that calls reach the buckets in the
	// order of their times.
	now := m.now()
	b := m.bucket(now, key, limit)

	allowed := b.lim.AllowN(now, 1)
	tokens := b.lim.TokensAt(now)

	d := Decision{
		Allowed:    allowed,
		Limit:      limit.Requests,
		Remaining:  max(int(math.Floor(tokens)), 0),
		ResetAfter: b.untilTokens(now, tokens, float64(limit.Requests)),
	}
	if !allowed {
		d.RetryAfter = b.untilTokens(now, tokens, 1)
	}

	b.fullAt = now.Add(d.ResetAfter)
	heap.Fix(&m.idle, b.index)
	m.lru.MoveToFront(b.elem)
	// b has fewer than Requests tokens now, so the sweep leaves it alone.
	m.sweep(now)
	return d, nil
}

// Len returns the number of keys tracked now.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.keys)
}

// bucket returns the bucket of key for limit, making a new one if key has
// none or had one for another limit. It must be called with m.mu held.
func (m *Memory) bucket(now time.Time, key string, limit Limit) *bucket {
	b, ok := m.keys[key]
	if ok {
		if b.limit != limit {
			b.limit = limit
			b.lim = newRateLimiter(limit)
		}
		return b
	}
	for len(m.keys) >= m.maxKeys {
		m.evictOne(now)
	}
	b = &bucket{key: key, limit: limit, lim: newRateLimiter(limit), fullAt: now}
	m.keys[key] = b
	b.elem = m.lru.PushFront(b)
	heap.Push(&m.idle, b)
	return b
}

// newRateLimiter returns a bucket of limit.Requests tokens refilled at
// limit.Requests per limit.Period, full at first.
func newRateLimiter(limit Limit) *rate.Limiter {
	r := rate.Limit(float64(limit.Requests) / limit.Period.Seconds())
	return rate.NewLimiter(r, limit.Requests)
}

// untilTokens returns how long from now until the bucket, holding have
// tokens at now, holds want tokens: the first nanosecond at which the rate
// limiter reports at least want tokens, so a request made after that delay
// is allowed. Our estimate and the limiter's float arithmetic can each be a
// few nanoseconds off, so the estimate is settled against the limiter.
func (b *bucket) untilTokens(now time.Time, have, want float64) time.Duration {
	if have >= want {
		return 0
	}
	ns := math.Ceil((want - have) * float64(b.limit.Period) / float64(b.limit.Requests))
	if ns >= math.MaxInt64 {
		return time.Duration(math.MaxInt64)
	}
	d := time.Duration(ns)
	holds := func(d time.Duration) bool { return b.lim.TokensAt(now.Add(d)) >= want }
	for i := 0; i < maxSettle && d > 0 && holds(d-1); i++ {
		d--
	}
	for step := time.Duration(1); !holds(d); step *= 2 {
		if d > math.MaxInt64-step {
			return time.Duration(math.MaxInt64)
		}
		d += step
	}
	return d
}
