package cache

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/staykit/staykit/booking"
)

// change is what a write may have changed in the catalogue (organisations,
// properties, coupons, per-day calendars, settings): one organisation's
// entries, one property's, or everything. The zero change is nothing.
// A write forgets only its own organisation's or property's entries, so
// that a host busy in one organisation does not make every other one read
// its catalogue again (issue #31).
type change struct {
	all           bool
	org, property int64
}

// everything is the change that forgets the whole catalogue.
var everything = change{all: true}

// orgChange is a change of the organisation id's own entries (its row,
// its properties list, coupons and settings); everything when id is 0
// (unknown: a write that failed before it had one).
func orgChange(id int64) change {
	if id <= 0 {
		return everything
	}
	return change{org: id}
}

// propertyChange is a change of a property (its row, blocks, per-day
// calendar, settings, and the lists that hold it); everything when id is
// 0.
func propertyChange(id int64) change {
	if id <= 0 {
		return everything
	}
	return change{property: id}
}

// Messages of catalogue changes between replicas (besides msgCatalog,
// everything).
const (
	msgCatalogOrg      = "catalog:org:"
	msgCatalogProperty = "catalog:property:"
)

// message is ch as told to the other replicas.
func (ch change) message() string {
	switch {
	case ch.all:
		return msgCatalog
	case ch.org != 0:
		return msgCatalogOrg + strconv.FormatInt(ch.org, 10)
	default:
		return msgCatalogProperty + strconv.FormatInt(ch.property, 10)
	}
}

// parseChange reads a catalogue message; ok is false when msg is none.
// A malformed id is everything.
func parseChange(msg string) (ch change, ok bool) {
	id := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0
		}
		return n
	}
	switch {
	case msg == msgCatalog:
		return everything, true
	case strings.HasPrefix(msg, msgCatalogOrg):
		return orgChange(id(msg[len(msgCatalogOrg):])), true
	case strings.HasPrefix(msg, msgCatalogProperty):
		return propertyChange(id(msg[len(msgCatalogProperty):])), true
	}
	return change{}, false
}

// forgetCatalog forgets what ch may have changed, and records when, so
// that a read under way since before does not store what ch replaced
// (kept).
func (c *Store) forgetCatalog(ch change) {
	if ch == (change{}) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.catalogSeq++
	switch {
	case ch.all:
		c.allForgotten = c.catalogSeq
		c.orgForgotten, c.propForgotten = map[int64]uint64{}, map[int64]uint64{}
		c.resetCatalog()
	case ch.org != 0:
		id := ch.org
		c.orgForgotten[id] = c.catalogSeq
		delete(c.orgID, id)
		for slug, e := range c.orgSlug {
			if e.v.ID == id {
				delete(c.orgSlug, slug)
			}
		}
		delete(c.props, id)
		for k := range c.prop {
			if k[0] == id {
				delete(c.prop, k)
			}
		}
		for k := range c.coupons {
			if k.org == id {
				delete(c.coupons, k)
			}
		}
		for k := range c.settings {
			if k[0] == id {
				delete(c.settings, k)
			}
		}
		for k, e := range c.rates {
			if e.org == id {
				delete(c.rates, k)
			}
		}
	default:
		id := ch.property
		c.propForgotten[id] = c.catalogSeq
		for k, e := range c.prop {
			if k[1] == id || e.v.ID == id {
				delete(c.prop, k)
			}
		}
		for org, e := range c.props {
			if slices.ContainsFunc(e.v, func(p booking.Property) bool { return p.ID == id }) {
				delete(c.props, org)
			}
		}
		delete(c.cal, id)
		delete(c.unitPrices, id)
		delete(c.rates, id)
		for k := range c.settings {
			if k[1] == id {
				delete(c.settings, k)
			}
		}
	}
}

// kept reports whether a catalogue read that began at catalogSeq gen may
// store what it read of organisation org and of properties (0s are
// ignored): whether nothing that may have changed them was forgotten
// since. c.mu must be held.
func (c *Store) kept(gen uint64, org int64, properties ...int64) bool {
	if c.allForgotten > gen || c.orgForgotten[org] > gen {
		return false
	}
	for _, id := range properties {
		if c.propForgotten[id] > gen {
			return false
		}
	}
	return true
}

// unitKey is the context key of the changes a unit of work collects.
type unitKey struct{}

// unitChanges are the changes of the writes in a unit of work, forgotten
// again once it ends (Units).
type unitChanges struct {
	mu        sync.Mutex
	catalog   []change
	occupancy []int64
}

// note records the changes of a write in the unit of ctx, if any.
func note(ctx context.Context, ch change, occupancy []int64) {
	u, ok := ctx.Value(unitKey{}).(*unitChanges)
	if !ok {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if ch != (change{}) && !slices.Contains(u.catalog, ch) {
		u.catalog = append(u.catalog, ch)
	}
	for _, id := range occupancy {
		if !slices.Contains(u.occupancy, id) {
			u.occupancy = append(u.occupancy, id)
		}
	}
}
