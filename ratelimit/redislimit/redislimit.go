// Package redislimit is a ratelimit.Limiter whose counts live in Redis, so
// that every replica of a service sees the same ones: ten checkouts a
// minute from one client are ten whichever replicas they reach.
//
// It runs GCRA (the generic cell rate algorithm) through
// github.com/go-redis/redis_rate, one Lua script per call, atomic in Redis.
// GCRA behaves like the in-memory token bucket: "10 per minute" allows 10
// requests at once, then one every 6 seconds. Each key is one Redis string
// (the theoretical arrival time) that expires by itself once the quota is
// full again, so Redis memory stays bounded without any sweeping. The
// clock is Redis's (TIME), not the replicas', so replicas whose clocks
// disagree still count alike.
//
// Errors are returned, never hidden. A Redis that is down or hangs should
// not cost every request its timeouts: put a ratelimit.Breaker in front of
// the Limiter (a bounded wait, then no calls at all while Redis fails), and
// build the client with ClientOptions so that it gives up when the
// Breaker's deadline passes.
package redislimit

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"

	"github.com/staykit/staykit/ratelimit"
)

// DefaultPrefix starts every key a Limiter writes, unless WithPrefix says
// otherwise. (redis_rate puts its own "rate:" in front.)
const DefaultPrefix = "staykit:rl:"

// ClientOptions reads where Redis is — a URL, redis://[user:password@]host:port[/db]
// (rediss:// for TLS, the URL's other parameters as go-redis reads them),
// or a bare host:port — into the options of a client that gives up when
// the context of a call ends (ContextTimeoutEnabled), so that a caller's
// deadline bounds its wait (see ratelimit.Breaker). Errors name the
// problem, never the password.
func ClientOptions(addr string) (*redis.Options, error) {
	addr = strings.TrimSpace(addr)
	if addr == "" {
		return nil, errors.New("redislimit: empty Redis address")
	}
	var o *redis.Options
	if strings.Contains(addr, "://") {
		u, err := url.Parse(addr)
		if err != nil {
			return nil, errors.New("redislimit: the Redis URL does not parse")
		}
		if u.Scheme != "redis" && u.Scheme != "rediss" {
			return nil, fmt.Errorf("redislimit: Redis URL scheme %q: want redis or rediss", u.Scheme)
		}
		if o, err = redis.ParseURL(addr); err != nil {
			return nil, fmt.Errorf("redislimit: Redis URL %s: %w", u.Redacted(), redactErr(err, u))
		}
	} else {
		host, port, err := net.SplitHostPort(addr)
		if err != nil || host == "" || port == "" {
			return nil, fmt.Errorf("redislimit: Redis address %q: want host:port or a redis:// URL", addr)
		}
		o = &redis.Options{Addr: addr}
	}
	o.ContextTimeoutEnabled = true
	return o, nil
}

// redactErr is err with u's password, if any, replaced.
func redactErr(err error, u *url.URL) error {
	pw, ok := u.User.Password()
	if !ok || pw == "" || !strings.Contains(err.Error(), pw) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), pw, "xxxxx"))
}

// Limiter is a ratelimit.Limiter on Redis. It is safe for concurrent use;
// it holds no state of its own besides the client, which its caller owns
// and closes.
type Limiter struct {
	rate   *redis_rate.Limiter
	prefix string
}

var _ ratelimit.Limiter = (*Limiter)(nil)

// Option configures New.
type Option func(*Limiter)

// WithPrefix starts the limiter's keys with prefix instead of
// DefaultPrefix, to keep several services (or tests) on one Redis apart.
func WithPrefix(prefix string) Option {
	return func(l *Limiter) { l.prefix = prefix }
}

// New returns a Limiter keeping its counts through client: a *redis.Client,
// a *redis.ClusterClient or a failover client.
func New(client redis.UniversalClient, opts ...Option) *Limiter {
	l := &Limiter{rate: redis_rate.NewLimiter(client), prefix: DefaultPrefix}
	for _, o := range opts {
		o(l)
	}
	return l
}

// Allow counts one request under key against limit: Requests per Period,
// all of them at once at most. A refused request counts nothing. A zero
// limit (see ratelimit.Limit.IsZero) always allows without asking Redis;
// its Decision has only Allowed set. Errors (Redis unreachable, timeout)
// are returned wrapped, with a zero Decision; the caller decides whether to
// let the request through.
func (l *Limiter) Allow(ctx context.Context, key string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	if limit.IsZero() {
		return ratelimit.Decision{Allowed: true}, nil
	}
	res, err := l.rate.Allow(ctx, l.prefix+key, redis_rate.Limit{
		Rate:   limit.Requests,
		Period: limit.Period,
		Burst:  limit.Requests,
	})
	if err != nil {
		return ratelimit.Decision{}, fmt.Errorf("redislimit: allow %q: %w", key, err)
	}
	d := ratelimit.Decision{
		Allowed:    res.Allowed > 0,
		Limit:      limit.Requests,
		Remaining:  max(res.Remaining, 0),
		ResetAfter: max(res.ResetAfter, 0),
	}
	// redis_rate's RetryAfter is -1 when the request is allowed.
	if !d.Allowed {
		d.RetryAfter = max(res.RetryAfter, 0)
	}
	return d, nil
}
