package rules_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/rules"
)

var paris = mustZone("Europe/Paris")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

func d(s string) civil.Date { return civil.MustParse(s) }
func ip(n int) *int         { return &n }

// at is a wall-clock instant in Paris.
func at(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, paris)
	if err != nil {
		panic(err)
	}
	return t
}

// summer is Saturday-to-Saturday from July 1 to August 31, at least 7
// nights, the rest of the year any day with the caller's minimum of 2.
var summer = rules.Set{
	Seasons: []rules.Season{{
		Name: "Summer", Start: rules.MonthDay{Month: 7, Day: 1}, End: rules.MonthDay{Month: 8, Day: 31},
		MinStayNights: 7, ArrivalDays: rules.Weekdays{time.Saturday}, DepartureDays: rules.Weekdays{time.Saturday},
	}},
}

func twoNights(civil.Date) (int, int) { return 2, 28 }

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		name     string
		set      rules.Set
		now      string
		in, out  string
		wantCode string
		wantP    map[string]string
	}{
		// 2026-07-04 is a Saturday; +7 nights = Saturday 07-11.
		{name: "summer Saturday to Saturday OK", set: summer, now: "2026-06-01 10:00", in: "2026-07-04", out: "2026-07-11"},
		// 07-06 is a Monday: arrivals Saturdays only.
		{name: "summer Monday arrival", set: summer, now: "2026-06-01 10:00", in: "2026-07-06", out: "2026-07-13",
			wantCode: rules.CodeArrivalDay, wantP: map[string]string{"days": "saturday"}},
		// Saturday + 6 nights = Friday: shorter than the season's 7 (arrival checked first, then length).
		{name: "summer 6 nights", set: summer, now: "2026-06-01 10:00", in: "2026-07-04", out: "2026-07-10",
			wantCode: rules.CodeMinStay, wantP: map[string]string{"min": "7", "date": "2026-07-04"}},
		// Saturday + 8 nights = Sunday: long enough, departure not a Saturday.
		{name: "summer Sunday departure", set: summer, now: "2026-06-01 10:00", in: "2026-07-04", out: "2026-07-12",
			wantCode: rules.CodeDepartureDay},
		// Outside the season only the caller's 2..28 apply: Monday, 2 nights.
		{name: "off season any day", set: summer, now: "2026-06-01 10:00", in: "2026-09-07", out: "2026-09-09"},
		{name: "off season 1 night", set: summer, now: "2026-06-01 10:00", in: "2026-09-07", out: "2026-09-08",
			wantCode: rules.CodeMinStay, wantP: map[string]string{"min": "2", "date": "2026-09-07"}},
		// Season lowering the minimum: 1 night allowed in November (caller says 2).
		{name: "season lowers minimum", now: "2026-06-01 10:00", in: "2026-11-10", out: "2026-11-11",
			set: rules.Set{Seasons: []rules.Season{{Start: rules.MonthDay{Month: 11, Day: 1}, End: rules.MonthDay{Month: 11, Day: 30}, MinStayNights: 1}}}},
		// Season wrapping the new year: 12-20 to 01-05, max 5 nights; 01-02 + 6 = too long.
		{name: "wrapping season max", now: "2026-06-01 10:00", in: "2027-01-02", out: "2027-01-08",
			set:      rules.Set{Seasons: []rules.Season{{Start: rules.MonthDay{Month: 12, Day: 20}, End: rules.MonthDay{Month: 1, Day: 5}, MaxStayNights: 5}}},
			wantCode: rules.CodeMaxStay, wantP: map[string]string{"max": "5", "date": "2027-01-02"}},
		// A day's minimum replaces the season's: 3 nights from Saturday 07-04 (set 3) OK... departure still Saturday-only: 07-07 is Tuesday.
		{name: "day min replaces season, departure rule stays", now: "2026-06-01 10:00", in: "2026-07-04", out: "2026-07-07",
			set:      rules.Set{Seasons: summer.Seasons, Days: []rules.Day{{Date: d("2026-07-04"), MinStayNights: ip(3)}}},
			wantCode: rules.CodeDepartureDay},
		{name: "closed to arrival", now: "2026-06-01 10:00", in: "2026-09-10", out: "2026-09-12",
			set:      rules.Set{Days: []rules.Day{{Date: d("2026-09-10"), ClosedToArrival: true}}},
			wantCode: rules.CodeClosedToArrival, wantP: map[string]string{"date": "2026-09-10"}},
		{name: "closed to departure", now: "2026-06-01 10:00", in: "2026-09-10", out: "2026-09-12",
			set:      rules.Set{Days: []rules.Day{{Date: d("2026-09-12"), ClosedToDeparture: true}}},
			wantCode: rules.CodeClosedToDeparture, wantP: map[string]string{"date": "2026-09-12"}},
		// Notice 3 days on 06-01: first arrival 06-04; 06-03 refused, 06-04 accepted.
		{name: "advance notice refused", set: rules.Set{AdvanceNoticeDays: 3}, now: "2026-06-01 10:00", in: "2026-06-03", out: "2026-06-05",
			wantCode: rules.CodeAdvanceNotice, wantP: map[string]string{"days": "3", "date": "2026-06-04"}},
		{name: "advance notice edge", set: rules.Set{AdvanceNoticeDays: 3}, now: "2026-06-01 23:59", in: "2026-06-04", out: "2026-06-06"},
		// Cut-off 14:00: at 13:59 today is fine, at 14:00 it is not.
		{name: "cut-off before", set: rules.Set{SameDayCutoffHour: ip(14)}, now: "2026-06-01 13:59", in: "2026-06-01", out: "2026-06-03"},
		{name: "cut-off at", set: rules.Set{SameDayCutoffHour: ip(14)}, now: "2026-06-01 14:00", in: "2026-06-01", out: "2026-06-03",
			wantCode: rules.CodeSameDayCutoff, wantP: map[string]string{"hour": "14", "date": "2026-06-02"}},
		{name: "cut-off tomorrow unaffected", set: rules.Set{SameDayCutoffHour: ip(14)}, now: "2026-06-01 23:00", in: "2026-06-02", out: "2026-06-04"},
		// Window 30 days from 06-01: last arrival 07-01.
		{name: "window edge", set: rules.Set{BookingWindowDays: 30}, now: "2026-06-01 10:00", in: "2026-07-01", out: "2026-07-03"},
		{name: "window beyond", set: rules.Set{BookingWindowDays: 30}, now: "2026-06-01 10:00", in: "2026-07-02", out: "2026-07-04",
			wantCode: rules.CodeBookingWindow, wantP: map[string]string{"days": "30", "date": "2026-07-01"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := rules.New(tt.set, at(tt.now), paris, twoNights)
			v := c.Check(d(tt.in), d(tt.out), 365)
			switch {
			case tt.wantCode == "" && v != nil:
				t.Fatalf("Check = %s (%v), want accepted", v.Code, v.Params)
			case tt.wantCode != "" && v == nil:
				t.Fatalf("Check accepted, want %s", tt.wantCode)
			case v != nil && v.Code != tt.wantCode:
				t.Fatalf("Check = %s, want %s", v.Code, tt.wantCode)
			}
			for k, want := range tt.wantP {
				if got := v.Params[k]; got != want {
					t.Errorf("param %s = %q, want %q", k, got, want)
				}
			}
		})
	}
}

// TestCutoffAtDST: the cut-off hour is read on the property's wall clock,
// on the days the clocks change. Paris springs forward on 2026-03-29 at
// 02:00 (to 03:00) and falls back on 2026-10-25 at 03:00 (to 02:00).
func TestCutoffAtDST(t *testing.T) {
	set := rules.Set{SameDayCutoffHour: ip(2)}
	for _, tt := range []struct {
		name  string
		now   time.Time
		today string
		ok    bool
	}{
		// 00:59 UTC = 01:59 CET: before the cut-off.
		{"spring 01:59 CET", time.Date(2026, 3, 29, 0, 59, 0, 0, time.UTC), "2026-03-29", true},
		// 01:00 UTC = 03:00 CEST: one real minute later, past the cut-off.
		{"spring 03:00 CEST", time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC), "2026-03-29", false},
		// 23:30 UTC on 03-28 is 00:30 on 03-29 in Paris: today is the 29th.
		{"spring 00:30 local, UTC still yesterday", time.Date(2026, 3, 28, 23, 30, 0, 0, time.UTC), "2026-03-29", true},
		// 23:59 UTC on 10-24 = 01:59 CEST on 10-25: before.
		{"autumn 01:59 CEST", time.Date(2026, 10, 24, 23, 59, 0, 0, time.UTC), "2026-10-25", true},
		// 00:00 UTC = 02:00 CEST: cut-off reached.
		{"autumn 02:00 CEST", time.Date(2026, 10, 25, 0, 0, 0, 0, time.UTC), "2026-10-25", false},
		// 01:30 UTC = 02:30 CET, the second 02:xx: still past.
		{"autumn 02:30 CET", time.Date(2026, 10, 25, 1, 30, 0, 0, time.UTC), "2026-10-25", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := rules.New(set, tt.now, paris, nil)
			if got := c.Today().String(); got != tt.today {
				t.Fatalf("today = %s, want %s", got, tt.today)
			}
			v := c.Arrival(d(tt.today))
			if (v == nil) != tt.ok {
				t.Fatalf("arrival today accepted = %v, want %v (%v)", v == nil, tt.ok, v)
			}
		})
	}
}

// TestNightsAcrossDST: stay lengths are civil nights, whatever the clock
// does: a week over the autumn change is 7 nights, not 7 days + 1 hour.
func TestNightsAcrossDST(t *testing.T) {
	set := rules.Set{Seasons: []rules.Season{{Start: rules.MonthDay{Month: 10, Day: 1}, End: rules.MonthDay{Month: 10, Day: 31}, MinStayNights: 7, MaxStayNights: 7}}}
	c := rules.New(set, at("2026-09-01 10:00"), paris, nil)
	if v := c.Check(d("2026-10-22"), d("2026-10-29"), 0); v != nil {
		t.Fatalf("7 nights over the DST change refused: %v", v)
	}
	if v := c.Check(d("2026-03-25"), d("2026-03-31"), 0); v != nil {
		t.Fatalf("out of season refused: %v", v)
	}
}

func TestReserved(t *testing.T) {
	stay := []civil.Range{{Start: d("2026-07-10"), End: d("2026-07-15")}}
	tests := []struct {
		name          string
		before, after int
		want          civil.Range
	}{
		{"none", 0, 0, civil.Range{Start: d("2026-07-10"), End: d("2026-07-15")}},
		// The larger of the two is kept on both sides: a stay before this
		// one owes it its own preparation after, one after it this one's.
		{"one before, two after", 1, 2, civil.Range{Start: d("2026-07-08"), End: d("2026-07-17")}},
		{"one after", 0, 1, civil.Range{Start: d("2026-07-09"), End: d("2026-07-16")}},
		{"three before", 3, 0, civil.Range{Start: d("2026-07-07"), End: d("2026-07-18")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := rules.Set{PreparationDaysBefore: tt.before, PreparationDaysAfter: tt.after}
			got := set.Reserved(stay)
			if len(got) != 1 || got[0] != tt.want {
				t.Fatalf("Reserved = %v, want %v", got, tt.want)
			}
			if g := set.Gap(); g != max(tt.before, tt.after) {
				t.Fatalf("Gap = %d, want %d", g, max(tt.before, tt.after))
			}
		})
	}
}

func TestValidate(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  rules.Set
		want string
	}{
		{"zero", rules.Set{}, ""},
		{"negative notice", rules.Set{AdvanceNoticeDays: -1}, "out_of_range"},
		{"cut-off 24", rules.Set{SameDayCutoffHour: ip(24)}, "out_of_range"},
		{"season max below min", rules.Set{Seasons: []rules.Season{{Start: rules.MonthDay{Month: 1, Day: 1}, End: rules.MonthDay{Month: 2, Day: 1}, MinStayNights: 5, MaxStayNights: 3}}}, "invalid_season"},
		{"duplicate day", rules.Set{Days: []rules.Day{{Date: d("2026-01-01")}, {Date: d("2026-01-01")}}}, "duplicate_day"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.set.Validate()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Fatalf("Validate = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestJSON(t *testing.T) {
	in := `{"arrival_days":["sat","Sunday",3],"seasons":[{"start":"07-01","end":"08-31","min_stay_nights":7,"arrival_days":["saturday"]}]}`
	var s rules.Set
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"arrival_days":["saturday","sunday","wednesday"],"seasons":[{"start":"07-01","end":"08-31","min_stay_nights":7,"arrival_days":["saturday"]}]}`
	if string(out) != want {
		t.Fatalf("round trip\n got %s\nwant %s", out, want)
	}
	for _, bad := range []string{`{"arrival_days":["someday"]}`, `{"seasons":[{"start":"13-01","end":"01-01"}]}`} {
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestDepartsAgreesWithDeparture: Departs is Departure == nil for every
// pair of days around a season and a day closed to departure, and
// RestrictsDeparture is false only for rules that never refuse one.
func TestDepartsAgreesWithDeparture(t *testing.T) {
	closed := summer
	closed.Days = []rules.Day{{Date: d("2026-06-20"), ClosedToDeparture: true}}
	set := []rules.Set{{}, summer, closed, {DepartureDays: rules.Weekdays{time.Sunday, time.Wednesday}},
		{Days: []rules.Day{{Date: d("2026-06-20"), ClosedToArrival: true}}}}
	for k, s := range set {
		c := rules.New(s, at("2026-06-01 10:00"), paris, twoNights)
		restricts := false
		for in := d("2026-06-10"); in.Before(d("2026-09-10")); in = in.AddDays(1) {
			for n := 1; n <= 10; n++ {
				out := in.AddDays(n)
				want := c.Departure(in, out) == nil
				if got := c.Departs(in, out); got != want {
					t.Fatalf("set %d: Departs(%s, %s) = %v, Departure says %v", k, in, out, got, want)
				}
				restricts = restricts || !want
			}
		}
		if restricts && !c.RestrictsDeparture() {
			t.Errorf("set %d refuses departures, RestrictsDeparture is false", k)
		}
		if wantR := k == 1 || k == 2 || k == 3; c.RestrictsDeparture() != wantR {
			t.Errorf("set %d: RestrictsDeparture = %v, want %v", k, c.RestrictsDeparture(), wantR)
		}
	}
}

// TestArrivesAgreesWithArrival: Arrives is Arrival == nil for every day
// around a season, a closed day, advance notice, the same-day cutoff and
// the booking window.
func TestArrivesAgreesWithArrival(t *testing.T) {
	every := summer
	every.Days = []rules.Day{{Date: d("2026-06-20"), ClosedToArrival: true}}
	every.AdvanceNoticeDays = 2
	every.BookingWindowDays = 60
	cutoff := rules.Set{SameDayCutoffHour: ip(9), ArrivalDays: rules.Weekdays{time.Monday, time.Friday}}
	for k, s := range []rules.Set{{}, summer, every, cutoff} {
		c := rules.New(s, at("2026-06-01 10:00"), paris, twoNights)
		for in := d("2026-05-30"); in.Before(d("2026-09-10")); in = in.AddDays(1) {
			if got, want := c.Arrives(in), c.Arrival(in) == nil; got != want {
				t.Fatalf("set %d: Arrives(%s) = %v, Arrival says %v", k, in, got, want)
			}
		}
	}
}
