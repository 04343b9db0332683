package httpapi_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMountedOnHostMux mounts the handler beside a host's own routes, at
// /api/ and under a prefix through http.StripPrefix, over a real server.
func TestMountedOnHostMux(t *testing.T) {
	e := newTestEnv(t)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "host ok") })
	mux.Handle("/api/", e.Handler)
	mux.Handle("/staykit/", http.StripPrefix("/staykit", e.Handler))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	get := func(path string) (*http.Response, string) {
		t.Helper()
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if inner, ok := strings.CutPrefix(path, "/staykit"); ok || strings.HasPrefix(path, "/api/") {
			// What the handler saw, checked against the OpenAPI document.
			checkContract(t, exchange{method: "GET", path: inner, header: http.Header{}, status: res.StatusCode,
				respHeader: res.Header, respBody: b})
		}
		return res, string(b)
	}
	tests := []struct {
		path       string
		wantStatus int
		wantBody   string
		wantV1     bool
	}{
		{"/healthz", 200, "host ok", false},
		{"/api/v1/book/villa", 200, `"slug":"villa"`, true},
		{"/api/v1/book/villa/booking/" + e.Tokens["pending"], 200, `"status":"pending"`, true},
		{"/api/v1/unknown", 404, `"code":"not_found"`, true},
		{"/staykit/api/v1/book/villa/properties", 200, `"name":"Soleil"`, true},
		{"/staykit/api/v1/unknown", 404, `"code":"not_found"`, true},
		{"/staykit/api/v1/book/villa/checkout", 405, `"code":"method_not_allowed"`, true},
	}
	for _, tt := range tests {
		res, body := get(tt.path)
		if res.StatusCode != tt.wantStatus || !strings.Contains(body, tt.wantBody) {
			t.Errorf("GET %s: %d %s; want %d with %s", tt.path, res.StatusCode, body, tt.wantStatus, tt.wantBody)
		}
		if got := res.Header.Get("X-Service-API-Version") == "v1"; got != tt.wantV1 {
			t.Errorf("GET %s: v1 header present %v, want %v", tt.path, got, tt.wantV1)
		}
	}
	// A POST through the prefix works too.
	res, err := http.Post(srv.URL+"/staykit/api/v1/book/villa/checkout", "application/json", strings.NewReader(soleilCheckout(e)))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Errorf("POST checkout under the prefix: %d, want 201", res.StatusCode)
	}
}
