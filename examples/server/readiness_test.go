package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/internal/testenv"
)

// wantProbe fails the test unless the probe at path answers status with
// the body's status (and Retry-After when it is a 503).
func wantProbe(t *testing.T, ts *testServer, path string, status int, word string) {
	t.Helper()
	r := call(t, "GET", ts.URL+path, nil, nil)
	if r.Status != status || str(r.Body, "status") != word {
		t.Errorf("GET %s = %d %s, want %d with status %q", path, r.Status, r.Raw, status, word)
	}
	retry := r.Header.Get("Retry-After")
	if status == 503 && retry != strconv.Itoa(httpapi.RetryAfterUnavailable) {
		t.Errorf("GET %s: Retry-After = %q, want %d", path, retry, httpapi.RetryAfterUnavailable)
	}
	if status != 503 && retry != "" {
		t.Errorf("GET %s: Retry-After = %q, want none", path, retry)
	}
}

// TestReadinessFollowsTheDatabase: /readyz answers 200 while the database
// answers and 503 with Retry-After once it does not, while /healthz (the
// process lives) stays 200.
func TestReadinessFollowsTheDatabase(t *testing.T) {
	ts := startServer(t, nil)
	wantProbe(t, ts, "/readyz", 200, "ready")
	wantProbe(t, ts, "/healthz", 200, "ok")
	if err := ts.srv.back.Close(); err != nil {
		t.Fatal(err)
	}
	wantProbe(t, ts, "/readyz", 503, "unavailable")
	wantProbe(t, ts, "/healthz", 200, "ok")
	if logs := ts.logs.String(); !strings.Contains(logs, `level=WARN msg="not ready: the database does not answer"`) {
		t.Errorf("the failed probe is not logged:\n%s", logs)
	}
}

// TestPostgresOutage runs the server on PostgreSQL behind a loopback
// proxy and pulls the plug: the API answers 503 with Retry-After instead
// of 500 and /readyz says unavailable; once the database is back both
// serve again.
func TestPostgresOutage(t *testing.T) {
	pgURL := testenv.PostgresURL(t)
	schema := testenv.PostgresSchema(t, "staykit_server_")
	u, err := url.Parse(pgURL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), pgURL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(t.Context(), `CREATE SCHEMA `+pgx.Identifier{schema}.Sanitize())
	conn.Close(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	proxy := newTCPProxy(t, u.Host)
	u.Host = proxy.addr
	q := u.Query()
	q.Set("search_path", schema+",public")
	u.RawQuery = q.Encode()
	ts := startServer(t, nil, "-postgres", u.String(), "-fake-payments")

	villa := propertyIDs(t, ts, "demo")[0]
	order := func() map[string]any {
		in, out := stayDates(40, 3)
		return map[string]any{"property_id": villa, "check_in": in, "check_out": out, "guests_count": 2,
			"guest_name": "Ada Lovelace", "guest_email": "ada@example.com", "guest_phone": "+33612345678"}
	}
	wantProbe(t, ts, "/readyz", 200, "ready")

	proxy.down()
	wantProbe(t, ts, "/readyz", 503, "unavailable")
	wantProbe(t, ts, "/healthz", 200, "ok")
	r := call(t, "POST", ts.URL+"/api/v1/book/demo/checkout", order(), nil)
	if r.Status != 503 || str(r.Body, "code") != "service_unavailable" || r.Header.Get("Retry-After") != strconv.Itoa(httpapi.RetryAfterUnavailable) {
		t.Errorf("checkout while the database is down: %d %v %s, want 503 service_unavailable with Retry-After", r.Status, r.Header, r.Raw)
	}

	proxy.up()
	wantProbe(t, ts, "/readyz", 200, "ready")
	r = call(t, "POST", ts.URL+"/api/v1/book/demo/checkout", order(), nil)
	if r.Status != 201 {
		t.Errorf("checkout once the database is back: %d %s", r.Status, r.Raw)
	}
}

// tcpProxy forwards loopback connections to a target; down closes its
// listener and every connection (the database is unreachable), up listens
// again on the same address; while stalled it accepts and reads, and
// forwards nothing (a server that hangs).
type tcpProxy struct {
	t       *testing.T
	target  string
	addr    string
	stalled atomic.Bool

	mu    sync.Mutex
	ln    net.Listener
	conns []net.Conn
	wg    sync.WaitGroup
}

func newTCPProxy(t *testing.T, target string) *tcpProxy {
	p := &tcpProxy{t: t, target: target}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(func() {
		p.down()
		p.wg.Wait()
	})
	return p
}

func (p *tcpProxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			p.wg.Go(func() { p.forward(up, c); up.Close() })
			p.wg.Go(func() { io.Copy(c, up); c.Close() })
		}
	})
}

// forward copies what the client sends to the target, unless stalled.
func (p *tcpProxy) forward(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.stalled.Load() {
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *tcpProxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *tcpProxy) up() {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil && !errors.Is(err, net.ErrClosed) {
		p.t.Fatal(err)
	}
	p.serve(ln)
}
