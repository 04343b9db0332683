package cache

import (
	"context"
	"errors"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
)

// Reads are the methods of booking.Store that change nothing: served from
// memory (see the package doc) or passed on.
var Reads = []string{
	"OrganizationBySlug", "OrganizationByID", "Organizations",
	"Property", "Properties", "CouponByCode", "CouponRedemptions",
	"BookingByToken", "BookingByID", "BookingByIntent", "Bookings", "BookingsArriving",
	"Occupied", "Holds", "LapsedHolds",
	"IdempotencyRecord", "EventProcessed",
	"LedgerEntries", "LedgerEntryByProviderID",
	"Feed", "Feeds", "FeedBlocks", "FeedConflicts", "ExportToken", "ExportTokenByValue",
	"CalendarDays",
	"Settings", "Terms",
	"BookingsPage",
	"ContactEmail", "OutboxEvent", "OutboxDeliveries", "OutboxDelivery", "WebhookEndpoint", "WebhookEndpoints",
	"PaymentAccount", "PaymentAccountByAccountID", "BookingPaymentAccount",
}

// Writes are the methods of booking.Store that write: overridden here to
// forget what they change (Invalidating), or passed on because they
// cannot change the read model (Neutral).
var (
	Invalidating = []string{
		"CreateOrganization", "UpdateOrganization",
		"CreateProperty", "UpdateProperty", "AddBlock", "RemoveBlock",
		"CreateCoupon", "UpdateCoupon",
		"CreateBooking", "DeleteBooking", "Transition",
		"ApplyFeedSync", "DeleteFeed",
		"SetCalendarDays", "ApplyCalendar", "UpdatePropertyFields",
		"SaveSettings",
	}
	Neutral = []string{
		"SetPaymentIntent", "SaveIdempotencyRecord", "MarkEventProcessed",
		"RecordLedger", "ClaimLedgerEntries", "UpdateLedgerEntry",
		// iCal feeds' settings, leases and export tokens: not read by the
		// public routes. Their imported blocks change only through
		// ApplyFeedSync and DeleteFeed.
		"CreateFeed", "UpdateFeed", "ClaimFeeds", "ClaimFeed", "RecordFeedAttempt",
		"SetExportToken", "NoteExport",
		// The records of replayed host requests (package host keeps them):
		// never read by the public routes.
		"PurgeHostRequests",
		// Bookings' terms (policy, balance, deposit): read from the store
		// on every use, never cached.
		"SaveTerms",
		// The outbox of e-mails and webhooks, and the settings that drive
		// it: never read by the public routes. (SettleLedgerEntry writes a
		// ledger entry and its event.)
		"RecordOutbox", "ClaimOutboxEvents", "DispatchOutboxEvent", "ClaimOutboxDeliveries",
		"UpdateOutboxDelivery", "RedeliverOutbox", "SaveWebhookEndpoint", "DeleteWebhookEndpoint",
		"RecordWebhookAttempt", "ResumeWebhookEndpoint",
		"SetContactEmail", "SettleLedgerEntry",
		// Connected payment accounts: read from the store on every use,
		// never cached.
		"SavePaymentAccount", "SetBookingPaymentAccount",
	}
)

// Atomically runs fn as one unit of work of the underlying Store (a
// host.Store: store/sqlite, store/postgres) and then forgets the catalog
// and every occupancy: the writes in fn forgot what they change before
// the unit committed, when a read could still cache the state before it,
// and a unit rolled back may have let a read cache what it undid. It is
// not a method of booking.Store: package host runs its units through it.
func (c *Store) Atomically(ctx context.Context, fn func(ctx context.Context) error) error {
	u, ok := c.Store.(interface {
		Atomically(ctx context.Context, fn func(ctx context.Context) error) error
	})
	if !ok {
		return errors.New("read model: the underlying store runs no units of work")
	}
	defer c.changed(ctx, true, 0)
	return u.Atomically(ctx, fn)
}

// CreateOrganization writes through and forgets the catalog.
func (c *Store) CreateOrganization(ctx context.Context, o *booking.Organization) error {
	defer c.changed(ctx, true)
	return c.Store.CreateOrganization(ctx, o)
}

// UpdateOrganization writes through and forgets the catalog.
func (c *Store) UpdateOrganization(ctx context.Context, o *booking.Organization) error {
	defer c.changed(ctx, true)
	return c.Store.UpdateOrganization(ctx, o)
}

// CreateProperty writes through and forgets the catalog.
func (c *Store) CreateProperty(ctx context.Context, p *booking.Property) error {
	defer c.changed(ctx, true)
	return c.Store.CreateProperty(ctx, p)
}

// UpdateProperty writes through and forgets the catalog and the property's
// occupancy (its blocks are replaced).
func (c *Store) UpdateProperty(ctx context.Context, p *booking.Property) error {
	defer c.changed(ctx, true, p.ID)
	return c.Store.UpdateProperty(ctx, p)
}

// AddBlock writes through and forgets the catalog and the property's
// occupancy.
func (c *Store) AddBlock(ctx context.Context, propertyID int64, b *booking.Block, now time.Time) error {
	defer c.changed(ctx, true, propertyID)
	return c.Store.AddBlock(ctx, propertyID, b, now)
}

// RemoveBlock writes through and forgets the catalog and the property's
// occupancy.
func (c *Store) RemoveBlock(ctx context.Context, propertyID, blockID int64) error {
	defer c.changed(ctx, true, propertyID)
	return c.Store.RemoveBlock(ctx, propertyID, blockID)
}

// CreateCoupon writes through and forgets the catalog.
func (c *Store) CreateCoupon(ctx context.Context, cp *coupon.Coupon) error {
	defer c.changed(ctx, true)
	return c.Store.CreateCoupon(ctx, cp)
}

// UpdateCoupon writes through and forgets the catalog.
func (c *Store) UpdateCoupon(ctx context.Context, cp *coupon.Coupon) error {
	defer c.changed(ctx, true)
	return c.Store.UpdateCoupon(ctx, cp)
}

// CreateBooking goes to the database, which alone decides whether the
// dates are free, and forgets the property's occupancy.
func (c *Store) CreateBooking(ctx context.Context, b *booking.Booking, o booking.CreateOptions) error {
	defer c.changed(ctx, false, b.PropertyID)
	return c.Store.CreateBooking(ctx, b, o)
}

// DeleteBooking writes through and forgets every property's occupancy (it
// is rare: a checkout whose payment could not start).
func (c *Store) DeleteBooking(ctx context.Context, id int64) error {
	defer c.changed(ctx, false, 0)
	return c.Store.DeleteBooking(ctx, id)
}

// Transition goes to the database and forgets the booking's property's
// occupancy (every property's when it failed and the booking is unknown).
func (c *Store) Transition(ctx context.Context, id int64, t booking.Transition) (*booking.Booking, error) {
	b, err := c.Store.Transition(ctx, id, t)
	var property int64
	if b != nil {
		property = b.PropertyID
	}
	c.changed(ctx, false, property)
	return b, err
}

// ApplyFeedSync writes an iCal feed's imported blocks and forgets every
// property's occupancy: the sync names the feed, not its property.
func (c *Store) ApplyFeedSync(ctx context.Context, s booking.FeedSync) (*booking.FeedSyncResult, error) {
	defer c.changed(ctx, false, 0)
	return c.Store.ApplyFeedSync(ctx, s)
}

// DeleteFeed removes a feed with its imported blocks and forgets every
// property's occupancy.
func (c *Store) DeleteFeed(ctx context.Context, orgID, feedID int64) error {
	defer c.changed(ctx, false, 0)
	return c.Store.DeleteFeed(ctx, orgID, feedID)
}

// SetCalendarDays writes a property's per-day settings (prices, closed
// nights, stay rules) and forgets the catalog and the property's occupancy.
func (c *Store) SetCalendarDays(ctx context.Context, propertyID int64, days []booking.CalendarDay) error {
	defer c.changed(ctx, true, propertyID)
	return c.Store.SetCalendarDays(ctx, propertyID, days)
}

// ApplyCalendar writes a host's per-day calendar (and the rate-plan
// overrides it takes over) and forgets the catalog and the property's
// occupancy.
func (c *Store) ApplyCalendar(ctx context.Context, orgID, propertyID int64, ch booking.CalendarChange, now time.Time) error {
	defer c.changed(ctx, true, propertyID)
	return c.Store.ApplyCalendar(ctx, orgID, propertyID, ch, now)
}

// UpdatePropertyFields writes through and forgets the catalog. Its
// blocks are left as stored, but the property's occupancy is forgotten
// too, as by UpdateProperty, so that nothing read before lingers.
func (c *Store) UpdatePropertyFields(ctx context.Context, p *booking.Property) error {
	defer c.changed(ctx, true, p.ID)
	return c.Store.UpdatePropertyFields(ctx, p)
}
