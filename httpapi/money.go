package httpapi

import (
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/pricing"
)

// money is an amount that marshals as a JSON number with exactly the
// currency's minor units (12.50 in EUR, 1250 in JPY), rounded half away
// from zero.
type money struct {
	d      decimal.Decimal
	places int32
}

func newMoney(d decimal.Decimal, currency string) money {
	return money{d: d, places: pricing.MinorUnits(currency)}
}

// MarshalJSON writes the amount as a number.
func (m money) MarshalJSON() ([]byte, error) {
	return appendMoney(make([]byte, 0, 24), m.d, m.places), nil
}

// pow10 holds 10^0 … 10^18.
var pow10 = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// appendMoney appends d rounded to places decimals (half away from zero),
// as d.StringFixed(places) writes it. Amounts of up to 18 digits, the only
// ones a booking sees, take an integer path that does not allocate; others
// go through StringFixed.
func appendMoney(dst []byte, d decimal.Decimal, places int32) []byte {
	exp, digits := d.Exponent(), int32(d.NumDigits())
	if places < 0 || places > 9 || digits > 18 {
		return append(dst, d.StringFixed(places)...)
	}
	coef := d.CoefficientInt64()
	var minor int64 // the amount in units of 10^-places
	switch shift := exp + places; {
	case shift >= 0:
		if digits+shift > 18 {
			return append(dst, d.StringFixed(places)...)
		}
		minor = coef * pow10[shift]
	case -shift <= 18:
		div := pow10[-shift]
		minor = coef / div
		if r := coef % div; r >= (div+1)/2 {
			minor++
		} else if r <= -(div+1)/2 {
			minor--
		}
	default:
		minor = 0 // |d| < 10^-18: rounds to zero
	}
	if minor < 0 {
		dst = append(dst, '-')
		minor = -minor
	}
	unit := pow10[places]
	dst = strconv.AppendInt(dst, minor/unit, 10)
	if places > 0 {
		dst = append(dst, '.')
		frac := minor % unit
		for p := unit / 10; p > 1 && frac < p; p /= 10 {
			dst = append(dst, '0')
		}
		dst = strconv.AppendInt(dst, frac, 10)
	}
	return dst
}
