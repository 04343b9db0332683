package pricing_test

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

func ptr(d decimal.Decimal) *decimal.Decimal { return &d }

// day parses a YYYY-MM-DD literal: test tables only.
func day(s string) civil.Date { return civil.MustParse(s) }

// holidayPlan: base 100, weekend (Fri/Sat) 150, a season over the new year
// at 200 with a 5-night minimum, an override on Christmas (a Friday inside
// the season) at 300 and one on 2026-11-27 (a Friday outside it) at 80.
func holidayPlan() pricing.RatePlan {
	return pricing.RatePlan{
		BaseRate:    dec("100"),
		WeekendRate: ptr(dec("150")),
		Seasons: []pricing.Season{
			{Name: "New year", Start: day("2026-12-20"), End: day("2027-01-05"), Rate: dec("200"), MinStayNights: 5},
		},
		Overrides: []pricing.DateOverride{
			{Date: day("2026-12-25"), Price: dec("300")},
			{Date: day("2026-11-27"), Price: dec("80")},
		},
	}
}

func TestNightPrice(t *testing.T) {
	noWeekendRate := holidayPlan()
	noWeekendRate.WeekendRate = nil
	thursdays := holidayPlan()
	thursdays.WeekendNights = []time.Weekday{time.Thursday}
	noWeekend := holidayPlan()
	noWeekend.WeekendNights = []time.Weekday{}
	overlapping := holidayPlan()
	overlapping.Seasons = append([]pricing.Season{
		{Name: "Christmas week", Start: day("2026-12-24"), End: day("2026-12-31"), Rate: dec("250")},
	}, overlapping.Seasons...)

	tests := []struct {
		name string
		plan pricing.RatePlan
		date string
		want string
	}{
		{"base on a Monday", holidayPlan(), "2026-11-16", "100"},
		{"base on a Thursday", holidayPlan(), "2026-11-19", "100"},
		{"weekend on Friday night", holidayPlan(), "2026-11-20", "150"},
		{"weekend on Saturday night", holidayPlan(), "2026-11-21", "150"},
		{"Sunday night is not weekend by default", holidayPlan(), "2026-11-22", "100"},
		{"override beats weekend", holidayPlan(), "2026-11-27", "80"},
		{"season on its first day", holidayPlan(), "2026-12-20", "200"},
		{"season on its last day", holidayPlan(), "2027-01-05", "200"},
		{"after the season", holidayPlan(), "2027-01-06", "100"},
		{"before the season", holidayPlan(), "2026-12-19", "150"}, // a Saturday
		{"season spans year end: Dec 31", holidayPlan(), "2026-12-31", "200"},
		{"season beats weekend: Friday Jan 1", holidayPlan(), "2027-01-01", "200"},
		{"override beats season", holidayPlan(), "2026-12-25", "300"},
		{"no weekend rate: Friday at base", noWeekendRate, "2026-11-20", "100"},
		{"custom weekend: Thursday", thursdays, "2026-11-19", "150"},
		{"custom weekend: Friday no longer", thursdays, "2026-11-20", "100"},
		{"empty weekend nights: none", noWeekend, "2026-11-21", "100"},
		{"first of overlapping seasons wins", overlapping, "2026-12-28", "250"},
		{"override beats the first season too", overlapping, "2026-12-25", "300"},
		{"zero plan", pricing.RatePlan{}, "2026-11-20", "0"},
	}
	for _, tt := range tests {
		if got := tt.plan.NightPrice(day(tt.date)); !got.Equal(dec(tt.want)) {
			t.Errorf("%s: NightPrice(%s) = %s, want %s", tt.name, tt.date, got, tt.want)
		}
	}
}

func TestNightPriceDoesNotAllocate(t *testing.T) {
	p := holidayPlan()
	d := day("2026-11-20")
	if n := testing.AllocsPerRun(100, func() { _ = p.NightPrice(d) }); n != 0 {
		t.Errorf("NightPrice allocates %v times per call, want 0", n)
	}
}

func TestSeasonMinStay(t *testing.T) {
	noMin := holidayPlan()
	noMin.Seasons[0].MinStayNights = 0
	tests := []struct {
		name string
		plan pricing.RatePlan
		date string
		want int
	}{
		{"inside the season", holidayPlan(), "2026-12-31", 5},
		{"season end is inclusive", holidayPlan(), "2027-01-05", 5},
		{"outside any season", holidayPlan(), "2027-01-06", 0},
		{"season without minimum", noMin, "2026-12-31", 0},
		{"no seasons", pricing.RatePlan{}, "2026-12-31", 0},
	}
	for _, tt := range tests {
		if got := tt.plan.SeasonMinStay(day(tt.date)); got != tt.want {
			t.Errorf("%s: SeasonMinStay(%s) = %d, want %d", tt.name, tt.date, got, tt.want)
		}
	}
}

func TestRatePlanValidate(t *testing.T) {
	with := func(f func(p *pricing.RatePlan)) pricing.RatePlan {
		p := holidayPlan()
		p.WeeklyDiscountPercent = dec("10")
		p.MonthlyDiscountPercent = dec("20")
		f(&p)
		return p
	}
	tests := []struct {
		name string
		plan pricing.RatePlan
		want error
	}{
		{"OK", with(func(*pricing.RatePlan) {}), nil},
		{"OK zero plan", pricing.RatePlan{}, nil},
		{"OK percents at 0 and 100", with(func(p *pricing.RatePlan) {
			p.WeeklyDiscountPercent, p.MonthlyDiscountPercent = dec("0"), dec("100")
		}), nil},
		{"OK one-day season", with(func(p *pricing.RatePlan) { p.Seasons[0].End = p.Seasons[0].Start }), nil},
		{"negative base", with(func(p *pricing.RatePlan) { p.BaseRate = dec("-1") }), pricing.ErrNegativeRate},
		{"negative weekend", with(func(p *pricing.RatePlan) { p.WeekendRate = ptr(dec("-0.01")) }), pricing.ErrNegativeRate},
		{"negative season rate", with(func(p *pricing.RatePlan) { p.Seasons[0].Rate = dec("-5") }), pricing.ErrNegativeRate},
		{"negative override", with(func(p *pricing.RatePlan) { p.Overrides[1].Price = dec("-5") }), pricing.ErrNegativeRate},
		{"inverted season", with(func(p *pricing.RatePlan) {
			p.Seasons[0].Start, p.Seasons[0].End = p.Seasons[0].End, p.Seasons[0].Start
		}), pricing.ErrInvalidSeason},
		{"season without end", with(func(p *pricing.RatePlan) { p.Seasons[0].End = civil.Date{} }), pricing.ErrInvalidSeason},
		{"season negative min stay", with(func(p *pricing.RatePlan) { p.Seasons[0].MinStayNights = -1 }), pricing.ErrInvalidSeason},
		{"weekly above 100", with(func(p *pricing.RatePlan) { p.WeeklyDiscountPercent = dec("100.01") }), pricing.ErrPercentOutOfRange},
		{"monthly negative", with(func(p *pricing.RatePlan) { p.MonthlyDiscountPercent = dec("-1") }), pricing.ErrPercentOutOfRange},
		{"duplicate override", with(func(p *pricing.RatePlan) {
			p.Overrides = append(p.Overrides, pricing.DateOverride{Date: day("2026-12-25"), Price: dec("1")})
		}), pricing.ErrDuplicateOverride},
		{"weekday out of range", with(func(p *pricing.RatePlan) { p.WeekendNights = []time.Weekday{7} }), pricing.ErrInvalidWeekday},
	}
	reasons := map[error]string{
		pricing.ErrNegativeRate:      "negative_rate",
		pricing.ErrInvalidSeason:     "invalid_season",
		pricing.ErrPercentOutOfRange: "percent_out_of_range",
		pricing.ErrDuplicateOverride: "duplicate_override",
		pricing.ErrInvalidWeekday:    "invalid_weekday",
	}
	for _, tt := range tests {
		err := tt.plan.Validate()
		if !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
			t.Errorf("%s: Validate() = %v, want %v", tt.name, err, tt.want)
			continue
		}
		if err != nil && err.Error() != reasons[tt.want] {
			t.Errorf("%s: Validate().Error() = %q, want reason code %q", tt.name, err.Error(), reasons[tt.want])
		}
	}
}
