package outbound_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/staykit/staykit/outbound"
)

// TestSpecialAddresses: every range the webhook sender used to reach
// (carrier-grade NAT, IETF assignments, benchmarking, reserved, "this
// network", NAT64 and IPv4-compatible spellings of loopback and link-local)
// is special, with the rest of both registries; public addresses, and
// NAT64 of a public one, are not.
func TestSpecialAddresses(t *testing.T) {
	tests := []struct {
		addr    string
		special bool
		never   bool
	}{
		{"8.8.8.8", false, false},
		{"1.1.1.1", false, false},
		{"2606:4700:4700::1111", false, false},
		{"64:ff9b::808:808", false, false}, // NAT64 of 8.8.8.8
		{"::ffff:8.8.8.8", false, false},

		{"100.64.0.1", true, false},
		{"100.100.100.200", true, false}, // a cloud's metadata service
		{"192.0.0.1", true, false},
		{"192.0.0.170", true, false},
		{"198.18.0.1", true, false},
		{"198.19.255.254", true, false},
		{"240.0.0.1", true, false},
		{"0.0.0.0", true, true},
		{"0.1.2.3", true, true},
		{"255.255.255.255", true, true},
		{"224.0.0.251", true, true},
		{"127.0.0.1", true, false},
		{"127.8.9.10", true, false},
		{"10.1.2.3", true, false},
		{"169.254.169.254", true, false},
		{"172.31.255.255", true, false},
		{"192.168.1.1", true, false},
		{"192.0.2.1", true, false},
		{"198.51.100.7", true, false},
		{"203.0.113.9", true, false},
		{"192.31.196.1", true, false},
		{"192.52.193.1", true, false},
		{"192.88.99.1", true, false},
		{"192.175.48.1", true, false},

		{"::1", true, false},
		{"::", true, true},
		{"::127.0.0.1", true, false},
		{"::169.254.169.254", true, false},
		{"::ffff:127.0.0.1", true, false},
		{"::ffff:169.254.169.254", true, false},
		{"64:ff9b::7f00:1", true, false},    // NAT64 of 127.0.0.1
		{"64:ff9b::a9fe:a9fe", true, false}, // NAT64 of 169.254.169.254
		{"64:ff9b::a00:1", true, false},     // NAT64 of 10.0.0.1
		{"64:ff9b:1::1", true, false},
		{"100::1", true, false},
		{"2001::1", true, false},
		{"2001:2::1", true, false},
		{"2001:db8::1", true, false},
		{"2002:7f00:1::1", true, false}, // 6to4 of 127.0.0.1
		{"3fff::1", true, false},
		{"5f00::1", true, false},
		{"fc00::1", true, false},
		{"fd12:3456::1", true, false},
		{"fe80::1", true, false},
		{"fe80::1%eth0", true, false},
		{"ff02::1", true, true},
	}
	for _, tt := range tests {
		rg, special := outbound.Special(netip.MustParseAddr(tt.addr))
		if special != tt.special || rg.Never != tt.never {
			t.Errorf("Special(%s) = %+v, %v; want special %v, never %v", tt.addr, rg, special, tt.special, tt.never)
		}
		if special && (rg.Name == "" || rg.RFC == "") {
			t.Errorf("Special(%s) = %+v: the range has no name or RFC", tt.addr, rg)
		}
	}
}

// listen serves 200 OK on loopback and returns its host:port.
func listen(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) }))
	t.Cleanup(srv.Close)
	return srv, srv.Listener.Addr().String()
}

// TestDialChecksTheResolvedAddress: the dialer refuses loopback whatever
// the name that led there, unless that very host:port is allowed; an
// allowed target reaches nothing else.
func TestDialChecksTheResolvedAddress(t *testing.T) {
	_, hostPort := listen(t)
	_, port, _ := net.SplitHostPort(hostPort)
	dial := func(p outbound.Policy, addr string) error {
		c, err := p.DialContext(context.Background(), "tcp", addr)
		if err == nil {
			c.Close()
		}
		return err
	}
	for _, addr := range []string{hostPort, "localhost:" + port, "[::ffff:127.0.0.1]:" + port} {
		if err := dial(outbound.Policy{}, addr); !errors.Is(err, outbound.ErrRefused) {
			t.Errorf("zero Policy, %s: %v, want refused", addr, err)
		}
	}
	allowed := outbound.Policy{Allow: []string{hostPort}}
	if err := dial(allowed, hostPort); err != nil {
		t.Errorf("the allowed target: %v", err)
	}
	if err := dial(allowed, "[::ffff:127.0.0.1]:"+port); err != nil {
		t.Errorf("the allowed target, IPv4-mapped: %v", err)
	}
	if err := dial(allowed, "localhost:"+port); !errors.Is(err, outbound.ErrRefused) {
		t.Errorf("another name of the allowed target: %v, want refused (only the host:port asked for is allowed)", err)
	}
	byName := outbound.Policy{Allow: []string{"localhost:" + port}}
	if err := dial(byName, "localhost:"+port); err != nil {
		t.Errorf("an allowed name: %v", err)
	}
	if err := dial(outbound.Policy{AllowPrivate: true}, hostPort); err != nil {
		t.Errorf("AllowPrivate: %v", err)
	}
	if err := dial(outbound.Policy{AllowPrivate: true}, "0.0.0.0:"+port); !errors.Is(err, outbound.ErrRefused) {
		t.Errorf("AllowPrivate to 0.0.0.0 (this network): %v, want refused", err)
	}
}

// TestClientChecksURLsAndRedirects: plain http is refused before any
// request unless the target is allowed; a redirect from a target that is
// not allowed to one that is is refused; redirects are followed only as
// asked.
func TestClientChecksURLsAndRedirects(t *testing.T) {
	srv, hostPort := listen(t)
	if _, err := (outbound.Policy{}).Client(outbound.ClientOptions{}).Get(srv.URL); !errors.Is(err, outbound.ErrRefused) {
		t.Errorf("plain http with the zero Policy: %v, want refused", err)
	}
	allowed := outbound.Policy{Allow: []string{hostPort}}
	res, err := allowed.Client(outbound.ClientOptions{}).Get(srv.URL)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("the allowed target over http: %v", err)
	}
	res.Body.Close()

	c := allowed.Client(outbound.ClientOptions{Redirects: 5})
	to := func(u string) *http.Request { r, _ := http.NewRequest(http.MethodGet, u, nil); return r }
	err = c.CheckRedirect(to(srv.URL+"/internal"), []*http.Request{to("https://calendar.example.com/cal.ics")})
	var refusal *outbound.Refusal
	if !errors.As(err, &refusal) || !refusal.Redirect {
		t.Errorf("redirect from a public target to the allowed one: %v, want refused", err)
	}
	if err := c.CheckRedirect(to(srv.URL+"/b"), []*http.Request{to(srv.URL + "/a")}); err != nil {
		t.Errorf("redirect within the allowed target: %v", err)
	}
	if err := allowed.Client(outbound.ClientOptions{}).CheckRedirect(to(srv.URL), []*http.Request{to(srv.URL)}); err != http.ErrUseLastResponse {
		t.Errorf("no redirects asked: %v, want the redirect as the answer", err)
	}
}

func TestCheckURL(t *testing.T) {
	p := outbound.Policy{Allow: []string{"192.168.1.20:8443", "pms.lan:80"}}
	tests := []struct {
		url, reason string // reason "" when accepted
	}{
		{"https://calendar.example.com/cal.ics", ""},
		{"https://192.168.1.20:8443/cal.ics", ""},
		{"http://192.168.1.20:8443/cal.ics", ""},
		{"http://PMS.lan./hooks", ""},
		{"https://192.168.1.20/cal.ics", "private_address"}, // port 443: not the allowed target
		{"http://calendar.example.com/cal.ics", "https_required"},
		{"ftp://calendar.example.com/cal.ics", "https_required"},
		{"https://127.0.0.1/x", "private_address"},
		{"https://[::1]/x", "private_address"},
		{"https://[::127.0.0.1]/x", "private_address"},
		{"https://[64:ff9b::a9fe:a9fe]/x", "private_address"},
		{"https://localhost/x", "private_address"},
		{"https://api.localhost/x", "private_address"},
		{"https://100.64.1.1/x", "private_address"},
	}
	for _, tt := range tests {
		err := p.CheckURL(tt.url)
		var r *outbound.Refusal
		switch {
		case tt.reason == "" && err != nil:
			t.Errorf("CheckURL(%s) = %v, want accepted", tt.url, err)
		case tt.reason != "" && (!errors.As(err, &r) || r.Reason() != tt.reason):
			t.Errorf("CheckURL(%s) = %v, want refused: %s", tt.url, err, tt.reason)
		case tt.reason != "" && !strings.Contains(r.Explain(), "https") && !strings.Contains(r.Explain(), "operator"):
			t.Errorf("CheckURL(%s): explained as %q", tt.url, r.Explain())
		}
	}
	if err := p.CheckURL("/relative"); err == nil || errors.Is(err, outbound.ErrRefused) {
		t.Errorf("a relative URL: %v, want an error that is not a refusal", err)
	}
}

func TestParseAllowList(t *testing.T) {
	got, err := outbound.ParseAllowList(" 127.0.0.1:8081, Channel-Manager.LAN.:443,[::1]:9000,[::ffff:10.0.0.1]:80 ,")
	want := []string{"127.0.0.1:8081", "channel-manager.lan:443", "[::1]:9000", "10.0.0.1:80"}
	if err != nil || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ParseAllowList = %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{"127.0.0.1", "host:0", "host:99999", ":80", "http://host:80", "host:port", "a/b:80"} {
		if _, err := outbound.ParseAllowList(bad); err == nil {
			t.Errorf("ParseAllowList(%q) accepted", bad)
		}
	}
}
