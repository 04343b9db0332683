package rowmap

import (
	"strings"

	"github.com/staykit/staykit/booking"
)

// PropertyColumns are the columns of properties, in the order
// ScanProperty reads them.
const PropertyColumns = `id, org_id, name, description, photos, city, country, max_guests,
	bedrooms, min_stay_nights, max_stay_nights, active, rates, fees, tax`

// PropertyDataColumns are PropertyColumns after id and org_id, in the
// order of PropertyArgs.
var PropertyDataColumns = strings.TrimPrefix(PropertyColumns, "id, org_id, ")

// PropertyArgs returns p's columns after id and org_id, in
// PropertyDataColumns order.
func PropertyArgs(c Codec, p *booking.Property) ([]any, error) {
	j, err := JSONArgs(c, p.Photos, p.Rates, p.Fees, p.Tax)
	if err != nil {
		return nil, err
	}
	return []any{p.Name, p.Description, j[0], p.City, p.Country, p.MaxGuests, p.Bedrooms,
		NullInt(p.MinStayNights), NullInt(p.MaxStayNights), p.Active, j[1], j[2], j[3]}, nil
}

// ScanProperty reads a row of PropertyColumns. Its blocks are not read.
func ScanProperty(c Codec, s Scanner) (*booking.Property, error) {
	var p booking.Property
	if err := Scan(s, &p.ID, &p.OrgID, &p.Name, &p.Description, JSON(c, &p.Photos), &p.City,
		&p.Country, &p.MaxGuests, &p.Bedrooms, c.OptInt(&p.MinStayNights),
		c.OptInt(&p.MaxStayNights), &p.Active, JSON(c, &p.Rates), JSON(c, &p.Fees),
		JSON(c, &p.Tax)); err != nil {
		return nil, err
	}
	return &p, nil
}

// PropertyNotFound is the error for a property that is not there.
func PropertyNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "Property not found.")
}

// ScanBlock reads the columns id, start_date, end_date, reason of blocks,
// after the destinations of before.
func ScanBlock(c Codec, s Scanner, before ...any) (booking.Block, error) {
	var b booking.Block
	err := Scan(s, append(before, &b.ID, c.Day(&b.Start), c.Day(&b.End), &b.Reason)...)
	return b, err
}
