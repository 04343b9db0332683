package pricing

import "github.com/shopspring/decimal"

// Amount returns the discount on base: percent of it, or the fixed value
// capped at it; rounded to the currency; never negative. A base at or below
// zero, a negative value or an unknown kind gives zero; a percent above 100
// is capped at the base like a fixed value.
func (c CouponDiscount) Amount(base decimal.Decimal, currency string) decimal.Decimal {
	return c.amount(base, MinorUnits(currency))
}

// amount is Amount rounded to places decimals.
func (c CouponDiscount) amount(base decimal.Decimal, places int32) decimal.Decimal {
	if !base.IsPositive() || !c.Value.IsPositive() {
		return decimal.Zero
	}
	var off decimal.Decimal
	switch c.Kind {
	case DiscountPercent:
		off = roundTo(percentOf(base, c.Value), places)
	case DiscountFixed:
		off = roundTo(c.Value, places)
	default:
		return decimal.Zero
	}
	// Capping after rounding keeps off <= base even when base itself is not
	// rounded to the currency.
	return decimal.Min(off, base)
}
