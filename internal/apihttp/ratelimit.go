package apihttp

import (
	"net/http"
	"strconv"
	"time"

	"github.com/staykit/staykit/ratelimit"
)

// SetRateLimit writes a limited route's headers of decision d:
// RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds until
// the quota is full again, the IETF draft's names), and on a refusal
// Retry-After (seconds until a request will be accepted, at least 1).
func SetRateLimit(h http.Header, d ratelimit.Decision) {
	h.Set("RateLimit-Limit", strconv.Itoa(d.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(max(d.Remaining, 0)))
	h.Set("RateLimit-Reset", strconv.FormatInt(ceilSeconds(d.ResetAfter, 0), 10))
	if !d.Allowed {
		h.Set("Retry-After", strconv.FormatInt(ceilSeconds(d.RetryAfter, 1), 10))
	}
}

// ceilSeconds rounds d up to whole seconds, at least floor.
func ceilSeconds(d time.Duration, floor int64) int64 {
	s := int64((d + time.Second - 1) / time.Second)
	return max(s, floor)
}
