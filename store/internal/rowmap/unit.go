package rowmap

import (
	"fmt"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
)

// UnitColumns are the columns of units, in the order ScanUnit reads them.
const UnitColumns = `id, property_id, name, position, retired_at, has_prices`

// ScanUnit reads a row of UnitColumns.
func ScanUnit(c Codec, s Scanner) (*booking.Unit, error) {
	var u booking.Unit
	if err := Scan(s, &u.ID, &u.PropertyID, &u.Name, &u.Position, c.Instant(&u.RetiredAt), &u.Priced); err != nil {
		return nil, err
	}
	return &u, nil
}

// UnitNotFound is the error for a unit that is not there, or not an
// active unit of the property asked for.
func UnitNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "Unit not found.")
}

// PropertyLink is a link between two properties (package units): Part is
// one of the properties Whole is made of.
type PropertyLink struct {
	Whole, Part int64
}

// ScanPropertyLink reads a row of whole_id, part_id.
func ScanPropertyLink(_ Codec, s Scanner) (*PropertyLink, error) {
	var l PropertyLink
	if err := Scan(s, &l.Whole, &l.Part); err != nil {
		return nil, err
	}
	return &l, nil
}

// WithUnits fills in the Units and Linked of props from units (by
// property, position, then ID) and the links among them.
func WithUnits(props []booking.Property, units []booking.Unit, links []PropertyLink) {
	at := make(map[int64]int, len(props))
	for i := range props {
		at[props[i].ID] = i
		props[i].Units, props[i].Linked = nil, nil
	}
	for _, u := range units {
		if i, ok := at[u.PropertyID]; ok {
			props[i].Units = append(props[i].Units, u)
		}
	}
	for _, l := range links {
		if i, ok := at[l.Whole]; ok {
			props[i].Linked = append(props[i].Linked, l.Part)
		}
		if i, ok := at[l.Part]; ok {
			props[i].Linked = append(props[i].Linked, l.Whole)
		}
	}
	for i := range props {
		slices.Sort(props[i].Linked)
	}
}

// UnitPriceColumns are the columns of unit_prices, in the order
// ScanUnitPrice reads them.
const UnitPriceColumns = `unit_id, day, price`

// ScanUnitPrice reads a row of UnitPriceColumns; the price is the
// decimal's exact text.
func ScanUnitPrice(c Codec, s Scanner) (*booking.UnitPrice, error) {
	var p booking.UnitPrice
	var price string
	if err := Scan(s, &p.UnitID, c.Day(&p.Date), &price); err != nil {
		return nil, err
	}
	d, err := decimal.NewFromString(price)
	if err != nil {
		return nil, fmt.Errorf("unit %d price of %s: %w", p.UnitID, p.Date, err)
	}
	p.Price = d
	return &p, nil
}
