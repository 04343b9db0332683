package pricing_test

import (
	"errors"
	"testing"

	"github.com/staykit/staykit/pricing"
)

func places(n int32) *int32 { return &n }

// TestComputeChargeableDecimals: a provider that charges a currency in
// fewer decimals than its minor units gets every line rounded to those, so
// the lines still add up to the total and every amount can be charged.
func TestComputeChargeableDecimals(t *testing.T) {
	tests := []struct {
		name     string
		currency string
		decimals *int32
		// nightly rate, tourist tax per guest per night (2 guests, 3 nights)
		rate, tax                  string
		night, taxLine, total, dep string
	}{
		// KWD has 3 minor units: 33.3335 → 33.334; tax 0.1235×6 = 0.741;
		// total 3×33.334 + 0.741 = 100.743; deposit 30 % = 30.2229 → 30.223.
		{"KWD as ISO", "KWD", nil, "33.3335", "0.1235", "33.334", "0.741", "100.743", "30.223"},
		// Stripe takes KWD in hundredths: 33.3335 → 33.33; 0.741 → 0.74;
		// total 3×33.33 + 0.74 = 100.73; deposit 30.219 → 30.22.
		{"KWD in hundredths", "KWD", places(2), "33.3335", "0.1235", "33.33", "0.74", "100.73", "30.22"},
		// MGA has 2 minor units; Stripe takes whole ariary: 1000.5 → 1001
		// (half away from zero); tax 0.75×6 = 4.5 → 5; total 3×1001 + 5 =
		// 3008; deposit 902.4 → 902.
		{"MGA in whole units", "MGA", places(0), "1000.5", "0.75", "1001", "5", "3008", "902"},
		// More decimals than the currency has change nothing: EUR 2.
		{"EUR unchanged", "EUR", places(3), "99.999", "1.005", "100", "6.03", "306.03", "91.81"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stay("2026-03-02", 3, func(s *pricing.Stay) {
				s.Currency, s.Decimals = tt.currency, tt.decimals
				s.Plan.BaseRate = dec(tt.rate)
				s.Tax.PerGuestPerNight = dec(tt.tax)
				deposit30(s)
			})
			q, err := pricing.Compute(s)
			if err != nil {
				t.Fatal(err)
			}
			if got := q.NightsDetail[0].Price; !got.Equal(dec(tt.night)) {
				t.Errorf("night = %s, want %s", got, tt.night)
			}
			if got := q.Taxes[0].Amount; !got.Equal(dec(tt.taxLine)) {
				t.Errorf("tax = %s, want %s", got, tt.taxLine)
			}
			if !q.Total.Equal(dec(tt.total)) || !q.Charge.Equal(dec(tt.dep)) || !q.Charge.Add(q.Balance).Equal(q.Total) {
				t.Errorf("total %s charge %s balance %s, want total %s charge %s", q.Total, q.Charge, q.Balance, tt.total, tt.dep)
			}
		})
	}
	_, err := pricing.Compute(stay("2026-03-02", 3, func(s *pricing.Stay) { s.Decimals = places(-1) }))
	if !errors.Is(err, pricing.ErrInvalidAmount) {
		t.Errorf("negative decimals: err = %v, want ErrInvalidAmount", err)
	}
}
