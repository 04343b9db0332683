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
	if s.UnitPriceReader != nil {
		s.UnitPriceReader = c
	}
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
// store/postgres), each followed by forgetting again what its writes
// through the read model's seams forgot (their organisations' and
// properties' catalogue, their properties' occupancy): they forgot it
// before the unit committed, when a read could still cache the state
// before it, and a unit rolled back may have let a read cache what it
// undid. Package host runs its units through it (host.Options.Units); the
// writes in its units go through the read model's seams (Stores, Feeds),
// the host's records excepted, which it does not cache.
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

// Atomically runs fn in a unit of work of the database, then forgets what
// the writes in it forgot. Within a unit, it runs fn in it, and the outer
// unit forgets.
func (u units) Atomically(ctx context.Context, fn func(ctx context.Context) error) error {
	if _, ok := ctx.Value(unitKey{}).(*unitChanges); ok {
		return u.u.Atomically(ctx, fn)
	}
	done := &unitChanges{}
	defer func() {
		done.mu.Lock()
		catalog, occupancy := done.catalog, done.occupancy
		done.mu.Unlock()
		for _, ch := range catalog {
			u.c.changed(ctx, ch)
		}
		if len(occupancy) > 0 {
			u.c.changed(ctx, change{}, occupancy...)
		}
	}()
	return u.u.Atomically(context.WithValue(ctx, unitKey{}, done), fn)
}

// CreateOrganization writes through and forgets the organisation's
// catalogue.
func (c *Store) CreateOrganization(ctx context.Context, o *booking.Organization) error {
	defer func() { c.changed(ctx, orgChange(o.ID)) }()
	return c.CatalogStore.CreateOrganization(ctx, o)
}

// UpdateOrganization writes through and forgets the organisation's
// catalogue.
func (c *Store) UpdateOrganization(ctx context.Context, o *booking.Organization) error {
	defer c.changed(ctx, orgChange(o.ID))
	return c.CatalogStore.UpdateOrganization(ctx, o)
}

// CreateProperty writes through and forgets the organisation's catalogue
// (its properties list).
func (c *Store) CreateProperty(ctx context.Context, p *booking.Property) error {
	defer c.changed(ctx, orgChange(p.OrgID))
	return c.CatalogStore.CreateProperty(ctx, p)
}

// UpdateProperty writes through and forgets the property's catalogue and
// occupancy (its blocks are replaced).
func (c *Store) UpdateProperty(ctx context.Context, p *booking.Property) error {
	defer c.changed(ctx, propertyChange(p.ID), p.ID)
	return c.CatalogStore.UpdateProperty(ctx, p)
}

// AddBlock writes through and forgets the property's catalogue and
// occupancy.
func (c *Store) AddBlock(ctx context.Context, propertyID int64, b *booking.Block, now time.Time) error {
	defer c.changed(ctx, propertyChange(propertyID), propertyID)
	return c.CatalogStore.AddBlock(ctx, propertyID, b, now)
}

// RemoveBlock writes through and forgets the property's catalogue and
// occupancy.
func (c *Store) RemoveBlock(ctx context.Context, propertyID, blockID int64) error {
	defer c.changed(ctx, propertyChange(propertyID), propertyID)
	return c.CatalogStore.RemoveBlock(ctx, propertyID, blockID)
}

// CreateCoupon writes through and forgets the organisation's catalogue.
func (c *Store) CreateCoupon(ctx context.Context, cp *coupon.Coupon) error {
	defer c.changed(ctx, orgChange(cp.OrgID))
	return c.CatalogStore.CreateCoupon(ctx, cp)
}

// UpdateCoupon writes through and forgets the organisation's catalogue.
func (c *Store) UpdateCoupon(ctx context.Context, cp *coupon.Coupon) error {
	defer c.changed(ctx, orgChange(cp.OrgID))
	return c.CatalogStore.UpdateCoupon(ctx, cp)
}

// CreateBooking goes to the database, which alone decides whether the
// dates are free, and forgets the property's occupancy.
func (c *Store) CreateBooking(ctx context.Context, b *booking.Booking, o booking.CreateOptions) error {
	defer c.changed(ctx, change{}, b.PropertyID)
	return c.BookingStore.CreateBooking(ctx, b, o)
}

// DeleteBooking writes through and forgets every property's occupancy (it
// is rare: a checkout whose payment could not start).
func (c *Store) DeleteBooking(ctx context.Context, id int64) error {
	defer c.changed(ctx, change{}, 0)
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
	c.changed(ctx, change{}, property)
	return b, err
}

// ApplyFeedSync writes an iCal feed's imported blocks and forgets its
// property's occupancy. The sync names the feed, not its property: the
// property is the one the feed had when the read model last saw it
// (its claim, a list; see feedProperty), else every property's occupancy
// is forgotten.
func (f feedWrites) ApplyFeedSync(ctx context.Context, s feed.Sync) (*feed.SyncResult, error) {
	defer func() { f.c.changed(ctx, change{}, f.c.feedProperty(s.FeedID)) }()
	return f.FeedStore.ApplyFeedSync(ctx, s)
}

// DeleteFeed removes a feed with its imported blocks and forgets its
// property's occupancy (every property's when the feed cannot be read
// first).
func (f feedWrites) DeleteFeed(ctx context.Context, orgID, feedID int64) error {
	property := f.c.feedProperty(feedID)
	if property == 0 {
		if fd, err := f.FeedStore.Feed(ctx, orgID, feedID); err == nil {
			property = fd.PropertyID
		}
	}
	defer f.c.changed(ctx, change{}, property)
	return f.FeedStore.DeleteFeed(ctx, orgID, feedID)
}

// The reads and writes of feeds below pass through and remember each
// feed's property (a feed never moves), for ApplyFeedSync.

// CreateFeed writes through and remembers the feed's property.
func (f feedWrites) CreateFeed(ctx context.Context, fd *feed.Feed, now time.Time) error {
	err := f.FeedStore.CreateFeed(ctx, fd, now)
	if err == nil {
		f.c.sawFeeds(*fd)
	}
	return err
}

// Feed passes through and remembers the feed's property.
func (f feedWrites) Feed(ctx context.Context, orgID, feedID int64) (*feed.Feed, error) {
	fd, err := f.FeedStore.Feed(ctx, orgID, feedID)
	if err == nil {
		f.c.sawFeeds(*fd)
	}
	return fd, err
}

// Feeds passes through and remembers the feeds' properties.
func (f feedWrites) Feeds(ctx context.Context, orgID int64) ([]feed.Feed, error) {
	list, err := f.FeedStore.Feeds(ctx, orgID)
	f.c.sawFeeds(list...)
	return list, err
}

// ClaimFeeds passes through and remembers the feeds' properties.
func (f feedWrites) ClaimFeeds(ctx context.Context, now, leaseUntil time.Time, limit int) ([]feed.Feed, error) {
	list, err := f.FeedStore.ClaimFeeds(ctx, now, leaseUntil, limit)
	f.c.sawFeeds(list...)
	return list, err
}

// ClaimFeed passes through and remembers the feed's property.
func (f feedWrites) ClaimFeed(ctx context.Context, orgID, feedID int64, now, leaseUntil time.Time) (*feed.Feed, error) {
	fd, err := f.FeedStore.ClaimFeed(ctx, orgID, feedID, now, leaseUntil)
	if err == nil {
		f.c.sawFeeds(*fd)
	}
	return fd, err
}

// SetCalendarDays writes a property's per-day settings (prices, closed
// nights, stay rules) and forgets the property's catalogue and occupancy.
func (c *Store) SetCalendarDays(ctx context.Context, propertyID int64, days []booking.CalendarDay) error {
	defer c.changed(ctx, propertyChange(propertyID), propertyID)
	return c.CalendarStore.SetCalendarDays(ctx, propertyID, days)
}

// ApplyCalendar writes a host's per-day calendar (and the rate-plan
// overrides it takes over) and forgets the property's catalogue and
// occupancy.
func (h hostWrites) ApplyCalendar(ctx context.Context, orgID, propertyID int64, ch booking.CalendarChange, now time.Time) error {
	defer h.c.changed(ctx, propertyChange(propertyID), propertyID)
	return h.HostCalendarStore.ApplyCalendar(ctx, orgID, propertyID, ch, now)
}

// UpdatePropertyFields writes through and forgets the property's
// catalogue. Its blocks are left as stored, but the property's occupancy
// is forgotten too, as by UpdateProperty, so that nothing read before
// lingers.
func (h hostWrites) UpdatePropertyFields(ctx context.Context, p *booking.Property) error {
	defer h.c.changed(ctx, propertyChange(p.ID), p.ID)
	return h.HostCalendarStore.UpdatePropertyFields(ctx, p)
}

// sawFeeds remembers the properties of feeds.
func (c *Store) sawFeeds(list ...feed.Feed) {
	if len(list) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, fd := range list {
		if fd.ID != 0 && fd.PropertyID != 0 {
			c.feedProps[fd.ID] = fd.PropertyID
		}
	}
}

// feedProperty is the property of a feed the read model saw, or 0.
func (c *Store) feedProperty(feedID int64) int64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.feedProps[feedID]
}

// ForgetOccupancy forgets a property's occupancy (0: every property's),
// in this process at once and in the others through the Publisher: for a
// write to bookings made outside the read model's seams, such as a
// guest's change of dates (package datechange), whose store writes the
// database directly.
func (c *Store) ForgetOccupancy(ctx context.Context, propertyID int64) {
	c.changed(ctx, change{}, propertyID)
}
