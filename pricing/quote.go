package pricing

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Compute prices a stay (SPEC §4): nightly prices, accommodation, the
// length-of-stay discount, the coupon, fees, tourist tax, the total and what
// to charge now. Every line is rounded to the currency, so the total is
// exactly accommodation − discounts + fees + taxes and charge + balance is
// exactly the total.
//
// Errors wrap ErrInvalidDates (check-out not after check-in, missing date),
// ErrInvalidGuests (fewer than one guest), ErrUnknownCurrency,
// ErrInvalidMode, ErrInvalidPlan (with the RatePlan.Validate reason) or
// ErrInvalidAmount (negative fee or tax, deposit percent outside 0–100,
// negative balance-due days, unknown coupon kind, deposit mode without
// Today).
func Compute(s Stay) (Quote, error) {
	if err := s.check(); err != nil {
		return Quote{}, err
	}
	cur := strings.ToUpper(s.Currency)
	places := MinorUnits(cur)
	if s.Decimals != nil && *s.Decimals < places {
		places = *s.Decimals
	}
	round := func(x decimal.Decimal) decimal.Decimal { return x.Round(places) }
	nights := s.CheckIn.DaysUntil(s.CheckOut)
	q := Quote{
		CheckIn:      s.CheckIn,
		CheckOut:     s.CheckOut,
		Nights:       nights,
		Guests:       s.Guests,
		Currency:     cur,
		NightsDetail: make([]Night, 0, nights),
		Discounts:    []Line{},
		Fees:         []Line{},
		Taxes:        []Line{},
		Mode:         s.Mode,
	}

	// 1. Accommodation: the sum of the rounded nightly prices.
	acc := decimal.Zero
	for d := s.CheckIn; d.Before(s.CheckOut); d = d.AddDays(1) {
		price := round(s.Plan.NightPrice(d))
		q.NightsDetail = append(q.NightsDetail, Night{Date: d, Price: price})
		acc = acc.Add(price)
	}
	q.Accommodation = acc

	// 2. Length-of-stay discount: monthly replaces weekly, never both.
	los := decimal.Zero
	switch p := s.Plan; {
	case nights >= 28 && p.MonthlyDiscountPercent.IsPositive():
		los = round(percentOf(acc, p.MonthlyDiscountPercent))
		q.Discounts = addLine(q.Discounts, LineMonthlyDiscount,
			fmt.Sprintf("Monthly discount (%s%%)", p.MonthlyDiscountPercent), los)
	case nights >= 7 && p.WeeklyDiscountPercent.IsPositive():
		los = round(percentOf(acc, p.WeeklyDiscountPercent))
		q.Discounts = addLine(q.Discounts, LineWeeklyDiscount,
			fmt.Sprintf("Weekly discount (%s%%)", p.WeeklyDiscountPercent), los)
	}

	// 3. Coupon, on what the length-of-stay discount leaves.
	q.CouponBase = acc.Sub(los)
	if s.Coupon != nil {
		q.CouponCode = s.Coupon.Code
		q.Discounts = addLine(q.Discounts, LineCoupon, "Coupon "+s.Coupon.Code,
			s.Coupon.amount(q.CouponBase, places))
	}

	// 4. Fees, never discounted.
	q.Fees = addLine(q.Fees, LineCleaningFee, "Cleaning fee", round(s.Fees.Cleaning))
	if inc := s.Fees.GuestsIncluded; inc > 0 && s.Guests > inc {
		extra := s.Guests - inc
		q.Fees = addLine(q.Fees, LineExtraGuestFee, "Extra guest fee",
			round(s.Fees.ExtraGuest.Mul(decimal.NewFromInt(int64(extra*nights)))))
	}

	// 5. Tourist tax, per guest per night, optionally capped in nights.
	taxed := nights
	if s.Tax.MaxNights > 0 && s.Tax.MaxNights < taxed {
		taxed = s.Tax.MaxNights
	}
	q.Taxes = addLine(q.Taxes, LineTouristTax, "Tourist tax",
		round(s.Tax.PerGuestPerNight.Mul(decimal.NewFromInt(int64(s.Guests*taxed)))))

	// 6. Total.
	total := acc
	for _, l := range q.Discounts {
		total = total.Sub(l.Amount)
	}
	for _, l := range q.Fees {
		total = total.Add(l.Amount)
	}
	for _, l := range q.Taxes {
		total = total.Add(l.Amount)
	}
	q.Total = total

	// 7. Charge now, balance later.
	q.Charge = total
	if s.Mode == ModeDeposit && s.Today.DaysUntil(s.CheckIn) > s.BalanceDueDays {
		q.Charge = round(percentOf(total, s.DepositPercent))
	}
	q.Balance = total.Sub(q.Charge)
	if q.Balance.IsPositive() {
		q.BalanceDueDate = s.CheckIn.AddDays(-s.BalanceDueDays)
	}
	return q, nil
}

// addLine appends a line unless its amount is zero.
func addLine(lines []Line, code, label string, amount decimal.Decimal) []Line {
	if amount.IsZero() {
		return lines
	}
	return append(lines, Line{Code: code, Label: label, Amount: amount})
}

// check refuses a stay Compute cannot price.
func (s Stay) check() error {
	switch {
	case s.CheckIn.IsZero() || s.CheckOut.IsZero():
		return fmt.Errorf("pricing: check-in and check-out are required: %w", ErrInvalidDates)
	case !s.CheckOut.After(s.CheckIn):
		return fmt.Errorf("pricing: check-out %s is not after check-in %s: %w", s.CheckOut, s.CheckIn, ErrInvalidDates)
	case s.Guests < 1:
		return fmt.Errorf("pricing: %d guests, want at least 1: %w", s.Guests, ErrInvalidGuests)
	case !ValidCurrency(s.Currency):
		return fmt.Errorf("pricing: currency %q: %w", s.Currency, ErrUnknownCurrency)
	case !s.Mode.Valid():
		return fmt.Errorf("pricing: payment mode %q: %w", s.Mode, ErrInvalidMode)
	case s.Decimals != nil && *s.Decimals < 0:
		return fmt.Errorf("pricing: %d decimals: %w", *s.Decimals, ErrInvalidAmount)
	}
	if err := s.Plan.Validate(); err != nil {
		return fmt.Errorf("pricing: %w: %w", ErrInvalidPlan, err)
	}
	switch {
	case s.Fees.Cleaning.IsNegative() || s.Fees.ExtraGuest.IsNegative() || s.Fees.GuestsIncluded < 0:
		return fmt.Errorf("pricing: negative fee: %w", ErrInvalidAmount)
	case s.Tax.PerGuestPerNight.IsNegative() || s.Tax.MaxNights < 0:
		return fmt.Errorf("pricing: negative tourist tax: %w", ErrInvalidAmount)
	case s.Coupon != nil && s.Coupon.Kind != DiscountPercent && s.Coupon.Kind != DiscountFixed:
		return fmt.Errorf("pricing: coupon %q has unknown kind %q: %w", s.Coupon.Code, s.Coupon.Kind, ErrInvalidAmount)
	case s.Mode == ModeDeposit && !validPercent(s.DepositPercent):
		return fmt.Errorf("pricing: deposit percent %s outside 0–100: %w", s.DepositPercent, ErrInvalidAmount)
	case s.Mode == ModeDeposit && s.BalanceDueDays < 0:
		return fmt.Errorf("pricing: balance due days %d is negative: %w", s.BalanceDueDays, ErrInvalidAmount)
	case s.Mode == ModeDeposit && s.Today.IsZero():
		return fmt.Errorf("pricing: deposit mode needs today's date: %w", ErrInvalidAmount)
	}
	return nil
}
