package httpapi_test

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/httpapi"
)

func TestAppendMoneyMatchesStringFixed(t *testing.T) {
	values := []string{
		"0", "1", "-1", "0.5", "-0.5", "0.005", "-0.005", "0.004", "2.345", "-2.345", "2.3449999",
		"10", "100.00", "100.000", "12.3", "1234.5", "1234.4999", "1.0005", "-1.0005", "0.0000000000000000001",
		"999999999999999999", "9999999999999999.99", "92233720368547758.07", "123456789012345678901234.5678",
		"-0.004", "-0.0001", "0.1", "0.01", "0.09", "0.095", "-0.095", "1e5", "1.5e-3", "120.00", "15000",
	}
	for _, v := range values {
		d := decimal.RequireFromString(v)
		for places := int32(0); places <= 3; places++ {
			got := string(httpapi.AppendMoney(nil, d, places))
			if want := d.StringFixed(places); got != want {
				t.Errorf("appendMoney(%s, %d) = %s, want %s", v, places, got, want)
			}
		}
	}
	// And a spread of amounts with every exponent up to 12 decimals.
	for i := int64(-2000); i <= 2000; i += 7 {
		for exp := int32(-12); exp <= 2; exp++ {
			d := decimal.New(i*123457, exp)
			for places := int32(0); places <= 3; places++ {
				if got, want := string(httpapi.AppendMoney(nil, d, places)), d.StringFixed(places); got != want {
					t.Fatalf("appendMoney(%s, %d) = %s, want %s", d, places, got, want)
				}
			}
		}
	}
}
