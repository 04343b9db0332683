package main

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEReports runs the README's report calls as written: the
// monthly figures as JSON, the taxes as CSV.
func TestREADMEReports(t *testing.T) {
	block := readmeBlock(t, "**Reports.**")
	calls := regexp.MustCompile(`curl -s -H "Authorization: Bearer \$KEY"((?: -H "[^"]+")*) "([^"]+)"`).FindAllStringSubmatch(block, -1)
	if len(calls) != 2 {
		t.Fatalf("README's report calls = %d, want 2:\n%s", len(calls), block)
	}
	ts := startServer(t, nil)
	auth := hostKey(t, ts, "demo")
	for i, c := range calls {
		header := map[string]string{"Authorization": auth["Authorization"]}
		for _, h := range regexp.MustCompile(`-H "([^:]+): ([^"]+)"`).FindAllStringSubmatch(c[1], -1) {
			header[h[1]] = h[2]
		}
		r := call(t, "GET", strings.Replace(c[2], "http://127.0.0.1:8080", ts.URL, 1), nil, header)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", c[2], r.Status, r.Raw)
		}
		switch i {
		case 0:
			if months, _ := r.data(t)["months"].([]any); len(months) != 6 {
				t.Errorf("monthly report of the README: %d months, want 6: %s", len(months), r.Raw)
			}
		case 1:
			if !strings.HasPrefix(r.Raw, "month,property_id,property,tax,label,inclusive,amount,currency\n") ||
				!strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
				t.Errorf("taxes of the README: %s %q, want CSV", r.Header.Get("Content-Type"), r.Raw)
			}
		}
	}
}
