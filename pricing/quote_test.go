package pricing_test

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// stay returns a full-payment EUR stay of 2 guests checking in on in (a
// date) for nights nights at a flat 100 a night, then applies f.
func stay(in string, nights int, f func(s *pricing.Stay)) pricing.Stay {
	s := pricing.Stay{
		CheckIn:  day(in),
		CheckOut: day(in).AddDays(nights),
		Guests:   2,
		Currency: "EUR",
		Plan:     pricing.RatePlan{BaseRate: dec("100")},
		Mode:     pricing.ModeFull,
		Today:    day("2026-01-01"),
	}
	if f != nil {
		f(&s)
	}
	return s
}

func line(code, label, amount string) pricing.Line {
	return pricing.Line{Code: code, Label: label, Amount: dec(amount)}
}

func coupon(kind pricing.DiscountKind, value string) *pricing.CouponDiscount {
	return &pricing.CouponDiscount{Code: "WELCOME10", Kind: kind, Value: dec(value)}
}

// deposit30 is deposit mode at 30 % with the balance due 30 days before
// check-in.
func deposit30(s *pricing.Stay) {
	s.Mode = pricing.ModeDeposit
	s.DepositPercent = dec("30")
	s.BalanceDueDays = 30
}

func TestCompute(t *testing.T) {
	const mon = "2026-03-02" // a Monday
	type want struct {
		accommodation string
		discounts     []pricing.Line
		fees          []pricing.Line
		taxes         []pricing.Line
		total         string
		charge        string
		balance       string
		dueDate       string // "" = zero
		couponBase    string
		couponCode    string
		currency      string // "" = EUR
	}
	tests := []struct {
		name string
		stay pricing.Stay
		want want
	}{
		{
			// 3 nights × 100 = 300; no discount, fee or tax; full → charge 300
			name: "base rate only",
			stay: stay(mon, 3, nil),
			want: want{accommodation: "300", total: "300", charge: "300", balance: "0", couponBase: "300"},
		},
		{
			// Thu 100 + Fri 150 + Sat 150 + Sun 100 = 500
			name: "weekend rate on Friday and Saturday nights",
			stay: stay("2026-03-05", 4, func(s *pricing.Stay) { s.Plan.WeekendRate = ptr(dec("150")) }),
			want: want{accommodation: "500", total: "500", charge: "500", balance: "0", couponBase: "500"},
		},
		{
			// Wed 12-30 season 200 + Thu 12-31 override 250 + Fri 01-01
			// season 200 (beats weekend 150) = 650
			name: "season over the year end with an override",
			stay: stay("2026-12-30", 3, func(s *pricing.Stay) {
				s.Plan = holidayPlan()
				s.Plan.Overrides = append(s.Plan.Overrides, pricing.DateOverride{Date: day("2026-12-31"), Price: dec("250")})
			}),
			want: want{accommodation: "650", total: "650", charge: "650", balance: "0", couponBase: "650"},
		},
		{
			// each night 33.335 → 33.34; 2 × 33.34 = 66.68 (not round(66.67))
			name: "each night rounded before summing",
			stay: stay(mon, 2, func(s *pricing.Stay) { s.Plan.BaseRate = dec("33.335") }),
			want: want{accommodation: "66.68", total: "66.68", charge: "66.68", balance: "0", couponBase: "66.68"},
		},
		{
			// 7 × 100 = 700; weekly 10% = 70; total 630
			name: "weekly discount at exactly 7 nights",
			stay: stay(mon, 7, func(s *pricing.Stay) { s.Plan.WeeklyDiscountPercent = dec("10") }),
			want: want{accommodation: "700",
				discounts: []pricing.Line{line("weekly_discount", "Weekly discount (10%)", "70")},
				total:     "630", charge: "630", balance: "0", couponBase: "630"},
		},
		{
			// 6 × 100 = 600; weekly n/a under 7 nights
			name: "no weekly discount at 6 nights",
			stay: stay(mon, 6, func(s *pricing.Stay) { s.Plan.WeeklyDiscountPercent = dec("10") }),
			want: want{accommodation: "600", total: "600", charge: "600", balance: "0", couponBase: "600"},
		},
		{
			// 7 × 33.33 = 233.31; weekly 12.5% = 29.16375 → 29.16; total 204.15
			name: "weekly discount rounded",
			stay: stay(mon, 7, func(s *pricing.Stay) {
				s.Plan.BaseRate = dec("33.33")
				s.Plan.WeeklyDiscountPercent = dec("12.5")
			}),
			want: want{accommodation: "233.31",
				discounts: []pricing.Line{line("weekly_discount", "Weekly discount (12.5%)", "29.16")},
				total:     "204.15", charge: "204.15", balance: "0", couponBase: "204.15"},
		},
		{
			// 28 × 100 = 2800; monthly 20% = 560 instead of weekly; total 2240
			name: "monthly discount at 28 nights not stacked with weekly",
			stay: stay(mon, 28, func(s *pricing.Stay) {
				s.Plan.WeeklyDiscountPercent = dec("10")
				s.Plan.MonthlyDiscountPercent = dec("20")
			}),
			want: want{accommodation: "2800",
				discounts: []pricing.Line{line("monthly_discount", "Monthly discount (20%)", "560")},
				total:     "2240", charge: "2240", balance: "0", couponBase: "2240"},
		},
		{
			// 27 × 100 = 2700; monthly n/a; weekly 10% = 270; total 2430
			name: "weekly discount at 27 nights with a monthly one set",
			stay: stay(mon, 27, func(s *pricing.Stay) {
				s.Plan.WeeklyDiscountPercent = dec("10")
				s.Plan.MonthlyDiscountPercent = dec("20")
			}),
			want: want{accommodation: "2700",
				discounts: []pricing.Line{line("weekly_discount", "Weekly discount (10%)", "270")},
				total:     "2430", charge: "2430", balance: "0", couponBase: "2430"},
		},
		{
			// 28 × 100 = 2800; monthly 0 → weekly 10% = 280; total 2520
			name: "weekly discount at 28 nights without a monthly one",
			stay: stay(mon, 28, func(s *pricing.Stay) { s.Plan.WeeklyDiscountPercent = dec("10") }),
			want: want{accommodation: "2800",
				discounts: []pricing.Line{line("weekly_discount", "Weekly discount (10%)", "280")},
				total:     "2520", charge: "2520", balance: "0", couponBase: "2520"},
		},
		{
			// 7 × 100 = 700; weekly 10% = 70; base 630; coupon 15% of 630 =
			// 94.50; total 700 − 70 − 94.50 = 535.50
			name: "percent coupon after the weekly discount",
			stay: stay(mon, 7, func(s *pricing.Stay) {
				s.Plan.WeeklyDiscountPercent = dec("10")
				s.Coupon = coupon(pricing.DiscountPercent, "15")
			}),
			want: want{accommodation: "700",
				discounts: []pricing.Line{
					line("weekly_discount", "Weekly discount (10%)", "70"),
					line("coupon", "Coupon WELCOME10", "94.50"),
				},
				total: "535.50", charge: "535.50", balance: "0", couponBase: "630", couponCode: "WELCOME10"},
		},
		{
			// 3 × 33.33 = 99.99; coupon 10% = 9.999 → 10.00; total 89.99
			name: "percent coupon rounded",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Plan.BaseRate = dec("33.33")
				s.Coupon = coupon(pricing.DiscountPercent, "10")
			}),
			want: want{accommodation: "99.99",
				discounts: []pricing.Line{line("coupon", "Coupon WELCOME10", "10.00")},
				total:     "89.99", charge: "89.99", balance: "0", couponBase: "99.99", couponCode: "WELCOME10"},
		},
		{
			// 3 × 100 = 300; fixed 25; total 275
			name: "fixed coupon",
			stay: stay(mon, 3, func(s *pricing.Stay) { s.Coupon = coupon(pricing.DiscountFixed, "25") }),
			want: want{accommodation: "300",
				discounts: []pricing.Line{line("coupon", "Coupon WELCOME10", "25")},
				total:     "275", charge: "275", balance: "0", couponBase: "300", couponCode: "WELCOME10"},
		},
		{
			// 3 × 100 = 300; fixed 500 capped at 300; cleaning 50;
			// total 300 − 300 + 50 = 50
			name: "fixed coupon above the base is capped",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Coupon = coupon(pricing.DiscountFixed, "500")
				s.Fees.Cleaning = dec("50")
			}),
			want: want{accommodation: "300",
				discounts: []pricing.Line{line("coupon", "Coupon WELCOME10", "300")},
				fees:      []pricing.Line{line("cleaning_fee", "Cleaning fee", "50")},
				total:     "50", charge: "50", balance: "0", couponBase: "300", couponCode: "WELCOME10"},
		},
		{
			// 3 × 100 = 300; coupon 100% = 300; total 0; nothing to charge
			name: "100 percent coupon gives a zero total",
			stay: stay(mon, 3, func(s *pricing.Stay) { s.Coupon = coupon(pricing.DiscountPercent, "100") }),
			want: want{accommodation: "300",
				discounts: []pricing.Line{line("coupon", "Coupon WELCOME10", "300")},
				total:     "0", charge: "0", balance: "0", couponBase: "300", couponCode: "WELCOME10"},
		},
		{
			// 7 × 0 = 0; weekly 10% of 0 and coupon 10% of 0 are zero lines,
			// omitted; deposit 30% of 0 = 0; total 0
			name: "all-zero prices",
			stay: stay(mon, 7, func(s *pricing.Stay) {
				s.Plan.BaseRate = dec("0")
				s.Plan.WeeklyDiscountPercent = dec("10")
				s.Coupon = coupon(pricing.DiscountPercent, "10")
				deposit30(s)
			}),
			want: want{accommodation: "0", total: "0", charge: "0", balance: "0", couponBase: "0", couponCode: "WELCOME10"},
		},
		{
			// 3 × 100 = 300; cleaning 50 once; total 350
			name: "cleaning fee once per stay",
			stay: stay(mon, 3, func(s *pricing.Stay) { s.Fees.Cleaning = dec("50") }),
			want: want{accommodation: "300",
				fees:  []pricing.Line{line("cleaning_fee", "Cleaning fee", "50")},
				total: "350", charge: "350", balance: "0", couponBase: "300"},
		},
		{
			// 3 × 100 = 300; 4 guests, 2 included: 2 × 15 × 3 nights = 90;
			// total 390
			name: "extra guests above those included",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Guests = 4
				s.Fees = pricing.Fees{ExtraGuest: dec("15"), GuestsIncluded: 2}
			}),
			want: want{accommodation: "300",
				fees:  []pricing.Line{line("extra_guest_fee", "Extra guest fee", "90")},
				total: "390", charge: "390", balance: "0", couponBase: "300"},
		},
		{
			// 2 guests, 2 included: no extra-guest fee; total 300
			name: "no extra-guest fee at the guests included",
			stay: stay(mon, 3, func(s *pricing.Stay) { s.Fees = pricing.Fees{ExtraGuest: dec("15"), GuestsIncluded: 2} }),
			want: want{accommodation: "300", total: "300", charge: "300", balance: "0", couponBase: "300"},
		},
		{
			// GuestsIncluded 0 = everyone included: no fee for 5 guests
			name: "no extra-guest fee when every guest is included",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Guests = 5
				s.Fees = pricing.Fees{ExtraGuest: dec("15")}
			}),
			want: want{accommodation: "300", total: "300", charge: "300", balance: "0", couponBase: "300"},
		},
		{
			// 3 × 100 = 300; tax 2 guests × 3 nights × 1.50 = 9; total 309
			name: "tourist tax",
			stay: stay(mon, 3, func(s *pricing.Stay) { s.Tax.PerGuestPerNight = dec("1.50") }),
			want: want{accommodation: "300",
				taxes: []pricing.Line{line("tourist_tax", "Tourist tax", "9")},
				total: "309", charge: "309", balance: "0", couponBase: "300"},
		},
		{
			// 10 × 100 = 1000; tax 2 guests × min(10, 7) × 2 = 28; total 1028
			name: "tourist tax capped in nights",
			stay: stay(mon, 10, func(s *pricing.Stay) { s.Tax = pricing.TouristTax{PerGuestPerNight: dec("2"), MaxNights: 7} }),
			want: want{accommodation: "1000",
				taxes: []pricing.Line{line("tourist_tax", "Tourist tax", "28")},
				total: "1028", charge: "1028", balance: "0", couponBase: "1000"},
		},
		{
			// 3 × 100 = 300; tax 2 × min(3, 7) × 1.50 = 9; total 309
			name: "tourist tax cap above the stay",
			stay: stay(mon, 3, func(s *pricing.Stay) { s.Tax = pricing.TouristTax{PerGuestPerNight: dec("1.50"), MaxNights: 7} }),
			want: want{accommodation: "300",
				taxes: []pricing.Line{line("tourist_tax", "Tourist tax", "9")},
				total: "309", charge: "309", balance: "0", couponBase: "300"},
		},
		{
			// 3 × 100 = 300; tax 3 guests × 3 nights × 0.335 = 3.015 → 3.02;
			// total 303.02
			name: "tourist tax rounded",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Guests = 3
				s.Tax.PerGuestPerNight = dec("0.335")
			}),
			want: want{accommodation: "300",
				taxes: []pricing.Line{line("tourist_tax", "Tourist tax", "3.02")},
				total: "303.02", charge: "303.02", balance: "0", couponBase: "300"},
		},
		{
			// 3 nights × 100 = 300; weekly n/a; WELCOME10: 10% of 300 = 30;
			// cleaning 50; tax 2 guests × 3 × 1.50 = 9;
			// total = 300 − 30 + 50 + 9 = 329
			name: "coupon, cleaning and tax together",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Plan.WeeklyDiscountPercent = dec("10")
				s.Coupon = coupon(pricing.DiscountPercent, "10")
				s.Fees.Cleaning = dec("50")
				s.Tax.PerGuestPerNight = dec("1.50")
			}),
			want: want{accommodation: "300",
				discounts: []pricing.Line{line("coupon", "Coupon WELCOME10", "30")},
				fees:      []pricing.Line{line("cleaning_fee", "Cleaning fee", "50")},
				taxes:     []pricing.Line{line("tourist_tax", "Tourist tax", "9")},
				total:     "329", charge: "329", balance: "0", couponBase: "300", couponCode: "WELCOME10"},
		},
		{
			// 3 × 111.11 = 333.33; 60 days ahead > 30: deposit 30% = 99.999
			// → 100.00; balance 233.33 due 2026-03-02 − 30 = 2026-01-31
			name: "deposit 30 percent rounded",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Plan.BaseRate = dec("111.11")
				deposit30(s)
			}),
			want: want{accommodation: "333.33", total: "333.33", charge: "100.00", balance: "233.33",
				dueDate: "2026-01-31", couponBase: "333.33"},
		},
		{
			// 31 days ahead > 30: deposit 100.00, balance 233.33
			name: "deposit one day before the balance is due",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Plan.BaseRate = dec("111.11")
				deposit30(s)
				s.Today = day("2026-01-30")
			}),
			want: want{accommodation: "333.33", total: "333.33", charge: "100.00", balance: "233.33",
				dueDate: "2026-01-31", couponBase: "333.33"},
		},
		{
			// 30 days ahead <= 30: the whole 333.33 now
			name: "deposit mode on the balance due day charges in full",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Plan.BaseRate = dec("111.11")
				deposit30(s)
				s.Today = day("2026-01-31")
			}),
			want: want{accommodation: "333.33", total: "333.33", charge: "333.33", balance: "0", couponBase: "333.33"},
		},
		{
			// 20 days ahead <= 30: the whole 333.33 now
			name: "deposit mode inside balance_due_days charges in full",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Plan.BaseRate = dec("111.11")
				deposit30(s)
				s.Today = day("2026-02-10")
			}),
			want: want{accommodation: "333.33", total: "333.33", charge: "333.33", balance: "0", couponBase: "333.33"},
		},
		{
			// balance due on arrival (0 days); check-in tomorrow: 1 > 0 →
			// deposit 30% of 300 = 90, balance 210 due on 2026-03-02
			name: "deposit with the balance due on arrival",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				deposit30(s)
				s.BalanceDueDays = 0
				s.Today = day("2026-03-01")
			}),
			want: want{accommodation: "300", total: "300", charge: "90", balance: "210",
				dueDate: "2026-03-02", couponBase: "300"},
		},
		{
			// deposit 100% of 300 = 300; balance 0, no due date
			name: "deposit of 100 percent",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				deposit30(s)
				s.DepositPercent = dec("100")
			}),
			want: want{accommodation: "300", total: "300", charge: "300", balance: "0", couponBase: "300"},
		},
		{
			// request: the whole 300 is authorised now
			name: "request mode charges the total",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Mode = pricing.ModeRequest
				s.DepositPercent = dec("30") // ignored outside deposit mode
				s.BalanceDueDays = 30
			}),
			want: want{accommodation: "300", total: "300", charge: "300", balance: "0", couponBase: "300"},
		},
		{
			// JPY, 0 decimals: nights 1234.5 → 1235 each, 2 × 1235 = 2470;
			// coupon 15% of 2470 = 370.5 → 371; tax 2 × 2 × 100.25 = 401;
			// total 2470 − 371 + 401 = 2500; deposit 33.3% = 832.5 → 833;
			// balance 1667 due 2026-01-31
			name: "JPY rounds to yen",
			stay: stay(mon, 2, func(s *pricing.Stay) {
				s.Currency = "JPY"
				s.Plan.BaseRate = dec("1234.5")
				s.Coupon = coupon(pricing.DiscountPercent, "15")
				s.Tax.PerGuestPerNight = dec("100.25")
				deposit30(s)
				s.DepositPercent = dec("33.3")
			}),
			want: want{accommodation: "2470",
				discounts: []pricing.Line{line("coupon", "Coupon WELCOME10", "371")},
				taxes:     []pricing.Line{line("tourist_tax", "Tourist tax", "401")},
				total:     "2500", charge: "833", balance: "1667", dueDate: "2026-01-31",
				couponBase: "2470", couponCode: "WELCOME10", currency: "JPY"},
		},
		{
			// KWD, 3 decimals: nights 10.0005 → 10.001 each, 3 × = 30.003;
			// coupon 10% = 3.0003 → 3.000; cleaning 2.5555 → 2.556;
			// total 30.003 − 3 + 2.556 = 29.559; deposit 30% = 8.8677 →
			// 8.868; balance 20.691
			name: "KWD rounds to fils",
			stay: stay(mon, 3, func(s *pricing.Stay) {
				s.Currency = "KWD"
				s.Plan.BaseRate = dec("10.0005")
				s.Coupon = coupon(pricing.DiscountPercent, "10")
				s.Fees.Cleaning = dec("2.5555")
				deposit30(s)
			}),
			want: want{accommodation: "30.003",
				discounts: []pricing.Line{line("coupon", "Coupon WELCOME10", "3.000")},
				fees:      []pricing.Line{line("cleaning_fee", "Cleaning fee", "2.556")},
				total:     "29.559", charge: "8.868", balance: "20.691", dueDate: "2026-01-31",
				couponBase: "30.003", couponCode: "WELCOME10", currency: "KWD"},
		},
		{
			// lower-case code accepted and normalised: 3 × 100 = 300
			name: "lower-case currency",
			stay: stay(mon, 3, func(s *pricing.Stay) { s.Currency = "eur" }),
			want: want{accommodation: "300", total: "300", charge: "300", balance: "0", couponBase: "300"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := pricing.Compute(tt.stay)
			if err != nil {
				t.Fatalf("Compute: %v", err)
			}
			w := tt.want
			if w.currency == "" {
				w.currency = "EUR"
			}
			checkAmount(t, "Accommodation", q.Accommodation, w.accommodation)
			checkLines(t, "Discounts", q.Discounts, w.discounts)
			checkLines(t, "Fees", q.Fees, w.fees)
			checkLines(t, "Taxes", q.Taxes, w.taxes)
			checkAmount(t, "Total", q.Total, w.total)
			checkAmount(t, "Charge", q.Charge, w.charge)
			checkAmount(t, "Balance", q.Balance, w.balance)
			checkAmount(t, "CouponBase", q.CouponBase, w.couponBase)
			var due civil.Date
			if w.dueDate != "" {
				due = day(w.dueDate)
			}
			if q.BalanceDueDate != due {
				t.Errorf("BalanceDueDate = %v, want %v", q.BalanceDueDate, due)
			}
			if q.CouponCode != w.couponCode {
				t.Errorf("CouponCode = %q, want %q", q.CouponCode, w.couponCode)
			}
			if q.Currency != w.currency {
				t.Errorf("Currency = %q, want %q", q.Currency, w.currency)
			}
			if got, want := q.Nights, tt.stay.CheckIn.DaysUntil(tt.stay.CheckOut); got != want {
				t.Errorf("Nights = %d, want %d", got, want)
			}
			if q.CheckIn != tt.stay.CheckIn || q.CheckOut != tt.stay.CheckOut || q.Guests != tt.stay.Guests || q.Mode != tt.stay.Mode {
				t.Errorf("quote echoes %v→%v, %d guests, %s; want the stay's %v→%v, %d, %s",
					q.CheckIn, q.CheckOut, q.Guests, q.Mode, tt.stay.CheckIn, tt.stay.CheckOut, tt.stay.Guests, tt.stay.Mode)
			}
			checkAddsUp(t, q)
		})
	}
}

// checkAddsUp asserts the invariants every quote keeps: the lines add up to
// the total, charge and balance to the total, the nights to accommodation,
// every amount is on the currency's grid and no line is zero or negative.
func checkAddsUp(t *testing.T, q pricing.Quote) {
	t.Helper()
	sum := q.Accommodation
	for _, l := range q.Discounts {
		sum = sum.Sub(l.Amount)
	}
	for _, l := range q.Fees {
		sum = sum.Add(l.Amount)
	}
	for _, l := range q.Taxes {
		sum = sum.Add(l.Amount)
	}
	if !sum.Equal(q.Total) {
		t.Errorf("Accommodation − Σ discounts + Σ fees + Σ taxes = %s, Total = %s", sum, q.Total)
	}
	if got := q.Charge.Add(q.Balance); !got.Equal(q.Total) {
		t.Errorf("Charge + Balance = %s, Total = %s", got, q.Total)
	}
	if len(q.NightsDetail) != q.Nights {
		t.Errorf("len(NightsDetail) = %d, Nights = %d", len(q.NightsDetail), q.Nights)
	}
	nights := decimal.Zero
	for i, n := range q.NightsDetail {
		if want := q.CheckIn.AddDays(i); n.Date != want {
			t.Errorf("NightsDetail[%d].Date = %v, want %v", i, n.Date, want)
		}
		nights = nights.Add(n.Price)
	}
	if !nights.Equal(q.Accommodation) {
		t.Errorf("Σ NightsDetail = %s, Accommodation = %s", nights, q.Accommodation)
	}
	if q.Total.IsNegative() || q.Charge.IsNegative() || q.Balance.IsNegative() {
		t.Errorf("negative amount: total %s, charge %s, balance %s", q.Total, q.Charge, q.Balance)
	}
	amounts := []decimal.Decimal{q.Accommodation, q.Total, q.Charge, q.Balance, q.CouponBase}
	for _, ls := range [][]pricing.Line{q.Discounts, q.Fees, q.Taxes} {
		for _, l := range ls {
			if !l.Amount.IsPositive() {
				t.Errorf("line %s amount %s, want > 0", l.Code, l.Amount)
			}
			amounts = append(amounts, l.Amount)
		}
	}
	for _, a := range amounts {
		if _, err := pricing.ToMinor(a, q.Currency); err != nil {
			t.Errorf("amount not on the currency grid: %v", err)
		}
	}
}

func checkAmount(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(dec(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func checkLines(t *testing.T, what string, got, want []pricing.Line) {
	t.Helper()
	if got == nil {
		t.Errorf("%s is nil, want an empty slice", what)
	}
	if len(got) != len(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
		return
	}
	for i := range got {
		if got[i].Code != want[i].Code || got[i].Label != want[i].Label || !got[i].Amount.Equal(want[i].Amount) {
			t.Errorf("%s[%d] = %s %q %s, want %s %q %s", what, i,
				got[i].Code, got[i].Label, got[i].Amount, want[i].Code, want[i].Label, want[i].Amount)
		}
	}
}

func TestComputeNightsDetail(t *testing.T) {
	// Fri 12-18 weekend 150, Sat 12-19 weekend 150, Sun 12-20 season 200,
	// … Thu 12-24 season 200, Fri 12-25 override 300.
	s := stay("2026-12-18", 8, func(s *pricing.Stay) { s.Plan = holidayPlan() })
	q, err := pricing.Compute(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"150", "150", "200", "200", "200", "200", "200", "300"}
	if len(q.NightsDetail) != len(want) {
		t.Fatalf("NightsDetail has %d nights, want %d", len(q.NightsDetail), len(want))
	}
	for i, n := range q.NightsDetail {
		if !n.Price.Equal(dec(want[i])) {
			t.Errorf("night %v = %s, want %s", n.Date, n.Price, want[i])
		}
	}
	// 150 × 2 + 200 × 5 + 300 = 1600
	checkAmount(t, "Accommodation", q.Accommodation, "1600")
}

func TestComputeErrors(t *testing.T) {
	const mon = "2026-03-02"
	tests := []struct {
		name string
		stay pricing.Stay
		want []error
	}{
		{"check-out on check-in", stay(mon, 0, nil), []error{pricing.ErrInvalidDates}},
		{"check-out before check-in", stay(mon, -2, nil), []error{pricing.ErrInvalidDates}},
		{"no check-in", stay(mon, 3, func(s *pricing.Stay) { s.CheckIn = civil.Date{} }), []error{pricing.ErrInvalidDates}},
		{"no guests", stay(mon, 3, func(s *pricing.Stay) { s.Guests = 0 }), []error{pricing.ErrInvalidGuests}},
		{"negative guests", stay(mon, 3, func(s *pricing.Stay) { s.Guests = -1 }), []error{pricing.ErrInvalidGuests}},
		{"unknown currency", stay(mon, 3, func(s *pricing.Stay) { s.Currency = "XYZ" }), []error{pricing.ErrUnknownCurrency}},
		{"empty currency", stay(mon, 3, func(s *pricing.Stay) { s.Currency = "" }), []error{pricing.ErrUnknownCurrency}},
		{"empty mode", stay(mon, 3, func(s *pricing.Stay) { s.Mode = "" }), []error{pricing.ErrInvalidMode}},
		{"unknown mode", stay(mon, 3, func(s *pricing.Stay) { s.Mode = "later" }), []error{pricing.ErrInvalidMode}},
		{"negative base rate", stay(mon, 3, func(s *pricing.Stay) { s.Plan.BaseRate = dec("-1") }),
			[]error{pricing.ErrInvalidPlan, pricing.ErrNegativeRate}},
		{"negative override", stay(mon, 3, func(s *pricing.Stay) {
			s.Plan.Overrides = []pricing.DateOverride{{Date: day(mon), Price: dec("-100")}}
		}), []error{pricing.ErrInvalidPlan, pricing.ErrNegativeRate}},
		{"weekly above 100", stay(mon, 7, func(s *pricing.Stay) { s.Plan.WeeklyDiscountPercent = dec("110") }),
			[]error{pricing.ErrInvalidPlan, pricing.ErrPercentOutOfRange}},
		{"negative cleaning", stay(mon, 3, func(s *pricing.Stay) { s.Fees.Cleaning = dec("-5") }), []error{pricing.ErrInvalidAmount}},
		{"negative extra guest", stay(mon, 3, func(s *pricing.Stay) { s.Fees.ExtraGuest = dec("-5") }), []error{pricing.ErrInvalidAmount}},
		{"negative tax", stay(mon, 3, func(s *pricing.Stay) { s.Tax.PerGuestPerNight = dec("-1") }), []error{pricing.ErrInvalidAmount}},
		{"unknown coupon kind", stay(mon, 3, func(s *pricing.Stay) { s.Coupon = coupon("bogo", "1") }), []error{pricing.ErrInvalidAmount}},
		{"deposit above 100", stay(mon, 3, func(s *pricing.Stay) {
			deposit30(s)
			s.DepositPercent = dec("120")
		}), []error{pricing.ErrInvalidAmount}},
		{"negative balance days", stay(mon, 3, func(s *pricing.Stay) {
			deposit30(s)
			s.BalanceDueDays = -1
		}), []error{pricing.ErrInvalidAmount}},
		{"deposit without today", stay(mon, 3, func(s *pricing.Stay) {
			deposit30(s)
			s.Today = civil.Date{}
		}), []error{pricing.ErrInvalidAmount}},
	}
	for _, tt := range tests {
		q, err := pricing.Compute(tt.stay)
		if err == nil {
			t.Errorf("%s: Compute = total %s, nil error; want %v", tt.name, q.Total, tt.want)
			continue
		}
		for _, w := range tt.want {
			if !errors.Is(err, w) {
				t.Errorf("%s: Compute error %q does not wrap %q", tt.name, err, w)
			}
		}
	}
}
