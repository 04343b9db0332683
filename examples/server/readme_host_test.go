package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEHostAPI runs the README's host API example: a key from the
// apikey command, then its two curl calls as written.
func TestREADMEHostAPI(t *testing.T) {
	keys := readmeBlock(t, "Create a key (printed once")
	if !strings.Contains(keys, `apikey create -org demo -name "my PMS"`) {
		t.Fatalf("the README creates no key:\n%s", keys)
	}
	block := readmeBlock(t, "Then, with the key in `$KEY`")
	ts := startServer(t, nil)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"apikey", "create", "-org", "demo", "-name", "my PMS", "-db", ts.dbPath}, func(string) string { return "" }, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	auth := map[string]string{"Authorization": "Bearer " + lines[len(lines)-1]}
	base := strings.NewReplacer("http://127.0.0.1:8080", ts.URL)

	m := regexp.MustCompile(`curl -s -H "Authorization: Bearer \$KEY" "([^"]+)"`).FindStringSubmatch(block)
	if m == nil {
		t.Fatalf("no GET in the README's host API example:\n%s", block)
	}
	if r := call(t, "GET", base.Replace(m[1]), nil, auth); r.Status != http.StatusOK {
		t.Errorf("GET %s: %d %s", m[1], r.Status, r.Raw)
	}
	m = regexp.MustCompile(`(?s)-H "Idempotency-Key: ([^"]+)".*?-d '([^']+)'.*?(http://\S+)`).FindStringSubmatch(block)
	if m == nil {
		t.Fatalf("no calendar POST in the README's host API example:\n%s", block)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(m[2]), &body); err != nil {
		t.Fatalf("body %s: %v", m[2], err)
	}
	auth["Idempotency-Key"] = m[1]
	r := call(t, "POST", base.Replace(m[3]), body, auth)
	if r.Status != http.StatusOK {
		t.Fatalf("POST %s: %d %s", m[3], r.Status, r.Raw)
	}
	days, _ := r.data(t)["days"].([]any)
	if len(days) != 3 || days[0].(map[string]any)["closed"] != true {
		t.Errorf("calendar after the README's POST: %s", r.Raw)
	}
}
