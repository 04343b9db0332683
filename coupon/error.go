package coupon

import "fmt"

// Codes of the conditions Validate checks, in the order it checks them.
// They are the machine codes of an *Error and reach API clients unchanged.
const (
	CodeInactive    = "coupon_inactive"      // Active is false
	CodeNotYetValid = "coupon_not_yet_valid" // booked before ValidFrom
	CodeExpired     = "coupon_expired"       // booked after ValidUntil
	CodeExhausted   = "coupon_exhausted"     // MaxRedemptions reached
	CodeProperty    = "coupon_property"      // property not in PropertyIDs
	CodeStayDates   = "coupon_stay_dates"    // check-in outside [StayFrom, StayUntil]
	CodeMinNights   = "coupon_min_nights"    // stay shorter than MinNights
	CodeMinAmount   = "coupon_min_amount"    // discount base below MinAmount
)

// Error says why a coupon does not apply to a use: a machine code (one of
// the Code constants), an English message safe to show to a guest, and the
// values a translated message needs. The Params of each code are:
//
//	coupon_not_yet_valid  "date" (ValidFrom, YYYY-MM-DD)
//	coupon_expired        "date" (ValidUntil, YYYY-MM-DD)
//	coupon_stay_dates     "from" and/or "until" (YYYY-MM-DD), each only when that bound is set
//	coupon_min_nights     "min" (MinNights)
//	coupon_min_amount     "min" (MinAmount, see the Validate doc for its form)
//
// The other codes carry no params (Params is nil).
type Error struct {
	Code    string
	Message string
	Params  map[string]string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Is reports whether target is an *Error with the same Code, so that
// errors.Is(err, &coupon.Error{Code: coupon.CodeExpired}) matches any
// expired-coupon error whatever its message.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t != nil && e != nil && t.Code == e.Code
}
