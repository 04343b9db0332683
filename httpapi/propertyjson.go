package httpapi

import "strconv"

// The properties list by hand, as the quote (quotejson.go): it is the
// page a widget opens with, and encoding/json was the largest part of the
// route's own CPU. encodeProperties writes the same bytes as
// json.Marshal(success{Success: true, Data: views}) plus the newline of
// encodeData; TestPropertiesEncodingMatchesEncodingJSON holds it to that,
// and TestPropertiesEncodingCoversEveryField fails when a view gains a
// field this file does not write.

// encodeProperties encodes the success envelope of a list of properties.
func encodeProperties(views []propertyView) rawEnvelope {
	b := make([]byte, 0, 64+512*len(views))
	b = append(b, `{"success":true,"data":`...)
	if views == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range views {
			if i > 0 {
				b = append(b, ',')
			}
			b = views[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, "}\n"...)
}

func (v *propertyView) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, v.ID, 10)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, v.Name)
	b = append(b, `,"description":`...)
	b = appendJSONString(b, v.Description)
	b = append(b, `,"photos":`...)
	if v.Photos == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range v.Photos {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, p)
		}
		b = append(b, ']')
	}
	b = append(b, `,"city":`...)
	b = appendJSONString(b, v.City)
	b = append(b, `,"country":`...)
	b = appendJSONString(b, v.Country)
	b = append(b, `,"max_guests":`...)
	b = strconv.AppendInt(b, int64(v.MaxGuests), 10)
	b = append(b, `,"bedrooms":`...)
	b = strconv.AppendInt(b, int64(v.Bedrooms), 10)
	b = append(b, `,"min_stay_nights":`...)
	b = appendOptInt(b, v.MinStayNights)
	b = append(b, `,"max_stay_nights":`...)
	b = appendOptInt(b, v.MaxStayNights)
	b = append(b, `,"currency":`...)
	b = appendJSONString(b, v.Currency)
	b = append(b, `,"price_from":`...)
	b = appendMoney(b, v.PriceFrom.d, v.PriceFrom.places)
	b = append(b, `,"extras":`...)
	if v.Extras == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, e := range v.Extras {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"code":`...)
			b = appendJSONString(b, e.Code)
			b = append(b, `,"labels":`...)
			b = appendStringMap(b, e.Labels)
			b = append(b, `,"per":`...)
			b = appendJSONString(b, e.Per)
			b = append(b, `,"amount":`...)
			b = appendMoney(b, e.Amount.d, e.Amount.places)
			b = append(b, `,"max_quantity":`...)
			b = strconv.AppendInt(b, int64(e.MaxQuantity), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	g := v.Guests
	b = append(b, `,"guests":{"max_children":`...)
	b = appendOptInt(b, g.MaxChildren)
	b = append(b, `,"max_infants":`...)
	b = appendOptInt(b, g.MaxInfants)
	b = append(b, `,"max_pets":`...)
	b = strconv.AppendInt(b, int64(g.MaxPets), 10)
	b = append(b, `,"child_age_below":`...)
	b = strconv.AppendInt(b, int64(g.ChildAgeBelow), 10)
	b = append(b, `,"infant_age_below":`...)
	b = strconv.AppendInt(b, int64(g.InfantAgeBelow), 10)
	b = append(b, '}')
	if v.QuoteTotal != nil {
		b = append(b, `,"quote_total":`...)
		b = appendMoney(b, v.QuoteTotal.d, v.QuoteTotal.places)
	}
	return append(b, '}')
}

func appendOptInt(b []byte, n *int) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*n), 10)
}
