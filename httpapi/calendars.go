package httpapi

import (
	"container/list"
	"sync"

	"github.com/staykit/staykit/civil"
)

// A property's availability is computed and encoded once per change of
// what it is computed from, not per request (issue #31): its bytes and
// their ETag are kept per organisation, property and calendar asked
// (?from=, ?months=) for the version booking.OrgService.AvailabilityVersion
// names — the read model's number of the property's rates, per-day
// calendar and holds, the next lapse of a pending hold, today, the
// same-day cutoff's state and the organisation's fields a calendar shows
// — and computed again when it differs. It is the properties list's way
// (lists.go), with a bound on memory: the least recently asked calendars
// are forgotten past maxCalendarBytes. Without a read model that numbers
// its entries, every request computes its calendar. The calendar does not
// depend on the locale.

// maxCalendarBytes bounds the bodies kept (about 900 calendars of 12
// months).
const maxCalendarBytes = 32 << 20

// calendarKey is a calendar asked of a property.
type calendarKey struct {
	org, property int64
	from          civil.Date
	months        int
}

// keptBody is an encoded success envelope kept for other requests, with
// its ETag: written as it is, never modified.
type keptBody struct {
	body []byte
	etag string
}

// kept is a body of one version kept under its key.
type kept[K comparable] struct {
	key     K
	version string
	b       *keptBody
	extra   int // bytes the key holds beyond its struct
}

// size is what a kept body counts against its bound.
func (k *kept[K]) size() int {
	return len(k.b.body) + len(k.b.etag) + len(k.version) + k.extra + 128
}

// bodies keeps encoded bodies by key, each of one version, least recently
// asked last, within a bound on their bytes: the calendars here and the
// quotes (quotes.go). The zero bodies is ready.
type bodies[K comparable] struct {
	mu    sync.Mutex
	max   int // bytes; 0 means maxCalendarBytes
	byKey map[K]*list.Element
	order list.List // of *kept[K], most recently asked first
	bytes int
}

// calendars keeps encoded calendars.
type calendars = bodies[calendarKey]

// get returns the body of key at version, if kept.
func (c *bodies[K]) get(key K, version string) (*keptBody, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	k := el.Value.(*kept[K])
	if k.version != version {
		return nil, false
	}
	c.order.MoveToFront(el)
	return k.b, true
}

// sizedKey is a key holding bytes beyond its struct (strings), counted
// against the bound.
type sizedKey interface{ keyBytes() int }

// put keeps the body of key at version in place of another version's,
// forgetting the least recently asked ones past the bound.
func (c *bodies[K]) put(key K, version string, b *keptBody) {
	extra := 0
	if sk, ok := any(key).(sizedKey); ok {
		extra = sk.keyBytes()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[K]*list.Element{}
	}
	if el, ok := c.byKey[key]; ok {
		c.remove(el)
	}
	k := &kept[K]{key: key, version: version, b: b, extra: extra}
	c.byKey[key] = c.order.PushFront(k)
	c.bytes += k.size()
	limit := c.max
	if limit <= 0 {
		limit = maxCalendarBytes
	}
	for c.bytes > limit && c.order.Len() > 1 {
		c.remove(c.order.Back())
	}
}

// remove forgets a kept body; c.mu is held.
func (c *bodies[K]) remove(el *list.Element) {
	k := c.order.Remove(el).(*kept[K])
	delete(c.byKey, k.key)
	c.bytes -= k.size()
}

// len returns how many bodies are kept (tests).
func (c *bodies[K]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
