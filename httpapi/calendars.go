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

// keptCalendar is a calendar's body of one version.
type keptCalendar struct {
	key     calendarKey
	version string
	b       *keptBody
}

// size is what a kept calendar counts against maxCalendarBytes.
func (k *keptCalendar) size() int { return len(k.b.body) + len(k.b.etag) + len(k.version) + 128 }

// calendars keeps encoded calendars, least recently asked last. The zero
// calendars is ready.
type calendars struct {
	mu    sync.Mutex
	max   int // bytes; 0 means maxCalendarBytes
	byKey map[calendarKey]*list.Element
	order list.List // of *keptCalendar, most recently asked first
	bytes int
}

// get returns the calendar of key at version, if kept.
func (c *calendars) get(key calendarKey, version string) (*keptBody, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	k := el.Value.(*keptCalendar)
	if k.version != version {
		return nil, false
	}
	c.order.MoveToFront(el)
	return k.b, true
}

// put keeps the calendar of key at version in place of another version's,
// forgetting the least recently asked ones past the bound.
func (c *calendars) put(key calendarKey, version string, b *keptBody) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[calendarKey]*list.Element{}
	}
	if el, ok := c.byKey[key]; ok {
		c.remove(el)
	}
	k := &keptCalendar{key: key, version: version, b: b}
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

// remove forgets a kept calendar; c.mu is held.
func (c *calendars) remove(el *list.Element) {
	k := c.order.Remove(el).(*keptCalendar)
	delete(c.byKey, k.key)
	c.bytes -= k.size()
}

// len returns how many calendars are kept (tests).
func (c *calendars) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
