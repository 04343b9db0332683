package pricing

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// TestRoundToMatchesDecimalRound: the fast path of roundTo gives the same
// value and the same exponent as decimal.Round, for amounts with fewer,
// as many and more decimals than asked, both signs, and coefficients near
// the int64 limit where it must fall back.
func TestRoundToMatchesDecimalRound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	values := []decimal.Decimal{
		decimal.Zero, decimal.New(140, 0), decimal.New(-140, 0), decimal.New(1, 5), decimal.New(12345, -3),
		decimal.New(-12345, -3), decimal.New(5, -1), decimal.New(999_999_999_999_999_999, 0),
		decimal.New(922_337_203_685_477_580, 0), decimal.RequireFromString("123456789012345678901234"),
	}
	for range 5000 {
		values = append(values, decimal.New(rng.Int64N(1<<40)-(1<<39), int32(rng.IntN(12))-6))
	}
	for _, x := range values {
		for places := int32(0); places <= 4; places++ {
			got, want := roundTo(x, places), x.Round(places)
			if !got.Equal(want) || got.Exponent() != want.Exponent() {
				t.Fatalf("roundTo(%s, %d) = %s (exp %d), want %s (exp %d)", x, places, got, got.Exponent(), want, want.Exponent())
			}
		}
	}
}
