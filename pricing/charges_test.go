package pricing_test

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

func dp(s string) *decimal.Decimal { d := dec(s); return &d }

func party(adults, children, infants, pets int) func(*pricing.Stay) {
	return func(s *pricing.Stay) {
		s.Party = &pricing.Party{Adults: adults, Children: children, Infants: infants, Pets: pets}
		s.Guests = adults + children
	}
}

func all(fs ...func(*pricing.Stay)) func(*pricing.Stay) {
	return func(s *pricing.Stay) {
		for _, f := range fs {
			f(s)
		}
	}
}

var breakfast = pricing.Fee{Code: "breakfast", Labels: pricing.Labels{FR: "Petit-déjeuner", EN: "Breakfast"},
	Per: pricing.PerGuestNight, Amount: dec("12"), Optional: true}

// checkSums asserts the quote's invariants: total = accommodation −
// discounts + fees + taxes, charge + balance = total, every line rounded to
// places decimals.
func checkSums(t *testing.T, q pricing.Quote, places int32) {
	t.Helper()
	sum := q.Accommodation
	all := []pricing.Line{}
	for _, l := range q.Discounts {
		sum = sum.Sub(l.Amount)
		all = append(all, l)
	}
	for _, l := range append(append([]pricing.Line{}, q.Fees...), q.Taxes...) {
		sum = sum.Add(l.Amount)
		all = append(all, l)
	}
	all = append(all, q.IncludedTaxes...)
	if !sum.Equal(q.Total) {
		t.Errorf("lines add up to %s, total is %s", sum, q.Total)
	}
	if !q.Charge.Add(q.Balance).Equal(q.Total) {
		t.Errorf("charge %s + balance %s != total %s", q.Charge, q.Balance, q.Total)
	}
	for _, l := range all {
		if !l.Amount.Equal(l.Amount.Round(places)) || l.Amount.IsNegative() {
			t.Errorf("line %s = %s: not rounded to %d places or negative", l.Code, l.Amount, places)
		}
	}
}

func TestCharges(t *testing.T) {
	const mon = "2026-03-02" // a Monday, 60 days after today (2026-01-01)
	for _, tt := range []struct {
		name      string
		in        string
		nights    int
		currency  string
		decimals  *int32
		f         func(*pricing.Stay)
		lines     map[string]string // code → amount, fees, discounts and taxes
		included  map[string]string
		total     string
		charge    string // "" = total
		noneOther bool
	}{
		{
			// 2 adults fill the 2 included places; 2 children × 10 × 3 nights = 60.
			name: "children above included pay the child rate", in: mon, nights: 3,
			f: all(party(2, 2, 1, 0), func(s *pricing.Stay) {
				s.Fees = pricing.Fees{ExtraGuest: dec("20"), GuestsIncluded: 2, Guests: &pricing.GuestPolicy{ChildExtraGuest: dp("10")}}
			}),
			lines: map[string]string{"extra_guest_fee": "60"}, total: "360",
		},
		{
			// 3 adults: 1 extra adult × 20 + 1 child × 10, × 3 nights = 90; the infant counts for nothing.
			name: "adults fill included places first", in: mon, nights: 3,
			f: all(party(3, 1, 1, 0), func(s *pricing.Stay) {
				s.Fees = pricing.Fees{ExtraGuest: dec("20"), GuestsIncluded: 2, Guests: &pricing.GuestPolicy{ChildExtraGuest: dp("10")}}
			}),
			lines: map[string]string{"extra_guest_fee": "90"}, total: "390",
		},
		{
			// Party 2 adults, 1 child, 1 pet, 3 nights, 300 accommodation:
			// linen 8 × 3 guests = 24; resort 5 × 3 nights = 15; pet 15 × 1 pet = 15;
			// breakfast 12 × 3 guests × 3 nights × qty 1 = 108; service 10 % of 300 = 30;
			// late check-out 25 per stay × qty 2 = 50; total 300 + 242 = 542.
			name: "every fee basis, mandatory and optional", in: mon, nights: 3,
			f: all(party(2, 1, 0, 1), func(s *pricing.Stay) {
				s.Fees.Items = []pricing.Fee{
					{Code: "linen", Per: pricing.PerGuest, Amount: dec("8")},
					{Code: "resort", Per: pricing.PerNight, Amount: dec("5")},
					{Code: "pet", Per: pricing.PerGuest, Category: pricing.CategoryPets, Amount: dec("15")},
					breakfast,
					{Code: "service", Per: pricing.PerPercent, Amount: dec("10")},
					{Code: "late_checkout", Per: pricing.PerStay, Amount: dec("25"), Optional: true, MaxQuantity: 2},
					{Code: "linen_upgrade", Per: pricing.PerStay, Amount: dec("40"), Optional: true}, // not chosen
				}
				s.Extras = []pricing.Extra{{Code: "breakfast", Quantity: 1}, {Code: "late_checkout", Quantity: 2}}
			}),
			lines: map[string]string{"linen": "24", "resort": "15", "pet": "15", "breakfast": "108", "service": "30", "late_checkout": "50"},
			total: "542", noneOther: true,
		},
		{
			// VAT 10 % exclusive on accommodation 300 + cleaning 50 = 35; total 385.
			name: "exclusive VAT on chosen lines", in: mon, nights: 3,
			f: func(s *pricing.Stay) {
				s.Fees.Cleaning = dec("50")
				s.Fees.Taxes = []pricing.PercentTax{{Code: "vat", Percent: dec("10"), On: []string{"accommodation", "cleaning_fee"}}}
			},
			lines: map[string]string{"cleaning_fee": "50", "vat": "35"}, total: "385",
		},
		{
			// VAT 20 % inclusive in 300: 300 × 20 / 120 = 50, shown, not added.
			name: "inclusive VAT", in: mon, nights: 3,
			f: func(s *pricing.Stay) {
				s.Fees.Taxes = []pricing.PercentTax{{Code: "vat", Percent: dec("20"), Inclusive: true, On: []string{"accommodation"}}}
			},
			included: map[string]string{"vat": "50"}, total: "300",
		},
		{
			// 7 × 100 = 700, weekly 10 % = 70, VAT 10 % of the 630 left = 63; 700 − 70 + 63 = 693.
			name: "VAT on the discounted accommodation", in: mon, nights: 7,
			f: func(s *pricing.Stay) {
				s.Plan.WeeklyDiscountPercent = dec("10")
				s.Fees.Taxes = []pricing.PercentTax{{Code: "vat", Percent: dec("10"), On: []string{"accommodation"}}}
			},
			lines: map[string]string{"weekly_discount": "70", "vat": "63"}, total: "693",
		},
		{
			// Children exempt: 2 adults × 3 nights × 2.30 = 13.80.
			name: "tourist tax exempts children", in: mon, nights: 3,
			f: all(party(2, 2, 0, 0), func(s *pricing.Stay) {
				s.Tax = pricing.TouristTax{PerGuestPerNight: dec("2.30"), Exempt: []string{"children"}}
			}),
			lines: map[string]string{"tourist_tax": "13.80"}, total: "313.80",
		},
		{
			// Capped at 2 nights: 2 adults × 2 × 2.30 = 9.20.
			name: "tourist tax capped in nights", in: mon, nights: 3,
			f: all(party(2, 2, 0, 0), func(s *pricing.Stay) {
				s.Tax = pricing.TouristTax{PerGuestPerNight: dec("2.30"), Exempt: []string{"children"}, MaxNights: 2}
			}),
			lines: map[string]string{"tourist_tax": "9.20"}, total: "309.20",
		},
		{
			// 5 % of 100 / 4 guests = 1.25 per adult per night; 2 adults × 3 nights = 7.50.
			name: "tourist tax percent per guest", in: mon, nights: 3,
			f: all(party(2, 2, 0, 0), func(s *pricing.Stay) {
				s.Tax = pricing.TouristTax{Percent: dec("5"), CeilingPerGuestNight: dec("2.30"), Exempt: []string{"children"}}
			}),
			lines: map[string]string{"tourist_tax": "7.50"}, total: "307.50",
		},
		{
			// 5 % of 100 / 1 guest = 5, above the 2.30 ceiling: 2.30 × 3 nights = 6.90.
			name: "tourist tax percent at its ceiling", in: mon, nights: 3,
			f: all(party(1, 0, 0, 0), func(s *pricing.Stay) {
				s.Tax = pricing.TouristTax{Percent: dec("5"), CeilingPerGuestNight: dec("2.30")}
			}),
			lines: map[string]string{"tourist_tax": "6.90"}, total: "306.90",
		},
		{
			// 100 / 3 × 5 % × 3 guests per night = 4.99999…, × 2 nights, rounded once: 10.00.
			name: "tourist tax percent rounded once", in: mon, nights: 2,
			f:     all(party(3, 0, 0, 0), func(s *pricing.Stay) { s.Tax = pricing.TouristTax{Percent: dec("5")} }),
			lines: map[string]string{"tourist_tax": "10"}, total: "210",
		},
		{
			// Order: weekly 5 % of 700 = 35 (665 left); early bird 10 % of 665 = 66.50
			// (598.50 left); coupon 10 % of 598.50 = 59.85; total 700 − 161.35 = 538.65.
			name: "early bird between length of stay and coupon", in: mon, nights: 7,
			f: func(s *pricing.Stay) {
				s.Plan.WeeklyDiscountPercent = dec("5")
				s.Plan.EarlyBird = &pricing.TimedDiscount{Days: 30, Percent: dec("10")}
				s.Plan.LastMinute = &pricing.TimedDiscount{Days: 7, Percent: dec("20")} // 60 days ahead: not last minute
				s.Coupon = coupon(pricing.DiscountPercent, "10")
			},
			lines: map[string]string{"weekly_discount": "35", "early_bird": "66.50", "coupon": "59.85"}, total: "538.65", noneOther: true,
		},
		{
			// Check-in 4 days ahead, last minute within 7: 20 % of 200 = 40.
			name: "last minute", in: "2026-01-05", nights: 2,
			f: func(s *pricing.Stay) {
				s.Plan.EarlyBird = &pricing.TimedDiscount{Days: 30, Percent: dec("10")}
				s.Plan.LastMinute = &pricing.TimedDiscount{Days: 7, Percent: dec("20")}
			},
			lines: map[string]string{"last_minute": "40"}, total: "160", noneOther: true,
		},
		{
			// 100 % last minute leaves 0: a fixed 50 coupon takes nothing; total never below zero.
			name: "discounts never below zero", in: "2026-01-05", nights: 2,
			f: func(s *pricing.Stay) {
				s.Plan.LastMinute = &pricing.TimedDiscount{Days: 7, Percent: dec("100")}
				s.Coupon = coupon(pricing.DiscountFixed, "50")
			},
			lines: map[string]string{"last_minute": "200"}, total: "0", noneOther: true,
		},
		{
			// 7 nights, 2 adults + 1 child: accommodation 700; weekly 5 % = 35 (665);
			// coupon 10 % = 66.50 (598.50); cleaning 60; breakfast 12 × 3 × 7 = 252;
			// tourist tax 2 adults × 7 × 2.30 = 32.20; VAT 10 % × (598.50 + 252) = 85.05;
			// total 700 − 101.50 + 312 + 117.25 = 1027.75; deposit 30 % = 308.325 → 308.33.
			name: "extras + VAT + tourist tax + coupon + deposit", in: mon, nights: 7,
			f: all(party(2, 1, 0, 0), func(s *pricing.Stay) {
				s.Plan.WeeklyDiscountPercent = dec("5")
				s.Coupon = coupon(pricing.DiscountPercent, "10")
				s.Fees.Cleaning = dec("60")
				s.Fees.Items = []pricing.Fee{breakfast}
				s.Extras = []pricing.Extra{{Code: "breakfast", Quantity: 1}}
				s.Fees.Taxes = []pricing.PercentTax{{Code: "vat", Percent: dec("10"), On: []string{"accommodation", "breakfast"}}}
				s.Tax = pricing.TouristTax{PerGuestPerNight: dec("2.30"), Exempt: []string{"children"}}
				deposit30(s)
				s.BalanceDueDays = 30
			}),
			lines: map[string]string{"weekly_discount": "35", "coupon": "66.50", "cleaning_fee": "60", "breakfast": "252",
				"tourist_tax": "32.20", "vat": "85.05"},
			total: "1027.75", charge: "308.33", noneOther: true,
		},
		{
			// JPY, 0 decimals: 3 × 10001 = 30003; VAT 10 % = 3000.3 → 3000; tourist tax
			// 5 % × 10001 / 2 × 2 guests = 500.05 a night × 3 = 1500.15 → 1500; total 34503.
			name: "JPY", in: mon, nights: 3, currency: "JPY",
			f: func(s *pricing.Stay) {
				s.Plan.BaseRate = dec("10001")
				s.Fees.Taxes = []pricing.PercentTax{{Code: "vat", Percent: dec("10"), On: []string{"accommodation"}}}
				s.Tax = pricing.TouristTax{Percent: dec("5")}
			},
			lines: map[string]string{"vat": "3000", "tourist_tax": "1500"}, total: "34503",
		},
		{
			// KWD, 3 decimals: 3 × 33.333 = 99.999; VAT 5 % = 4.99995 → 5.000; tourist
			// tax 0.1235 × 2 × 3 = 0.741; total 105.740.
			name: "KWD three decimals", in: mon, nights: 3, currency: "KWD",
			f: func(s *pricing.Stay) {
				s.Plan.BaseRate = dec("33.333")
				s.Fees.Taxes = []pricing.PercentTax{{Code: "vat", Percent: dec("5"), On: []string{"accommodation"}}}
				s.Tax = pricing.TouristTax{PerGuestPerNight: dec("0.1235")}
			},
			lines: map[string]string{"vat": "5", "tourist_tax": "0.741"}, total: "105.74",
		},
		{
			// KWD charged in hundredths (Decimals 2): nights 33.33 → 99.99; VAT
			// 4.9995 → 5.00; tourist tax 0.741 → 0.74; total 105.73.
			name: "KWD rounded to what the provider charges", in: mon, nights: 3, currency: "KWD", decimals: func() *int32 { n := int32(2); return &n }(),
			f: func(s *pricing.Stay) {
				s.Plan.BaseRate = dec("33.333")
				s.Fees.Taxes = []pricing.PercentTax{{Code: "vat", Percent: dec("5"), On: []string{"accommodation"}}}
				s.Tax = pricing.TouristTax{PerGuestPerNight: dec("0.1235")}
			},
			lines: map[string]string{"vat": "5", "tourist_tax": "0.74"}, total: "105.73",
		},
		{
			// EUR inclusive 20 % of 3 × 33.33 = 99.99: 16.665 → 16.67 (half away from zero).
			name: "EUR inclusive VAT rounding", in: mon, nights: 3,
			f: func(s *pricing.Stay) {
				s.Plan.BaseRate = dec("33.33")
				s.Fees.Taxes = []pricing.PercentTax{{Code: "vat", Percent: dec("20"), Inclusive: true, On: []string{"accommodation"}}}
			},
			included: map[string]string{"vat": "16.67"}, total: "99.99",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := stay(tt.in, tt.nights, tt.f)
			if tt.currency != "" {
				s.Currency = tt.currency
			}
			s.Decimals = tt.decimals
			q, err := pricing.Compute(s)
			if err != nil {
				t.Fatal(err)
			}
			places := pricing.MinorUnits(s.Currency)
			if tt.decimals != nil {
				places = *tt.decimals
			}
			checkSums(t, q, places)
			got := map[string]decimal.Decimal{}
			for _, l := range append(append(append([]pricing.Line{}, q.Discounts...), q.Fees...), q.Taxes...) {
				got[l.Code] = l.Amount
			}
			for code, want := range tt.lines {
				if g, ok := got[code]; !ok || !g.Equal(dec(want)) {
					t.Errorf("line %s = %s (present %v), want %s", code, g, ok, want)
				}
			}
			if tt.noneOther && len(got) != len(tt.lines) {
				t.Errorf("lines %v, want only %v", got, tt.lines)
			}
			inc := map[string]decimal.Decimal{}
			for _, l := range q.IncludedTaxes {
				inc[l.Code] = l.Amount
			}
			for code, want := range tt.included {
				if !inc[code].Equal(dec(want)) {
					t.Errorf("included %s = %s, want %s", code, inc[code], want)
				}
			}
			if !q.Total.Equal(dec(tt.total)) {
				t.Errorf("total = %s, want %s", q.Total, tt.total)
			}
			if tt.charge != "" && !q.Charge.Equal(dec(tt.charge)) {
				t.Errorf("charge = %s, want %s", q.Charge, tt.charge)
			}
		})
	}
}

func TestChargesLabelsAndQuantity(t *testing.T) {
	s := stay("2026-03-02", 2, func(s *pricing.Stay) {
		s.Fees.Items = []pricing.Fee{{Code: "late_checkout", Labels: pricing.Labels{FR: "Départ tardif", EN: "Late check-out"},
			Per: pricing.PerStay, Amount: dec("25"), Optional: true, MaxQuantity: 2}}
		s.Extras = []pricing.Extra{{Code: "late_checkout", Quantity: 2}}
	})
	q, err := pricing.Compute(s)
	if err != nil {
		t.Fatal(err)
	}
	l := q.Fees[0]
	if l.Code != "late_checkout" || l.Quantity != 2 || l.Labels["fr"] != "Départ tardif" || l.Labels["en"] != "Late check-out" {
		t.Fatalf("line = %+v", l)
	}
}

func TestChargesRefused(t *testing.T) {
	extras := func(e ...pricing.Extra) func(*pricing.Stay) {
		return func(s *pricing.Stay) {
			s.Fees.Items = []pricing.Fee{breakfast, {Code: "cot", Per: pricing.PerStay, Amount: dec("10")}}
			s.Extras = e
		}
	}
	for _, tt := range []struct {
		name string
		f    func(*pricing.Stay)
		want error
	}{
		{"unknown extra", extras(pricing.Extra{Code: "spa", Quantity: 1}), pricing.ErrUnknownExtra},
		{"mandatory fee chosen", extras(pricing.Extra{Code: "cot", Quantity: 1}), pricing.ErrUnknownExtra},
		{"quantity above max", extras(pricing.Extra{Code: "breakfast", Quantity: 2}), pricing.ErrInvalidQuantity},
		{"quantity zero", extras(pricing.Extra{Code: "breakfast", Quantity: 0}), pricing.ErrInvalidQuantity},
		{"chosen twice", extras(pricing.Extra{Code: "breakfast", Quantity: 1}, pricing.Extra{Code: "breakfast", Quantity: 1}), pricing.ErrInvalidQuantity},
		{"no adult", party(0, 2, 0, 0), pricing.ErrInvalidGuests},
		{"party and guests disagree", func(s *pricing.Stay) { s.Party = &pricing.Party{Adults: 1}; s.Guests = 2 }, pricing.ErrInvalidGuests},
		{"negative early-bird days", func(s *pricing.Stay) {
			s.Plan.EarlyBird = &pricing.TimedDiscount{Days: -1, Percent: dec("10")}
		}, pricing.ErrInvalidAmount},
		{"early bird without today", func(s *pricing.Stay) {
			s.Today = civil.Date{}
			s.Plan.EarlyBird = &pricing.TimedDiscount{Days: 30, Percent: dec("10")}
		}, pricing.ErrInvalidAmount},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := pricing.Compute(stay("2026-03-02", 2, tt.f))
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}
