package httpapi

import (
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

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
	key := route + "|" + st.slug + "|" + h.clientKey(r)
	d, err := h.limiter.Allow(r.Context(), key, limit)
	if err != nil {
		if !errors.Is(err, ratelimit.ErrBreakerOpen) {
			// An open breaker logged once when it opened.
			h.log.ErrorContext(r.Context(), "rate limiter failed; request allowed", "request_id", st.id, "route", route, "err", err)
		}
		return true
	}
	hdr := w.Header()
	hdr.Set("RateLimit-Limit", strconv.Itoa(d.Limit))
	hdr.Set("RateLimit-Remaining", strconv.Itoa(max(d.Remaining, 0)))
	hdr.Set("RateLimit-Reset", strconv.FormatInt(ceilSeconds(d.ResetAfter, 0), 10))
	if d.Allowed {
		return true
	}
	hdr.Set("Retry-After", strconv.FormatInt(ceilSeconds(d.RetryAfter, 1), 10))
	h.writeError(w, r, st, errRateLimited())
	return false
}

// ceilSeconds rounds d up to whole seconds, at least floor.
func ceilSeconds(d time.Duration, floor int64) int64 {
	s := int64((d + time.Second - 1) / time.Second)
	return max(s, floor)
}

// clientKey is the client's address as rate limits count it: an IPv4
// address, or the /64 of an IPv6 one.
func (h *handler) clientKey(r *http.Request) string {
	a := h.clientAddr(r)
	if !a.IsValid() {
		return r.RemoteAddr
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// clientAddr is the peer's address, unless the peer is a trusted proxy:
// then the rightmost X-Forwarded-For hop that is not a trusted proxy. A hop
// that does not parse ends the walk at the last good one, since nothing
// left of it can be trusted.
func (h *handler) clientAddr(r *http.Request) netip.Addr {
	peer := parseAddr(r.RemoteAddr)
	if !peer.IsValid() || !h.trusted(peer) {
		return peer
	}
	client := peer
	xff := r.Header.Values("X-Forwarded-For")
	for i := len(xff) - 1; i >= 0; i-- {
		hops := strings.Split(xff[i], ",")
		for j := len(hops) - 1; j >= 0; j-- {
			a := parseAddr(strings.TrimSpace(hops[j]))
			if !a.IsValid() {
				return client
			}
			client = a
			if !h.trusted(a) {
				return a
			}
		}
	}
	return client
}

func (h *handler) trusted(a netip.Addr) bool {
	for _, p := range h.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseAddr reads "ip", "ip:port" or "[ipv6]:port", unmapping IPv4-in-IPv6
// and dropping zones; the zero Addr when it is none of those.
func parseAddr(s string) netip.Addr {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone("")
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	a, err := netip.ParseAddr(strings.Trim(s, "[]"))
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap().WithZone("")
}
