package booking

import (
	"strconv"

	"github.com/staykit/staykit/civil"
)

// Codes of the stay rules, each a 422 at quote and checkout.
const (
	CodeCheckInPast = "check_in_past" // check-in before today
	CodeMinStay     = "min_stay"      // fewer nights than the minimum
	CodeMaxStay     = "max_stay"      // more nights than the maximum
	CodeMaxGuests   = "max_guests"    // more guests than the property takes
	// CodeBeyondHorizon: the stay ends after the organisation's booking
	// horizon (Organization.BookingHorizonDays after today).
	CodeBeyondHorizon = "beyond_horizon"
)

// MaxNights is the longest stay staykit prices, whatever the configuration
// says: it bounds the work one request can ask for.
const MaxNights = 365

// Stay is a guest's wish: dates and party size.
type Stay struct {
	CheckIn  civil.Date
	CheckOut civil.Date
	Guests   int
}

// Range returns the nights of the stay.
func (st Stay) Range() civil.Range { return civil.Range{Start: st.CheckIn, End: st.CheckOut} }

// validateShape checks what needs no configuration: dates given and in
// order, at least one guest. Field names are the API's.
func (st Stay) validateShape(f FieldErrors) {
	switch {
	case st.CheckIn.IsZero():
		f.Add("check_in", "required")
	case st.CheckOut.IsZero():
		f.Add("check_out", "required")
	case !st.CheckIn.Before(st.CheckOut):
		f.Add("check_out", "after_check_in")
	}
	if st.Guests < 1 {
		f.Add("guests_count", "min_one")
	}
}

// checkRules enforces the stay rules of SPEC §4 for org and property, given
// today's date in the organisation's zone. Availability is checked apart.
func checkRules(org *Organization, p *Property, st Stay, today civil.Date) error {
	f := FieldErrors{}
	st.validateShape(f)
	if err := f.Err(); err != nil {
		return err
	}
	if err := checkDates(org, st, today); err != nil {
		return err
	}
	nights := st.Range().Nights()
	minN, maxN := p.StayLimits(*org, st.CheckIn)
	if maxN == 0 || maxN > MaxNights {
		maxN = MaxNights
	}
	if minN > 0 && nights < minN {
		return &Error{Code: CodeMinStay, Message: "This stay is shorter than the minimum of " + strconv.Itoa(minN) + " nights.",
			Params: map[string]string{"min": strconv.Itoa(minN)}}
	}
	if nights > maxN {
		return &Error{Code: CodeMaxStay, Message: "This stay is longer than the maximum of " + strconv.Itoa(maxN) + " nights.",
			Params: map[string]string{"max": strconv.Itoa(maxN)}}
	}
	if st.Guests > p.MaxGuests {
		return errMaxGuests(p.MaxGuests)
	}
	return nil
}

// errMaxGuests is the error for a party larger than a property takes.
func errMaxGuests(max int) error {
	return &Error{Code: CodeMaxGuests, Message: "This property takes at most " + strconv.Itoa(max) + " guests.",
		Params: map[string]string{"max": strconv.Itoa(max)}}
}

// checkDates enforces the rules on dates that need no property: check-in
// not before today, check-out not after the booking horizon. st has a valid
// shape.
func checkDates(org *Organization, st Stay, today civil.Date) error {
	if st.CheckIn.Before(today) {
		return &Error{Code: CodeCheckInPast, Message: "The check-in date is in the past.",
			Params: map[string]string{"today": today.String()}}
	}
	if last := org.horizon(today); st.CheckOut.After(last) {
		return &Error{Code: CodeBeyondHorizon, Message: "Bookings are open for stays ending on " + last.String() + " at the latest.",
			Params: map[string]string{"date": last.String()}}
	}
	return nil
}

// errUnavailable is the error for dates someone else holds.
func errUnavailable() error {
	return Errorf(CodeUnavailable, "These dates are no longer available.")
}
