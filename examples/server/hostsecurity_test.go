package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// newAPIKey creates a host API key of org from the command line and
// returns its secret.
func newAPIKey(t *testing.T, ts *testServer, org string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"apikey", "create", "-org", org, "-name", "test", "-db", ts.dbPath},
		func(string) string { return "" }, &out, &errOut); err != nil {
		t.Fatalf("apikey create: %v\n%s", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	return lines[len(lines)-1]
}

// rawRequest sends a request with the headers as given, repeated ones
// included, and a Host of its own when host is not empty.
func rawRequest(t *testing.T, method, u, host string, header http.Header, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	if host != "" {
		req.Host = host
	}
	res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// TestExportURLNotFromHostHeader: without -public-url the calendar export
// URL is on the listen address, whatever Host the request names.
func TestExportURLNotFromHostHeader(t *testing.T) {
	ts := startServer(t, nil)
	key := newAPIKey(t, ts, "demo")
	path := fmt.Sprintf("%s/api/v1/host/demo/properties/%d/ical", ts.URL, propertyIDs(t, ts, "demo")[0])
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		u := path
		if method == http.MethodPost {
			u += "/rotate"
		}
		res, body := rawRequest(t, method, u, "evil.example", http.Header{"Authorization": {"Bearer " + key}}, "")
		var env struct {
			Data struct {
				URL string `json:"url"`
			} `json:"data"`
		}
		json.Unmarshal([]byte(body), &env)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(env.Data.URL, ts.URL+"/ical/") {
			t.Errorf("%s export URL with Host evil.example: %d %s, want a URL on %s", method, res.StatusCode, body, ts.URL)
		}
	}
}

// TestHostSideRefusesTwoOrigins: a request with two Origin headers is
// refused on the host API and the dashboard, as the public API does,
// even when the first one is the server's own; and a cross-origin
// refusal says so.
func TestHostSideRefusesTwoOrigins(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	key := newAPIKey(t, ts, "demo")
	settings := ts.URL + "/api/v1/host/demo/settings"
	two := http.Header{"Origin": {ts.URL, "https://evil.example"}, "Content-Type": {"application/json"}, "Accept-Language": {"en"}}

	res, body := rawRequest(t, http.MethodPatch, settings, "", two.Clone(), `{"name":"Pwned"}`)
	if res.StatusCode != http.StatusForbidden || !strings.Contains(body, `"code":"forbidden"`) {
		t.Errorf("host API PATCH with two Origin headers: %d %s, want the API's 403", res.StatusCode, body)
	}
	withKey := two.Clone()
	withKey.Set("Authorization", "Bearer "+key)
	withKey["Origin"] = two["Origin"]
	if res, body := rawRequest(t, http.MethodGet, settings, "", withKey, ""); res.StatusCode != http.StatusForbidden {
		t.Errorf("host API GET with two Origin headers: %d %s, want 403", res.StatusCode, body)
	}
	form := url.Values{"email": {"host@example.com"}, "password": {"a long enough password"}}.Encode()
	loginHeader := http.Header{"Origin": {ts.URL, "https://evil.example"}, "Content-Type": {"application/x-www-form-urlencoded"}}
	if res, body := rawRequest(t, http.MethodPost, ts.URL+"/host/login", "", loginHeader, form); res.StatusCode != http.StatusForbidden {
		t.Errorf("dashboard login with two Origin headers: %d %s, want 403", res.StatusCode, body)
	}
	// One Origin, the server's own: the login goes through.
	loginHeader["Origin"] = []string{ts.URL}
	if res, body := rawRequest(t, http.MethodPost, ts.URL+"/host/login", "", loginHeader, form); res.StatusCode != http.StatusSeeOther {
		t.Errorf("dashboard login from the server's origin: %d %s, want 303", res.StatusCode, body)
	}

	cross := http.Header{"Origin": {"https://evil.example"}, "Sec-Fetch-Site": {"cross-site"}, "Content-Type": {"application/json"},
		"Accept-Language": {"en"}, "Authorization": {"Bearer " + key}}
	res, body = rawRequest(t, http.MethodPatch, settings, "", cross, `{"name":"Pwned"}`)
	if res.StatusCode != http.StatusForbidden || !strings.Contains(body, "Cross-origin request refused") || strings.Contains(body, "does not give access") {
		t.Errorf("cross-site PATCH: %d %s, want 403 saying the cross-origin request is refused", res.StatusCode, body)
	}
	if r := call(t, http.MethodGet, settings, nil, map[string]string{"Authorization": "Bearer " + key}); str(r.data(t), "name") == "Pwned" {
		t.Error("a refused request renamed the organisation")
	}
}

// TestSeededPropertyEditable: a property of the demo seed, whose photos
// are paths on this server ("/img/…"), can be edited over the host API
// (as the dashboard does, sending its photos back).
func TestSeededPropertyEditable(t *testing.T) {
	ts := startServer(t, nil)
	key := newAPIKey(t, ts, "demo")
	auth := map[string]string{"Authorization": "Bearer " + key}
	prop := fmt.Sprintf("%s/api/v1/host/demo/properties/%d", ts.URL, propertyIDs(t, ts, "demo")[0])
	before := call(t, http.MethodGet, prop, nil, auth).data(t)
	photos, _ := before["photos"].([]any)
	if len(photos) == 0 || !strings.HasPrefix(photos[0].(string), "/") {
		t.Fatalf("seeded photos %v, want paths on the server", before["photos"])
	}
	r := call(t, http.MethodPatch, prop, map[string]any{"description": "Edited.", "photos": photos}, auth)
	if r.Status != http.StatusOK || str(r.data(t), "description") != "Edited." {
		t.Fatalf("PATCH a seeded property: %d %s", r.Status, r.Raw)
	}
	for _, bad := range []string{"//evil.example/x.jpg", "javascript:alert(1)", "/img/a b.jpg", `/img\x.jpg`} {
		if r := call(t, http.MethodPatch, prop, map[string]any{"photos": []string{bad}}, auth); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("photo %q: %d %s, want 422", bad, r.Status, r.Raw)
		}
	}
}
