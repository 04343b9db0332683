package main

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/internal/httpserve"
	"github.com/staykit/staykit/internal/serverenv"
)

// dialFrom opens a TCP connection to addr from a given loopback address
// (Linux routes all of 127.0.0.0/8 to the loopback interface).
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial %s from %s: %v", addr, from, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedByServer reports whether the server closed c within wait: a read
// returns EOF or a reset instead of timing out.
func closedByServer(c net.Conn, wait time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(wait))
	_, err := c.Read(make([]byte, 1))
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// getFrom sends GET /healthz from a given loopback address.
func getFrom(t *testing.T, from, addr string) (int, error) {
	t.Helper()
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}).DialContext,
	}}
	defer client.CloseIdleConnections()
	res, err := client.Get("http://" + addr + "/healthz")
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	return res.StatusCode, nil
}

func TestIdleConnectionsFromOneAddressDoNotStarveOthers(t *testing.T) {
	const perAddr, total = 4, 8
	ts := startServer(t, nil, "-max-conns", "8", "-max-conns-per-addr", "4")
	addr := strings.TrimPrefix(ts.URL, "http://")

	// An attacker opens three times the overall cap from one address and
	// sends nothing.
	var attack []net.Conn
	for range 3 * total {
		attack = append(attack, dialFrom(t, "127.0.0.1", addr))
	}
	// The listener keeps perAddr of them; it closes the others at once,
	// long before the 5 s header timeout would.
	kept := 0
	for _, c := range attack {
		if !closedByServer(c, 500*time.Millisecond) {
			kept++
		}
	}
	if kept != perAddr {
		t.Errorf("the server kept %d of %d idle connections from one address, want %d", kept, len(attack), perAddr)
	}
	// Another client is served meanwhile.
	if status, err := getFrom(t, "127.0.0.2", addr); err != nil || status != http.StatusOK {
		t.Errorf("GET /healthz from another address during the attack = %d, %v; want 200", status, err)
	}
	// Once the attacker lets go, its address is served again.
	for _, c := range attack {
		c.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		status, err := getFrom(t, "127.0.0.1", addr)
		if err == nil && status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /healthz from the attacker's address after it closed its connections = %d, %v", status, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestLimitListenerCapsTheTotal(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := httpserve.NewLimitListener(inner, 3, 2, nil, slog.New(slog.DiscardHandler))
	defer ln.Close()
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	addr := inner.Addr().String()
	var conns []net.Conn
	for _, from := range []string{"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"} {
		conns = append(conns, dialFrom(t, from, addr))
	}
	for i := range 3 {
		select {
		case <-accepted:
		case <-time.After(5 * time.Second):
			t.Fatalf("only %d connections accepted, want 3", i)
		}
	}
	if !closedByServer(conns[3], 2*time.Second) {
		t.Error("the fourth connection, over the total of 3, was kept open")
	}
	select {
	case c := <-accepted:
		t.Errorf("connection from %s accepted over the total", c.RemoteAddr())
	default:
	}
}

func TestLimitListenerExemptsTrustedProxies(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := httpserve.NewLimitListener(inner, 10, 1, parsePrefixesMust(t, "127.0.0.9"), slog.New(slog.DiscardHandler))
	defer ln.Close()
	go func() {
		for {
			if _, err := ln.Accept(); err != nil {
				return
			}
		}
	}()
	addr := inner.Addr().String()
	proxy := []net.Conn{dialFrom(t, "127.0.0.9", addr), dialFrom(t, "127.0.0.9", addr), dialFrom(t, "127.0.0.9", addr)}
	for i, c := range proxy {
		if closedByServer(c, 300*time.Millisecond) {
			t.Errorf("connection %d from the trusted proxy was closed", i+1)
		}
	}
	client := []net.Conn{dialFrom(t, "127.0.0.8", addr), dialFrom(t, "127.0.0.8", addr)}
	if closedByServer(client[0], 300*time.Millisecond) || !closedByServer(client[1], 2*time.Second) {
		t.Error("a client that is not a trusted proxy is not held to one connection")
	}
}

func parsePrefixesMust(t *testing.T, s string) []netip.Prefix {
	t.Helper()
	p, err := serverenv.ParsePrefixes(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSlowBodyIsCutOff(t *testing.T) {
	ts := startServerWith(t, nil, func(c *serverenv.Config) { c.ReadTimeout = 500 * time.Millisecond })
	addr := strings.TrimPrefix(ts.URL, "http://")
	c := dialFrom(t, "127.0.0.1", addr)
	// Headers promise 1000 bytes; the body trickles in and stops.
	_, err := io.WriteString(c, "POST /api/v1/book/demo/checkout HTTP/1.1\r\nHost: "+addr+
		"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"property_id\":")
	if err != nil {
		t.Fatal(err)
	}
	// The server answers or hangs up once the body deadline passes; a
	// generous wait, far above the timeout, only guards against a hang.
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err == nil {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode < 400 {
			t.Errorf("slow body answered %d, want an error", res.StatusCode)
		}
		if !closedByServer(c, 5*time.Second) {
			t.Error("connection with a slow body kept open after the answer")
		}
		return
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the server still waits for the body after 10 s")
	}
}
