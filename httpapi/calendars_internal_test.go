package httpapi

import (
	"strings"
	"testing"
)

// TestCalendarsBounded: the calendars kept stay under their bound in
// bytes, the least recently asked forgotten first, and a calendar of
// another version is not served.
func TestCalendarsBounded(t *testing.T) {
	body := func(c byte) *keptBody { return &keptBody{body: []byte(strings.Repeat(string(c), 1000)), etag: `"x"`} }
	one := (&kept[calendarKey]{version: "v1", b: body('a')}).size()
	c := calendars{max: 3 * one}
	key := func(p int64) calendarKey { return calendarKey{org: 1, property: p, months: 12} }
	for p := int64(1); p <= 3; p++ {
		c.put(key(p), "v1", body('a'))
	}
	if _, ok := c.get(key(1), "v1"); !ok { // 1 is now the most recent
		t.Fatal("calendar 1 not kept")
	}
	c.put(key(4), "v1", body('b'))
	if c.len() != 3 || c.bytes > c.max {
		t.Fatalf("%d calendars, %d bytes kept, want 3 within %d", c.len(), c.bytes, c.max)
	}
	if _, ok := c.get(key(2), "v1"); ok {
		t.Error("calendar 2, the least recently asked, still kept")
	}
	for _, p := range []int64{1, 3, 4} {
		if _, ok := c.get(key(p), "v1"); !ok {
			t.Errorf("calendar %d forgotten", p)
		}
	}
	if _, ok := c.get(key(4), "v2"); ok {
		t.Error("calendar 4 served for another version")
	}
	c.put(key(4), "v2", body('c'))
	if b, ok := c.get(key(4), "v2"); !ok || b.body[0] != 'c' {
		t.Error("calendar 4 of version v2 not kept in place of v1")
	}
	if _, ok := c.get(key(4), "v1"); ok {
		t.Error("calendar 4 of version v1 still served")
	}
	if c.len() != 3 || c.bytes != 3*one {
		t.Errorf("%d calendars, %d bytes, want 3 and %d", c.len(), c.bytes, 3*one)
	}
}
