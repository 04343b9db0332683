package httpapi_test

import (
	"net/http"
	"testing"
)

// TestConditionalGets: the public read routes carry an ETag and their
// Cache-Control; sending the ETag back gets 304 without a body; guest
// data is never cacheable.
func TestConditionalGets(t *testing.T) {
	e := newTestEnv(t)
	for _, tt := range []struct {
		path, cacheControl string
	}{
		{villa, "public, max-age=60"},
		{villa + "/properties", "public, max-age=60"},
		{villa + "/properties/{soleil}/availability", "no-cache"},
		{"/api/v1/openapi.json", "public, max-age=300"},
	} {
		path := e.expand(tt.path)
		first := e.do(call{method: http.MethodGet, path: path})
		etag := first.Header.Get("ETag")
		if first.Status != 200 || etag == "" || first.Header.Get("Cache-Control") != tt.cacheControl {
			t.Fatalf("GET %s: %d ETag %q Cache-Control %q, want 200 with an ETag and %q", tt.path, first.Status, etag,
				first.Header.Get("Cache-Control"), tt.cacheControl)
		}
		again := e.do(call{method: http.MethodGet, path: path, header: map[string]string{"If-None-Match": etag}})
		if again.Status != http.StatusNotModified || len(again.Body) != 0 || again.Header.Get("ETag") != etag {
			t.Errorf("GET %s with its ETag: %d, %d bytes, ETag %q; want 304, no body, the same ETag", tt.path, again.Status, len(again.Body), again.Header.Get("ETag"))
		}
		other := e.do(call{method: http.MethodGet, path: path, header: map[string]string{"If-None-Match": `"stale", W/"older"`}})
		if other.Status != 200 || len(other.Body) == 0 {
			t.Errorf("GET %s with another ETag: %d, want 200 with the body", tt.path, other.Status)
		}
	}
}

// TestETagChangesWithData: after a booking takes nights, the calendar's
// old ETag no longer gets a 304.
func TestETagChangesWithData(t *testing.T) {
	e := newTestEnv(t)
	path := e.expand(villa + "/properties/{cabane}/availability?from=2026-06&months=1")
	before := e.do(call{method: http.MethodGet, path: path})
	etag := before.Header.Get("ETag")
	co := e.do(call{method: http.MethodPost, path: e.expand(villa + "/checkout"), body: checkoutBody(e.Props["cabane"], "2026-06-10", "2026-06-12")})
	if co.Status != http.StatusCreated {
		t.Fatalf("checkout: %d %s", co.Status, co.Body)
	}
	if co.Header.Get("Cache-Control") != "no-store" || co.Header.Get("ETag") != "" {
		t.Errorf("checkout: Cache-Control %q, ETag %q; guest data must be no-store without ETag", co.Header.Get("Cache-Control"), co.Header.Get("ETag"))
	}
	after := e.do(call{method: http.MethodGet, path: path, header: map[string]string{"If-None-Match": etag}})
	if after.Status != 200 || after.Header.Get("ETag") == etag {
		t.Errorf("calendar after a checkout: %d, ETag %q (was %q); want 200 and a new ETag", after.Status, after.Header.Get("ETag"), etag)
	}
}

// TestOneOrganizationLookupPerRequest: the origin check, the operation and
// the error's language share one lookup of the organisation.
func TestOneOrganizationLookupPerRequest(t *testing.T) {
	e := newTestEnv(t)
	origin := map[string]string{"Origin": "https://villa-soleil.fr"}
	for _, c := range []call{
		{method: http.MethodGet, path: villa, header: origin},
		{method: http.MethodGet, path: villa + "/properties", header: origin},
		{method: http.MethodGet, path: villa + "/properties/{soleil}/availability", header: origin},
		{method: http.MethodGet, path: villa + "/properties/{soleil}/price?" + stayQuery + "&coupon_code=WELCOME10", header: origin},
		{method: http.MethodGet, path: villa + "/properties/{soleil}/price?" + stayQuery + "&coupon_code=NOPE", header: origin},
		{method: http.MethodPost, path: villa + "/checkout", header: origin, body: checkoutBody(0, "2026-06-10", "2026-06-12")},
	} {
		before := e.Store.orgLookups.Load()
		c.path, c.body = e.expand(c.path), e.expand(c.body)
		r := e.do(c)
		if n := e.Store.orgLookups.Load() - before; n != 1 {
			t.Errorf("%s %s (%d): %d organisation lookups, want 1", c.method, c.path, r.Status, n)
		}
	}
}
