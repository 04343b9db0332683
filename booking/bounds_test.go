package booking_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/rules"
)

// hostEntry is the shape of what a host enters: named as an API names
// its fields, nested as a rate plan is.
type hostEntry struct {
	Name          string
	Description   string
	Photos        []string
	MaxGuests     *int
	MinStayNights *int
	PropertyIDs   []int64
	Branding      map[string]string
	Rates         *pricing.RatePlan
	Price         *decimal.Decimal
	Coupon        struct {
		MaxRedemptions int `json:"max_redemptions"`
	} `json:"coupon"`
}

func TestCheckBounds(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n) }
	tests := []struct {
		name     string
		currency string
		in       hostEntry
		want     map[string][]string // nil: accepted
	}{
		{"OK", "EUR", hostEntry{Name: long(booking.MaxNameLength), Description: "Deux chambres.\r\nVue sur mer.\tCalme.",
			Photos: []string{"https://example.com/" + strings.Repeat("a", 1900)}, MaxGuests: ptr(booking.MaxCount),
			MinStayNights: ptr(booking.MaxDays), PropertyIDs: []int64{1 << 62}, Branding: map[string]string{"primary_color": "#0f766e"},
			Rates: &pricing.RatePlan{BaseRate: dec("999999.99"), WeekendNights: []time.Weekday{time.Friday, time.Saturday}, WeeklyDiscountPercent: dec("12.5")},
			Price: ptr(dec("0.123456"))}, nil},
		{"NameTooLong", "EUR", hostEntry{Name: long(booking.MaxNameLength + 1)}, map[string][]string{"name": {"too_long"}}},
		{"DescriptionTooLong", "EUR", hostEntry{Description: long(booking.MaxTextLength + 1)}, map[string][]string{"description": {"too_long"}}},
		{"NUL", "EUR", hostEntry{Name: "Villa\x00"}, map[string][]string{"name": {booking.ReasonInvalidCharacters}}},
		{"BidiOverride", "EUR", hostEntry{Name: "Villa \u202egpj.exe"}, map[string][]string{"name": {booking.ReasonInvalidCharacters}}},
		{"LineBreakInName", "EUR", hostEntry{Name: "Villa\r\nSoleil"}, map[string][]string{"name": {booking.ReasonInvalidCharacters}}},
		{"ControlInDescription", "EUR", hostEntry{Description: "ok\x1b[31m"}, map[string][]string{"description": {booking.ReasonInvalidCharacters}}},
		{"InvalidUTF8", "EUR", hostEntry{Name: "Villa \xff"}, map[string][]string{"name": {booking.ReasonInvalidCharacters}}},
		{"ControlInMapKey", "EUR", hostEntry{Branding: map[string]string{"col\x00or": "#fff"}}, map[string][]string{"branding": {booking.ReasonInvalidCharacters}}},
		{"HugeMaxGuests", "EUR", hostEntry{MaxGuests: ptr(1 << 62)}, map[string][]string{"max_guests": {"out_of_range"}}},
		{"TooManyNights", "EUR", hostEntry{MinStayNights: ptr(booking.MaxDays + 1)}, map[string][]string{"min_stay_nights": {"out_of_range"}}},
		{"RedemptionCap", "EUR", hostEntry{Coupon: struct {
			MaxRedemptions int `json:"max_redemptions"`
		}{booking.MaxRedemptions + 1}}, map[string][]string{"coupon": {"out_of_range"}}},
		{"PriceOverTheProviderMaximum", "EUR", hostEntry{Price: ptr(dec("1000000.00"))}, map[string][]string{"price": {booking.ReasonAmountTooLarge}}},
		{"NightAt1e308", "EUR", hostEntry{Rates: &pricing.RatePlan{BaseRate: dec("1e308")}}, map[string][]string{"rates": {booking.ReasonAmountTooLarge}}},
		{"NegativeHuge", "EUR", hostEntry{Price: ptr(dec("-1e20"))}, map[string][]string{"price": {booking.ReasonAmountTooLarge}}},
		{"YenMaximum", "JPY", hostEntry{Price: ptr(dec("99999999"))}, nil},
		{"YenOverMaximum", "JPY", hostEntry{Price: ptr(dec("100000000"))}, map[string][]string{"price": {booking.ReasonAmountTooLarge}}},
		{"TooManyDecimals", "EUR", hostEntry{Price: ptr(dec("0.1234567"))}, map[string][]string{"price": {booking.ReasonTooManyDecimals}}},
		{"TrailingZerosAreNoDecimals", "EUR", hostEntry{Price: ptr(dec("12.500000000000"))}, nil},
		{"NestedSeasonName", "EUR", hostEntry{Rates: &pricing.RatePlan{BaseRate: dec("100"),
			Seasons: []pricing.Season{{Name: "Été\u2066", Start: civil.MustParse("2026-07-01"), End: civil.MustParse("2026-08-31"), Rate: dec("150")}},
			Rules:   rules.Set{BookingWindowDays: booking.MaxDays + 1}}},
			map[string][]string{"rates": {booking.ReasonInvalidCharacters, "out_of_range"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := booking.CheckBounds(tt.in, tt.currency)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("CheckBounds = %v, want nil", err)
				}
				return
			}
			var e *booking.Error
			if !errors.As(err, &e) || e.Code != booking.CodeInvalid {
				t.Fatalf("CheckBounds = %v, want CodeInvalid", err)
			}
			if got := map[string][]string(e.Fields); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("fields = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCheckBoundsNamesTheMaximum(t *testing.T) {
	for _, tt := range []struct{ currency, want string }{{"EUR", "999999.99"}, {"JPY", "99999999"}, {"KWD", "99999.999"}} {
		err := booking.CheckBounds(struct {
			Price decimal.Decimal `json:"price"`
		}{dec("1e308")}, tt.currency)
		var e *booking.Error
		if !errors.As(err, &e) || e.Params[booking.ParamMax] != tt.want {
			t.Errorf("%s: %v, want the maximum %s in its params", tt.currency, err, tt.want)
		}
		if got := booking.MaxAmount(tt.currency).String(); got != tt.want {
			t.Errorf("MaxAmount(%s) = %s, want %s", tt.currency, got, tt.want)
		}
	}
}
