// Package units is the inventory of a property beyond one bookable place
// (issue #27): its identical units (the studios of a block, the mobile
// homes of a campsite, the rooms of a type) and linked listings (a villa
// let whole or by the room).
//
// A property has at least one unit (booking.Unit); a stay holds one unit
// for all its nights, chosen by the booking store in the booking's own
// atomic step (booking.BestUnit), so that no two live stays of one unit
// overlap — the database sees to it (SQLite's write transaction,
// PostgreSQL's exclusion constraint per unit). This package is what a
// host changes around it: it adds, renames and retires units, moves a
// booking to another free unit, and declares which properties are parts
// of which whole.
//
// A link makes a whole (the villa) and each of its parts (its rooms) take
// each other's nights: a booking or block of the whole takes every unit
// of its parts, one of a part takes every unit of the whole. Stores
// enforce it in the booking's own atomic step, as they enforce units. A
// part belongs to one whole at most; a whole is no part and a part no
// whole (no nesting), and a whole sells one unit.
package units

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// Reasons (booking.ParamReason) of the CodeConflict the store returns.
const (
	// ReasonLastUnit: a property keeps one active unit at least.
	ReasonLastUnit = "last_unit"
	// ReasonFutureStays: the unit holds stays (bookings holding dates)
	// that end after today; move or cancel them first.
	ReasonFutureStays = "future_stays"
	// ReasonFutureBlocks: the unit has blocks ending after today.
	ReasonFutureBlocks = "future_blocks"
	// ReasonFeeds: an imported calendar belongs to the unit.
	ReasonFeeds = "feeds"
	// ReasonWhole: a property let whole (with parts) sells one unit.
	ReasonWhole = "whole_has_one_unit"
	// ReasonLinked: the link would nest or repeat links (a part of two
	// wholes, a whole that is a part, a part that is a whole).
	ReasonLinked = "already_linked"
	// ReasonNotHolding: only a booking holding its dates moves.
	ReasonNotHolding = "not_holding"
	// ReasonRetired: the unit is retired already.
	ReasonRetired = "retired"
)

// Link says that Part is one of the properties Whole is made of.
type Link struct {
	WholeID   int64     `json:"whole_id"`
	PartID    int64     `json:"part_id"`
	CreatedAt time.Time `json:"created_at"`
}

// Store keeps units and links. store/sqlite and store/postgres implement
// it beside booking.Stores: their writes take turns with checkouts of the
// properties concerned (SQLite's write transaction; PostgreSQL's property
// row locks, in the order of their IDs). Its errors carry the codes of
// booking.Error; store/storetest checks the contract.
type Store interface {
	// Units lists a property's units, retired ones included, by Position
	// then ID. Errors: CodeNotFound (property not of orgID).
	Units(ctx context.Context, orgID, propertyID int64) ([]booking.Unit, error)
	// AddUnit adds an active unit named u.Name to a property, after its
	// others, and sets u's ID, PropertyID and Position. Errors:
	// CodeNotFound; CodeInvalid (name, field "name"; booking.MaxUnits
	// reached, field "units"); CodeConflict ReasonWhole when the property
	// is the whole of a link. Its creation time is now.
	AddUnit(ctx context.Context, orgID, propertyID int64, u *booking.Unit, now time.Time) error
	// RenameUnit renames a unit of one of orgID's properties and returns
	// it. Errors: CodeNotFound, CodeInvalid (field "name").
	RenameUnit(ctx context.Context, orgID, unitID int64, name string) (*booking.Unit, error)
	// RetireUnit retires an active unit at now: it is sold no more, and
	// keeps its past stays. Refused (CodeConflict with its reason) when
	// it is its property's last active unit (ReasonLastUnit), holds a
	// booking holding dates at now that ends after today
	// (ReasonFutureStays), has a block ending after today
	// (ReasonFutureBlocks), has a feed (ReasonFeeds), or is retired
	// already (ReasonRetired). Errors: CodeNotFound.
	RetireUnit(ctx context.Context, orgID, unitID int64, today civil.Date, now time.Time) (*booking.Unit, error)
	// MoveBooking moves a booking of orgID holding its dates at now to
	// another active unit of its property, in one atomic step with the
	// check that the unit is free for the stay: no other booking holding
	// dates at now and no block of the unit overlaps the stay widened by
	// g's preparation days (booking.DateGuard.Guarded). It returns the
	// booking. Moving to its own unit changes nothing. Errors:
	// CodeNotFound (booking, unit); CodeUnavailable (the unit is not
	// free); CodeConflict ReasonNotHolding.
	MoveBooking(ctx context.Context, orgID, bookingID, unitID int64, g booking.DateGuard, now time.Time) (*booking.Booking, error)
	// SetUnitPrices sets or clears a unit's own nightly prices
	// (booking.UnitPriceDay, a nil price clearing its night) in one
	// atomic step, and returns the unit, whose Priced then says whether
	// it has any left. Errors: CodeNotFound (unit not of orgID);
	// CodeInvalid (booking.CheckUnitPriceDays, field "days").
	SetUnitPrices(ctx context.Context, orgID, unitID int64, days []booking.UnitPriceDay) (*booking.Unit, error)
	// UnitPriceDays lists a unit's own prices of the nights from from to
	// to (half-open), by date. Errors: CodeNotFound.
	UnitPriceDays(ctx context.Context, orgID, unitID int64, from, to civil.Date) ([]booking.UnitPrice, error)
	// Links lists an organisation's links by whole, then part.
	Links(ctx context.Context, orgID int64) ([]Link, error)
	// Link declares part as one of whole's parts at now, in one atomic
	// step with its checks, taking turns with the bookings of both; today
	// (in the organisation's zone) bounds the holds compared. Errors:
	// CodeNotFound (either property not of orgID); CodeInvalid (whole
	// and part are one property); CodeConflict ReasonLinked (part has a
	// whole already, whole is a part, part is a whole), ReasonWhole (the
	// whole has more than one active unit); CodeUnavailable when blocks
	// or bookings holding dates at now of the two, ending after today,
	// overlap (the link would sell a night twice).
	Link(ctx context.Context, orgID, wholeID, partID int64, today civil.Date, now time.Time) (*Link, error)
	// Unlink removes a link. Errors: CodeNotFound.
	Unlink(ctx context.Context, orgID, wholeID, partID int64) error
}

// Conflict is the CodeConflict error of a refusal with its reason.
func Conflict(reason, message string) error {
	return &booking.Error{Code: booking.CodeConflict, Message: message, Params: map[string]string{booking.ParamReason: reason}}
}

// PrepareLink checks a link before a store writes it: whole and part are
// two properties. Errors: CodeInvalid (field "part_id").
func PrepareLink(wholeID, partID int64) error {
	if wholeID == partID {
		return &booking.Error{Code: booking.CodeInvalid, Message: "A property cannot be a part of itself.",
			Fields: booking.FieldErrors{"part_id": {"invalid"}}}
	}
	return nil
}

// PrepareUnit checks a new unit's name and returns it trimmed. Errors:
// CodeInvalid (field "name").
func PrepareUnit(name string) (string, error) { return booking.CheckUnitName("name", name) }
