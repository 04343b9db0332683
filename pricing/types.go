package pricing

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/rules"
)

// PaymentMode says how much of a stay the guest pays at checkout.
type PaymentMode string

// The payment modes of the v1 API.
const (
	// ModeFull charges the whole total at checkout.
	ModeFull PaymentMode = "full"
	// ModeDeposit charges DepositPercent of the total at checkout, or the
	// whole total when check-in is within BalanceDueDays.
	ModeDeposit PaymentMode = "deposit"
	// ModeRequest authorises the whole total at checkout; the host captures
	// it on approval.
	ModeRequest PaymentMode = "request"
)

// Valid reports whether m is one of the three modes.
func (m PaymentMode) Valid() bool {
	return m == ModeFull || m == ModeDeposit || m == ModeRequest
}

// RatePlan prices each night of a property.
//
// The price of a night is, in order of precedence: its Override, the Rate of
// the first Season covering it, WeekendRate when the night starts on one of
// WeekendNights, else BaseRate.
type RatePlan struct {
	BaseRate decimal.Decimal `json:"base_rate"`
	// WeekendRate, when non-nil, prices the nights of WeekendNights.
	WeekendRate *decimal.Decimal `json:"weekend_rate,omitempty"`
	// WeekendNights are the nights priced at WeekendRate; nil means Friday
	// and Saturday nights.
	WeekendNights []time.Weekday `json:"weekend_nights"`
	Seasons       []Season       `json:"seasons,omitempty"`
	Overrides     []DateOverride `json:"overrides,omitempty"`
	// WeeklyDiscountPercent applies to stays of 7 nights or more (0–100).
	WeeklyDiscountPercent decimal.Decimal `json:"weekly_discount_percent"`
	// MonthlyDiscountPercent applies, instead of the weekly one, to stays of
	// 28 nights or more (0–100).
	MonthlyDiscountPercent decimal.Decimal `json:"monthly_discount_percent"`
	// EarlyBird and LastMinute, when set, discount stays booked long
	// before or shortly before check-in; see Compute for the order.
	EarlyBird  *TimedDiscount `json:"early_bird,omitempty"`
	LastMinute *TimedDiscount `json:"last_minute,omitempty"`
	// Rules are the property's stay rules (package rules). They travel
	// with the rate plan because seasons and per-date settings are set
	// together; pricing itself never reads them.
	Rules rules.Set `json:"rules,omitzero"`
}

// Season prices the nights from Start to End, both included.
type Season struct {
	Name  string          `json:"name"`
	Start civil.Date      `json:"start"`
	End   civil.Date      `json:"end"`
	Rate  decimal.Decimal `json:"rate"`
	// MinStayNights, when above zero, is the minimum stay of a check-in
	// within the season; it can only raise the property's minimum.
	MinStayNights int `json:"min_stay_nights,omitempty"`
}

// DateOverride sets the price of one night.
type DateOverride struct {
	Date  civil.Date      `json:"date"`
	Price decimal.Decimal `json:"price"`
}

// Fees are charged on top of accommodation and are never discounted.
type Fees struct {
	// Cleaning is charged once per stay.
	Cleaning decimal.Decimal `json:"cleaning"`
	// ExtraGuest is charged per guest above GuestsIncluded, per night.
	ExtraGuest decimal.Decimal `json:"extra_guest"`
	// GuestsIncluded is the number of guests the nightly rate covers; zero
	// means every guest is included (no extra-guest fee).
	GuestsIncluded int `json:"guests_included"`
	// Guests are the limits and fees of guest categories; nil means
	// adults only, as before categories existed.
	Guests *GuestPolicy `json:"guests,omitempty"`
	// Items are further fees, mandatory or optional (extras).
	Items []Fee `json:"items,omitempty"`
	// Taxes are VAT-like percentage taxes on chosen lines.
	Taxes []PercentTax `json:"taxes,omitempty"`
}

// TouristTax is charged per guest per night, and is never discounted.
type TouristTax struct {
	PerGuestPerNight decimal.Decimal `json:"per_guest_per_night"`
	// MaxNights, when above zero, caps the number of taxed nights.
	MaxNights int `json:"max_nights,omitempty"`
	// Percent, when above zero, replaces PerGuestPerNight: each taxed
	// guest pays Percent of the night's price divided by the guests
	// (children included), capped at CeilingPerGuestNight when that is
	// above zero — the French rule for unclassified rentals.
	Percent              decimal.Decimal `json:"percent,omitzero"`
	CeilingPerGuestNight decimal.Decimal `json:"ceiling_per_guest_night,omitzero"`
	// Exempt are the categories that pay no tourist tax ("children",
	// "infants"); infants and pets never count as guests anyway.
	Exempt []string `json:"exempt,omitempty"`
}

// DiscountKind is how a coupon discounts.
type DiscountKind string

// The coupon discount kinds.
const (
	// DiscountPercent takes Value percent (0–100) off the discount base.
	DiscountPercent DiscountKind = "percent"
	// DiscountFixed takes Value (in the currency) off, capped at the base.
	DiscountFixed DiscountKind = "fixed"
)

// CouponDiscount is the money side of a coupon; package coupon decides
// whether a coupon applies, pricing only applies it.
type CouponDiscount struct {
	Code  string
	Kind  DiscountKind
	Value decimal.Decimal
}

// Stay is everything a quote needs. Callers validate stay rules (min/max
// nights, guests, dates in the past) before asking for a quote; Quote only
// refuses input it cannot price.
type Stay struct {
	CheckIn  civil.Date
	CheckOut civil.Date
	Guests   int
	Currency string

	Plan RatePlan
	Fees Fees
	Tax  TouristTax
	// Coupon, when non-nil, is applied after the length-of-stay discount.
	Coupon *CouponDiscount
	// Party, when non-nil, is the guests by category; Guests must then
	// equal Party.Guests(). Nil means Guests adults.
	Party *Party
	// Extras are the optional fees chosen, with their quantity.
	Extras []Extra

	Mode PaymentMode
	// DepositPercent is the share (0–100) charged at checkout in deposit mode.
	DepositPercent decimal.Decimal
	// BalanceDueDays is how many days before check-in the balance is due;
	// a deposit-mode stay starting sooner than that is charged in full.
	BalanceDueDays int
	// Today is the organisation's current date, for the deposit rule.
	Today civil.Date
	// Decimals, when set, rounds every line to fewer decimals than the
	// currency's minor units: those a payment provider can charge (Stripe
	// takes KWD, BHD, JOD, OMR and TND in hundredths, MGA in whole units).
	// Nil means the currency's minor units.
	Decimals *int32
}

// Night is the price of one night of a stay.
type Night struct {
	Date  civil.Date      `json:"date"`
	Price decimal.Decimal `json:"price"`
}

// Line is one discount, fee or tax of a quote. Amounts are positive:
// discounts are subtracted from the total, fees and taxes added.
type Line struct {
	Code   string          `json:"code"`
	Label  string          `json:"label"`
	Amount decimal.Decimal `json:"amount"`
	// Labels are the line's label by locale ("fr", "en"), when known.
	Labels map[string]string `json:"labels,omitempty"`
	// Quantity is how many of an extra were chosen; 0 for other lines.
	Quantity int `json:"quantity,omitempty"`
}

// Line codes of a Quote.
const (
	LineWeeklyDiscount  = "weekly_discount"
	LineMonthlyDiscount = "monthly_discount"
	LineCoupon          = "coupon"
	LineCleaningFee     = "cleaning_fee"
	LineExtraGuestFee   = "extra_guest_fee"
	LineTouristTax      = "tourist_tax"
	LineEarlyBird       = "early_bird"
	LineLastMinute      = "last_minute"
	// LineAccommodation names the accommodation (net of discounts) in
	// PercentTax.On.
	LineAccommodation = "accommodation"
)

// Quote is the priced stay. Total = Accommodation − Σ Discounts + Σ Fees +
// Σ Taxes exactly; Charge + Balance = Total exactly.
type Quote struct {
	CheckIn       civil.Date
	CheckOut      civil.Date
	Nights        int
	Guests        int
	Currency      string
	NightsDetail  []Night
	Accommodation decimal.Decimal
	Discounts     []Line
	Fees          []Line
	Taxes         []Line
	// IncludedTaxes are the inclusive taxes contained in the other lines:
	// shown, not added to the total.
	IncludedTaxes []Line
	// Party is the guests by category.
	Party   Party
	Total   decimal.Decimal
	Mode    PaymentMode
	Charge  decimal.Decimal
	Balance decimal.Decimal
	// BalanceDueDate is when Balance is due; zero when Balance is zero.
	BalanceDueDate civil.Date
	// CouponCode is the applied coupon's code, empty without one.
	CouponCode string
	// CouponBase is what a coupon discounts: accommodation less the
	// length-of-stay discount. Coupon minimum-amount rules compare with it.
	CouponBase decimal.Decimal
}
