package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func ms(n ...int) []time.Duration {
	out := make([]time.Duration, len(n))
	for i, v := range n {
		out[i] = time.Duration(v) * time.Millisecond
	}
	return out
}

func TestPercentile(t *testing.T) {
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100..1, unsorted
	}
	tests := []struct {
		name string
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{name: "empty", in: nil, p: 50, want: 0},
		{name: "one", in: ms(7), p: 99, want: 7 * time.Millisecond},
		{name: "median of odd", in: ms(5, 1, 3), p: 50, want: 3 * time.Millisecond},
		{name: "median of even is the lower", in: ms(4, 1, 3, 2), p: 50, want: 2 * time.Millisecond},
		{name: "p99 of 1..100", in: ms(hundred...), p: 99, want: 99 * time.Millisecond},
		{name: "p50 of 1..100", in: ms(hundred...), p: 50, want: 50 * time.Millisecond},
		{name: "p100 is the max", in: ms(3, 9, 1), p: 100, want: 9 * time.Millisecond},
		{name: "tiny p is the min", in: ms(3, 9, 1), p: 0.001, want: 1 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := percentile(tt.in, tt.p); got != tt.want {
				t.Errorf("percentile(%v, %v) = %v, want %v", tt.in, tt.p, got, tt.want)
			}
		})
	}
}

func TestParseVmRSS(t *testing.T) {
	status := "Name:\tserver\nVmPeak:\t  900000 kB\nVmRSS:\t   51234 kB\nThreads:\t9\n"
	got, err := parseVmRSS(status)
	if err != nil || got != 51234 {
		t.Errorf("parseVmRSS = %d, %v; want 51234", got, err)
	}
	if _, err := parseVmRSS("Name:\tserver\n"); err == nil {
		t.Error("parseVmRSS without a VmRSS line: no error")
	}
}

func TestBareBodyIsJSONOfTheAskedSize(t *testing.T) {
	for _, n := range []int{0, 10, 100, 40_000} {
		b := bareBody(n)
		if n >= 30 && len(b) != n {
			t.Errorf("bareBody(%d) has %d bytes", n, len(b))
		}
		if !json.Valid(b) {
			t.Errorf("bareBody(%d) is not JSON: %.50s", n, b)
		}
	}
}

func TestTable(t *testing.T) {
	results := []result{
		{route: "config", conns: 64, goal: 0.60,
			server: side{requests: 3000, elapsed: time.Second, latencies: ms(1, 2, 3)},
			bare:   side{requests: 4000, elapsed: time.Second, latencies: ms(1, 1, 1)}, rssKiB: 20480},
		{route: "price 7n", conns: 64, goal: 0.40,
			server: side{requests: 1000, elapsed: 2 * time.Second, latencies: ms(10)},
			bare:   side{requests: 5000, elapsed: time.Second, latencies: ms(1)}},
		{route: "checkout", conns: 16, goal: 2000,
			server: side{requests: 2500, elapsed: time.Second, latencies: ms(8)}},
	}
	var b strings.Builder
	if err := writeTable(&b, results); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("table has %d lines, want 5:\n%s", len(lines), b.String())
	}
	if lines[4] != "checkout: 2500/s" {
		t.Errorf("last line %q, want the checkouts per second", lines[4])
	}
	for i, want := range [][]string{
		{"config", "64", "3000", "4000", "0.75", "≥ 0.60", "ok", "2.00ms", "3.00ms", "1.00ms", "20.0MiB"},
		{"price 7n", "500", "5000", "0.10", "≥ 0.40", "below", "10.00ms"},
		{"checkout", "16", "2500", "≥ 2000/s", "ok", "8.00ms"},
	} {
		fields := strings.Fields(lines[i+1])
		for _, w := range want {
			if !strings.Contains(" "+strings.Join(fields, " ")+" ", " "+w+" ") {
				t.Errorf("line %q lacks %q", lines[i+1], w)
			}
		}
	}
}

func TestLoadCountsAnsweredRequestsAndStopsOnAWrongStatus(t *testing.T) {
	var served atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if served.Add(1) > 50 {
			http.Error(w, "enough", http.StatusTeapot)
			return
		}
		w.Write([]byte(`{}`))
	}))
	defer ts.Close()
	client := newClient(4)
	defer client.CloseIdleConnections()

	s, err := load(context.Background(), client, 4, 10*time.Second, http.StatusOK, getRequest(ts.URL))
	if err == nil || !strings.Contains(err.Error(), "status 418") {
		t.Errorf("load: error %v, want status 418", err)
	}
	if s.requests != 50 || len(s.latencies) != 50 || s.exhausted {
		t.Errorf("load counted %d requests, %d latencies, exhausted %v; want 50, not exhausted", s.requests, len(s.latencies), s.exhausted)
	}
	if s.elapsed >= 10*time.Second {
		t.Errorf("load ran %v: it did not stop at the first wrong status", s.elapsed)
	}
}

func TestLoadStopsWhenRequestsRunOut(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
	}))
	defer ts.Close()
	var n atomic.Int64
	next := func(ctx context.Context, _ int64) (*http.Request, bool, error) {
		if n.Add(1) > 30 {
			return nil, false, nil
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL, nil)
		return req, true, err
	}
	s, err := load(context.Background(), newClient(3), 3, 10*time.Second, http.StatusCreated, next)
	if err != nil || s.requests != 30 || !s.exhausted {
		t.Errorf("load = %d requests, exhausted %v, %v; want 30, exhausted, nil", s.requests, s.exhausted, err)
	}
}

func TestCheckoutRequestsWantDistinctStays(t *testing.T) {
	var n atomic.Int64
	next := checkoutRequest("http://127.0.0.1:1", []int64{1, 2}, &n)
	seen := map[string]bool{}
	for i := range 10 {
		req, ok, err := next(context.Background(), int64(i))
		if err != nil || !ok {
			t.Fatalf("request %d: ok %v, %v", i, ok, err)
		}
		var body struct {
			PropertyID int64  `json:"property_id"`
			CheckIn    string `json:"check_in"`
			CheckOut   string `json:"check_out"`
		}
		if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		in, _ := time.Parse(time.DateOnly, body.CheckIn)
		out, _ := time.Parse(time.DateOnly, body.CheckOut)
		if out.Sub(in) != 48*time.Hour {
			t.Errorf("request %d: %s to %s, want two nights", i, body.CheckIn, body.CheckOut)
		}
		// Two-night stays of one property starting on distinct even
		// offsets never overlap.
		key := body.CheckIn + "/" + string(rune('0'+body.PropertyID))
		if seen[key] {
			t.Errorf("request %d repeats stay %s", i, key)
		}
		seen[key] = true
	}
	n.Store(maxCheckouts)
	if _, ok, _ := next(context.Background(), 0); ok {
		t.Error("a request after maxCheckouts")
	}
}

func TestPickRoutes(t *testing.T) {
	all := []route{{name: "config"}, {name: "availability 12m"}, {name: "checkout", checkout: true}}
	got, err := pickRoutes(all, "checkout,availability")
	if err != nil || len(got) != 2 || got[0].name != "checkout" || got[1].name != "availability 12m" {
		t.Fatalf("pickRoutes = %v, %v; want checkout then availability 12m", got, err)
	}
	if got, err := pickRoutes(all, ""); err != nil || len(got) != 3 {
		t.Errorf("no -routes: %v, %v; want all three", got, err)
	}
	if _, err := pickRoutes(all, "search"); err == nil {
		t.Error("an unknown route was accepted")
	}
}
