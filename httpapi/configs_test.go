package httpapi_test

import (
	"context"
	"strings"
	"testing"
)

// TestConfigShowsEveryChange: the configuration is encoded once and kept,
// yet an organisation's change shows on the next request, with another
// ETag; the same configuration keeps its ETag and answers 304 to it.
func TestConfigShowsEveryChange(t *testing.T) {
	ctx := context.Background()
	e := newTestEnv(t)
	get := func(header map[string]string) response {
		t.Helper()
		return do(t, e.Handler, call{method: "GET", path: "/api/v1/book/villa", header: header})
	}
	first := get(nil)
	if first.Status != 200 {
		t.Fatalf("config: %d %s", first.Status, first.Body)
	}
	tag := first.Header.Get("ETag")
	if again := get(nil); again.Header.Get("ETag") != tag || string(again.Body) != string(first.Body) {
		t.Fatalf("the same configuration answered differently:\n%s %s\n%s %s", tag, first.Body, again.Header.Get("ETag"), again.Body)
	}
	if r := get(map[string]string{"If-None-Match": tag}); r.Status != 304 {
		t.Errorf("If-None-Match of the kept ETag: %d, want 304", r.Status)
	}

	org, err := e.Store.OrganizationBySlug(ctx, "villa")
	if err != nil {
		t.Fatal(err)
	}
	org.Name = "Villa Rose"
	org.Branding = map[string]string{"primary_color": "#aa3366"}
	if err := e.Store.UpdateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	after := get(map[string]string{"If-None-Match": tag})
	if after.Status != 200 || after.Header.Get("ETag") == tag {
		t.Fatalf("after the change: %d, ETag %s (was %s)", after.Status, after.Header.Get("ETag"), tag)
	}
	for _, want := range []string{`"name":"Villa Rose"`, `"primary_color":"#aa3366"`} {
		if !strings.Contains(string(after.Body), want) {
			t.Errorf("after the change the configuration lacks %s: %s", want, after.Body)
		}
	}
}
