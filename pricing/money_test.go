package pricing_test

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/pricing"
)

// dec parses a decimal literal or fails the test binary: test tables only.
func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestValidCurrency(t *testing.T) {
	tests := []struct {
		code string
		want bool
	}{
		{"EUR", true}, {"eur", true}, {"Usd", true}, {"GBP", true}, {"CHF", true},
		{"JPY", true}, {"KWD", true}, {"TND", true}, {"XOF", true}, {"HUF", true},
		{"XYZ", false}, {"", false}, {"EURO", false}, {" EUR", false},
	}
	for _, tt := range tests {
		if got := pricing.ValidCurrency(tt.code); got != tt.want {
			t.Errorf("ValidCurrency(%q) = %v, want %v", tt.code, got, tt.want)
		}
	}
}

func TestMinorUnits(t *testing.T) {
	tests := []struct {
		code string
		want int32
	}{
		{"EUR", 2}, {"usd", 2}, {"GBP", 2}, {"CHF", 2}, {"CAD", 2}, {"AUD", 2},
		{"NZD", 2}, {"SEK", 2}, {"NOK", 2}, {"DKK", 2}, {"PLN", 2}, {"CZK", 2},
		{"HUF", 2}, {"MAD", 2},
		{"JPY", 0}, {"KRW", 0}, {"ISK", 0}, {"VND", 0}, {"CLP", 0}, {"XOF", 0},
		{"KWD", 3}, {"kwd", 3}, {"TND", 3}, {"BHD", 3}, {"JOD", 3}, {"OMR", 3},
		{"XYZ", 2}, // unknown: 2
	}
	for _, tt := range tests {
		if got := pricing.MinorUnits(tt.code); got != tt.want {
			t.Errorf("MinorUnits(%q) = %d, want %d", tt.code, got, tt.want)
		}
	}
}

func TestRoundHalfAwayFromZero(t *testing.T) {
	tests := []struct {
		in, currency, want string
	}{
		{"2.345", "EUR", "2.35"},
		{"-2.345", "EUR", "-2.35"},
		{"2.344", "EUR", "2.34"},
		{"-2.344", "EUR", "-2.34"},
		{"2.3449999", "EUR", "2.34"},
		{"0.005", "EUR", "0.01"},
		{"-0.005", "EUR", "-0.01"},
		{"10", "EUR", "10.00"},
		{"0.5", "JPY", "1"},
		{"-0.5", "JPY", "-1"},
		{"1234.5", "JPY", "1235"},
		{"-1234.5", "JPY", "-1235"},
		{"1234.4999", "JPY", "1234"},
		{"1.0005", "KWD", "1.001"},
		{"-1.0005", "KWD", "-1.001"},
		{"1.0004", "KWD", "1.000"},
		{"2.345", "XYZ", "2.35"}, // unknown currency rounds to 2 places
	}
	for _, tt := range tests {
		got := pricing.Round(dec(tt.in), tt.currency)
		if !got.Equal(dec(tt.want)) {
			t.Errorf("Round(%s, %s) = %s, want %s", tt.in, tt.currency, got, tt.want)
		}
		// Rounded amounts carry exactly the currency's decimals.
		if got, want := got.Exponent(), -pricing.MinorUnits(tt.currency); got != want {
			t.Errorf("Round(%s, %s) exponent = %d, want %d", tt.in, tt.currency, got, want)
		}
	}
}

func TestToMinor(t *testing.T) {
	tests := []struct {
		name     string
		amount   string
		currency string
		want     int64
		wantErr  bool
	}{
		{name: "EUR cents", amount: "12.34", currency: "EUR", want: 1234},
		{name: "EUR one decimal", amount: "12.3", currency: "EUR", want: 1230},
		{name: "EUR integer", amount: "12", currency: "EUR", want: 1200},
		{name: "EUR trailing zero beyond cents is exact", amount: "12.340", currency: "EUR", want: 1234},
		{name: "lower-case code", amount: "1.05", currency: "eur", want: 105},
		{name: "negative", amount: "-5.00", currency: "EUR", want: -500},
		{name: "zero", amount: "0", currency: "EUR", want: 0},
		{name: "JPY has no minor unit", amount: "1234", currency: "JPY", want: 1234},
		{name: "KWD has three decimals", amount: "1.234", currency: "KWD", want: 1234},
		{name: "int64 max", amount: "92233720368547758.07", currency: "EUR", want: 9223372036854775807},
		{name: "int64 min", amount: "-92233720368547758.08", currency: "EUR", want: -9223372036854775808},
		{name: "EUR third decimal", amount: "12.345", currency: "EUR", wantErr: true},
		{name: "JPY fraction", amount: "1234.5", currency: "JPY", wantErr: true},
		{name: "KWD fourth decimal", amount: "1.2345", currency: "KWD", wantErr: true},
		{name: "overflow", amount: "92233720368547758.08", currency: "EUR", wantErr: true},
		{name: "negative overflow", amount: "-92233720368547758.09", currency: "EUR", wantErr: true},
		{name: "unknown currency", amount: "1", currency: "XYZ", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pricing.ToMinor(dec(tt.amount), tt.currency)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ToMinor(%s, %s) err = %v, wantErr %v", tt.amount, tt.currency, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("ToMinor(%s, %s) = %d, want %d", tt.amount, tt.currency, got, tt.want)
			}
		})
	}
}

func TestFromMinor(t *testing.T) {
	tests := []struct {
		minor    int64
		currency string
		want     string
	}{
		{1234, "EUR", "12.34"},
		{-500, "EUR", "-5"},
		{5, "usd", "0.05"},
		{1234, "JPY", "1234"},
		{1234, "KWD", "1.234"},
		{0, "EUR", "0"},
		{9223372036854775807, "EUR", "92233720368547758.07"},
	}
	for _, tt := range tests {
		got := pricing.FromMinor(tt.minor, tt.currency)
		if !got.Equal(dec(tt.want)) {
			t.Errorf("FromMinor(%d, %s) = %s, want %s", tt.minor, tt.currency, got, tt.want)
		}
		back, err := pricing.ToMinor(got, tt.currency)
		if err != nil || back != tt.minor {
			t.Errorf("ToMinor(FromMinor(%d, %s)) = %d, %v; want the same minor units", tt.minor, tt.currency, back, err)
		}
	}
}

func TestCouponDiscountAmount(t *testing.T) {
	tests := []struct {
		name     string
		coupon   pricing.CouponDiscount
		base     string
		currency string
		want     string
	}{
		// 10% of 99.99 = 9.999 → 10.00
		{"percent rounded", pricing.CouponDiscount{Kind: pricing.DiscountPercent, Value: dec("10")}, "99.99", "EUR", "10.00"},
		// 100% of 300 = 300
		{"percent 100", pricing.CouponDiscount{Kind: pricing.DiscountPercent, Value: dec("100")}, "300", "EUR", "300"},
		// 150% of 300 = 450, capped at 300
		{"percent above 100 capped at base", pricing.CouponDiscount{Kind: pricing.DiscountPercent, Value: dec("150")}, "300", "EUR", "300"},
		// 25 < 300
		{"fixed", pricing.CouponDiscount{Kind: pricing.DiscountFixed, Value: dec("25")}, "300", "EUR", "25"},
		// 500 > 300 → 300
		{"fixed capped at base", pricing.CouponDiscount{Kind: pricing.DiscountFixed, Value: dec("500")}, "300", "EUR", "300"},
		// 5.555 → 5.56
		{"fixed rounded", pricing.CouponDiscount{Kind: pricing.DiscountFixed, Value: dec("5.555")}, "100", "EUR", "5.56"},
		// 15% of 2470 = 370.5 → 371
		{"percent JPY", pricing.CouponDiscount{Kind: pricing.DiscountPercent, Value: dec("15")}, "2470", "JPY", "371"},
		{"negative value", pricing.CouponDiscount{Kind: pricing.DiscountFixed, Value: dec("-10")}, "300", "EUR", "0"},
		{"zero base", pricing.CouponDiscount{Kind: pricing.DiscountFixed, Value: dec("10")}, "0", "EUR", "0"},
		{"negative base", pricing.CouponDiscount{Kind: pricing.DiscountPercent, Value: dec("10")}, "-100", "EUR", "0"},
		{"unknown kind", pricing.CouponDiscount{Kind: "bogo", Value: dec("10")}, "300", "EUR", "0"},
	}
	for _, tt := range tests {
		if got := tt.coupon.Amount(dec(tt.base), tt.currency); !got.Equal(dec(tt.want)) {
			t.Errorf("%s: Amount(%s) = %s, want %s", tt.name, tt.base, got, tt.want)
		}
	}
}
