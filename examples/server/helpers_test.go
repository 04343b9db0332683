package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/serverenv"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// testServer is the reference server running in this process on a free
// port with a fresh database.
type testServer struct {
	URL    string
	srv    *server
	dbPath string
	logs   *syncBuffer
}

// startServer starts the server as the command would, from flags and an
// environment, and stops it when the test ends.
func startServer(t *testing.T, env map[string]string, args ...string) *testServer {
	t.Helper()
	return startServerWith(t, env, nil, args...)
}

// startServerWith is startServer with a last say on the configuration,
// for settings that have no flag (timeouts).
func startServerWith(t *testing.T, env map[string]string, tweak func(*serverenv.Config), args ...string) *testServer {
	t.Helper()
	dbPath := sqlitetest.Path(t)
	args = append([]string{"-addr", "127.0.0.1:0", "-db", dbPath}, args...)
	cfg, err := serverenv.Parse(args, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatalf("serverenv.Parse(%q): %v", args, err)
	}
	cfg.ShutdownTimeout = 5 * time.Second
	if tweak != nil {
		tweak(&cfg)
	}
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := newServer(ctx, cfg, logger)
	if err != nil {
		cancel()
		t.Fatalf("newServer: %v", err)
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		cancel()
		srv.Close()
		t.Fatalf("listen: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		srv.Close()
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	return &testServer{URL: "http://" + ln.Addr().String(), srv: srv, dbPath: dbPath, logs: logs}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// response is a decoded JSON answer.
type response struct {
	Status int
	Header http.Header
	Body   map[string]any
	Raw    string
}

// call sends a request with an optional JSON body and decodes the answer.
func call(t *testing.T, method, url string, body any, header map[string]string) response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := response{Status: res.StatusCode, Header: res.Header, Raw: string(raw)}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&r.Body); err != nil {
			t.Fatalf("%s %s: decode %q: %v", method, url, raw, err)
		}
	}
	return r
}

// data returns the "data" object of a success envelope.
func (r response) data(t *testing.T) map[string]any {
	t.Helper()
	d, ok := r.Body["data"].(map[string]any)
	if !ok {
		t.Fatalf("no data object in %s", r.Raw)
	}
	return d
}

// str reads a string field of a decoded object.
func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// num reads a number field as its JSON text ("471.80").
func num(m map[string]any, key string) string {
	n, _ := m[key].(json.Number)
	return n.String()
}

// stayDates returns a check-in far enough ahead to be free and bookable,
// outside the demo's seasons' minimum stays, and a check-out nights later.
func stayDates(daysAhead, nights int) (string, string) {
	paris, _ := time.LoadLocation("Europe/Paris")
	in := civil.Today(time.Now(), paris).AddDays(daysAhead)
	return in.String(), in.AddDays(nights).String()
}

// checkout starts a booking over the API and returns its data.
func checkout(t *testing.T, ts *testServer, org string, propertyID, daysAhead, nights, guests int) map[string]any {
	t.Helper()
	in, out := stayDates(daysAhead, nights)
	r := call(t, http.MethodPost, ts.URL+"/api/v1/book/"+org+"/checkout", map[string]any{
		"property_id": propertyID, "check_in": in, "check_out": out, "guests_count": guests,
		"guest_name": "Ada Lovelace", "guest_email": "ada@example.com", "guest_phone": "+33612345678",
		"message": "Arriving by train at 18:00.",
	}, nil)
	if r.Status != http.StatusCreated {
		t.Fatalf("checkout %s: %d %s", org, r.Status, r.Raw)
	}
	return r.data(t)
}

// intentOf is the intent id in a client secret, as Stripe.js reads it.
func intentOf(clientSecret string) string {
	id, _, _ := strings.Cut(clientSecret, "_secret_")
	return id
}

// propertyIDs lists an organisation's property ids over the API.
func propertyIDs(t *testing.T, ts *testServer, org string) []int {
	t.Helper()
	r := call(t, http.MethodGet, ts.URL+"/api/v1/book/"+org+"/properties", nil, nil)
	list, ok := r.Body["data"].([]any)
	if r.Status != http.StatusOK || !ok {
		t.Fatalf("properties of %s: %d %s", org, r.Status, r.Raw)
	}
	var ids []int
	for _, p := range list {
		id, _ := p.(map[string]any)["id"].(json.Number).Int64()
		ids = append(ids, int(id))
	}
	return ids
}

// rawDSN opens the server's SQLite file beside it, as a test does to set
// up what no API can: it waits for the server's writers (the job engine
// writes every half second) instead of failing with SQLITE_BUSY.
func rawDSN(path string) string {
	return "file:" + path + "?_pragma=busy_timeout(10000)"
}
