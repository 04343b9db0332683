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
	round := func(x decimal.Decimal) decimal.Decimal { return roundTo(x, places) }
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
	rest := acc.Sub(los)

	// 2b. Early bird, then last minute, each a percent of what the
	// previous discounts leave, so never below zero.
	lead := s.Today.DaysUntil(s.CheckIn)
	if eb := s.Plan.EarlyBird; eb != nil && eb.Percent.IsPositive() && lead >= eb.Days {
		off := decimal.Min(round(percentOf(rest, eb.Percent)), rest)
		q.Discounts = addLine(q.Discounts, LineEarlyBird, fmt.Sprintf("Early booking discount (%s%%)", eb.Percent), off)
		rest = rest.Sub(off)
	}
	if lm := s.Plan.LastMinute; lm != nil && lm.Percent.IsPositive() && lead <= lm.Days {
		off := decimal.Min(round(percentOf(rest, lm.Percent)), rest)
		q.Discounts = addLine(q.Discounts, LineLastMinute, fmt.Sprintf("Last-minute discount (%s%%)", lm.Percent), off)
		rest = rest.Sub(off)
	}

	// 3. Coupon, on what the previous discounts leave.
	q.CouponBase = rest
	if s.Coupon != nil {
		q.CouponCode = s.Coupon.Code
		off := s.Coupon.amount(q.CouponBase, places)
		q.Discounts = addLine(q.Discounts, LineCoupon, "Coupon "+s.Coupon.Code, off)
		rest = rest.Sub(off)
	}
	// lineBase is what a percentage tax or fee applies to, by line code.
	lineBase := map[string]decimal.Decimal{LineAccommodation: rest}

	// 4. Fees, never discounted.
	party := Party{Adults: s.Guests}
	if s.Party != nil {
		party = *s.Party
	}
	q.Party = party
	cleaning := round(s.Fees.Cleaning)
	q.Fees = addLine(q.Fees, LineCleaningFee, "Cleaning fee", cleaning)
	lineBase[LineCleaningFee] = cleaning
	if inc := s.Fees.GuestsIncluded; inc > 0 && s.Guests > inc {
		// Adults fill the included places first; children above them pay
		// the child rate when one is set.
		extraAdults := max(0, party.Adults-inc)
		extraChildren := s.Guests - inc - extraAdults
		childRate := s.Fees.ExtraGuest
		if g := s.Fees.Guests; g != nil && g.ChildExtraGuest != nil {
			childRate = *g.ChildExtraGuest
		}
		perNight := s.Fees.ExtraGuest.Mul(decimal.NewFromInt(int64(extraAdults))).
			Add(childRate.Mul(decimal.NewFromInt(int64(extraChildren))))
		amount := round(perNight.Mul(decimal.NewFromInt(int64(nights))))
		q.Fees = addLine(q.Fees, LineExtraGuestFee, "Extra guest fee", amount)
		lineBase[LineExtraGuestFee] = amount
	}
	for _, f := range s.Fees.Items {
		qty := 1
		if f.Optional {
			qty = 0
			for _, e := range s.Extras {
				if e.Code == f.Code {
					qty = e.Quantity
				}
			}
			if qty == 0 {
				continue
			}
		}
		var base decimal.Decimal
		switch count := decimal.NewFromInt(int64(party.count(f.Category))); f.Per {
		case PerStay:
			base = f.Amount
		case PerNight:
			base = f.Amount.Mul(decimal.NewFromInt(int64(nights)))
		case PerGuest:
			base = f.Amount.Mul(count)
		case PerGuestNight:
			base = f.Amount.Mul(count).Mul(decimal.NewFromInt(int64(nights)))
		case PerPercent:
			base = percentOf(rest, f.Amount)
		}
		amount := round(base.Mul(decimal.NewFromInt(int64(qty))))
		if amount.IsZero() {
			continue
		}
		l := Line{Code: f.Code, Label: f.Labels.EN, Amount: amount, Labels: f.Labels.Map()}
		if f.Optional {
			l.Quantity = qty
		}
		q.Fees = append(q.Fees, l)
		lineBase[f.Code] = amount
	}

	// 5. Tourist tax, per taxed guest per night, optionally capped in
	// nights; or a percent of the nightly price per guest, capped.
	taxed := nights
	if s.Tax.MaxNights > 0 && s.Tax.MaxNights < taxed {
		taxed = s.Tax.MaxNights
	}
	payers := 0
	for _, c := range []string{CategoryAdults, CategoryChildren} {
		if !s.Tax.exempt(c) {
			payers += party.count(c)
		}
	}
	var tourist decimal.Decimal
	if s.Tax.Percent.IsPositive() {
		for _, n := range q.NightsDetail[:taxed] {
			perGuest := percentOf(n.Price.Div(decimal.NewFromInt(int64(party.Guests()))), s.Tax.Percent)
			if c := s.Tax.CeilingPerGuestNight; c.IsPositive() && perGuest.GreaterThan(c) {
				perGuest = c
			}
			tourist = tourist.Add(perGuest.Mul(decimal.NewFromInt(int64(payers))))
		}
	} else {
		tourist = s.Tax.PerGuestPerNight.Mul(decimal.NewFromInt(int64(payers * taxed)))
	}
	q.Taxes = addLine(q.Taxes, LineTouristTax, "Tourist tax", round(tourist))

	// 5b. Percentage taxes on chosen lines: exclusive ones add a line to
	// the total, inclusive ones show what the prices contain.
	q.IncludedTaxes = []Line{}
	for _, t := range s.Fees.Taxes {
		base := decimal.Zero
		for _, code := range t.On {
			base = base.Add(lineBase[code])
		}
		l := Line{Code: t.Code, Label: t.Labels.EN, Labels: t.Labels.Map()}
		if t.Inclusive {
			// base contains the tax: base × p / (100 + p).
			l.Amount = round(base.Mul(t.Percent).Div(hundred.Add(t.Percent)))
			if !l.Amount.IsZero() {
				q.IncludedTaxes = append(q.IncludedTaxes, l)
			}
			continue
		}
		l.Amount = round(percentOf(base, t.Percent))
		if !l.Amount.IsZero() {
			q.Taxes = append(q.Taxes, l)
		}
	}

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
	if err := s.checkCharges(); err != nil {
		return err
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
