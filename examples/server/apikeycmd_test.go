package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
)

// TestAPIKeyCommands creates a key from the command line, uses it on the
// running server's host API, lists it and revokes it.
func TestAPIKeyCommands(t *testing.T) {
	ts := startServer(t, nil)
	env := func(string) string { return "" }
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"apikey", "create", "-org", "demo", "-name", "pms", "-db", ts.dbPath}, env, &out, &errOut); err != nil {
		t.Fatalf("apikey create: %v\n%s", err, errOut.String())
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	key := lines[len(lines)-1]
	if !strings.HasPrefix(key, "sk_host_") || strings.ContainsAny(key, " \t") {
		t.Fatalf("last line %q is not the key alone", key)
	}
	auth := map[string]string{"Authorization": "Bearer " + key}
	r := call(t, "GET", ts.URL+"/api/v1/host/demo/settings", nil, auth)
	if r.Status != http.StatusOK || str(r.data(t), "slug") != "demo" {
		t.Fatalf("GET settings with the new key: %d %s", r.Status, r.Raw)
	}
	if r := call(t, "GET", ts.URL+"/api/v1/host/demo-deposit/settings", nil, auth); r.Status != http.StatusForbidden {
		t.Errorf("another organisation's settings: %d, want 403", r.Status)
	}

	out.Reset()
	if err := run(context.Background(), []string{"apikey", "list", "-org", "demo", "-db", ts.dbPath}, env, &out, &errOut); err != nil {
		t.Fatalf("apikey list: %v", err)
	}
	if !strings.Contains(out.String(), "pms") || strings.Contains(out.String(), key) {
		t.Errorf("list = %q, want the key's name and not its secret", out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"apikey", "revoke", "-org", "demo", "-id", "1", "-db", ts.dbPath}, env, &out, &errOut); err != nil {
		t.Fatalf("apikey revoke: %v", err)
	}
	if r := call(t, "GET", ts.URL+"/api/v1/host/demo/settings", nil, auth); r.Status != http.StatusUnauthorized {
		t.Errorf("revoked key: %d, want 401", r.Status)
	}
	if err := run(context.Background(), []string{"apikey", "create", "-org", "demo", "-db", ts.dbPath}, env, &out, &bytes.Buffer{}); err != errUsage {
		t.Errorf("create without -name: %v, want usage", err)
	}
}
