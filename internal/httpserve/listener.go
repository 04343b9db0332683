// Package httpserve is the plumbing of a staykit server's HTTP side that
// is not about bookings: a listener that caps open connections overall
// and per client (NewLimitListener), a logger that batches its lines
// (NewBatchedLogger) and a log line per request (LogRequests).
package httpserve

import (
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"
)

// limitListener caps the connections it has accepted and not yet closed:
// overall, and per client (an IPv4 address, or an IPv6 /64, the block one
// subscriber usually holds). A connection over either cap is closed at
// once, so it holds no descriptor and never reaches the HTTP server.
// Trusted proxies are only subject to the overall cap: behind a reverse
// proxy every client arrives from its address.
type limitListener struct {
	net.Listener
	maxTotal, maxPerClient int
	trusted                []netip.Prefix
	log                    *slog.Logger

	mu        sync.Mutex
	total     int
	perClient map[netip.Prefix]int
	refused   int       // since lastLog
	lastLog   time.Time // when refusals were last logged
}

// refusalLogEvery bounds the refusal warnings to one per interval, so an
// attack does not flood the log as well.
const refusalLogEvery = 10 * time.Second

// NewLimitListener returns ln capped at maxTotal connections accepted and
// not yet closed, and at maxPerClient from one client (an IPv4 address,
// or an IPv6 /64); clients in trusted (reverse proxies) are only subject
// to the overall cap. Refusals are logged at most once per 10 s.
func NewLimitListener(ln net.Listener, maxTotal, maxPerClient int, trusted []netip.Prefix, logger *slog.Logger) net.Listener {
	return &limitListener{
		Listener: ln, maxTotal: maxTotal, maxPerClient: maxPerClient, trusted: trusted, log: logger,
		perClient: make(map[netip.Prefix]int),
	}
}

// Accept returns the next connection within the caps, closing those over
// them.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		client, limited := l.clientOf(c.RemoteAddr())
		if lc, ok := l.acquire(client, limited); ok {
			lc.Conn = c
			return lc, nil
		}
		c.Close()
	}
}

// clientOf is the key a connection is counted under, and whether the
// per-client cap applies to it.
func (l *limitListener) clientOf(addr net.Addr) (netip.Prefix, bool) {
	ta, ok := addr.(*net.TCPAddr)
	if !ok {
		return netip.Prefix{}, false
	}
	ip := ta.AddrPort().Addr().Unmap()
	for _, p := range l.trusted {
		if p.Contains(ip) {
			return netip.Prefix{}, false
		}
	}
	bits := 32
	if ip.Is6() {
		bits = 64
	}
	p, _ := ip.Prefix(bits)
	return p, true
}

// acquire counts a new connection, or reports false when a cap is
// reached.
func (l *limitListener) acquire(client netip.Prefix, limited bool) (*limitedConn, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total >= l.maxTotal || (limited && l.perClient[client] >= l.maxPerClient) {
		l.refused++
		if now := time.Now(); now.Sub(l.lastLog) >= refusalLogEvery {
			l.log.Warn("connections refused: limit reached", "refused", l.refused, "client", client.String(),
				"open", l.total, "max_conns", l.maxTotal, "max_conns_per_addr", l.maxPerClient)
			l.refused, l.lastLog = 0, now
		}
		return nil, false
	}
	l.total++
	if limited {
		l.perClient[client]++
	}
	return &limitedConn{release: func() { l.release(client, limited) }}, true
}

func (l *limitListener) release(client netip.Prefix, limited bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total--
	if limited {
		if l.perClient[client]--; l.perClient[client] <= 0 {
			delete(l.perClient, client)
		}
	}
}

// limitedConn gives its place back when closed, once however often Close
// is called.
type limitedConn struct {
	net.Conn
	release func()
	once    sync.Once
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
