package host

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/units"
)

// The host's side of package units: a property's identical units and
// linked listings (issue #27). Each change is audited in its unit of work.

// unitStore is the units store, or CodeNotConfigured when the database
// serves none.
func (s *Service) unitStore() (units.Store, error) {
	if s.inventory == nil {
		return nil, &booking.Error{Code: booking.CodeNotConfigured, Message: "Units are not set up on this server."}
	}
	return s.inventory, nil
}

// Units lists a property's units, retired ones included, by position.
// Errors: CodeNotFound, CodeNotConfigured.
func (s *Service) Units(ctx context.Context, org *booking.Organization, propertyID int64) ([]booking.Unit, error) {
	us, err := s.unitStore()
	if err != nil {
		return nil, err
	}
	list, err := us.Units(ctx, org.ID, propertyID)
	if err != nil {
		return nil, notFoundAs(err, "property", "list units")
	}
	return list, nil
}

// unitOf finds one of a property's units. Errors: CodeNotFound.
func (s *Service) unitOf(ctx context.Context, org *booking.Organization, propertyID, unitID int64) (*booking.Unit, error) {
	list, err := s.Units(ctx, org, propertyID)
	if err != nil {
		return nil, err
	}
	for i := range list {
		if list[i].ID == unitID {
			return &list[i], nil
		}
	}
	return nil, errNotFound("unit")
}

// AddUnit adds a unit named name to a property, audited as "unit.create".
// Errors: CodeNotFound, CodeInvalid (field "name"), CodeConflict
// (units.ReasonWhole), CodeNotConfigured.
func (s *Service) AddUnit(ctx context.Context, org *booking.Organization, propertyID int64, name string, by Actor) (*booking.Unit, error) {
	us, err := s.unitStore()
	if err != nil {
		return nil, err
	}
	u := &booking.Unit{Name: name}
	err = s.atomically(ctx, func(ctx context.Context) error {
		if err := us.AddUnit(ctx, org.ID, propertyID, u, s.clock.Now()); err != nil {
			return notFoundAs(err, "property", "add unit")
		}
		return s.audit(ctx, org, by, "unit.create", target("property", propertyID), nil, u)
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// RenameUnit renames one of a property's units, audited as "unit.rename".
// Errors: CodeNotFound, CodeInvalid (field "name"), CodeNotConfigured.
func (s *Service) RenameUnit(ctx context.Context, org *booking.Organization, propertyID, unitID int64, name string, by Actor) (*booking.Unit, error) {
	before, err := s.unitOf(ctx, org, propertyID, unitID)
	if err != nil {
		return nil, err
	}
	var after *booking.Unit
	err = s.atomically(ctx, func(ctx context.Context) error {
		if after, err = s.inventory.RenameUnit(ctx, org.ID, unitID, name); err != nil {
			return notFoundAs(err, "unit", "rename unit")
		}
		return s.audit(ctx, org, by, "unit.rename", target("unit", unitID), before, after)
	})
	if err != nil {
		return nil, err
	}
	return after, nil
}

// RetireUnit retires one of a property's units, audited as
// "unit.retire": it is sold no more. Refused while it holds stays or
// blocks to come, has a feed, or is the last (CodeConflict with the
// units.Reason*). Errors: CodeNotFound, CodeNotConfigured.
func (s *Service) RetireUnit(ctx context.Context, org *booking.Organization, propertyID, unitID int64, by Actor) (*booking.Unit, error) {
	before, err := s.unitOf(ctx, org, propertyID, unitID)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var after *booking.Unit
	err = s.atomically(ctx, func(ctx context.Context) error {
		if after, err = s.inventory.RetireUnit(ctx, org.ID, unitID, civil.Today(now, org.Location()), now); err != nil {
			return notFoundAs(err, "unit", "retire unit")
		}
		return s.audit(ctx, org, by, "unit.retire", target("unit", unitID), before, after)
	})
	if err != nil {
		return nil, err
	}
	return after, nil
}

// moveAudit is what the audit log keeps of a move.
type moveAudit struct {
	UnitID int64 `json:"unit_id"`
}

// MoveBooking moves one of org's bookings holding its dates to another
// unit of its property, free for the stay with the property's
// preparation days (checked in the same atomic step), audited as
// "booking.move". Errors: CodeNotFound (booking, unit), CodeUnavailable
// (the unit is not free), CodeConflict (units.ReasonNotHolding),
// CodeNotConfigured.
func (s *Service) MoveBooking(ctx context.Context, org *booking.Organization, bookingID, unitID int64, by Actor) (*booking.Booking, error) {
	us, err := s.unitStore()
	if err != nil {
		return nil, err
	}
	b, err := s.booking(ctx, org, bookingID)
	if err != nil {
		return nil, err
	}
	p, err := s.Property(ctx, org, b.PropertyID)
	if err != nil {
		return nil, err
	}
	set := p.Rates.Rules
	g := booking.DateGuard{PreparationDaysBefore: set.PreparationDaysBefore, PreparationDaysAfter: set.PreparationDaysAfter}
	var moved *booking.Booking
	err = s.atomically(ctx, func(ctx context.Context) error {
		if moved, err = us.MoveBooking(ctx, org.ID, bookingID, unitID, g, s.clock.Now()); err != nil {
			return notFoundAs(err, "unit", "move booking")
		}
		return s.audit(ctx, org, by, "booking.move", target("booking", bookingID), moveAudit{b.UnitID}, moveAudit{moved.UnitID})
	})
	if err != nil {
		return nil, err
	}
	return moved, nil
}

// Links lists org's links, by whole then part. Errors:
// CodeNotConfigured.
func (s *Service) Links(ctx context.Context, org *booking.Organization) ([]units.Link, error) {
	us, err := s.unitStore()
	if err != nil {
		return nil, err
	}
	list, err := us.Links(ctx, org.ID)
	if err != nil {
		return nil, fmt.Errorf("links: %w", err)
	}
	return list, nil
}

// Link declares part as one of whole's parts, audited as "link.create".
// Errors: CodeNotFound, CodeInvalid, CodeConflict (units.ReasonLinked,
// ReasonWhole), CodeUnavailable (the two hold the same nights),
// CodeNotConfigured.
func (s *Service) Link(ctx context.Context, org *booking.Organization, wholeID, partID int64, by Actor) (*units.Link, error) {
	us, err := s.unitStore()
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var l *units.Link
	err = s.atomically(ctx, func(ctx context.Context) error {
		if l, err = us.Link(ctx, org.ID, wholeID, partID, civil.Today(now, org.Location()), now); err != nil {
			return notFoundAs(err, "property", "link")
		}
		return s.audit(ctx, org, by, "link.create", target("property", wholeID), nil, l)
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// Unlink removes the link of a part to its whole, audited as
// "link.delete". Errors: CodeNotFound (subject "link"),
// CodeNotConfigured.
func (s *Service) Unlink(ctx context.Context, org *booking.Organization, partID int64, by Actor) error {
	list, err := s.Links(ctx, org)
	if err != nil {
		return err
	}
	var l *units.Link
	for i := range list {
		if list[i].PartID == partID {
			l = &list[i]
		}
	}
	if l == nil {
		return errNotFound("link")
	}
	return s.atomically(ctx, func(ctx context.Context) error {
		if err := s.inventory.Unlink(ctx, org.ID, l.WholeID, l.PartID); err != nil {
			return notFoundAs(err, "link", "unlink")
		}
		return s.audit(ctx, org, by, "link.delete", target("property", l.WholeID), l, nil)
	})
}
