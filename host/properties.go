package host

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// PropertyChange creates or changes a property: nil fields stay as they
// are (on creation: empty, and Active true). For the stay limits, 0
// removes the limit. Rates replace the rate plan, except that nil
// Overrides keep the nightly prices set on the calendar.
type PropertyChange struct {
	Name          *string
	Description   *string
	Photos        *[]string
	City          *string
	Country       *string
	MaxGuests     *int
	Bedrooms      *int
	MinStayNights *int
	MaxStayNights *int
	Active        *bool
	Rates         *pricing.RatePlan
	Fees          *pricing.Fees
	Tax           *pricing.TouristTax
}

func (c PropertyChange) apply(p *booking.Property) error {
	set(&p.Name, c.Name)
	set(&p.Description, c.Description)
	set(&p.Photos, c.Photos)
	set(&p.City, c.City)
	set(&p.Country, c.Country)
	set(&p.MaxGuests, c.MaxGuests)
	set(&p.Bedrooms, c.Bedrooms)
	set(&p.Active, c.Active)
	set(&p.Fees, c.Fees)
	set(&p.Tax, c.Tax)
	if c.MinStayNights != nil {
		p.MinStayNights = limit(*c.MinStayNights)
	}
	if c.MaxStayNights != nil {
		p.MaxStayNights = limit(*c.MaxStayNights)
	}
	if c.Rates != nil {
		r := *c.Rates
		if r.Overrides == nil {
			r.Overrides = p.Rates.Overrides
		}
		p.Rates = r
	}
	f := booking.FieldErrors{}
	for _, photo := range p.Photos {
		if checkURL(f, "photos", photo); len(f) > 0 {
			break
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	return p.Validate()
}

// Properties lists an organisation's properties, inactive ones included.
func (s *Service) Properties(ctx context.Context, org *booking.Organization) ([]booking.Property, error) {
	list, err := s.store.Properties(ctx, org.ID)
	if err != nil {
		return nil, fmt.Errorf("list properties: %w", err)
	}
	return list, nil
}

// Property finds a property of org, active or not. Errors: CodeNotFound.
func (s *Service) Property(ctx context.Context, org *booking.Organization, id int64) (*booking.Property, error) {
	p, err := s.store.Property(ctx, org.ID, id)
	if err != nil {
		return nil, notFoundAs(err, "property", "find property")
	}
	return p, nil
}

// CreateProperty adds a property to org. Errors: CodeInvalid.
func (s *Service) CreateProperty(ctx context.Context, org *booking.Organization, c PropertyChange, by Actor) (*booking.Property, error) {
	p := &booking.Property{OrgID: org.ID, Active: true, Photos: []string{}}
	if err := c.apply(p); err != nil {
		return nil, err
	}
	if err := s.store.CreateProperty(ctx, p); err != nil {
		return nil, fmt.Errorf("create property: %w", err)
	}
	if err := s.audit(ctx, org, by, "property.create", target("property", p.ID), nil, p); err != nil {
		return nil, err
	}
	return p, nil
}

// UpdateProperty changes a property. A deactivated property (Active
// false) leaves the public listing and takes no checkout, but keeps its
// bookings. Errors: CodeNotFound, CodeInvalid.
func (s *Service) UpdateProperty(ctx context.Context, org *booking.Organization, id int64, c PropertyChange, by Actor) (*booking.Property, error) {
	before, err := s.Property(ctx, org, id)
	if err != nil {
		return nil, err
	}
	p := *before
	p.Photos = append([]string(nil), before.Photos...)
	if err := c.apply(&p); err != nil {
		return nil, err
	}
	if err := s.store.UpdateProperty(ctx, &p); err != nil {
		return nil, notFoundAs(err, "property", "update property")
	}
	action := "property.update"
	if before.Active && !p.Active {
		action = "property.deactivate"
	}
	if err := s.audit(ctx, org, by, action, target("property", id), before, p); err != nil {
		return nil, err
	}
	return &p, nil
}

// DeactivateProperty takes a property off the public side.
func (s *Service) DeactivateProperty(ctx context.Context, org *booking.Organization, id int64, by Actor) (*booking.Property, error) {
	inactive := false
	return s.UpdateProperty(ctx, org, id, PropertyChange{Active: &inactive}, by)
}

// AddBlock keeps nights of a property for the owner. Errors: CodeNotFound,
// CodeInvalid, CodeConflict (reason "booked": a booking holds some of
// the nights).
func (s *Service) AddBlock(ctx context.Context, org *booking.Organization, propertyID int64, b booking.Block, by Actor) (*booking.Block, error) {
	if _, err := s.Property(ctx, org, propertyID); err != nil {
		return nil, err
	}
	f := booking.FieldErrors{}
	if b.Start.IsZero() {
		f.Add("start", "required")
	}
	if b.End.IsZero() {
		f.Add("end", "required")
	}
	if len(f) == 0 && !b.Start.Before(b.End) {
		f.Add("end", "invalid_range")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	if err := s.store.AddBlock(ctx, propertyID, &b, s.clock.Now()); err != nil {
		return nil, bookedConflict(notFoundAs(err, "property", "add block"))
	}
	if err := s.audit(ctx, org, by, "block.create", target("property", propertyID), nil, b); err != nil {
		return nil, err
	}
	return &b, nil
}

// RemoveBlock gives a block's nights back to guests. Errors: CodeNotFound.
func (s *Service) RemoveBlock(ctx context.Context, org *booking.Organization, propertyID, blockID int64, by Actor) error {
	p, err := s.Property(ctx, org, propertyID)
	if err != nil {
		return err
	}
	var before *booking.Block
	for _, b := range p.Blocks {
		if b.ID == blockID {
			before = &b
		}
	}
	if before == nil {
		return errNotFound("block")
	}
	if err := s.store.RemoveBlock(ctx, propertyID, blockID); err != nil {
		return notFoundAs(err, "block", "remove block")
	}
	return s.audit(ctx, org, by, "block.delete", target("property", propertyID), before, nil)
}

// MaxCalendarDays is the longest range one calendar request reads or sets.
const MaxCalendarDays = 366

// SetCalendar sets the nights [c.From, c.To) of a property in one atomic
// step: their price, and whether they are closed. Errors: CodeNotFound,
// CodeInvalid, CodeConflict (reason "booked", closing booked nights).
func (s *Service) SetCalendar(ctx context.Context, org *booking.Organization, propertyID int64, c booking.CalendarChange, by Actor) (*booking.Property, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if c.From.DaysUntil(c.To) > MaxCalendarDays {
		return nil, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.", Fields: booking.FieldErrors{"to": {"out_of_range"}}}
	}
	before, err := s.Property(ctx, org, propertyID)
	if err != nil {
		return nil, err
	}
	p, err := s.store.SetCalendar(ctx, org.ID, propertyID, c, s.clock.Now())
	if err != nil {
		return nil, bookedConflict(notFoundAs(err, "property", "set calendar"))
	}
	type change struct {
		From       civil.Date `json:"from"`
		To         civil.Date `json:"to"`
		Price      any        `json:"price,omitempty"`
		ClearPrice bool       `json:"clear_price,omitempty"`
		Closed     *bool      `json:"closed,omitempty"`
		Reason     string     `json:"reason,omitempty"`
	}
	ch := change{From: c.From, To: c.To, ClearPrice: c.ClearPrice, Closed: c.Closed, Reason: c.Reason}
	if c.Price != nil {
		ch.Price = c.Price.String()
	}
	type state struct {
		Overrides []pricing.DateOverride `json:"overrides"`
		Blocks    []booking.Block        `json:"blocks"`
	}
	err = s.audit(ctx, org, by, "calendar.set", target("property", propertyID),
		state{before.Rates.Overrides, before.Blocks}, struct {
			Change change `json:"change"`
			state
		}{ch, state{p.Rates.Overrides, p.Blocks}})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Day is one night of a property's calendar as the host sees it.
type Day struct {
	Date  civil.Date
	Price decimal.Decimal
	// Override: the price is set for this night.
	Override bool
	// Blocked: an owner block covers the night (BlockID).
	Blocked bool
	BlockID int64
	// Booking holding the night at now, if any, and its status.
	BookingID int64
	Status    booking.Status
}

// Calendar returns the nights [from, to) of a property: price, blocks and
// the bookings holding them. Errors: CodeNotFound, CodeInvalid.
func (s *Service) Calendar(ctx context.Context, org *booking.Organization, propertyID int64, from, to civil.Date) ([]Day, error) {
	if !from.Before(to) || from.DaysUntil(to) > MaxCalendarDays {
		return nil, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.", Fields: booking.FieldErrors{"to": {"invalid_range"}}}
	}
	p, err := s.Property(ctx, org, propertyID)
	if err != nil {
		return nil, err
	}
	bookings, err := s.store.Bookings(ctx, org.ID, booking.HoldingStatuses...)
	if err != nil {
		return nil, fmt.Errorf("calendar bookings: %w", err)
	}
	now := s.clock.Now()
	overrides := make(map[civil.Date]bool, len(p.Rates.Overrides))
	for _, o := range p.Rates.Overrides {
		overrides[o.Date] = true
	}
	var days []Day
	for d := from; d.Before(to); d = d.AddDays(1) {
		day := Day{Date: d, Price: p.Rates.NightPrice(d), Override: overrides[d]}
		for _, b := range p.Blocks {
			if !d.Before(b.Start) && d.Before(b.End) {
				day.Blocked, day.BlockID = true, b.ID
			}
		}
		for _, b := range bookings {
			if b.PropertyID == p.ID && b.HoldsDates(now) && !d.Before(b.CheckIn) && d.Before(b.CheckOut) {
				day.BookingID, day.Status = b.ID, b.Status
			}
		}
		days = append(days, day)
	}
	return days, nil
}
