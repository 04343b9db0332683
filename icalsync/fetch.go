package icalsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// UserAgent is sent with every feed request.
const UserAgent = "staykit-calendar-sync/1 (+https://github.com/staykit/staykit)"

// Fetcher defaults.
const (
	DefaultTimeout  = 30 * time.Second
	DefaultMaxBytes = 5 << 20
	maxRedirects    = 5
)

// Fetcher fetches feeds with the care outbound requests need: https only
// (plain http too once AllowLoopback or AllowPrivate is set, for test
// servers and channel managers on a LAN), a timeout on the whole exchange, a cap on the body, at most five redirects, and no
// connection to a loopback, private, link-local or otherwise special
// address unless allowed. The address checked is the one dialled, after
// resolution, for the first request and every redirect, so a name that
// resolves to an internal address (or a redirect to one) is refused.
// The zero value is ready to use with the defaults.
type Fetcher struct {
	// Timeout bounds a whole fetch, body included (default 30 s).
	Timeout time.Duration
	// MaxBytes caps the body (default 5 MiB).
	MaxBytes int64
	// AllowLoopback allows loopback addresses, and plain http to them:
	// tests serve feeds with httptest.
	AllowLoopback bool
	// AllowPrivate allows private (RFC 1918, ULA), link-local and other
	// non-public addresses: a host whose channel manager is on its LAN.
	AllowPrivate bool
}

// Response is a fetch's outcome.
type Response struct {
	// NotModified: the server answered 304 to the conditional request.
	NotModified  bool
	Body         []byte
	ETag         string
	LastModified string
}

// ErrForbiddenAddress is returned (wrapped) when a feed's host resolves
// to an address the Fetcher may not reach.
var ErrForbiddenAddress = errors.New("address not allowed")

// Fetch GETs rawURL, conditionally when etag or lastModified is set.
func (f *Fetcher) Fetch(ctx context.Context, rawURL, etag, lastModified string) (*Response, error) {
	timeout, limit := f.Timeout, f.MaxBytes
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("invalid URL: %w", err)
	}
	if err := f.checkScheme(u); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("invalid URL: %w", err)
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "text/calendar, */*;q=0.5")
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if lastModified != "" {
		req.Header.Set("If-Modified-Since", lastModified)
	}
	client := f.client()
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified:
		return &Response{NotModified: true, ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}, nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return nil, fmt.Errorf("fetch: HTTP status %d", resp.StatusCode)
	}
	if resp.ContentLength > limit {
		return nil, fmt.Errorf("fetch: feed larger than %d bytes", limit)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("fetch: read body: %w", err)
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("fetch: feed larger than %d bytes", limit)
	}
	return &Response{Body: body, ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}, nil
}

// checkScheme allows https, and plain http when loopback or private
// addresses are allowed.
func (f *Fetcher) checkScheme(u *url.URL) error {
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && (f.AllowLoopback || f.AllowPrivate):
	default:
		return fmt.Errorf("only https feeds are fetched, not %q", u.Scheme)
	}
	if u.Host == "" {
		return errors.New("invalid URL: no host")
	}
	return nil
}

// client is an http.Client whose dialer refuses forbidden addresses and
// whose redirects keep the scheme rule.
func (f *Fetcher) client() *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, Control: f.control}
	transport := &http.Transport{
		Proxy:                  nil, // a proxy would dial for us, unchecked
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  20 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
		DisableKeepAlives:      true,
	}
	return &http.Client{
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("more than %d redirects", maxRedirects)
			}
			if err := f.checkScheme(req.URL); err != nil {
				return fmt.Errorf("redirect to %s: %w", req.URL.Redacted(), err)
			}
			return nil
		},
	}
}

// control runs after the name is resolved and before the socket
// connects: address is the IP about to be dialled.
func (f *Fetcher) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrForbiddenAddress, address)
	}
	if !f.allowed(ap.Addr().Unmap()) {
		return fmt.Errorf("%w: %s", ErrForbiddenAddress, ap.Addr())
	}
	return nil
}

// allowed reports whether the Fetcher may connect to ip.
func (f *Fetcher) allowed(ip netip.Addr) bool {
	switch {
	case ip.IsLoopback():
		return f.AllowLoopback
	case ip.IsUnspecified(), ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
		return false
	case ip.IsPrivate(), ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast(), special(ip):
		return f.AllowPrivate
	}
	return ip.IsGlobalUnicast()
}

// specialRanges are non-public ranges that netip's predicates miss.
var specialRanges = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"), // NAT64 could reach IPv4 internals
	netip.MustParsePrefix("2001:db8::/32"),
}

func special(ip netip.Addr) bool {
	for _, p := range specialRanges {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
