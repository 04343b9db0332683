package coupon

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/pricing"
)

// MaxCodeLength is the longest coupon code, in characters.
const MaxCodeLength = 64

// ConfigError lists what is wrong with a coupon's configuration. Fields maps
// a JSON field name of Coupon ("code", "value", ...) to its problems, each a
// short reason code: "required", "too_long", "invalid_code",
// "invalid_choice", "out_of_range" or "invalid_range". It has the shape of
// booking.Error.Fields, so the caller can report it as an invalid request.
type ConfigError struct {
	Fields map[string][]string
}

func (e *ConfigError) Error() string {
	fields := make([]string, 0, len(e.Fields))
	for f := range e.Fields {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f + ": " + strings.Join(e.Fields[f], ", ")
	}
	return fmt.Sprintf("coupon: invalid configuration: %s", strings.Join(parts, "; "))
}

// Validate checks the coupon itself, as a host or a seed file configures it,
// before it is stored; it returns a *ConfigError listing every problem, or
// nil. It is unrelated to the package-level Validate, which decides whether
// a well-formed coupon applies to a booking. The rules:
//
//	code             after Normalize: 1–64 characters of A–Z, 0–9, "_" and "-"
//	kind             percent or fixed
//	value            above zero, and at most 100 for percent
//	valid_until      not before valid_from (when both are set)
//	stay_until       not before stay_from (when both are set)
//	min_nights       not negative
//	min_amount       not negative
//	max_redemptions  not negative
//	property_ids     each above zero
func (c Coupon) Validate() error {
	f := map[string][]string{}
	add := func(field, reason string) { f[field] = append(f[field], reason) }

	switch code := Normalize(c.Code); {
	case code == "":
		add("code", "required")
	case len(code) > MaxCodeLength:
		add("code", "too_long")
	case !validCodeChars(code):
		add("code", "invalid_code")
	}
	switch c.Kind {
	case pricing.DiscountPercent, pricing.DiscountFixed:
	default:
		add("kind", "invalid_choice")
	}
	if !c.Value.IsPositive() || (c.Kind == pricing.DiscountPercent && c.Value.GreaterThan(decimal.NewFromInt(100))) {
		add("value", "out_of_range")
	}
	if !c.ValidFrom.IsZero() && !c.ValidUntil.IsZero() && c.ValidUntil.Before(c.ValidFrom) {
		add("valid_until", "invalid_range")
	}
	if !c.StayFrom.IsZero() && !c.StayUntil.IsZero() && c.StayUntil.Before(c.StayFrom) {
		add("stay_until", "invalid_range")
	}
	if c.MinNights < 0 {
		add("min_nights", "out_of_range")
	}
	if c.MinAmount.IsNegative() {
		add("min_amount", "out_of_range")
	}
	if c.MaxRedemptions < 0 {
		add("max_redemptions", "out_of_range")
	}
	if slices.ContainsFunc(c.PropertyIDs, func(id int64) bool { return id <= 0 }) {
		add("property_ids", "out_of_range")
	}
	if len(f) == 0 {
		return nil
	}
	return &ConfigError{Fields: f}
}

// validCodeChars reports whether s is made only of A–Z, 0–9, "_" and "-".
func validCodeChars(s string) bool {
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
		default:
			return false
		}
	}
	return true
}
