package rowmap

import (
	"strings"

	"github.com/staykit/staykit/booking"
)

// PropertyColumns are the columns of properties, in the order
// ScanProperty reads them.
const PropertyColumns = `id, org_id, name, description, photos, city, country, max_guests,
	bedrooms, min_stay_nights, max_stay_nights, active, rates, fees, tax, registration_number,
	postal_code, municipality_code`

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
		NullInt(p.MinStayNights), NullInt(p.MaxStayNights), p.Active, j[1], j[2], j[3], p.RegistrationNumber,
		p.PostalCode, p.MunicipalityCode}, nil
}

// ScanProperty reads a row of PropertyColumns. Its blocks are not read.
func ScanProperty(c Codec, s Scanner) (*booking.Property, error) {
	var p booking.Property
	if err := Scan(s, &p.ID, &p.OrgID, &p.Name, &p.Description, JSON(c, &p.Photos), &p.City,
		&p.Country, &p.MaxGuests, &p.Bedrooms, c.OptInt(&p.MinStayNights),
		c.OptInt(&p.MaxStayNights), &p.Active, JSON(c, &p.Rates), JSON(c, &p.Fees),
		JSON(c, &p.Tax), &p.RegistrationNumber, &p.PostalCode, &p.MunicipalityCode); err != nil {
		return nil, err
	}
	return &p, nil
}

// PropertyNotFound is the error for a property that is not there.
func PropertyNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "Property not found.")
}

// BlockColumns are the columns of a host's blocks, in the order ScanBlock
// reads them.
const BlockColumns = `id, start_date, end_date, reason, unit_id`

// ScanBlock reads a row of BlockColumns.
func ScanBlock(c Codec, s Scanner) (*booking.Block, error) {
	var b booking.Block
	if err := Scan(s, &b.ID, c.Day(&b.Start), c.Day(&b.End), &b.Reason, c.NullInt64(&b.UnitID)); err != nil {
		return nil, err
	}
	return &b, nil
}

// PropertyBlock is a block and the property it is on.
type PropertyBlock struct {
	PropertyID int64
	booking.Block
}

// ScanPropertyBlock reads a row of property_id, then BlockColumns.
func ScanPropertyBlock(c Codec, s Scanner) (*PropertyBlock, error) {
	var b PropertyBlock
	if err := Scan(s, &b.PropertyID, &b.ID, c.Day(&b.Start), c.Day(&b.End), &b.Reason, c.NullInt64(&b.UnitID)); err != nil {
		return nil, err
	}
	return &b, nil
}

// ByProperty groups blocks by their property, keeping their order.
func ByProperty(blocks []PropertyBlock) map[int64][]booking.Block {
	out := map[int64][]booking.Block{}
	for _, b := range blocks {
		out[b.PropertyID] = append(out[b.PropertyID], b.Block)
	}
	return out
}
