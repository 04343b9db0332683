package pricing_test

import (
	"testing"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// benchPlan has a weekend rate, four seasons and 60 overrides.
func benchPlan() pricing.RatePlan {
	p := holidayPlan()
	p.WeeklyDiscountPercent = dec("10")
	p.Seasons = append(p.Seasons,
		pricing.Season{Name: "Spring", Start: day("2026-04-01"), End: day("2026-05-31"), Rate: dec("120")},
		pricing.Season{Name: "Summer", Start: day("2026-07-01"), End: day("2026-08-31"), Rate: dec("180"), MinStayNights: 7},
		pricing.Season{Name: "Autumn", Start: day("2026-10-15"), End: day("2026-11-05"), Rate: dec("110")},
	)
	p.Overrides = nil
	for d := day("2026-06-01"); len(p.Overrides) < 60; d = d.AddDays(5) {
		p.Overrides = append(p.Overrides, pricing.DateOverride{Date: d, Price: dec("175.50")})
	}
	return p
}

func BenchmarkCompute(b *testing.B) {
	s := pricing.Stay{
		CheckIn:        day("2026-07-25"),
		CheckOut:       day("2026-08-08"), // 14 nights across a season and overrides
		Guests:         4,
		Currency:       "EUR",
		Plan:           benchPlan(),
		Fees:           pricing.Fees{Cleaning: dec("60"), ExtraGuest: dec("12.5"), GuestsIncluded: 2},
		Tax:            pricing.TouristTax{PerGuestPerNight: dec("2.30"), MaxNights: 7},
		Coupon:         &pricing.CouponDiscount{Code: "SUMMER", Kind: pricing.DiscountPercent, Value: dec("5")},
		Mode:           pricing.ModeDeposit,
		DepositPercent: dec("30"),
		BalanceDueDays: 30,
		Today:          day("2026-05-01"),
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pricing.Compute(s); err != nil {
			b.Fatal(err)
		}
	}
}

// benchStay is a stay of benchPlan from 2026-07-25 for nights nights, with
// a percent coupon, fees, a capped tourist tax and a deposit.
func benchStay(nights int) pricing.Stay {
	plan := benchPlan()
	plan.MonthlyDiscountPercent = dec("20")
	return pricing.Stay{
		CheckIn:        day("2026-07-25"),
		CheckOut:       day("2026-07-25").AddDays(nights),
		Guests:         4,
		Currency:       "EUR",
		Plan:           plan,
		Fees:           pricing.Fees{Cleaning: dec("60"), ExtraGuest: dec("12.5"), GuestsIncluded: 2},
		Tax:            pricing.TouristTax{PerGuestPerNight: dec("2.30"), MaxNights: 7},
		Coupon:         &pricing.CouponDiscount{Code: "WELCOME10", Kind: pricing.DiscountPercent, Value: dec("10")},
		Mode:           pricing.ModeDeposit,
		DepositPercent: dec("30"),
		BalanceDueDays: 30,
		Today:          day("2026-05-01"),
	}
}

func benchQuote(b *testing.B, nights int) {
	s := benchStay(nights)
	b.ReportAllocs()
	for b.Loop() {
		q, err := pricing.Compute(s)
		if err != nil {
			b.Fatal(err)
		}
		if len(q.NightsDetail) != nights || len(q.Discounts) != 2 {
			b.Fatalf("%d nights priced, %d discounts; want %d and 2 (length of stay, coupon)", len(q.NightsDetail), len(q.Discounts), nights)
		}
	}
}

// BenchmarkQuote7NightsCoupon: a week, weekly discount and coupon.
func BenchmarkQuote7NightsCoupon(b *testing.B) { benchQuote(b, 7) }

// BenchmarkQuote28NightsCoupon: four weeks, monthly discount and coupon.
func BenchmarkQuote28NightsCoupon(b *testing.B) { benchQuote(b, 28) }

func BenchmarkNightPrice(b *testing.B) {
	p := benchPlan()
	days := make([]civil.Date, 365)
	for i := range days {
		days[i] = day("2026-01-01").AddDays(i)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range days {
			_ = p.NightPrice(d)
		}
	}
}
