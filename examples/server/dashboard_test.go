package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/staykit/staykit/hostweb"
)

// newHostUser creates a dashboard user of org from the command line.
func newHostUser(t *testing.T, ts *testServer, org, email, password string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := func(k string) string {
		if k == "STAYKIT_PASSWORD" {
			return password
		}
		return ""
	}
	if err := run(context.Background(), []string{"user", "create", "-org", org, "-email", email, "-db", ts.dbPath}, env, &out, &errOut); err != nil {
		t.Fatalf("user create: %v\n%s", err, errOut.String())
	}
}

// client is a browser-like HTTP client with cookies that does not follow
// redirects.
func newClient(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func send(t *testing.T, c *http.Client, method, u string, body io.Reader, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func login(t *testing.T, c *http.Client, ts *testServer, email, password string) *http.Response {
	t.Helper()
	form := url.Values{"email": {email}, "password": {password}}
	res, _ := send(t, c, "POST", ts.URL+"/host/login?lang=en", strings.NewReader(form.Encode()),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": ts.URL, "Sec-Fetch-Site": "same-origin"})
	return res
}

func TestDashboardLoginSessionAndCSRF(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo-request", "host@example.com", "a long enough password")
	c := newClient(t)

	res, _ := send(t, c, "GET", ts.URL+"/host/", nil, nil)
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/host/login") {
		t.Fatalf("/host/ signed out: %d %s, want a redirect to the login page", res.StatusCode, res.Header.Get("Location"))
	}
	if res := login(t, c, ts, "host@example.com", "wrong password!"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong password: %d, want 401", res.StatusCode)
	}
	if res := login(t, c, ts, "nobody@example.com", "a long enough password"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("unknown user: %d, want 401", res.StatusCode)
	}
	res = login(t, c, ts, "HOST@example.com", "a long enough password")
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %d, want 303", res.StatusCode)
	}
	var cookie *http.Cookie
	for _, ck := range res.Cookies() {
		if ck.Name == hostweb.SessionCookie {
			cookie = ck
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("session cookie = %+v, want HttpOnly and SameSite=Strict", cookie)
	}
	res, page := send(t, c, "GET", ts.URL+"/host/", nil, nil)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, `data-org="demo-request"`) {
		t.Fatalf("/host/ signed in: %d %s", res.StatusCode, page)
	}
	// The session opens the host API of its organisation only.
	if res, body := send(t, c, "GET", ts.URL+"/api/v1/host/demo-request/settings", nil, nil); res.StatusCode != http.StatusOK {
		t.Errorf("host API with the session: %d %s", res.StatusCode, body)
	}
	if res, _ := send(t, c, "GET", ts.URL+"/api/v1/host/demo/settings", nil, nil); res.StatusCode != http.StatusForbidden {
		t.Errorf("another organisation with the session: %d, want 403", res.StatusCode)
	}
	// A same-origin change goes through; a cross-site one is refused.
	patch := `{"name":"Renamed"}`
	if res, body := send(t, c, "PATCH", ts.URL+"/api/v1/host/demo-request/settings", strings.NewReader(patch),
		map[string]string{"Content-Type": "application/json", "Origin": ts.URL, "Sec-Fetch-Site": "same-origin"}); res.StatusCode != http.StatusOK {
		t.Errorf("same-origin PATCH: %d %s", res.StatusCode, body)
	}
	for _, h := range []map[string]string{
		{"Content-Type": "application/json", "Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
		{"Content-Type": "application/json", "Origin": "https://evil.example"},
	} {
		res, body := send(t, c, "PATCH", ts.URL+"/api/v1/host/demo-request/settings", strings.NewReader(`{"name":"Pwned"}`), h)
		if res.StatusCode != http.StatusForbidden || !strings.Contains(body, `"code":"forbidden"`) || res.Header.Get("X-Service-API-Version") != "v1" {
			t.Errorf("cross-site PATCH %v: %d %s, want the API's 403 envelope", h, res.StatusCode, body)
		}
	}
	if res, _ := send(t, c, "POST", ts.URL+"/host/logout", nil, map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}); res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site logout: %d, want 403", res.StatusCode)
	}
	_, body := send(t, c, "GET", ts.URL+"/api/v1/host/demo-request/settings", nil, nil)
	if !strings.Contains(body, `"name":"Renamed"`) {
		t.Errorf("settings after the forged requests: %s", body)
	}
	// Logging out ends the session on the server.
	if res, _ := send(t, c, "POST", ts.URL+"/host/logout", nil, map[string]string{"Origin": ts.URL, "Sec-Fetch-Site": "same-origin"}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("logout: %d", res.StatusCode)
	}
	replay := &http.Client{}
	req, _ := http.NewRequest("GET", ts.URL+"/api/v1/host/demo-request/settings", nil)
	req.AddCookie(cookie)
	if res, err := replay.Do(req); err != nil || res.StatusCode != http.StatusUnauthorized {
		t.Errorf("old cookie after logout: %v %v, want 401", res.StatusCode, err)
	}
}

func TestDashboardLoginThrottled(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	c := newClient(t)
	for range hostweb.LoginFailures {
		login(t, c, ts, "host@example.com", "wrong password!")
	}
	res := login(t, c, ts, "host@example.com", "a long enough password")
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Errorf("login after %d failures from the address: %d (Retry-After %q), want 429 with Retry-After",
			hostweb.LoginFailures, res.StatusCode, res.Header.Get("Retry-After"))
	}
}

// loginFrom signs in from a client address (the server believes the
// X-Forwarded-For of its loopback proxy) and returns the status.
func loginFrom(t *testing.T, ts *testServer, addr, email, password string) int {
	t.Helper()
	form := url.Values{"email": {email}, "password": {password}}
	res, _ := send(t, newClient(t), "POST", ts.URL+"/host/login?lang=en", strings.NewReader(form.Encode()),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": ts.URL, "Sec-Fetch-Site": "same-origin",
			"X-Forwarded-For": addr})
	return res.StatusCode
}

// TestDashboardLoginNotLockedOut: failures on a host's e-mail address,
// from any number of addresses, never refuse the right password from an
// address that has not failed, while each failing address stays limited.
func TestDashboardLoginNotLockedOut(t *testing.T) {
	ts := startServer(t, nil, "-trusted-proxies", "127.0.0.1/32")
	const email, password = "host@example.com", "a long enough password"
	newHostUser(t, ts, "demo", email, password)
	for i := range hostweb.LoginFailures {
		if got := loginFrom(t, ts, "203.0.113.1", email, "wrong password!"); got != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d, want 401", i+1, got)
		}
	}
	// The first address has used its failures.
	if got := loginFrom(t, ts, "203.0.113.1", email, "wrong password!"); got != http.StatusTooManyRequests {
		t.Errorf("another failure from the first address: %d, want 429", got)
	}
	// The e-mail address has had its failures: another address gets a
	// couple of tries on it, no more.
	for i := range hostweb.GuardedFailures {
		if got := loginFrom(t, ts, "203.0.113.2", email, "wrong password!"); got != http.StatusUnauthorized {
			t.Errorf("guess %d from a second address: %d, want 401", i+1, got)
		}
	}
	if got := loginFrom(t, ts, "203.0.113.2", email, "wrong password!"); got != http.StatusTooManyRequests {
		t.Errorf("guess %d from the second address: %d, want 429", hostweb.GuardedFailures+1, got)
	}
	// The host, from an address of their own, signs in.
	if got := loginFrom(t, ts, "198.51.100.7", email, password); got != http.StatusSeeOther {
		t.Errorf("right password from a new address after %d failures: %d, want 303", hostweb.LoginFailures+hostweb.GuardedFailures, got)
	}
}
