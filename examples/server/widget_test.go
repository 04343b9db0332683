package main

import (
	"io"
	"io/fs"
	"net/http"
	"strings"
	"testing"

	"github.com/staykit/staykit/bookingpage"
)

func TestWidgetScriptIsTheBookingPage(t *testing.T) {
	ts := startServer(t, nil)
	res, err := http.Get(ts.URL + "/widget.js")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	script := string(body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /widget.js = %d", res.StatusCode)
	}
	for h, want := range map[string]string{
		"Content-Type":                 "text/javascript; charset=utf-8",
		"Access-Control-Allow-Origin":  "*",
		"X-Content-Type-Options":       "nosniff",
		"Cross-Origin-Resource-Policy": "cross-origin",
	} {
		if got := res.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	sub := bookingpage.Files()
	// One flow: the page's files, verbatim, are in the widget.
	for _, name := range []string{"staykit-client.js", "app.js", "widget-element.js"} {
		src, err := fs.ReadFile(sub, name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(script, string(src)) {
			t.Errorf("/widget.js does not hold web/%s as it is", name)
		}
	}
	for _, want := range []string{`"payments":"fake"`, `step-properties`, `:host {`, `.sk-root {`, `customElements.define('staykit-booking'`} {
		if !strings.Contains(script, want) {
			t.Errorf("/widget.js has no %s", want)
		}
	}
	if strings.Contains(script, ":root {") {
		t.Error("/widget.js keeps a :root rule, which means nothing in a shadow root")
	}
}

func TestFakePayAnswersOtherOrigins(t *testing.T) {
	ts := startServer(t, nil)
	req, err := http.NewRequest(http.MethodOptions, ts.URL+"/fakepay/intents/pi_x", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", "http://localhost:3000")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "content-type")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent || res.Header.Get("Access-Control-Allow-Origin") != "*" ||
		res.Header.Get("Access-Control-Allow-Methods") != "POST" || !strings.EqualFold(res.Header.Get("Access-Control-Allow-Headers"), "content-type") {
		t.Errorf("preflight = %d %v, want 204 allowing POST with Content-Type from any origin", res.StatusCode, res.Header)
	}

	r := call(t, http.MethodPost, ts.URL+"/fakepay/intents/pi_unknown", map[string]string{"card_number": "4242424242424242"}, map[string]string{"Origin": "http://localhost:3000"})
	if r.Status != http.StatusNotFound || r.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("POST from another origin = %d, Access-Control-Allow-Origin %q; want 404 readable by the widget", r.Status, r.Header.Get("Access-Control-Allow-Origin"))
	}
	// The API keeps its own origin rules.
	r = call(t, http.MethodGet, ts.URL+"/api/v1/book/demo", nil, map[string]string{"Origin": "https://elsewhere.example"})
	if r.Status != http.StatusForbidden {
		t.Errorf("API from a refused origin = %d, want 403", r.Status)
	}
}
