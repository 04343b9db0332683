package coupon_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/pricing"
)

func TestCouponValidate(t *testing.T) {
	tests := []struct {
		name string
		c    func(*coupon.Coupon)
		want map[string][]string // nil = valid
	}{
		{name: "OK"},
		{name: "CodeLowercaseWithSpacesOK", c: func(c *coupon.Coupon) { c.Code = "  early-bird_2026 " }},
		{name: "CodeOneCharOK", c: func(c *coupon.Coupon) { c.Code = "A" }},
		{name: "Code64CharsOK", c: func(c *coupon.Coupon) { c.Code = strings.Repeat("A", 64) }},
		{name: "Code65CharsTooLong", c: func(c *coupon.Coupon) { c.Code = strings.Repeat("A", 65) }, want: map[string][]string{"code": {"too_long"}}},
		{name: "CodeEmpty", c: func(c *coupon.Coupon) { c.Code = "" }, want: map[string][]string{"code": {"required"}}},
		{name: "CodeBlank", c: func(c *coupon.Coupon) { c.Code = " \t " }, want: map[string][]string{"code": {"required"}}},
		{name: "CodeInnerSpace", c: func(c *coupon.Coupon) { c.Code = "SUMMER 10" }, want: map[string][]string{"code": {"invalid_code"}}},
		{name: "CodePunctuation", c: func(c *coupon.Coupon) { c.Code = "SUMMER10!" }, want: map[string][]string{"code": {"invalid_code"}}},
		{name: "CodeNonASCII", c: func(c *coupon.Coupon) { c.Code = "ÉTÉ10" }, want: map[string][]string{"code": {"invalid_code"}}},

		{name: "FixedOK", c: func(c *coupon.Coupon) { c.Kind, c.Value = pricing.DiscountFixed, decimal.NewFromInt(500) }},
		{name: "KindEmpty", c: func(c *coupon.Coupon) { c.Kind = "" }, want: map[string][]string{"kind": {"invalid_choice"}}},
		{name: "KindUnknown", c: func(c *coupon.Coupon) { c.Kind = "free_night" }, want: map[string][]string{"kind": {"invalid_choice"}}},

		{name: "ValueZero", c: func(c *coupon.Coupon) { c.Value = decimal.Zero }, want: map[string][]string{"value": {"out_of_range"}}},
		{name: "ValueNegative", c: func(c *coupon.Coupon) { c.Value = decimal.NewFromInt(-5) }, want: map[string][]string{"value": {"out_of_range"}}},
		{name: "Percent100OK", c: func(c *coupon.Coupon) { c.Value = decimal.NewFromInt(100) }},
		{name: "PercentOver100", c: func(c *coupon.Coupon) { c.Value = decimal.RequireFromString("100.01") }, want: map[string][]string{"value": {"out_of_range"}}},

		{name: "BookingWindowOneDayOK", c: func(c *coupon.Coupon) { c.ValidUntil = c.ValidFrom }},
		{name: "BookingWindowInverted", c: func(c *coupon.Coupon) { c.ValidUntil = c.ValidFrom.AddDays(-1) }, want: map[string][]string{"valid_until": {"invalid_range"}}},
		{name: "BookingWindowOpenStartOK", c: func(c *coupon.Coupon) { c.ValidFrom = civil.Date{} }},
		{name: "StayWindowOneDayOK", c: func(c *coupon.Coupon) { c.StayUntil = c.StayFrom }},
		{name: "StayWindowInverted", c: func(c *coupon.Coupon) { c.StayUntil = c.StayFrom.AddDays(-1) }, want: map[string][]string{"stay_until": {"invalid_range"}}},
		{name: "StayWindowOpenEndOK", c: func(c *coupon.Coupon) { c.StayUntil = civil.Date{} }},

		{name: "MinNightsZeroOK", c: func(c *coupon.Coupon) { c.MinNights = 0 }},
		{name: "MinNightsNegative", c: func(c *coupon.Coupon) { c.MinNights = -1 }, want: map[string][]string{"min_nights": {"out_of_range"}}},
		{name: "MaxRedemptionsZeroOK", c: func(c *coupon.Coupon) { c.MaxRedemptions = 0 }},
		{name: "MaxRedemptionsNegative", c: func(c *coupon.Coupon) { c.MaxRedemptions = -1 }, want: map[string][]string{"max_redemptions": {"out_of_range"}}},
		{name: "MinAmountZeroOK", c: func(c *coupon.Coupon) { c.MinAmount = decimal.Zero }},
		{name: "MinAmountNegative", c: func(c *coupon.Coupon) { c.MinAmount = decimal.RequireFromString("-0.01") }, want: map[string][]string{"min_amount": {"out_of_range"}}},
		{name: "PropertyIDZero", c: func(c *coupon.Coupon) { c.PropertyIDs = []int64{11, 0} }, want: map[string][]string{"property_ids": {"out_of_range"}}},

		{
			name: "InactiveIsStillWellFormed",
			c:    func(c *coupon.Coupon) { c.Active = false },
		},
		{
			name: "EveryProblemReported",
			c: func(c *coupon.Coupon) {
				*c = coupon.Coupon{Kind: pricing.DiscountPercent, Value: decimal.NewFromInt(150), MinNights: -2}
			},
			want: map[string][]string{"code": {"required"}, "value": {"out_of_range"}, "min_nights": {"out_of_range"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := summer()
			if tt.c != nil {
				tt.c(&c)
			}
			err := c.Validate()
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var ce *coupon.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("Validate() = %v (%T), want *coupon.ConfigError", err, err)
			}
			if got := ce.Fields; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Fields = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestConfigErrorMessageIsSorted(t *testing.T) {
	err := (&coupon.ConfigError{Fields: map[string][]string{
		"value": {"out_of_range"},
		"code":  {"required", "invalid_code"},
	}}).Error()
	if want := "coupon: invalid configuration: code: required, invalid_code; value: out_of_range"; err != want {
		t.Errorf("Error() = %q, want %q", err, want)
	}
}
