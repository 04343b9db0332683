package rowmap

import (
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/checkin"
)

// CheckinColumns are the columns of booking_checkins, in the order
// ScanCheckin reads them.
const CheckinColumns = `booking_id, country, guests, updated_by, updated_at, submitted_at`

// ScanCheckin reads a row of CheckinColumns.
func ScanCheckin(c Codec, s Scanner) (*checkin.Record, error) {
	var r checkin.Record
	if err := Scan(s, &r.BookingID, &r.Country, JSON(c, &r.Guests), &r.UpdatedBy, c.Instant(&r.UpdatedAt),
		c.Instant(&r.SubmittedAt)); err != nil {
		return nil, err
	}
	return &r, nil
}

// ScanDeletedCheckin reads a row of booking ID, organisation ID and
// country.
func ScanDeletedCheckin(_ Codec, s Scanner) (*checkin.Deleted, error) {
	var d checkin.Deleted
	if err := Scan(s, &d.BookingID, &d.OrgID, &d.Country); err != nil {
		return nil, err
	}
	return &d, nil
}

// CheckinCountries is the condition on the column country of booking_checkins
// that c selects, with its arguments, placeholders written by mark (the
// argument's position from first); "" and no argument when c selects every
// country, and ok false when it selects none.
func CheckinCountries(c checkin.Cutoff, first int, mark func(int) string) (cond string, args []any, ok bool) {
	if len(c.Countries) == 0 {
		return "", nil, c.Others
	}
	cond = "country IN ("
	if c.Others {
		cond = "country NOT IN ("
	}
	for i, country := range c.Countries {
		if i > 0 {
			cond += ", "
		}
		cond += mark(first + i)
		args = append(args, country)
	}
	return cond + ")", args, true
}

// CheckinNotFound is the error of a booking without a check-in.
func CheckinNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This booking has no check-in.")
}

// QualifiedCheckinColumns are CheckinColumns of the table aliased c.
var QualifiedCheckinColumns = "c." + strings.ReplaceAll(CheckinColumns, ", ", ", c.")
