package pricing

// STUB: the signatures below are the contract; the bodies are to be written.

import (
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
)

// ValidCurrency reports whether code is an ISO 4217 code this package knows.
func ValidCurrency(code string) bool { panic("todo") }

// MinorUnits returns the number of decimal places of a currency (2 for EUR,
// 0 for JPY, 3 for KWD); 2 for unknown codes.
func MinorUnits(currency string) int32 { panic("todo") }

// Round rounds amount half away from zero to the currency's minor units.
func Round(amount decimal.Decimal, currency string) decimal.Decimal { panic("todo") }

// ToMinor converts an amount to integer minor units exactly; it fails when
// the amount has more decimals than the currency allows or overflows int64.
func ToMinor(amount decimal.Decimal, currency string) (int64, error) { panic("todo") }

// FromMinor converts integer minor units to an amount.
func FromMinor(minor int64, currency string) decimal.Decimal { panic("todo") }

// NightPrice returns the price of the night starting on d.
func (p RatePlan) NightPrice(d civil.Date) decimal.Decimal { panic("todo") }

// SeasonMinStay returns the minimum stay of the first season covering d, 0
// when none does or it sets none.
func (p RatePlan) SeasonMinStay(d civil.Date) int { panic("todo") }

// Validate checks a rate plan (rates not negative, seasons not inverted,
// discount percents within 0–100) and returns a reason code on failure.
func (p RatePlan) Validate() error { panic("todo") }

// Amount returns the discount on base: percent of it, or the fixed value
// capped at it; rounded to the currency; never negative.
func (c CouponDiscount) Amount(base decimal.Decimal, currency string) decimal.Decimal {
	panic("todo")
}

// Compute prices a stay. Errors: check-out not after check-in, fewer than
// one guest, unknown currency, invalid mode.
func Compute(s Stay) (Quote, error) { panic("todo") }
