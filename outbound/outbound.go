// Package outbound is the one policy of staykit's requests to the outside
// world: the iCal feeds calendar sync fetches (package icalsync) and the
// webhooks the outbox posts (package notify). Both dial through
// Policy.DialContext, which checks the address actually connected to,
// after name resolution and for every redirect, so that neither a name
// resolving to an internal address nor a redirect there gets through.
//
// The zero Policy reaches https URLs on public addresses only: an address
// in any range of the IANA IPv4 and IPv6 special-purpose registries
// (ranges.go lists them with their RFCs), IPv4-mapped and NAT64 spellings
// of them included, is refused. An operator may allow exact host:port
// targets (Policy.Allow: a channel manager on the LAN, a local test feed),
// which may then be reached over http or https; AllowPrivate opens every
// private address (tests, local webhook receivers).
package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Policy says where outbound requests may go. The zero value is the safe
// default: https only, public addresses only. A Policy is a value: copy it
// freely; it is safe for concurrent use.
type Policy struct {
	// Allow lists "host:port" targets (as ParseAllowList returns them)
	// that may be reached although they are or resolve to loopback or
	// private addresses, over http or https. Only a request for that very
	// host and port is allowed: a redirect from another target to it is
	// refused.
	Allow []string
	// AllowPrivate lets every loopback, private or otherwise special
	// address be reached, over plain http too: tests, and a reference
	// server whose webhook receivers are on its machine or LAN. "This
	// network", broadcast and multicast addresses stay refused.
	AllowPrivate bool
}

// ErrRefused is wrapped by every refusal of a Policy (a *Refusal).
var ErrRefused = errors.New("outbound: refused")

// Refusal is why a Policy refused a URL or an address.
type Refusal struct {
	// Target is the host:port asked for.
	Target string
	// Scheme is set when the URL's scheme was refused.
	Scheme string
	// Addr and Range are set when the address was: Addr is in Range.
	Addr  netip.Addr
	Range Range
	// Redirect: a redirect to an allowed target from one that is not.
	Redirect bool
}

func (e *Refusal) Error() string {
	switch {
	case e.Scheme != "":
		return fmt.Sprintf("outbound: refused %s: only https is allowed, not %s", e.Target, e.Scheme)
	case e.Redirect:
		return fmt.Sprintf("outbound: refused a redirect to %s, a target allowed only when asked for directly", e.Target)
	}
	return fmt.Sprintf("outbound: refused %s: %s is a special-purpose address (%s, %s)", e.Target, e.Addr, e.Range.Name, e.Range.RFC)
}

// Is makes errors.Is(err, ErrRefused) true.
func (e *Refusal) Is(target error) bool { return target == ErrRefused }

// Explain says why in words a host understands, without jargon.
func (e *Refusal) Explain() string {
	switch {
	case e.Scheme != "":
		return fmt.Sprintf("Only https addresses are reached, and this one starts with %s://: use the https address the service gives.", e.Scheme)
	case e.Redirect:
		return "This address redirects to a private network or to the server itself, which staykit does not follow."
	case e.Range.Name == "Loopback" || e.Range.Name == "Loopback Address":
		return fmt.Sprintf("This address leads to the server itself (%s), not to the internet: staykit does not reach it unless the server's operator allows it.", e.Addr)
	}
	return fmt.Sprintf("This address leads to %s, on a private or reserved network (%s), not to the internet: staykit does not reach it unless the server's operator allows it.", e.Addr, e.Range.Name)
}

// Reason is the field reason code of the refusal, for a form that gave
// the URL: "https_required" (the scheme) or "private_address".
func (e *Refusal) Reason() string {
	if e.Scheme != "" {
		return "https_required"
	}
	return "private_address"
}

// Explain returns the host's sentence of a refusal wrapped in err; ok is
// false when err is not one.
func Explain(err error) (string, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Explain(), true
	}
	return "", false
}

// ParseAllowList reads "HOST:PORT[,HOST:PORT…]" (IPv6 hosts in brackets)
// into Policy.Allow, each target canonical: host in lower case without a
// trailing dot, IP addresses in their shortest form.
func ParseAllowList(list string) ([]string, error) {
	var out []string
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		host, port, err := net.SplitHostPort(item)
		if err != nil || host == "" {
			return nil, fmt.Errorf("%q is not HOST:PORT", item)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%q: the port must be a number from 1 to 65535", item)
		}
		if strings.ContainsAny(host, "/@?#% ") {
			return nil, fmt.Errorf("%q: the host must be a name or an address", item)
		}
		out = append(out, target(host, port))
	}
	return out, nil
}

// target is the canonical "host:port" of a host and a port.
func target(host, port string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if ip, err := netip.ParseAddr(host); err == nil {
		host = ip.WithZone("").Unmap().String()
	}
	return net.JoinHostPort(host, port)
}

// urlTarget is the canonical "host:port" of u, its port defaulting to the
// scheme's.
func urlTarget(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
	}
	return target(u.Hostname(), port)
}

// allows reports whether a target may be reached on special addresses.
func (p Policy) allows(t string) bool {
	return p.AllowPrivate || slices.Contains(p.Allow, t)
}

// CheckURL checks what can be known of a URL before connecting: an
// absolute URL, https (or http to an allowed target), and not an address
// or a name (localhost, RFC 6761) known to be special. A name that
// resolves to a special address is refused when dialling. Errors: a
// *Refusal (ErrRefused), or a plain error for a URL that is not absolute.
func (p Policy) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Hostname() == "" {
		return fmt.Errorf("outbound: %q is not an absolute URL", raw)
	}
	return p.checkURL(u)
}

func (p Policy) checkURL(u *url.URL) error {
	t := urlTarget(u)
	allowed := p.allows(t)
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && allowed:
	default:
		return &Refusal{Target: t, Scheme: u.Scheme}
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if ip, err := netip.ParseAddr(host); err == nil {
		return p.checkAddr(t, ip, allowed)
	}
	if (host == "localhost" || strings.HasSuffix(host, ".localhost")) && !allowed {
		return &Refusal{Target: t, Addr: netip.IPv6Loopback(), Range: ipv6Special[1]}
	}
	return nil
}

// checkAddr refuses ip, dialled for target t, unless it is public or the
// target is allowed (and ip not in a Never range).
func (p Policy) checkAddr(t string, ip netip.Addr, allowed bool) error {
	rg, special := Special(ip)
	if special && (rg.Never || !allowed) {
		return &Refusal{Target: t, Addr: ip.WithZone(""), Range: rg}
	}
	return nil
}

// DialContext connects as net.Dialer does, refusing (before the socket
// connects) every resolved address the Policy does not allow for the
// host:port asked for.
func (p Policy) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("outbound: dial %s: %w", address, err)
	}
	t := target(host, port)
	allowed := p.allows(t)
	d := &net.Dialer{Timeout: 10 * time.Second, Control: func(_, addr string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(addr)
		if err != nil {
			return &Refusal{Target: t, Range: Range{Name: "unreadable address " + addr, Never: true}}
		}
		return p.checkAddr(t, ap.Addr(), allowed)
	}}
	return d.DialContext(ctx, network, address)
}

// ClientOptions shape an http.Client of a Policy.
type ClientOptions struct {
	// Timeout bounds a whole exchange, body included (0: none beyond the
	// request's context).
	Timeout time.Duration
	// ResponseHeaderTimeout bounds the wait for the answer's headers
	// (default 20 s).
	ResponseHeaderTimeout time.Duration
	// Redirects is how many redirects are followed; 0: none, the redirect
	// itself is the answer.
	Redirects int
	// KeepAlive reuses connections (a webhook receiver called often);
	// otherwise each request has its own.
	KeepAlive bool
}

// Client returns an http.Client whose every request, redirects included,
// obeys the Policy: the URL is checked (CheckURL) before it is sent and
// the address when dialling. It uses no proxy (a proxy would connect for
// it, unchecked) and caps the answer's headers at 64 KiB.
func (p Policy) Client(o ClientOptions) *http.Client {
	if o.ResponseHeaderTimeout <= 0 {
		o.ResponseHeaderTimeout = 20 * time.Second
	}
	transport := &http.Transport{
		Proxy:                  nil,
		DialContext:            p.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  o.ResponseHeaderTimeout,
		MaxResponseHeaderBytes: 64 << 10,
		DisableKeepAlives:      !o.KeepAlive,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        30 * time.Second,
	}
	return &http.Client{
		Transport: checked{p: p, next: transport},
		Timeout:   o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if o.Redirects == 0 {
				return http.ErrUseLastResponse
			}
			if len(via) >= o.Redirects {
				return fmt.Errorf("more than %d redirects", o.Redirects)
			}
			if t := urlTarget(req.URL); !p.AllowPrivate && p.allows(t) && !p.allows(urlTarget(via[0].URL)) {
				return &Refusal{Target: t, Redirect: true}
			}
			return nil
		},
	}
}

// checked checks every request's URL before sending it.
type checked struct {
	p    Policy
	next http.RoundTripper
}

func (c checked) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := c.p.checkURL(r.URL); err != nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, err
	}
	return c.next.RoundTrip(r)
}

// Public reports whether a connection's remote address is on the public
// internet; false for anything else, an unknown address included.
func Public(remote net.Addr) bool {
	ap, err := netip.ParseAddrPort(remote.String())
	if err != nil {
		return false
	}
	_, special := Special(ap.Addr())
	return !special
}
