package cache

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	unitspkg "github.com/staykit/staykit/units"
)

// UnitStore returns u with its writes forgetting what they change: a
// property's units are part of its catalogue entry (Property.Units,
// Linked), a move changes a property's holds, and a link makes two
// properties' holds each other's. Wire it where the host's units store is
// built (host.Stores.Units).
func (c *Store) UnitStore(u unitspkg.Store) unitspkg.Store { return unitWrites{Store: u, c: c} }

// unitWrites is a units.Store whose writes forget what they change.
type unitWrites struct {
	unitspkg.Store
	c *Store
}

// AddUnit writes through and forgets the property's catalogue and
// occupancy.
func (u unitWrites) AddUnit(ctx context.Context, orgID, propertyID int64, unit *booking.Unit, now time.Time) error {
	defer u.c.changed(ctx, propertyChange(propertyID), propertyID)
	return u.Store.AddUnit(ctx, orgID, propertyID, unit, now)
}

// RenameUnit writes through and forgets the unit's property's catalogue
// (the organisation's when the unit is unknown).
func (u unitWrites) RenameUnit(ctx context.Context, orgID, unitID int64, name string) (*booking.Unit, error) {
	got, err := u.Store.RenameUnit(ctx, orgID, unitID, name)
	if got != nil {
		u.c.changed(ctx, propertyChange(got.PropertyID))
	} else {
		u.c.changed(ctx, orgChange(orgID))
	}
	return got, err
}

// RetireUnit writes through and forgets the unit's property's catalogue
// and occupancy (the organisation's catalogue and every occupancy when
// the unit is unknown).
func (u unitWrites) RetireUnit(ctx context.Context, orgID, unitID int64, today civil.Date, now time.Time) (*booking.Unit, error) {
	got, err := u.Store.RetireUnit(ctx, orgID, unitID, today, now)
	if got != nil {
		u.c.changed(ctx, propertyChange(got.PropertyID), got.PropertyID)
	} else {
		u.c.changed(ctx, orgChange(orgID), 0)
	}
	return got, err
}

// SetUnitPrices writes through and forgets the unit's property's
// catalogue: its units' Priced, and the prices of its calendar (the
// organisation's catalogue when the unit is unknown).
func (u unitWrites) SetUnitPrices(ctx context.Context, orgID, unitID int64, days []booking.UnitPriceDay) (*booking.Unit, error) {
	got, err := u.Store.SetUnitPrices(ctx, orgID, unitID, days)
	if got != nil {
		u.c.changed(ctx, propertyChange(got.PropertyID))
	} else {
		u.c.changed(ctx, orgChange(orgID))
	}
	return got, err
}

// MoveBooking writes through and forgets the booking's property's
// occupancy (every property's when the booking is unknown).
func (u unitWrites) MoveBooking(ctx context.Context, orgID, bookingID, unitID int64, g booking.DateGuard, now time.Time) (*booking.Booking, error) {
	b, err := u.Store.MoveBooking(ctx, orgID, bookingID, unitID, g, now)
	var property int64
	if b != nil {
		property = b.PropertyID
	}
	u.c.changed(ctx, change{}, property)
	return b, err
}

// Link writes through and forgets both properties' catalogue and
// occupancy.
func (u unitWrites) Link(ctx context.Context, orgID, wholeID, partID int64, today civil.Date, now time.Time) (*unitspkg.Link, error) {
	defer u.c.linkChanged(ctx, wholeID, partID)
	return u.Store.Link(ctx, orgID, wholeID, partID, today, now)
}

// Unlink writes through and forgets both properties' catalogue and
// occupancy.
func (u unitWrites) Unlink(ctx context.Context, orgID, wholeID, partID int64) error {
	defer u.c.linkChanged(ctx, wholeID, partID)
	return u.Store.Unlink(ctx, orgID, wholeID, partID)
}

// linkChanged forgets what a link or unlink of two properties changed.
func (c *Store) linkChanged(ctx context.Context, a, b int64) {
	c.changed(ctx, propertyChange(a), a, b)
	c.changed(ctx, propertyChange(b))
}
