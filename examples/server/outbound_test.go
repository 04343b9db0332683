package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/staykit/staykit/internal/serverenv"
)

// hostKey creates a host API key of org on ts's database and returns the
// Authorization header that carries it.
func hostKey(t *testing.T, ts *testServer, org string) map[string]string {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"apikey", "create", "-org", org, "-name", "test", "-db", ts.dbPath},
		func(string) string { return "" }, &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("apikey create: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	return map[string]string{"Authorization": "Bearer " + lines[len(lines)-1]}
}

// TestOutboundAllow: -outbound-allow lets a feed and a webhook receiver
// on loopback be used over plain http, at exactly that host:port; any
// other private URL is refused when it is given, with a sentence a host
// understands in the host API's error.
func TestOutboundAllow(t *testing.T) {
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a@example.com\r\nDTSTART;VALUE=DATE:20300110\r\n" +
			"DTEND;VALUE=DATE:20300112\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
	}))
	t.Cleanup(feed.Close)
	receiver := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(receiver.Close)
	allow := strings.TrimPrefix(feed.URL, "http://") + "," + strings.TrimPrefix(receiver.URL, "http://")
	ts := startServer(t, nil, "-outbound-allow", allow)
	auth := hostKey(t, ts, "demo")
	api := ts.URL + "/api/v1/host/demo"
	feeds := fmt.Sprintf("%s/properties/%d/feeds", api, propertyIDs(t, ts, "demo")[0])

	r := call(t, http.MethodPost, feeds, map[string]any{"name": "Channel manager", "url": feed.URL + "/cal.ics"}, auth)
	if r.Status != http.StatusCreated || r.data(t)["last_error"] != nil || num(r.data(t), "events_imported") != "1" {
		t.Fatalf("a feed on the allowed host:port: %d %s, want it created and its event imported", r.Status, r.Raw)
	}
	r = call(t, http.MethodPost, api+"/webhooks", map[string]any{"url": receiver.URL + "/hook"}, auth)
	if r.Status != http.StatusCreated {
		t.Fatalf("a webhook on the allowed host:port: %d %s", r.Status, r.Raw)
	}

	const private, https = "private network or to the server itself", "Enter the https:// address"
	tests := []struct {
		path, url, want string
	}{
		{feeds, strings.Replace(feed.URL, "http://127.0.0.1", "https://localhost", 1) + "/cal.ics", private},
		{feeds, strings.Replace(feed.URL, "127.0.0.1", "localhost", 1) + "/cal.ics", https},
		{feeds, "https://10.0.0.5/cal.ics", private},
		{feeds, "http://calendar.example.com/cal.ics", https},
		{api + "/webhooks", "http://127.0.0.1:9/hook", https},
		{api + "/webhooks", "https://[::ffff:169.254.169.254]/latest", private},
	}
	en := map[string]string{"Accept-Language": "en", "Authorization": auth["Authorization"]}
	for _, tt := range tests {
		body := map[string]any{"url": tt.url}
		if tt.path == feeds {
			body["name"] = "X"
		}
		r := call(t, http.MethodPost, tt.path, body, en)
		errs, _ := r.Body["errors"].(map[string]any)
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(fmt.Sprint(errs["url"]), tt.want) {
			t.Errorf("POST %s %s: %d %s; want 422 saying %q", strings.TrimPrefix(tt.path, api), tt.url, r.Status, r.Raw, tt.want)
		}
	}
	if _, err := serverenv.Parse([]string{"-outbound-allow", "127.0.0.1"}, func(string) string { return "" }, &bytes.Buffer{}); err == nil ||
		!strings.Contains(err.Error(), "-outbound-allow") {
		t.Errorf("-outbound-allow without a port: %v, want refused", err)
	}
}
