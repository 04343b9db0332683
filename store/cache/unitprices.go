package cache

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// unitPriceEntry is the own prices of a property's units over [from, to),
// by date then unit.
type unitPriceEntry struct {
	prices   []booking.UnitPrice
	from, to civil.Date
	at       time.Time // when read (cache clock)
}

// UnitPrices is served from memory when the property's units' prices
// cached cover [from, to); a miss reads a year past from (calendarReach),
// so that the calendar and the quotes that follow are served by one
// entry. They are forgotten with the property's catalogue, which
// SetUnitPrices forgets (UnitStore). Without a UnitPriceReader under the
// read model there are none.
func (c *Store) UnitPrices(ctx context.Context, propertyID int64, from, to civil.Date) ([]booking.UnitPrice, error) {
	if c.base.UnitPriceReader == nil {
		return nil, nil
	}
	c.mu.RLock()
	e, ok := c.unitPrices[propertyID]
	gen := c.catalogSeq
	c.mu.RUnlock()
	if ok && c.fresh(e.at) && !from.Before(e.from) && !e.to.Before(to) {
		return unitPricesIn(e.prices, from, to), nil
	}
	hi := to
	if reach := from.AddDays(calendarReach); hi.Before(reach) {
		hi = reach
	}
	at := c.now()
	prices, err := c.base.UnitPriceReader.UnitPrices(ctx, propertyID, from, hi)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.kept(gen, 0, propertyID) {
		c.unitPrices[propertyID] = unitPriceEntry{prices: prices, from: from, to: hi, at: at}
	}
	c.mu.Unlock()
	return unitPricesIn(prices, from, to), nil
}

// unitPricesIn returns the prices of [from, to) among prices (by date
// then unit), as datesIn does.
func unitPricesIn(prices []booking.UnitPrice, from, to civil.Date) []booking.UnitPrice {
	return datesIn(prices, func(p booking.UnitPrice) civil.Date { return p.Date }, from, to)
}
