package booking_test

import (
	"context"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/rules"
)

// BenchmarkAvailabilityStayRules is a 12-month calendar of a property with
// Saturday-to-Saturday summer weeks and a day closed to departure: most
// pairs of days the calendar weighs are refused a departure.
func BenchmarkAvailabilityStayRules(b *testing.B) {
	e := newEnv(b)
	set := rules.Set{Seasons: []rules.Season{{
		Name: "Summer", Start: rules.MonthDay{Month: 6, Day: 1}, End: rules.MonthDay{Month: 9, Day: 30},
		MinStayNights: 7, ArrivalDays: rules.Weekdays{time.Saturday}, DepartureDays: rules.Weekdays{time.Saturday},
	}}, DepartureDays: rules.Weekdays{time.Friday, time.Saturday, time.Sunday}}
	e.setRules(b, set, nil)
	ctx := context.Background()
	req := booking.CalendarRequest{From: d("2026-06-01"), Months: 12}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.svc.Availability(ctx, "demo", e.property["demo"], req); err != nil {
			b.Fatal(err)
		}
	}
}
