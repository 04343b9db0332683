package booking

import (
	"reflect"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/rules"
)

// Bounds of what a host enters (package host, its API and dashboard, and
// seed files): within them every price, fee, count and text can be
// stored, priced, shown and charged; beyond them a value is a mistake or
// an attack (a night at 1e308, 2^62 guests, a name of 10,000 characters).
const (
	// MaxChargeMinor is the largest amount, in minor units, a card payment
	// provider charges at once: Stripe's 99,999,999 (999,999.99 EUR).
	MaxChargeMinor = 99_999_999
	// MaxDecimalPlaces is the most decimal places of an amount or a
	// percentage.
	MaxDecimalPlaces = 6
	// MaxNameLength is the longest one-line text, in characters: names,
	// labels, codes, cities, reasons.
	MaxNameLength = 200
	// MaxTextLength is the longest description, in characters.
	MaxTextLength = 10_000
	// MaxURLLength is the longest URL or domain, in characters.
	MaxURLLength = 2_000
	// MaxDays is the largest number of nights or days a setting may hold
	// (stay limits, notice, booking window, policy tiers): ten years.
	MaxDays = 3_660
	// MaxCount is the largest other count (guests, bedrooms, pets,
	// quantities, ages).
	MaxCount = 1_000
	// MaxRedemptions is the largest redemption cap of a coupon.
	MaxRedemptions = 1_000_000
)

// Field error reasons of CheckBounds, besides "too_long", "out_of_range"
// and ReasonInvalidCharacters.
const (
	// ReasonAmountTooLarge: an amount above MaxAmount, which no card
	// payment could charge (Params "max": MaxAmount).
	ReasonAmountTooLarge = "amount_too_large"
	// ReasonTooManyDecimals: more than MaxDecimalPlaces decimal places.
	ReasonTooManyDecimals = "too_many_decimals"
)

// ParamMax is the Param of ReasonAmountTooLarge: the largest amount.
const ParamMax = "max"

// MaxAmount is the largest amount a host may enter in a currency:
// MaxChargeMinor minor units (999,999.99 EUR, 99,999,999 JPY).
func MaxAmount(currency string) decimal.Decimal {
	return pricing.FromMinor(MaxChargeMinor, currency)
}

// CheckBounds reports CodeInvalid, naming each field, when a value a host
// entered holds anything out of bounds:
//
//   - a string with a control or format character (Unicode Cc and Cf, as
//     the public API refuses in a guest's details; a description may hold
//     line breaks and tabs), invalid UTF-8, or more characters than
//     MaxNameLength (MaxTextLength for a description, MaxURLLength for a
//     URL, photo, logo, origin or domain);
//   - an amount or percentage (decimal.Decimal) above MaxAmount(currency)
//     in absolute value, or with more than MaxDecimalPlaces decimals;
//   - an int above MaxDays for nights and days (a field named *_nights,
//     *_days or days_before), MaxRedemptions for max_redemptions, else
//     MaxCount.
//
// v is a struct (or a pointer to one) as the host entered it; it is
// walked through pointers, slices, maps of strings and nested structs,
// each problem being reported on the top-level field it is in (the json
// tag's name, else the Go name in snake_case). Dates, weekdays and IDs
// (int64) are left to the checks that know them, and so are lower bounds:
// CheckBounds only refuses what is too large, too long or unprintable.
func CheckBounds(v any, currency string) error {
	b := bounds{f: FieldErrors{}, max: MaxAmount(currency)}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		panic("booking: CheckBounds needs a struct, not " + rv.Type().String())
	}
	b.fields(rv, "")
	if len(b.f) == 0 {
		return nil
	}
	err := &Error{Code: CodeInvalid, Message: "The request is invalid.", Fields: b.f}
	if b.tooLarge {
		err.Params = map[string]string{ParamMax: b.max.StringFixed(pricing.MinorUnits(currency))}
	}
	return err
}

// bounds is one CheckBounds walk.
type bounds struct {
	f        FieldErrors
	max      decimal.Decimal
	tooLarge bool
}

var (
	decimalType = reflect.TypeFor[decimal.Decimal]()
	intType     = reflect.TypeFor[int]()
	// opaque are the structs CheckBounds does not look into.
	opaque = map[reflect.Type]bool{
		reflect.TypeFor[civil.Date]():     true,
		reflect.TypeFor[rules.MonthDay](): true,
		reflect.TypeFor[time.Time]():      true,
	}
)

// fields checks the exported fields of a struct; top is the top-level
// field they are in ("" at the top).
func (b *bounds) fields(v reflect.Value, top string) {
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name := fieldName(sf)
		if name == "-" {
			continue
		}
		at := top
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			b.fields(v.Field(i), top) // promoted fields keep their own names
			continue
		}
		if at == "" {
			at = name
		}
		b.value(v.Field(i), at, name)
	}
}

// value checks v, whose own name is leaf, in the top-level field top.
func (b *bounds) value(v reflect.Value, top, leaf string) {
	switch {
	case v.Type() == decimalType:
		b.amount(v.Interface().(decimal.Decimal), top)
		return
	case opaque[v.Type()]:
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			b.value(v.Elem(), top, leaf)
		}
	case reflect.Struct:
		b.fields(v, top)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			b.value(v.Index(i), top, leaf)
		}
	case reflect.Map:
		if v.Type().Key().Kind() == reflect.String {
			for it := v.MapRange(); it.Next(); {
				b.text(it.Key().String(), top, leaf)
				b.value(it.Value(), top, leaf)
			}
		}
	case reflect.String:
		b.text(v.String(), top, leaf)
	case reflect.Int:
		if v.Type() == intType && v.Int() > int64(maxInt(leaf)) {
			b.add(top, "out_of_range")
		}
	}
}

// text checks a string whose own name is leaf.
func (b *bounds) text(s, top, leaf string) {
	multiline, limit := false, MaxNameLength
	switch leaf {
	case "description":
		multiline, limit = true, MaxTextLength
	case "url", "logo", "terms_url", "photos", "allowed_origins", "custom_domain", "return_url", "refresh_url":
		limit = MaxURLLength
	}
	switch {
	case !utf8.ValidString(s) || hasForbiddenChars(s, multiline):
		b.add(top, ReasonInvalidCharacters)
	case utf8.RuneCountInString(s) > limit:
		b.add(top, "too_long")
	}
}

// amount checks an amount or a percentage.
func (b *bounds) amount(d decimal.Decimal, top string) {
	if decimalPlaces(d) > MaxDecimalPlaces {
		b.add(top, ReasonTooManyDecimals)
		return
	}
	if d.Abs().GreaterThan(b.max) {
		b.add(top, ReasonAmountTooLarge)
		b.tooLarge = true
	}
}

// add records reason on field once.
func (b *bounds) add(field, reason string) {
	for _, r := range b.f[field] {
		if r == reason {
			return
		}
	}
	b.f.Add(field, reason)
}

// maxInt is the largest value of an int field named leaf.
func maxInt(leaf string) int {
	switch {
	case leaf == "max_redemptions":
		return MaxRedemptions
	case strings.HasSuffix(leaf, "_nights"), strings.HasSuffix(leaf, "_days"), leaf == "days", leaf == "days_before":
		return MaxDays
	}
	return MaxCount
}

// decimalPlaces is the number of decimal places of d, trailing zeros left
// out, counted on its digits: no power of ten is computed, whatever d's
// exponent.
func decimalPlaces(d decimal.Decimal) int {
	exp := int(d.Exponent())
	if exp >= 0 || d.IsZero() {
		return 0
	}
	digits := d.Coefficient().String()
	trailing := len(digits) - len(strings.TrimRight(digits, "0"))
	return max(-exp-trailing, 0)
}

// fieldName is the name of a struct field in errors: its json tag's,
// else its Go name in snake_case ("MaxGuests" is "max_guests",
// "PropertyIDs" "property_ids").
func fieldName(sf reflect.StructField) string {
	if tag, _, _ := strings.Cut(sf.Tag.Get("json"), ","); tag != "" {
		return tag
	}
	var out []rune
	rs := []rune(sf.Name)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prevLower := unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1]) && rs[i+1] != 's'
			if prevLower || (nextLower && unicode.IsUpper(rs[i-1])) {
				out = append(out, '_')
			}
		}
		out = append(out, unicode.ToLower(r))
	}
	return string(out)
}
