package host

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// UnitPriceChange sets or clears a unit's own price of the nights from
// From to To (half-open), as CalendarChange does for a property's.
type UnitPriceChange struct {
	From civil.Date `json:"from"`
	To   civil.Date `json:"to"`
	// Price of each night; positive.
	Price *decimal.Decimal `json:"price"`
	// ClearPrice removes the unit's own prices: the property's apply.
	ClearPrice bool `json:"clear_price"`
}

// validate checks c, in the organisation's currency, as a calendar
// change of the same dates and price (booking.CalendarChange.Validate),
// then its bounds. Errors: CodeInvalid.
func (c UnitPriceChange) validate(currency string) error {
	if err := (booking.CalendarChange{From: c.From, To: c.To, Price: c.Price, ClearPrice: c.ClearPrice}).Validate(); err != nil {
		return err
	}
	return booking.CheckBounds(c, currency)
}

// UnitPrices lists a unit's own prices of the nights from from to to
// (half-open, at most MaxCalendarDays), by date. Errors: CodeNotFound,
// CodeInvalid (field "to"), CodeNotConfigured.
func (s *Service) UnitPrices(ctx context.Context, org *booking.Organization, propertyID, unitID int64, from, to civil.Date) ([]booking.UnitPrice, error) {
	if err := checkRange(from, to); err != nil {
		return nil, err
	}
	us, err := s.unitStore()
	if err != nil {
		return nil, err
	}
	if _, err := s.unitOf(ctx, org, propertyID, unitID); err != nil {
		return nil, err
	}
	list, err := us.UnitPriceDays(ctx, org.ID, unitID, from, to)
	if err != nil {
		return nil, notFoundAs(err, "unit", "list unit prices")
	}
	return list, nil
}

// SetUnitPrices applies c to one of a property's units, audited as
// "unit.prices": a stay on the unit is priced by its own prices for those
// nights, and a guest's quote by the cheapest free unit (issue #27). It
// returns the unit. Errors: CodeNotFound, CodeInvalid, CodeNotConfigured.
func (s *Service) SetUnitPrices(ctx context.Context, org *booking.Organization, propertyID, unitID int64, c UnitPriceChange, by Actor) (*booking.Unit, error) {
	if err := c.validate(org.Currency); err != nil {
		return nil, err
	}
	us, err := s.unitStore()
	if err != nil {
		return nil, err
	}
	if _, err := s.unitOf(ctx, org, propertyID, unitID); err != nil {
		return nil, err
	}
	days := make([]booking.UnitPriceDay, 0, c.From.DaysUntil(c.To))
	for d := c.From; d.Before(c.To); d = d.AddDays(1) {
		days = append(days, booking.UnitPriceDay{Date: d, Price: c.Price})
	}
	var after *booking.Unit
	err = s.atomically(ctx, func(ctx context.Context) error {
		if after, err = us.SetUnitPrices(ctx, org.ID, unitID, days); err != nil {
			return notFoundAs(err, "unit", "set unit prices")
		}
		return s.audit(ctx, org, by, "unit.prices", target("unit", unitID), nil, c)
	})
	if err != nil {
		return nil, err
	}
	return after, nil
}
