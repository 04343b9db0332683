package httpapi

import (
	"net/url"
	"strconv"

	"github.com/staykit/staykit/booking"
)

// The properties list by hand, as the quote (quotejson.go): it is the
// page a widget opens with, and encoding/json was the largest part of the
// route's own CPU. encodeProperties writes the same bytes as
// json.Marshal(success{Success: true, Data: views}) plus the newline of
// encodeData; TestPropertiesEncodingMatchesEncodingJSON holds it to that,
// and TestPropertiesEncodingCoversEveryField fails when a view gains a
// field this file does not write.

// encodeProperties encodes the success envelope of a list of properties.
func encodeProperties(views []propertyView) rawEnvelope {
	return encodePropertiesPage(views, propertyPage{}, 0)
}

// encodePropertiesPage is encodeProperties of a page asked with ?limit= or
// ?cursor=: the envelope carries next_cursor too, the cursor of the next
// page (next; 0: null, the last page). Without them (pg.on false), it is
// today's answer, byte for byte.
func encodePropertiesPage(views []propertyView, pg propertyPage, next int64) rawEnvelope {
	b := make([]byte, 0, 96+512*len(views))
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
	if pg.on {
		b = append(b, `,"next_cursor":`...)
		if next > 0 {
			b = append(b, '"')
			b = strconv.AppendInt(b, next, 10)
			b = append(b, '"')
		} else {
			b = append(b, "null"...)
		}
	}
	return append(b, "}\n"...)
}

// maxPropertiesPage is the largest ?limit= of the properties list, and
// its page size when only ?cursor= is given.
const maxPropertiesPage = 100

// propertyPage is the page of the properties list that ?limit= (1–100)
// and ?cursor= (the next_cursor of the previous page) ask for; without
// either (on false) the list is whole, as before they existed (issue #31).
type propertyPage struct {
	on    bool
	limit int
	after int64
}

// readPropertyPage reads ?limit= and ?cursor=, adding their errors to
// errs.
func readPropertyPage(q url.Values, errs booking.FieldErrors) propertyPage {
	pg := propertyPage{on: q.Has("limit") || q.Has("cursor"), limit: maxPropertiesPage}
	if q.Has("limit") {
		n, err := strconv.Atoi(q.Get("limit"))
		if err != nil || n < 1 || n > maxPropertiesPage {
			errs.Add("limit", "out_of_range")
		}
		pg.limit = n
	}
	if q.Has("cursor") {
		n, err := strconv.ParseInt(q.Get("cursor"), 10, 64)
		if err != nil || n < 1 {
			errs.Add("cursor", "invalid_type")
		}
		pg.after = n
	}
	return pg
}

// cut returns the page of views (in ascending ID order, as listings are)
// and the cursor of the next page, 0 when there is none.
func (pg propertyPage) cut(views []propertyView) ([]propertyView, int64) {
	if !pg.on {
		return views, 0
	}
	i := 0
	for i < len(views) && views[i].ID <= pg.after {
		i++
	}
	views = views[i:]
	if len(views) <= pg.limit {
		return views, 0
	}
	return views[:pg.limit], views[pg.limit-1].ID
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
	if v.RegistrationNumber != "" {
		b = append(b, `,"registration_number":`...)
		b = appendJSONString(b, v.RegistrationNumber)
	}
	b = append(b, `,"min_stay_nights":`...)
	b = appendOptInt(b, v.MinStayNights)
	b = append(b, `,"max_stay_nights":`...)
	b = appendOptInt(b, v.MaxStayNights)
	b = append(b, `,"currency":`...)
	b = appendJSONString(b, v.Currency)
	b = append(b, `,"price_from":`...)
	b = appendMoney(b, v.PriceFrom.d, v.PriceFrom.places)
	b = append(b, `,"units":`...)
	b = strconv.AppendInt(b, int64(v.Units), 10)
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
