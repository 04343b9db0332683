package httpapi_test

import (
	"strings"
	"testing"
)

func TestOriginRules(t *testing.T) {
	tests := []struct {
		origin string
		slug   string
		want   bool
	}{
		{"https://villa-soleil.fr", "villa", true},
		{"https://www.villa-soleil.fr", "villa", true},
		{"https://WWW.Villa-Soleil.FR", "villa", true},
		{"http://villa-soleil.fr", "villa", false},
		{"https://shop.villa-soleil.fr", "villa", false},
		{"https://villa-soleil.fr:8443", "villa", false},
		{"https://villa-soleil.fr.evil.com", "villa", false},
		{"https://partner.example.com", "villa", true},
		{"https://partner.example.com", "other-org", false},
		{"https://villa-soleil.fr", "other-org", false},
		{"https://x.staykit.app", "villa", true},
		{"https://x.staykit.app", "other-org", true},
		{"https://a.b.staykit.app", "villa", true},
		{"https://X.STAYKIT.APP", "villa", true},
		{"https://staykit.app", "villa", false},
		{"https://evilstaykit.app", "villa", false},
		{"https://staykit.app.evil.com", "villa", false},
		{"https://x.staykit.app.evil.com", "villa", false},
		{"https://x.staykit.app:8443", "villa", false},
		{"https://x.staykit.app:443", "villa", false},
		{"http://x.staykit.app", "villa", false},
		{"https://.staykit.app", "villa", false},
		{"https://x..staykit.app", "villa", false},
		{"https://user@x.staykit.app", "villa", false},
		{"https://x.staykit.app/path", "villa", false},
		{"https://my-branch-abc.vercel.app", "villa", true},
		{"https://vercel.app", "villa", false},
		{"https://notvercel.app", "villa", false},
		{"http://127.0.0.1:8080", "villa", true},
		{"http://127.0.0.1:8080", "other-org", true},
		{"http://127.0.0.1:8081", "villa", false},
		{"null", "villa", false},
		{"", "villa", false},
		{evilOrigin, "villa", false},
	}
	e := newTestEnv(t)
	for _, tt := range tests {
		r := e.do(call{method: "GET", path: "/api/v1/book/" + tt.slug, header: map[string]string{"Origin": tt.origin}})
		checkV1Headers(t, tt.origin, r)
		if !strings.Contains(r.Header.Get("Vary"), "Origin") {
			t.Errorf("%s for %s: Vary = %q, want Origin", tt.origin, tt.slug, r.Header.Get("Vary"))
		}
		acao := r.Header.Get("Access-Control-Allow-Origin")
		if tt.want {
			if r.Status != 200 || acao != tt.origin {
				t.Errorf("%s for %s: %d, Access-Control-Allow-Origin %q; want 200 echoing the origin", tt.origin, tt.slug, r.Status, acao)
			}
			if got := r.Header.Get("Access-Control-Expose-Headers"); !strings.Contains(got, "X-Request-Id") || !strings.Contains(got, "Retry-After") {
				t.Errorf("%s: Access-Control-Expose-Headers = %q", tt.origin, got)
			}
			if r.Header.Get("Access-Control-Allow-Credentials") != "" {
				t.Errorf("%s: credentials allowed", tt.origin)
			}
		} else if r.Status != 403 || r.Env.Code != "origin_not_allowed" || acao != "" {
			t.Errorf("%s for %s: %d %s, Access-Control-Allow-Origin %q; want 403 origin_not_allowed", tt.origin, tt.slug, r.Status, r.Env.Code, acao)
		}
	}
}

func TestNoOriginIsServed(t *testing.T) {
	e := newTestEnv(t)
	r := e.do(call{method: "GET", path: villa})
	if r.Status != 200 || r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("%d, ACAO %q; want 200 without CORS headers", r.Status, r.Header.Get("Access-Control-Allow-Origin"))
	}
}

func TestOriginOfUnknownOrganization(t *testing.T) {
	e := newTestEnv(t)
	r := e.do(call{method: "GET", path: "/api/v1/book/nobody", header: map[string]string{"Origin": evilOrigin}})
	if r.Status != 404 {
		t.Errorf("status = %d, want 404", r.Status)
	}
}

func TestPreflight(t *testing.T) {
	tests := []struct {
		name       string
		path       string
		origin     string
		method     string
		headers    string
		wantStatus int
		wantAllow  bool
	}{
		{"allowed origin, checkout", villa + "/checkout", "https://villa-soleil.fr", "POST", "content-type,idempotency-key", 204, true},
		{"allowed origin, confirm", villa + "/booking/abc/confirm", "https://x.staykit.app", "POST", "content-type", 204, true},
		{"allowed origin, properties", villa + "/properties", "https://villa-soleil.fr", "GET", "accept-language", 204, true},
		{"header not allowed", villa + "/checkout", "https://villa-soleil.fr", "POST", "x-secret", 204, false},
		{"method not allowed", villa + "/checkout", "https://villa-soleil.fr", "DELETE", "", 204, false},
		{"disallowed origin", villa + "/checkout", evilOrigin, "POST", "content-type", 403, false},
		{"unknown organisation", "/api/v1/book/nobody/checkout", evilOrigin, "POST", "content-type", 404, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			h := map[string]string{"Origin": tt.origin, "Access-Control-Request-Method": tt.method}
			if tt.headers != "" {
				h["Access-Control-Request-Headers"] = tt.headers
			}
			r := e.do(call{method: "OPTIONS", path: tt.path, header: h})
			checkV1Headers(t, tt.name, r)
			if r.Status != tt.wantStatus {
				t.Fatalf("status = %d, want %d\n%s", r.Status, tt.wantStatus, r.Body)
			}
			acao := r.Header.Get("Access-Control-Allow-Origin")
			if tt.wantAllow != (acao == tt.origin) {
				t.Errorf("Access-Control-Allow-Origin = %q, want allowed %v", acao, tt.wantAllow)
			}
			if tt.wantAllow && r.Header.Get("Access-Control-Allow-Methods") != tt.method {
				t.Errorf("Access-Control-Allow-Methods = %q", r.Header.Get("Access-Control-Allow-Methods"))
			}
			if tt.wantStatus == 204 && len(r.Body) != 0 {
				t.Errorf("preflight has a body: %s", r.Body)
			}
			if tt.wantStatus == 403 && r.Env.Code != "origin_not_allowed" {
				t.Errorf("code = %q", r.Env.Code)
			}
		})
	}
}

func TestPlainOptions(t *testing.T) {
	e := newTestEnv(t)
	r := e.do(call{method: "OPTIONS", path: villa + "/checkout"})
	checkV1Headers(t, "OPTIONS", r)
	if r.Status != 204 || r.Header.Get("Allow") != "POST, OPTIONS" {
		t.Errorf("%d, Allow %q; want 204 with Allow", r.Status, r.Header.Get("Allow"))
	}
}
