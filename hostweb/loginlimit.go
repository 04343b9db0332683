package hostweb

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/ratelimit"
)

// LoginFailures, GuardedFailures and LoginWindow are the dashboard's
// sign-in policy. Failures are limited per client address
// (an IPv6 /64) and per e-mail address, without ever refusing the right
// password from an address that has not failed: knowing a host's e-mail
// address must not be enough to lock the host out.
//
//   - A client address may fail LoginFailures times in LoginWindow (any
//     e-mail addresses); then its attempts are refused (429, Retry-After)
//     before any password is hashed, until its allowance comes back.
//   - An e-mail address may be failed LoginFailures times in LoginWindow.
//     Then it is not locked: each client address may still try it, but
//     fail at most GuardedFailures times in LoginWindow; so the host,
//     signing in from an address of their own, gets in, while an attacker
//     needs a new address for every couple of guesses.
//
// Counts are token buckets in Options.Limiter (shared by replicas when
// it is, as the reference server's is with -redis) that refill evenly over LoginWindow: every attempt takes a
// unit and a failure a second one, so a successful sign-in uses half of
// what a failure does. When the limiter fails, attempts are allowed.
const (
	LoginFailures   = 10
	GuardedFailures = 2
	LoginWindow     = 15 * time.Minute
)

var (
	loginPerAddr  = ratelimit.Limit{Requests: 2 * LoginFailures, Period: LoginWindow}
	loginPerEmail = ratelimit.Limit{Requests: 2 * LoginFailures, Period: LoginWindow}
	loginPerPair  = ratelimit.Limit{Requests: 2 * GuardedFailures, Period: LoginWindow}
)

// limitKey is a key of the limiter with its limit.
type limitKey struct {
	key   string
	limit ratelimit.Limit
}

// loginAttempt is one sign-in attempt as the limits counted it: the keys
// a failure charges once more.
type loginAttempt struct {
	keys []limitKey
}

// admitLogin counts an attempt of client on email and returns it, or how
// long to wait when the attempt is refused.
func (d *Dashboard) admitLogin(ctx context.Context, client, email string) (loginAttempt, time.Duration) {
	var a loginAttempt
	account := host.HashKey(email)[:32] // no e-mail address in the limiter's keys
	addr := limitKey{"host-login|" + client, loginPerAddr}
	if wait := d.take(ctx, addr); wait > 0 {
		return a, wait
	}
	a.keys = append(a.keys, addr)
	perEmail := limitKey{"host-login-email|" + account, loginPerEmail}
	if d.take(ctx, perEmail) == 0 {
		a.keys = append(a.keys, perEmail)
		return a, 0
	}
	// Too many failures on this e-mail address: this client address may
	// still try it, a few times.
	pair := limitKey{"host-login-pair|" + account + "|" + client, loginPerPair}
	if wait := d.take(ctx, pair); wait > 0 {
		return a, wait
	}
	a.keys = append(a.keys, pair)
	return a, 0
}

// loginFailed charges a failed attempt's keys once more.
func (d *Dashboard) loginFailed(ctx context.Context, a loginAttempt) {
	for _, k := range a.keys {
		d.take(ctx, k)
	}
}

// take takes a unit of k and returns 0, or how long until one is there
// when there is none. A limiter that fails allows.
func (d *Dashboard) take(ctx context.Context, k limitKey) time.Duration {
	dec, err := d.limiter.Allow(ctx, k.key, k.limit)
	if err != nil {
		if !errors.Is(err, ratelimit.ErrBreakerOpen) { // told once, by the breaker
			d.log.ErrorContext(ctx, "login limiter failed; attempt allowed", "err", err)
		}
		return 0
	}
	if dec.Allowed {
		return 0
	}
	return max(dec.RetryAfter, time.Second)
}

// retryAfter is a wait as a Retry-After value: whole seconds, rounded up.
func retryAfter(wait time.Duration) string {
	return strconv.FormatInt(int64((wait+time.Second-1)/time.Second), 10)
}
