package booking

import (
	"context"
	"fmt"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// UnitPrice is a unit's own price of the night starting on Date (issue
// #27): it wins over the property's price of that night (rate plan and
// calendar) for stays on that unit.
type UnitPrice struct {
	UnitID int64
	Date   civil.Date
	Price  decimal.Decimal
}

// UnitPriceDay sets or clears a unit's own price of one night: a nil
// Price clears it, and the night is priced by the property again.
type UnitPriceDay struct {
	Date  civil.Date       `json:"date"`
	Price *decimal.Decimal `json:"price"`
}

// CheckUnitPriceDays reports CodeInvalid (field "days") when a day has no
// date, a date appears twice, or a price is negative, as
// CheckCalendarDays does for a property's. Stores call it before
// writing; package host bounds amounts (CheckBounds) before.
func CheckUnitPriceDays(days []UnitPriceDay) error {
	cal := make([]CalendarDay, len(days))
	for i, d := range days {
		cal[i] = CalendarDay{Date: d.Date, Price: d.Price}
	}
	return CheckCalendarDays(cal)
}

// UnitPriceReader reads units' own prices. store/sqlite and
// store/postgres implement it (Stores.UnitPriceReader); the host writes
// them through package units.
type UnitPriceReader interface {
	// UnitPrices lists the own prices of the units of a property for the
	// nights from from to to (half-open), by date then unit, retired
	// units' included.
	UnitPrices(ctx context.Context, propertyID int64, from, to civil.Date) ([]UnitPrice, error)
}

// unitPriced reports whether some active unit of p has prices of its own:
// only then does a stay's price depend on the unit it holds.
func unitPriced(p *Property) bool {
	return slices.ContainsFunc(p.Units, func(u Unit) bool { return u.Active() && u.Priced })
}

// unitTier is the pricing of a stay on a property whose units have prices
// of their own (UnitPrice): the property as the stay is priced on its
// cheapest unit, and the units priced exactly alike for every night of
// the stay (DateGuard.Units), to which the store holding the stay keeps
// it. Properties none of whose active units is priced, and stays that
// every unit prices alike, get p unchanged and nil units: any unit.
type unitTier struct {
	p     *Property
	units []int64
}

// tierOf prices stay on each active unit of p (its own prices for the
// nights it has them, the property's — p after withCalendar — for the
// others) and returns the tier of the cheapest unit that free(unit)
// accepts, ties to the first unit by position; the cheapest unit of all
// when none is accepted (the store refuses the stay then). own are the
// units' prices over the stay's nights.
func tierOf(p *Property, stay civil.Range, own []UnitPrice, free func(unit int64) bool) unitTier {
	nights := stay.Start.DaysUntil(stay.End)
	base := make([]decimal.Decimal, nights)
	for i, d := 0, stay.Start; i < nights; i, d = i+1, d.AddDays(1) {
		base[i] = p.Rates.NightPrice(d)
	}
	type priced struct {
		id     int64
		prices []decimal.Decimal // base, or a copy with the unit's own
		own    bool              // prices is a copy
		total  decimal.Decimal
		free   bool
	}
	var units []priced
	for _, u := range p.Units {
		if !u.Active() {
			continue
		}
		pu := priced{id: u.ID, prices: base, free: free(u.ID)}
		for _, o := range own {
			if o.UnitID != u.ID || !stay.Contains(o.Date) {
				continue
			}
			if !pu.own {
				pu.prices, pu.own = slices.Clone(base), true
			}
			pu.prices[stay.Start.DaysUntil(o.Date)] = o.Price
		}
		pu.total = decimal.Sum(decimal.Zero, pu.prices...)
		units = append(units, pu)
	}
	if len(units) == 0 {
		return unitTier{p: p}
	}
	// The cheapest unit that is free, else the cheapest of all; ties to
	// the first.
	cheapest := func(ok func(priced) bool) int {
		best := -1
		for i, u := range units {
			if ok(u) && (best < 0 || u.total.LessThan(units[best].total)) {
				best = i
			}
		}
		return best
	}
	best := cheapest(func(u priced) bool { return u.free })
	if best < 0 {
		best = cheapest(func(priced) bool { return true })
	}
	chosen := units[best].prices
	var ids []int64
	for _, u := range units {
		if slices.EqualFunc(u.prices, chosen, decimal.Decimal.Equal) {
			ids = append(ids, u.id)
		}
	}
	if len(ids) == len(units) {
		// Every unit prices the stay alike: no unit to prefer.
		ids = nil
	}
	if !units[best].own {
		return unitTier{p: p, units: ids}
	}
	cp := *p
	overrides := make([]pricing.DateOverride, 0, len(p.Rates.Overrides)+nights)
	for _, o := range p.Rates.Overrides {
		if !stay.Contains(o.Date) {
			overrides = append(overrides, o)
		}
	}
	for i, d := 0, stay.Start; i < nights; i, d = i+1, d.AddDays(1) {
		overrides = append(overrides, pricing.DateOverride{Date: d, Price: chosen[i]})
	}
	cp.Rates.Overrides = overrides
	return unitTier{p: &cp, units: ids}
}

// unitPricing returns the tier (tierOf) of stay at p, a property after
// withCalendar, as units are free: a unit is free when no hold of taken
// (holdsNear, the holds of the stay's guarded range, those of a booking
// changing its dates left out) overlaps the guarded range on it.
// Properties without priced units cost no read.
func (s *Service) unitPricing(ctx context.Context, p *Property, stay civil.Range, taken []Hold) (unitTier, error) {
	own, err := s.ownPrices(ctx, p, stay)
	if err != nil || len(own) == 0 {
		return unitTier{p: p}, err
	}
	gap := p.Rates.Rules.Gap()
	guarded := civil.Range{Start: stay.Start.AddDays(-gap), End: stay.End.AddDays(gap)}
	free := func(unit int64) bool {
		return !slices.ContainsFunc(taken, func(h Hold) bool { return h.Unit == unit && h.Overlaps(guarded) })
	}
	return tierOf(p, stay, own, free), nil
}

// ownPrices reads the own prices of p's units over r (UnitPriceReader):
// none, and no read, when no active unit of p is priced, the store keeps
// no unit prices or r has no night.
func (s *Service) ownPrices(ctx context.Context, p *Property, r civil.Range) ([]UnitPrice, error) {
	if !unitPriced(p) || s.store.UnitPriceReader == nil || !r.Start.Before(r.End) {
		return nil, nil
	}
	own, err := s.store.UnitPrices(ctx, p.ID, r.Start, r.End)
	if err != nil {
		return nil, fmt.Errorf("read unit prices of property %d: %w", p.ID, err)
	}
	return own, nil
}

// unitsPricedAs returns the active units of p that price stay exactly as
// unit does, nil when every unit does or none of p's units is priced: the
// units a booking of unit may take its dates back on (claimGuard).
func (s *Service) unitsPricedAs(ctx context.Context, p *Property, stay civil.Range, unit int64) ([]int64, error) {
	if unit == 0 {
		return nil, nil
	}
	own, err := s.ownPrices(ctx, p, stay)
	if err != nil || len(own) == 0 {
		return nil, err
	}
	if p, err = s.withCalendar(ctx, p, stay.Start, stay.End.AddDays(1)); err != nil {
		return nil, fmt.Errorf("read calendar of property %d: %w", p.ID, err)
	}
	t := tierOf(p, stay, own, func(id int64) bool { return id == unit })
	if t.units != nil && !slices.Contains(t.units, unit) {
		// unit is retired: keep it to the units priced as it was sold.
		return []int64{unit}, nil
	}
	return t.units, nil
}

// cheapestUnitPriced returns p after withCalendar over stay, priced as
// its cheapest unit, free or not (tierOf): what a search sorted by price
// counts for a property whose units have prices of their own.
func (s *Service) cheapestUnitPriced(ctx context.Context, p *Property, stay civil.Range) (*Property, error) {
	p, err := s.withCalendar(ctx, p, stay.Start, stay.End)
	if err != nil {
		return nil, fmt.Errorf("read calendar of property %d: %w", p.ID, err)
	}
	own, err := s.ownPrices(ctx, p, stay)
	if err != nil || len(own) == 0 {
		return p, err
	}
	return tierOf(p, stay, own, func(int64) bool { return true }).p, nil
}
