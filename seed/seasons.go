package seed

import (
	"fmt"
	"strconv"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// YearlySeasonYears is how many years a yearly season ("06-15" to "09-15")
// is expanded for when a file is loaded: the current year and the next two.
const YearlySeasonYears = 3

// expandSeason turns one season of the file into the seasons of the rate
// plan: itself when its dates are absolute, or one per year (see the
// package comment) when they are month and day.
func expandSeason(c *checker, path string, s seasonJSON, year int) []pricing.Season {
	season := pricing.Season{Name: s.Name, Rate: s.Rate, MinStayNights: s.MinStayNights}
	startYearly, endYearly := isMonthDay(s.Start), isMonthDay(s.End)
	switch {
	case s.Start == "" || s.End == "":
		if s.Start == "" {
			c.add(path+".start", "required")
		}
		if s.End == "" {
			c.add(path+".end", "required")
		}
		return nil
	case startYearly != endYearly:
		c.add(path, fmt.Sprintf("mixed_dates: start and end must both be YYYY-MM-DD or both MM-DD (yearly), got %q and %q", s.Start, s.End))
		return nil
	case !startYearly:
		season.Start = c.date(path+".start", s.Start)
		season.End = c.date(path+".end", s.End)
		if !season.Start.IsZero() && !season.End.IsZero() && season.End.Before(season.Start) {
			c.add(path, "invalid_season: end comes before start")
		}
		return []pricing.Season{season}
	}

	start, ok1 := monthDay(c, path+".start", s.Start)
	end, ok2 := monthDay(c, path+".end", s.End)
	if !ok1 || !ok2 {
		return nil
	}
	first := year
	wraps := end.Before(start) // "12-20" to "01-05": ends the next year
	if wraps {
		first = year - 1 // last winter's season still covers early this year
	}
	var out []pricing.Season
	for y := first; y < year+YearlySeasonYears; y++ {
		sy := season
		sy.Start = civil.Date{Year: y, Month: start.Month, Day: start.Day}
		endYear := y
		if wraps {
			endYear++
		}
		sy.End = civil.Date{Year: endYear, Month: end.Month, Day: end.Day}
		out = append(out, sy)
	}
	return out
}

// isMonthDay reports whether s looks like a yearly "MM-DD" date.
func isMonthDay(s string) bool {
	return len(s) == len("01-02") && s[2] == '-'
}

// monthDay parses "MM-DD" as that day of a leap year, refusing 02-29,
// which most years lack.
func monthDay(c *checker, path, s string) (civil.Date, bool) {
	d, err := civil.Parse("2000-" + s)
	if err != nil || s == "02-29" {
		c.add(path, "invalid_date: want MM-DD (not 02-29) for a yearly season, got "+strconv.Quote(s))
		return civil.Date{}, false
	}
	return d, true
}
