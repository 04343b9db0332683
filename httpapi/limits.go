package httpapi

import (
	"errors"
	"net/http"

	"github.com/staykit/staykit/internal/apihttp"
	"github.com/staykit/staykit/ratelimit"
)

// allow applies the route's rate limit to the request's client: false
// means it wrote the 429. Allowed requests of a limited route get the
// RateLimit-* headers too. A limiter error lets the request through (fail
// open) and is logged, unless it is a ratelimit.Breaker saying its limiter
// is down: that was logged once.
func (h *handler) allow(w http.ResponseWriter, r *http.Request, st *reqState, route string) bool {
	limit, ok := h.limits[route]
	if !ok || limit.IsZero() {
		return true
	}
	key := route + "|" + st.slug + "|" + apihttp.ClientKey(r, h.proxies)
	d, err := h.limiter.Allow(r.Context(), key, limit)
	if err != nil {
		if !errors.Is(err, ratelimit.ErrBreakerOpen) {
			// An open breaker logged once when it opened.
			h.log.ErrorContext(r.Context(), "rate limiter failed; request allowed", "request_id", st.id, "route", route, "err", err)
		}
		return true
	}
	apihttp.SetRateLimit(w.Header(), d)
	if d.Allowed {
		return true
	}
	h.writeError(w, r, st, apihttp.ErrRateLimited())
	return false
}
