package pricing

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Round rounds amount half away from zero to the currency's minor units:
// 2.345 EUR is 2.35, −2.345 EUR is −2.35, 1234.5 JPY is 1235.
func Round(amount decimal.Decimal, currency string) decimal.Decimal {
	// decimal.Round adds sign×0.5 at the next digit and truncates towards
	// zero: half away from zero for both signs.
	return roundTo(amount, MinorUnits(currency))
}

// pow10 holds 10^0 … 10^18.
var pow10 = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// roundTo is x.Round(places), half away from zero, with a fast path for
// the common case of an amount with fewer decimals than places (a nightly
// price of 140 rounded to cents): that is a plain rescale, exact, where
// decimal.Round divides big integers.
func roundTo(x decimal.Decimal, places int32) decimal.Decimal {
	if shift := x.Exponent() + places; shift > 0 && shift < int32(len(pow10)) &&
		int32(x.NumDigits())+shift <= 18 {
		return decimal.New(x.CoefficientInt64()*pow10[shift], -places)
	}
	return x.Round(places)
}

// ToMinor converts an amount to integer minor units exactly (12.34 EUR is
// 1234); it fails when the currency is unknown, when the amount has more
// decimals than the currency allows, or when it overflows int64.
func ToMinor(amount decimal.Decimal, currency string) (int64, error) {
	units, ok := currencyMinorUnits(strings.ToUpper(currency))
	if !ok {
		return 0, fmt.Errorf("pricing: to minor units: %w %q", ErrUnknownCurrency, currency)
	}
	shifted := amount.Shift(units)
	if !shifted.IsInteger() {
		return 0, fmt.Errorf("pricing: to minor units: %s %s has more than %d decimals", amount, currency, units)
	}
	minor := shifted.BigInt()
	if !minor.IsInt64() {
		return 0, fmt.Errorf("pricing: to minor units: %s %s overflows int64", amount, currency)
	}
	return minor.Int64(), nil
}

// FromMinor converts integer minor units to an amount (1234 EUR cents is
// 12.34).
func FromMinor(minor int64, currency string) decimal.Decimal {
	return decimal.New(minor, -MinorUnits(currency))
}

// percentOf returns amount × percent / 100, exactly (not rounded).
func percentOf(amount, percent decimal.Decimal) decimal.Decimal {
	return amount.Mul(percent).Shift(-2)
}
