package httpapi

import (
	"strings"
	"testing"
)

// TestQuotesBounded: the quotes kept stay under their bound, their keys'
// bytes counted (a long query takes room); the least recently asked go
// first.
func TestQuotesBounded(t *testing.T) {
	body := &keptBody{body: []byte(strings.Repeat("q", 1000))}
	short := quoteKey{org: 1, property: 1, query: "a"}
	one := (&kept[quoteKey]{b: body, version: "v", extra: short.keyBytes()}).size()
	q := quotes{max: 10 * one}
	for i := range 10 {
		q.put(quoteKey{org: 1, property: int64(i), query: "a"}, "v", body)
	}
	if q.len() != 10 || q.bytes != 10*one {
		t.Fatalf("%d quotes, %d bytes, want 10 and %d", q.len(), q.bytes, 10*one)
	}
	// A key of a long query counts its bytes: 3 of the small ones go.
	long := quoteKey{org: 1, property: 99, query: strings.Repeat("x", 2*one-10), acceptLanguage: "fr"}
	q.put(long, "v", body)
	if q.bytes > q.max || q.len() != 8 {
		t.Fatalf("after a long key: %d quotes, %d bytes (max %d), want 8 within the bound", q.len(), q.bytes, q.max)
	}
	if _, ok := q.get(long, "v"); !ok {
		t.Fatal("the quote just kept is not served")
	}
	if _, ok := q.get(quoteKey{org: 1, property: 0, query: "a"}, "v"); ok {
		t.Fatal("the least recently asked quote is still kept")
	}
	if _, ok := q.get(long, "w"); ok {
		t.Fatal("a quote of another version is served")
	}
}
