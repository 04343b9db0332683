package rowmap

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// ScanRange reads a row of two dates: a range's start and end.
func ScanRange(c Codec, s Scanner) (*civil.Range, error) {
	var r civil.Range
	if err := Scan(s, c.Day(&r.Start), c.Day(&r.End)); err != nil {
		return nil, err
	}
	return &r, nil
}

// ScanHold reads a row of a hold: its start, its end, when it lapses
// (NULL when it does not), and its unit (0 or NULL: every unit).
func ScanHold(c Codec, s Scanner) (*booking.Hold, error) {
	var h booking.Hold
	if err := Scan(s, c.Day(&h.Start), c.Day(&h.End), c.Instant(&h.Until), c.NullInt64(&h.Unit)); err != nil {
		return nil, err
	}
	return &h, nil
}

// ScanPropertyHold reads a row of a property's hold: the property, then
// the columns of ScanHold.
func ScanPropertyHold(c Codec, s Scanner) (*booking.PropertyHold, error) {
	var h booking.PropertyHold
	if err := Scan(s, &h.PropertyID, c.Day(&h.Start), c.Day(&h.End), c.Instant(&h.Until), c.NullInt64(&h.Unit)); err != nil {
		return nil, err
	}
	return &h, nil
}

// CalendarDayColumns are the columns of calendar_days after property_id,
// in the order ScanCalendarDay reads them.
const CalendarDayColumns = `day, price, closed, min_stay_nights, max_stay_nights,
	closed_to_arrival, closed_to_departure`

// ScanCalendarDay reads a row of CalendarDayColumns. The price is the
// decimal's exact text, NULL when not set.
func ScanCalendarDay(c Codec, s Scanner) (*booking.CalendarDay, error) {
	var d booking.CalendarDay
	if err := scanCalendarDay(c, s, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// ScanPropertyCalendarDay reads a row of property_id, then
// CalendarDayColumns.
func ScanPropertyCalendarDay(c Codec, s Scanner) (*booking.PropertyCalendarDay, error) {
	var d booking.PropertyCalendarDay
	if err := scanCalendarDay(c, s, &d.CalendarDay, &d.PropertyID); err != nil {
		return nil, err
	}
	return &d, nil
}

// scanCalendarDay reads the columns before, then CalendarDayColumns, into
// d.
func scanCalendarDay(c Codec, s Scanner, d *booking.CalendarDay, before ...any) error {
	var price *string
	if err := Scan(s, append(before, c.Day(&d.Date), &price, &d.Closed, c.OptInt(&d.MinStayNights),
		c.OptInt(&d.MaxStayNights), &d.ClosedToArrival, &d.ClosedToDeparture)...); err != nil {
		return err
	}
	if price != nil {
		p, err := decimal.NewFromString(*price)
		if err != nil {
			return fmt.Errorf("calendar day %s price: %w", d.Date, err)
		}
		d.Price = &p
	}
	return nil
}

// ScanClosedDay reads the columns day, closed of calendar_days: what a
// checkout needs of them.
func ScanClosedDay(c Codec, s Scanner) (*booking.CalendarDay, error) {
	var d booking.CalendarDay
	if err := Scan(s, c.Day(&d.Date), &d.Closed); err != nil {
		return nil, err
	}
	return &d, nil
}
