package booking

import (
	"context"
	"time"

	"github.com/staykit/staykit/civil"
)

// ReadModelStore serves what a read model (package store/cache) keeps in
// memory and cannot read through the other methods.
type ReadModelStore interface {
	// Holds returns what takes nights on a property from the night from
	// on: its blocks and its bookings holding dates at now, each on its
	// unit (Hold.Unit; 0 for a block of the whole property), and those of
	// the properties linked to it (Property.Linked) on every unit (0),
	// whole ranges ending after from, ordered by start then end. A pending booking's
	// hold lasts Until its expiry; the other holds have a zero Until
	// (they last until a write changes them). With Holds read at now, the
	// Occupied answer at any later instant t is the holds overlapping the
	// range whose Until is zero or after t.
	Holds(ctx context.Context, propertyID int64, from civil.Date, now time.Time) ([]Hold, error)
}

// Hold is nights taken on a property, by a block or a booking.
type Hold struct {
	civil.Range
	// Until is when a pending hold lapses; zero for the others.
	Until time.Time
	// Unit is the unit whose nights are taken; 0 when they are taken on
	// every unit: a block of the whole property, or a block or booking
	// of a property linked to it (Property.Linked).
	Unit int64
}

// HoldsAt reports whether the hold takes its nights at t.
func (h Hold) HoldsAt(t time.Time) bool { return h.Until.IsZero() || h.Until.After(t) }

// OrgHoldsStore is what a store may offer beside ReadModelStore so that a
// read model refreshes the holds of an organisation's properties in one
// query rather than one per property (a search tests thousands of them).
type OrgHoldsStore interface {
	// OrgHolds returns Holds(p, from, now) of every property p of the
	// organisation, each with its property, ordered by property, then
	// start, then end. A property without holds has no row.
	OrgHolds(ctx context.Context, orgID int64, from civil.Date, now time.Time) ([]PropertyHold, error)
}

// PropertyHold is a Hold of a property.
type PropertyHold struct {
	PropertyID int64
	Hold
}
