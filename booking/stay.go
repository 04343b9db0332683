package booking

import (
	"strconv"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/rules"
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

	// The rules of package rules (issue #16); Params say what would work.
	CodeClosedToArrival   = rules.CodeClosedToArrival   // no arrival that day (date)
	CodeClosedToDeparture = rules.CodeClosedToDeparture // no departure that day (date)
	CodeArrivalDay        = rules.CodeArrivalDay        // arrivals on other weekdays only (days)
	CodeDepartureDay      = rules.CodeDepartureDay      // departures on other weekdays only (days)
	CodeAdvanceNotice     = rules.CodeAdvanceNotice     // booked too late (days, date)
	CodeSameDayCutoff     = rules.CodeSameDayCutoff     // same-day arrival after the cut-off (hour, date)
	CodeBookingWindow     = rules.CodeBookingWindow     // arrival too far ahead (days, date)
	// Guest categories above the property's limits (max).
	CodeMaxChildren = "max_children"
	CodeMaxInfants  = "max_infants"
	CodeMaxPets     = "max_pets"
)

// MaxNights is the longest stay staykit prices, whatever the configuration
// says: it bounds the work one request can ask for.
const MaxNights = 365

// Stay is a guest's wish: dates and party size.
type Stay struct {
	CheckIn  civil.Date
	CheckOut civil.Date
	Guests   int
	// Party, when non-nil, is the guests by category, and Guests must be
	// Party.Guests(); nil means Guests adults.
	Party *pricing.Party
	// Extras are the optional fees chosen, each with a quantity.
	Extras []pricing.Extra
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
	if p := st.Party; p != nil {
		switch {
		case p.Adults < 1:
			f.Add("adults", "min_one")
		case p.Children < 0 || p.Infants < 0 || p.Pets < 0:
			f.Add("guests", "out_of_range")
		case p.Guests() != st.Guests:
			f.Add("guests_count", "mismatch")
		}
	}
	for _, e := range st.Extras {
		if e.Code == "" || e.Quantity < 1 {
			f.Add("extras", "invalid_extra")
			break
		}
	}
}

// checkRules enforces the stay rules of SPEC §4 and of package rules for
// org and property p, through c (see Service.ruleChecker). Availability is
// checked apart.
func checkRules(org *Organization, p *Property, st Stay, c *rules.Checker) error {
	f := FieldErrors{}
	st.validateShape(f)
	if err := f.Err(); err != nil {
		return err
	}
	if err := checkDates(org, st, c.Today()); err != nil {
		return err
	}
	if v := c.Check(st.CheckIn, st.CheckOut, MaxNights); v != nil {
		return &Error{Code: v.Code, Message: v.Message, Params: v.Params}
	}
	if st.Guests > p.MaxGuests {
		return errMaxGuests(p.MaxGuests)
	}
	return checkParty(p, st.Party)
}

// checkParty enforces the limits of guest categories.
func checkParty(p *Property, party *pricing.Party) error {
	if party == nil {
		return nil
	}
	g := pricing.GuestPolicy{}
	if p.Fees.Guests != nil {
		g = *p.Fees.Guests
	}
	limit := func(code string, n, max int, what string) error {
		if n <= max {
			return nil
		}
		return &Error{Code: code, Message: "This property takes at most " + strconv.Itoa(max) + " " + what + ".",
			Params: map[string]string{"max": strconv.Itoa(max)}}
	}
	if g.MaxChildren != nil {
		if err := limit(CodeMaxChildren, party.Children, *g.MaxChildren, "children"); err != nil {
			return err
		}
	}
	if g.MaxInfants != nil {
		if err := limit(CodeMaxInfants, party.Infants, *g.MaxInfants, "infants"); err != nil {
			return err
		}
	}
	return limit(CodeMaxPets, party.Pets, g.MaxPets, "pets")
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
	if last := org.Horizon(today); st.CheckOut.After(last) {
		return &Error{Code: CodeBeyondHorizon, Message: "Bookings are open for stays ending on " + last.String() + " at the latest.",
			Params: map[string]string{"date": last.String()}}
	}
	return nil
}

// errUnavailable is the error for dates someone else holds.
func errUnavailable() error {
	return Errorf(CodeUnavailable, "These dates are no longer available.")
}
