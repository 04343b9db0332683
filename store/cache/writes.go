package cache

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/feed"
)

// Stores returns the seams New was given with those the read model serves
// or must hear about replaced by it: the catalogue, bookings, calendars and
// terms (c itself) and the host's calendar writes (ApplyCalendar and
// UpdatePropertyFields forget what they change). The others (ledger,
// outbox, payment accounts) are handed on as they are.
func (c *Store) Stores() booking.Stores {
	s := c.base
	s.CatalogStore, s.BookingStore, s.CalendarStore, s.TermsStore = c, c, c, c
	s.HostCalendarStore = hostWrites{HostCalendarStore: s.HostCalendarStore, c: c}
	return s
}

// Feeds returns f with the writes that change a feed's imported blocks
// (ApplyFeedSync, DeleteFeed) forgetting occupancy.
func (c *Store) Feeds(f feed.FeedStore) feed.FeedStore { return feedWrites{FeedStore: f, c: c} }

// hostWrites is a host calendar store whose writes forget what they
// change.
type hostWrites struct {
	booking.HostCalendarStore
	c *Store
}

// feedWrites is a feed store whose block writes forget occupancy.
type feedWrites struct {
	feed.FeedStore
	c *Store
}

// Units returns u's units of work (host.Store.Atomically: store/sqlite,
// store/postgres), each followed by forgetting the catalogue and every
// occupancy: the writes in a unit forgot what they change before it
// committed, when a read could still cache the state before it, and a
// unit rolled back may have let a read cache what it undid. Package host
// runs its units through it (host.Options.Units).
func (c *Store) Units(u Atomic) Atomic { return units{u: u, c: c} }

// Atomic runs units of work.
type Atomic interface {
	// Atomically runs fn as one unit of work.
	Atomically(ctx context.Context, fn func(ctx context.Context) error) error
}

// units runs a database's units of work and then forgets.
type units struct {
	u Atomic
	c *Store
}

// Atomically runs fn in a unit of work of the database, then forgets the
// catalogue and every occupancy.
func (u units) Atomically(ctx context.Context, fn func(ctx context.Context) error) error {
	defer u.c.changed(ctx, true, 0)
	return u.u.Atomically(ctx, fn)
}

// CreateOrganization writes through and forgets the catalog.
func (c *Store) CreateOrganization(ctx context.Context, o *booking.Organization) error {
	defer c.changed(ctx, true)
	return c.CatalogStore.CreateOrganization(ctx, o)
}

// UpdateOrganization writes through and forgets the catalog.
func (c *Store) UpdateOrganization(ctx context.Context, o *booking.Organization) error {
	defer c.changed(ctx, true)
	return c.CatalogStore.UpdateOrganization(ctx, o)
}

// CreateProperty writes through and forgets the catalog.
func (c *Store) CreateProperty(ctx context.Context, p *booking.Property) error {
	defer c.changed(ctx, true)
	return c.CatalogStore.CreateProperty(ctx, p)
}

// UpdateProperty writes through and forgets the catalog and the property's
// occupancy (its blocks are replaced).
func (c *Store) UpdateProperty(ctx context.Context, p *booking.Property) error {
	defer c.changed(ctx, true, p.ID)
	return c.CatalogStore.UpdateProperty(ctx, p)
}

// AddBlock writes through and forgets the catalog and the property's
// occupancy.
func (c *Store) AddBlock(ctx context.Context, propertyID int64, b *booking.Block, now time.Time) error {
	defer c.changed(ctx, true, propertyID)
	return c.CatalogStore.AddBlock(ctx, propertyID, b, now)
}

// RemoveBlock writes through and forgets the catalog and the property's
// occupancy.
func (c *Store) RemoveBlock(ctx context.Context, propertyID, blockID int64) error {
	defer c.changed(ctx, true, propertyID)
	return c.CatalogStore.RemoveBlock(ctx, propertyID, blockID)
}

// CreateCoupon writes through and forgets the catalog.
func (c *Store) CreateCoupon(ctx context.Context, cp *coupon.Coupon) error {
	defer c.changed(ctx, true)
	return c.CatalogStore.CreateCoupon(ctx, cp)
}

// UpdateCoupon writes through and forgets the catalog.
func (c *Store) UpdateCoupon(ctx context.Context, cp *coupon.Coupon) error {
	defer c.changed(ctx, true)
	return c.CatalogStore.UpdateCoupon(ctx, cp)
}

// CreateBooking goes to the database, which alone decides whether the
// dates are free, and forgets the property's occupancy.
func (c *Store) CreateBooking(ctx context.Context, b *booking.Booking, o booking.CreateOptions) error {
	defer c.changed(ctx, false, b.PropertyID)
	return c.BookingStore.CreateBooking(ctx, b, o)
}

// DeleteBooking writes through and forgets every property's occupancy (it
// is rare: a checkout whose payment could not start).
func (c *Store) DeleteBooking(ctx context.Context, id int64) error {
	defer c.changed(ctx, false, 0)
	return c.BookingStore.DeleteBooking(ctx, id)
}

// Transition goes to the database and forgets the booking's property's
// occupancy (every property's when it failed and the booking is unknown).
func (c *Store) Transition(ctx context.Context, id int64, t booking.Transition) (*booking.Booking, error) {
	b, err := c.BookingStore.Transition(ctx, id, t)
	var property int64
	if b != nil {
		property = b.PropertyID
	}
	c.changed(ctx, false, property)
	return b, err
}

// ApplyFeedSync writes an iCal feed's imported blocks and forgets every
// property's occupancy: the sync names the feed, not its property.
func (f feedWrites) ApplyFeedSync(ctx context.Context, s feed.Sync) (*feed.SyncResult, error) {
	defer f.c.changed(ctx, false, 0)
	return f.FeedStore.ApplyFeedSync(ctx, s)
}

// DeleteFeed removes a feed with its imported blocks and forgets every
// property's occupancy.
func (f feedWrites) DeleteFeed(ctx context.Context, orgID, feedID int64) error {
	defer f.c.changed(ctx, false, 0)
	return f.FeedStore.DeleteFeed(ctx, orgID, feedID)
}

// SetCalendarDays writes a property's per-day settings (prices, closed
// nights, stay rules) and forgets the catalog and the property's occupancy.
func (c *Store) SetCalendarDays(ctx context.Context, propertyID int64, days []booking.CalendarDay) error {
	defer c.changed(ctx, true, propertyID)
	return c.CalendarStore.SetCalendarDays(ctx, propertyID, days)
}

// ApplyCalendar writes a host's per-day calendar (and the rate-plan
// overrides it takes over) and forgets the catalog and the property's
// occupancy.
func (h hostWrites) ApplyCalendar(ctx context.Context, orgID, propertyID int64, ch booking.CalendarChange, now time.Time) error {
	defer h.c.changed(ctx, true, propertyID)
	return h.HostCalendarStore.ApplyCalendar(ctx, orgID, propertyID, ch, now)
}

// UpdatePropertyFields writes through and forgets the catalog. Its
// blocks are left as stored, but the property's occupancy is forgotten
// too, as by UpdateProperty, so that nothing read before lingers.
func (h hostWrites) UpdatePropertyFields(ctx context.Context, p *booking.Property) error {
	defer h.c.changed(ctx, true, p.ID)
	return h.HostCalendarStore.UpdatePropertyFields(ctx, p)
}
