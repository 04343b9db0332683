package pricing

import "errors"

// Reasons RatePlan.Validate returns. Their messages are the bare reason
// codes, so a caller can use err.Error() as a field reason.
var (
	// ErrNegativeRate: a base, weekend, season or override price is below zero.
	ErrNegativeRate = errors.New("negative_rate")
	// ErrInvalidSeason: a season has no start or end, ends before it starts,
	// or has a negative minimum stay.
	ErrInvalidSeason = errors.New("invalid_season")
	// ErrPercentOutOfRange: a length-of-stay discount is outside 0–100.
	ErrPercentOutOfRange = errors.New("percent_out_of_range")
	// ErrDuplicateOverride: two overrides price the same night.
	ErrDuplicateOverride = errors.New("duplicate_override")
	// ErrInvalidWeekday: a weekend night is not a time.Weekday.
	ErrInvalidWeekday = errors.New("invalid_weekday")
)

// Errors Compute wraps, for callers that map them to their own codes.
var (
	// ErrInvalidDates: check-out is not after check-in, or a date is missing.
	ErrInvalidDates = errors.New("invalid dates")
	// ErrInvalidGuests: fewer than one guest.
	ErrInvalidGuests = errors.New("invalid guest count")
	// ErrUnknownCurrency: the currency is not an ISO 4217 code this package
	// knows.
	ErrUnknownCurrency = errors.New("unknown currency")
	// ErrInvalidMode: the payment mode is not full, deposit or request.
	ErrInvalidMode = errors.New("invalid payment mode")
	// ErrInvalidPlan: the rate plan fails RatePlan.Validate; the reason is
	// wrapped too.
	ErrInvalidPlan = errors.New("invalid rate plan")
	// ErrInvalidAmount: a fee, tax, coupon or deposit setting is negative or
	// out of range.
	ErrInvalidAmount = errors.New("invalid amount")
)

// Errors of the charge model.
var (
	// ErrUnknownExtra: an extra chosen is not an optional fee of the
	// property.
	ErrUnknownExtra = errors.New("unknown extra")
	// ErrInvalidQuantity: an extra is chosen twice, or with a quantity
	// below 1 or above its maximum.
	ErrInvalidQuantity = errors.New("invalid extra quantity")
)
