package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Defaults of BreakerOptions.
const (
	DefaultBreakerTimeout  = 50 * time.Millisecond
	DefaultBreakerFailures = 5
	DefaultBreakerCooldown = 10 * time.Second
)

// ErrBreakerOpen is the error of a Breaker's Allow while its limiter is
// deemed down: the request was not counted. Callers that fail open let it
// through without logging: the Breaker logged when it opened.
var ErrBreakerOpen = errors.New("ratelimit: limiter down (breaker open); request not counted")

// BreakerOptions configure a Breaker. The zero value is usable.
type BreakerOptions struct {
	// Timeout bounds each call to the wrapped limiter; zero or less means
	// DefaultBreakerTimeout. A call without an answer by then fails.
	Timeout time.Duration
	// Failures is how many calls failing in a row open the breaker; zero
	// or less means DefaultBreakerFailures.
	Failures int
	// Cooldown is how long the breaker stays open before one call probes
	// the wrapped limiter again; zero or less means
	// DefaultBreakerCooldown.
	Cooldown time.Duration
	// Logger is told once when the breaker opens and once when it closes
	// again; nil means slog.Default().
	Logger *slog.Logger
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
}

// Breaker is a Limiter in front of one that can fail or hang (Redis): it
// bounds each call's wait, and after Failures calls in a row fail it opens
// — for Cooldown, Allow answers ErrBreakerOpen at once, without calling the
// wrapped limiter — then lets one call through as a probe: its success
// closes the breaker, its failure opens it for another Cooldown. Only the
// opening (a warning) and the closing (an info line) are logged, never
// each request. What to do with a request whose count failed is the
// caller's choice; staykit's handlers let it through (fail open).
//
// The wrapped limiter should return when its context ends; one that does
// not is left to finish in the background. A Breaker is safe for
// concurrent use.
type Breaker struct {
	next     Limiter
	timeout  time.Duration
	failures int
	cooldown time.Duration
	log      *slog.Logger
	now      func() time.Time

	mu       sync.Mutex
	failed   int // calls failed in a row while closed
	open     bool
	openedAt time.Time // when the breaker opened (for the log)
	retryAt  time.Time // while open: when a probe may go
	probing  bool      // a probe is in flight
}

var _ Limiter = (*Breaker)(nil)

// NewBreaker returns a Breaker in front of next.
func NewBreaker(next Limiter, o BreakerOptions) *Breaker {
	b := &Breaker{next: next, timeout: o.Timeout, failures: o.Failures, cooldown: o.Cooldown, log: o.Logger, now: o.Now}
	if b.timeout <= 0 {
		b.timeout = DefaultBreakerTimeout
	}
	if b.failures <= 0 {
		b.failures = DefaultBreakerFailures
	}
	if b.cooldown <= 0 {
		b.cooldown = DefaultBreakerCooldown
	}
	if b.log == nil {
		b.log = slog.Default()
	}
	if b.now == nil {
		b.now = time.Now
	}
	return b
}

// Allow asks the wrapped limiter, waiting at most the Timeout. A zero limit
// always allows without asking. Errors: ErrBreakerOpen while the breaker is
// open; the wrapped limiter's error, or a timeout
// (context.DeadlineExceeded), otherwise; the caller's own ctx.Err() when it
// gave up first, which counts as no failure.
func (b *Breaker) Allow(ctx context.Context, key string, limit Limit) (Decision, error) {
	if limit.IsZero() {
		return Decision{Allowed: true}, nil
	}
	probe, err := b.admit()
	if err != nil {
		return Decision{}, err
	}
	d, err := b.call(ctx, key, limit)
	if err != nil && ctx.Err() != nil {
		// The caller gave up: that says nothing about the limiter.
		b.abandon(probe)
		return Decision{}, err
	}
	b.record(ctx, probe, err)
	return d, err
}

// admit says whether a call may go to the wrapped limiter, and whether it
// is the probe of an open breaker.
func (b *Breaker) admit() (probe bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.open {
		return false, nil
	}
	if b.probing || b.now().Before(b.retryAt) {
		return false, ErrBreakerOpen
	}
	b.probing = true
	return true, nil
}

// call runs the wrapped limiter's Allow, waiting at most b.timeout.
func (b *Breaker) call(ctx context.Context, key string, limit Limit) (Decision, error) {
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	type answer struct {
		d   Decision
		err error
	}
	done := make(chan answer, 1)
	go func() {
		d, err := b.next.Allow(ctx, key, limit)
		done <- answer{d, err}
	}()
	select {
	case a := <-done:
		return a.d, a.err
	case <-ctx.Done():
		return Decision{}, fmt.Errorf("ratelimit: no answer within %v: %w", b.timeout, ctx.Err())
	}
}

// abandon forgets a call the caller gave up on: a probe's turn goes to the
// next call.
func (b *Breaker) abandon(probe bool) {
	if !probe {
		return
	}
	b.mu.Lock()
	b.probing = false
	b.mu.Unlock()
}

// record updates the state with a call's outcome: only the probe's decides
// while the breaker is open.
func (b *Breaker) record(ctx context.Context, probe bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	switch {
	case b.open && !probe:
		// Admitted before the breaker opened: too late to count.
	case b.open && err == nil:
		b.open, b.probing, b.failed = false, false, 0
		b.log.InfoContext(ctx, "rate limiter answers again: requests are counted again",
			"down_for", now.Sub(b.openedAt).Round(time.Millisecond))
	case b.open:
		b.probing = false
		b.retryAt = now.Add(b.cooldown)
	case err == nil:
		b.failed = 0
	default:
		b.failed++
		if b.failed >= b.failures {
			b.open, b.failed = true, 0
			b.openedAt, b.retryAt = now, now.Add(b.cooldown)
			b.log.WarnContext(ctx, "rate limiter failing: requests are allowed without counting until it answers again (fail open)",
				"failures_in_a_row", b.failures, "probe_every", b.cooldown, "err", err)
		}
	}
}
