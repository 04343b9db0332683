package coupon_test

import (
	"errors"
	"fmt"
	"maps"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/pricing"
)

// summer is a coupon with every condition set.
func summer() coupon.Coupon {
	return coupon.Coupon{
		ID:             7,
		OrgID:          1,
		Code:           "SUMMER10",
		Label:          "Summer offer",
		Kind:           pricing.DiscountPercent,
		Value:          decimal.NewFromInt(10),
		Active:         true,
		ValidFrom:      civil.MustParse("2026-05-01"),
		ValidUntil:     civil.MustParse("2026-08-31"),
		StayFrom:       civil.MustParse("2026-06-01"),
		StayUntil:      civil.MustParse("2026-09-30"),
		MinNights:      3,
		MinAmount:      decimal.RequireFromString("200"),
		MaxRedemptions: 5,
		PropertyIDs:    []int64{11, 12},
	}
}

// okUse satisfies every condition of summer.
func okUse() coupon.Use {
	return coupon.Use{
		Today:       civil.MustParse("2026-06-15"),
		PropertyID:  11,
		CheckIn:     civil.MustParse("2026-07-10"),
		Nights:      4,
		Amount:      decimal.RequireFromString("480.00"),
		Redemptions: 2,
	}
}

func d(s string) civil.Date { return civil.MustParse(s) }

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		c    func(*coupon.Coupon)
		u    func(*coupon.Use)
		want string // "" = valid
	}{
		{name: "OK", want: ""},

		{name: "Inactive", c: func(c *coupon.Coupon) { c.Active = false }, want: coupon.CodeInactive},

		{name: "NotYetValidDayBefore", u: func(u *coupon.Use) { u.Today = d("2026-04-30") }, want: coupon.CodeNotYetValid},
		{name: "ValidOnValidFrom", u: func(u *coupon.Use) { u.Today = d("2026-05-01") }, want: ""},
		{name: "ValidOnValidUntil", u: func(u *coupon.Use) { u.Today = d("2026-08-31") }, want: ""},
		{name: "ExpiredDayAfter", u: func(u *coupon.Use) { u.Today = d("2026-09-01") }, want: coupon.CodeExpired},
		{name: "OpenBookingWindowFarPast", c: func(c *coupon.Coupon) { c.ValidFrom = civil.Date{} }, u: func(u *coupon.Use) { u.Today = d("2000-01-01") }, want: ""},
		{name: "OpenBookingWindowFarFuture", c: func(c *coupon.Coupon) { c.ValidUntil = civil.Date{} }, u: func(u *coupon.Use) { u.Today = d("2099-12-31") }, want: ""},

		{name: "RedemptionsBelowMax", u: func(u *coupon.Use) { u.Redemptions = 4 }, want: ""},
		{name: "ExhaustedAtMax", u: func(u *coupon.Use) { u.Redemptions = 5 }, want: coupon.CodeExhausted},
		{name: "ExhaustedAboveMax", u: func(u *coupon.Use) { u.Redemptions = 9 }, want: coupon.CodeExhausted},
		{name: "UnlimitedRedemptions", c: func(c *coupon.Coupon) { c.MaxRedemptions = 0 }, u: func(u *coupon.Use) { u.Redemptions = 1000 }, want: ""},

		{name: "OtherProperty", u: func(u *coupon.Use) { u.PropertyID = 13 }, want: coupon.CodeProperty},
		{name: "SecondListedProperty", u: func(u *coupon.Use) { u.PropertyID = 12 }, want: ""},
		{name: "PropertyNotGivenSkipsCheck", u: func(u *coupon.Use) { u.PropertyID = 0 }, want: ""},
		{name: "NoPropertyRestriction", c: func(c *coupon.Coupon) { c.PropertyIDs = nil }, u: func(u *coupon.Use) { u.PropertyID = 99 }, want: ""},

		{name: "CheckInDayBeforeStayFrom", u: func(u *coupon.Use) { u.CheckIn = d("2026-05-31") }, want: coupon.CodeStayDates},
		{name: "CheckInOnStayFrom", u: func(u *coupon.Use) { u.CheckIn = d("2026-06-01") }, want: ""},
		{name: "CheckInOnStayUntil", u: func(u *coupon.Use) { u.CheckIn = d("2026-09-30") }, want: ""},
		{name: "CheckInDayAfterStayUntil", u: func(u *coupon.Use) { u.CheckIn = d("2026-10-01") }, want: coupon.CodeStayDates},
		{name: "OpenStayFrom", c: func(c *coupon.Coupon) { c.StayFrom = civil.Date{} }, u: func(u *coupon.Use) { u.CheckIn = d("2020-01-01") }, want: ""},
		{name: "OpenStayUntil", c: func(c *coupon.Coupon) { c.StayUntil = civil.Date{} }, u: func(u *coupon.Use) { u.CheckIn = d("2099-01-01") }, want: ""},
		{name: "OpenStayFromStillBoundedAbove", c: func(c *coupon.Coupon) { c.StayFrom = civil.Date{} }, u: func(u *coupon.Use) { u.CheckIn = d("2026-10-01") }, want: coupon.CodeStayDates},

		{name: "NightsBelowMin", u: func(u *coupon.Use) { u.Nights = 2 }, want: coupon.CodeMinNights},
		{name: "NightsAtMin", u: func(u *coupon.Use) { u.Nights = 3 }, want: ""},
		{name: "NoMinNights", c: func(c *coupon.Coupon) { c.MinNights = 0 }, u: func(u *coupon.Use) { u.Nights = 1 }, want: ""},

		{name: "AmountBelowMin", u: func(u *coupon.Use) { u.Amount = decimal.RequireFromString("199.99") }, want: coupon.CodeMinAmount},
		{name: "AmountAtMin", u: func(u *coupon.Use) { u.Amount = decimal.RequireFromString("200.00") }, want: ""},
		{name: "NoMinAmount", c: func(c *coupon.Coupon) { c.MinAmount = decimal.Zero }, u: func(u *coupon.Use) { u.Amount = decimal.Zero }, want: ""},

		{
			name: "NoStaySkipsStayChecks",
			u: func(u *coupon.Use) {
				u.CheckIn, u.Nights, u.Amount = civil.Date{}, 0, decimal.Zero
			},
			want: "",
		},
		{
			name: "NoStayStillChecksBookingWindow",
			u:    func(u *coupon.Use) { u.CheckIn, u.Today = civil.Date{}, d("2026-09-01") },
			want: coupon.CodeExpired,
		},

		// Order: with several failures, the first in the documented order wins.
		{name: "InactiveBeforeExpired", c: func(c *coupon.Coupon) { c.Active = false }, u: func(u *coupon.Use) { u.Today = d("2027-01-01") }, want: coupon.CodeInactive},
		{name: "NotYetValidBeforeExhausted", u: func(u *coupon.Use) { u.Today, u.Redemptions = d("2026-01-01"), 5 }, want: coupon.CodeNotYetValid},
		{name: "ExpiredBeforeExhausted", u: func(u *coupon.Use) { u.Today, u.Redemptions = d("2027-01-01"), 5 }, want: coupon.CodeExpired},
		{name: "ExhaustedBeforeProperty", u: func(u *coupon.Use) { u.Redemptions, u.PropertyID = 5, 13 }, want: coupon.CodeExhausted},
		{name: "PropertyBeforeStayDates", u: func(u *coupon.Use) { u.PropertyID, u.CheckIn = 13, d("2027-01-01") }, want: coupon.CodeProperty},
		{name: "StayDatesBeforeMinNights", u: func(u *coupon.Use) { u.CheckIn, u.Nights = d("2027-01-01"), 1 }, want: coupon.CodeStayDates},
		{name: "MinNightsBeforeMinAmount", u: func(u *coupon.Use) { u.Nights, u.Amount = 1, decimal.NewFromInt(1) }, want: coupon.CodeMinNights},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, u := summer(), okUse()
			if tt.c != nil {
				tt.c(&c)
			}
			if tt.u != nil {
				tt.u(&u)
			}
			err := coupon.Validate(c, u)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			var e *coupon.Error
			if !errors.As(err, &e) {
				t.Fatalf("Validate = %v (%T), want *coupon.Error %s", err, err, tt.want)
			}
			if got := e.Code; got != tt.want {
				t.Errorf("Code = %q, want %q (message %q)", got, tt.want, e.Message)
			}
			if e.Message == "" {
				t.Error("Message is empty")
			}
		})
	}
}

func TestValidateMessagesAndParams(t *testing.T) {
	tests := []struct {
		name        string
		c           func(*coupon.Coupon)
		u           func(*coupon.Use)
		wantCode    string
		wantMessage string
		wantParams  map[string]string
	}{
		{
			name:        "Inactive",
			c:           func(c *coupon.Coupon) { c.Active = false },
			wantCode:    coupon.CodeInactive,
			wantMessage: "This coupon is not active.",
		},
		{
			name:        "NotYetValid",
			u:           func(u *coupon.Use) { u.Today = d("2026-04-01") },
			wantCode:    coupon.CodeNotYetValid,
			wantMessage: "This coupon is valid from 2026-05-01.",
			wantParams:  map[string]string{"date": "2026-05-01"},
		},
		{
			name:        "Expired",
			u:           func(u *coupon.Use) { u.Today = d("2026-09-01") },
			wantCode:    coupon.CodeExpired,
			wantMessage: "This coupon expired on 2026-08-31.",
			wantParams:  map[string]string{"date": "2026-08-31"},
		},
		{
			name:        "Exhausted",
			u:           func(u *coupon.Use) { u.Redemptions = 5 },
			wantCode:    coupon.CodeExhausted,
			wantMessage: "This coupon has reached its usage limit.",
		},
		{
			name:        "Property",
			u:           func(u *coupon.Use) { u.PropertyID = 99 },
			wantCode:    coupon.CodeProperty,
			wantMessage: "This coupon does not apply to this property.",
		},
		{
			name:        "StayDatesBothBounds",
			u:           func(u *coupon.Use) { u.CheckIn = d("2026-10-01") },
			wantCode:    coupon.CodeStayDates,
			wantMessage: "This coupon applies to check-ins from 2026-06-01 to 2026-09-30.",
			wantParams:  map[string]string{"from": "2026-06-01", "until": "2026-09-30"},
		},
		{
			name:        "StayDatesFromOnly",
			c:           func(c *coupon.Coupon) { c.StayUntil = civil.Date{} },
			u:           func(u *coupon.Use) { u.CheckIn = d("2026-05-01") },
			wantCode:    coupon.CodeStayDates,
			wantMessage: "This coupon applies to check-ins from 2026-06-01 onwards.",
			wantParams:  map[string]string{"from": "2026-06-01"},
		},
		{
			name:        "StayDatesUntilOnly",
			c:           func(c *coupon.Coupon) { c.StayFrom = civil.Date{} },
			u:           func(u *coupon.Use) { u.CheckIn = d("2026-10-01") },
			wantCode:    coupon.CodeStayDates,
			wantMessage: "This coupon applies to check-ins until 2026-09-30.",
			wantParams:  map[string]string{"until": "2026-09-30"},
		},
		{
			name:        "MinNights",
			u:           func(u *coupon.Use) { u.Nights = 2 },
			wantCode:    coupon.CodeMinNights,
			wantMessage: "This coupon requires a stay of at least 3 nights.",
			wantParams:  map[string]string{"min": "3"},
		},
		{
			name:        "MinNightsSingular",
			c:           func(c *coupon.Coupon) { c.MinNights = 1 },
			u:           func(u *coupon.Use) { u.Nights = 0 },
			wantCode:    coupon.CodeMinNights,
			wantMessage: "This coupon requires a stay of at least 1 night.",
			wantParams:  map[string]string{"min": "1"},
		},
		{
			name:        "MinAmountInteger",
			c:           func(c *coupon.Coupon) { c.MinAmount = decimal.RequireFromString("200.00") },
			u:           func(u *coupon.Use) { u.Amount = decimal.RequireFromString("150") },
			wantCode:    coupon.CodeMinAmount,
			wantMessage: "This coupon requires a stay amount of at least 200.",
			wantParams:  map[string]string{"min": "200"},
		},
		{
			name:        "MinAmountOneDecimalPadded",
			c:           func(c *coupon.Coupon) { c.MinAmount = decimal.RequireFromString("150.5") },
			u:           func(u *coupon.Use) { u.Amount = decimal.RequireFromString("150.49") },
			wantCode:    coupon.CodeMinAmount,
			wantMessage: "This coupon requires a stay amount of at least 150.50.",
			wantParams:  map[string]string{"min": "150.50"},
		},
		{
			name:        "MinAmountThreeDecimalsKept",
			c:           func(c *coupon.Coupon) { c.MinAmount = decimal.RequireFromString("10.125") },
			u:           func(u *coupon.Use) { u.Amount = decimal.RequireFromString("10.124") },
			wantCode:    coupon.CodeMinAmount,
			wantMessage: "This coupon requires a stay amount of at least 10.125.",
			wantParams:  map[string]string{"min": "10.125"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, u := summer(), okUse()
			if tt.c != nil {
				tt.c(&c)
			}
			if tt.u != nil {
				tt.u(&u)
			}
			var e *coupon.Error
			if err := coupon.Validate(c, u); !errors.As(err, &e) {
				t.Fatalf("Validate = %v, want *coupon.Error", err)
			}
			if got, want := e.Code, tt.wantCode; got != want {
				t.Errorf("Code = %q, want %q", got, want)
			}
			if got, want := e.Message, tt.wantMessage; got != want {
				t.Errorf("Message = %q, want %q", got, want)
			}
			if got, want := e.Params, tt.wantParams; !maps.Equal(got, want) {
				t.Errorf("Params = %v, want %v", got, want)
			}
			if got, want := e.Error(), tt.wantCode+": "+tt.wantMessage; got != want {
				t.Errorf("Error() = %q, want %q", got, want)
			}
		})
	}
}

func TestValidateWrappedErrorMatchesByCode(t *testing.T) {
	c, u := summer(), okUse()
	u.Today = d("2026-09-01")
	err := fmtWrap(coupon.Validate(c, u))

	if !errors.Is(err, &coupon.Error{Code: coupon.CodeExpired}) {
		t.Errorf("errors.Is(%v, expired) = false, want true", err)
	}
	if errors.Is(err, &coupon.Error{Code: coupon.CodeExhausted}) {
		t.Errorf("errors.Is(%v, exhausted) = true, want false", err)
	}
	if errors.Is(err, errors.New(coupon.CodeExpired)) {
		t.Errorf("errors.Is matched a non-*coupon.Error target")
	}
	var e *coupon.Error
	if !errors.As(err, &e) || e.Code != coupon.CodeExpired {
		t.Errorf("errors.As through wrapping: got %v, want code %s", e, coupon.CodeExpired)
	}
}

// fmtWrap wraps err the way a caller adds context.
func fmtWrap(err error) error {
	return fmt.Errorf("validate coupon: %w", err)
}

func TestValidateZeroCouponRules(t *testing.T) {
	// An active coupon with no conditions applies to any use.
	c := coupon.Coupon{Code: "ANY", Kind: pricing.DiscountFixed, Value: decimal.NewFromInt(5), Active: true}
	u := coupon.Use{Today: d("2026-01-01"), PropertyID: 3, CheckIn: d("2026-02-01"), Nights: 1, Amount: decimal.Zero, Redemptions: 100}
	if err := coupon.Validate(c, u); err != nil {
		t.Errorf("Validate = %v, want nil", err)
	}
}

func TestAppliesTo(t *testing.T) {
	tests := []struct {
		name string
		ids  []int64
		id   int64
		want bool
	}{
		{"Unrestricted", nil, 42, true},
		{"Listed", []int64{1, 42}, 42, true},
		{"NotListed", []int64{1, 2}, 42, false},
		{"ZeroNotListed", []int64{1}, 0, false},
	}
	for _, tt := range tests {
		c := coupon.Coupon{PropertyIDs: tt.ids}
		if got := c.AppliesTo(tt.id); got != tt.want {
			t.Errorf("%s: AppliesTo(%d) = %v, want %v", tt.name, tt.id, got, tt.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"summer10", "SUMMER10"},
		{"  Summer10\t\n", "SUMMER10"},
		{"SUMMER10", "SUMMER10"},
		{"early-bird_2026", "EARLY-BIRD_2026"},
		{"   ", ""},
	}
	for _, tt := range tests {
		if got := coupon.Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if coupon.Normalize(" summer10 ") != coupon.Normalize("SUMMER10") {
		t.Error("codes differing in case and surrounding space must compare equal")
	}
}

func TestDiscount(t *testing.T) {
	c := summer()
	c.Code = " summer10 "
	got := c.Discount()
	want := pricing.CouponDiscount{Code: "SUMMER10", Kind: pricing.DiscountPercent, Value: decimal.NewFromInt(10)}
	if got.Code != want.Code || got.Kind != want.Kind || !got.Value.Equal(want.Value) {
		t.Errorf("Discount() = %+v, want %+v", got, want)
	}
}
