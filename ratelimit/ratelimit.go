// Package ratelimit counts requests per key against a limit, so the public
// API can refuse a client that asks too often. Limiter is the contract; this
// package holds the in-memory implementation for one process, and
// ratelimit/redislimit shares counts between replicas.
package ratelimit

import (
	"context"
	"time"
)

// Limit allows Requests per Period.
type Limit struct {
	Requests int
	Period   time.Duration
}

// PerMinute returns a limit of n requests a minute.
func PerMinute(n int) Limit { return Limit{Requests: n, Period: time.Minute} }

// IsZero reports whether l sets no limit.
func (l Limit) IsZero() bool { return l.Requests <= 0 || l.Period <= 0 }

// Decision is the outcome of one request against a limit.
type Decision struct {
	Allowed bool
	// Limit is the number of requests of the period.
	Limit int
	// Remaining is how many more requests would be allowed now.
	Remaining int
	// RetryAfter, when not allowed, is how long until a request will be.
	RetryAfter time.Duration
	// ResetAfter is how long until the full quota is back.
	ResetAfter time.Duration
}

// Limiter decides whether one more request under key is allowed. Each call
// that is allowed counts. Implementations are safe for concurrent use.
type Limiter interface {
	Allow(ctx context.Context, key string, limit Limit) (Decision, error)
}
