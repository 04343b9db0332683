package apihttp

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ClientKey is the client's address as rate limits count it: an IPv4
// address, or the /64 of an IPv6 one; the peer's address as it is when it
// does not parse. X-Forwarded-For is believed from trusted proxies only.
func ClientKey(r *http.Request, trusted []netip.Prefix) string {
	a := ClientAddr(r, trusted)
	if !a.IsValid() {
		return r.RemoteAddr
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// ClientAddr is the peer's address, unless the peer is a trusted proxy:
// then the rightmost X-Forwarded-For hop that is not a trusted proxy. A hop
// that does not parse ends the walk at the last good one, since nothing
// left of it can be trusted.
func ClientAddr(r *http.Request, trusted []netip.Prefix) netip.Addr {
	isTrusted := func(a netip.Addr) bool {
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	peer := parseAddr(r.RemoteAddr)
	if !peer.IsValid() || !isTrusted(peer) {
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
			if !isTrusted(a) {
				return a
			}
		}
	}
	return client
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
