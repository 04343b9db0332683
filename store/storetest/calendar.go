package storetest

import (
	"testing"

	"github.com/staykit/staykit/booking"
)

// calendarScenarios check CalendarStore: per-day settings are stored,
// replaced, cleared and listed by date within the range asked.
var calendarScenarios = []scenario{
	{"CalendarDays/SetAndList", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		price := dec("199.95")
		days := []booking.CalendarDay{
			{Date: day("2026-07-04"), Price: &price, MinStayNights: intp(7), MaxStayNights: intp(14), ClosedToDeparture: true},
			{Date: day("2026-07-01"), Closed: true, ClosedToArrival: true},
			{Date: day("2026-07-10"), ClosedToArrival: true},
		}
		must(t, s.SetCalendarDays(t.Context(), w.prop.ID, days))
		got, err := s.CalendarDays(t.Context(), w.prop.ID, day("2026-07-01"), day("2026-07-10"))
		must(t, err)
		// Ordered by date; 07-10 is outside the half-open range.
		sameJSON(t, "days", got, []booking.CalendarDay{days[1], days[0]})
	}},
	{"CalendarDays/ReplaceAndClear", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		must(t, s.SetCalendarDays(t.Context(), w.prop.ID, []booking.CalendarDay{
			{Date: day("2026-07-04"), MinStayNights: intp(7)},
			{Date: day("2026-07-05"), Closed: true},
		}))
		must(t, s.SetCalendarDays(t.Context(), w.prop.ID, []booking.CalendarDay{
			{Date: day("2026-07-04"), ClosedToArrival: true}, // replaces: the minimum is gone
			{Date: day("2026-07-05")},                        // empty: cleared
		}))
		got, err := s.CalendarDays(t.Context(), w.prop.ID, day("2026-07-01"), day("2026-08-01"))
		must(t, err)
		sameJSON(t, "days", got, []booking.CalendarDay{{Date: day("2026-07-04"), ClosedToArrival: true}})
	}},
	{"CalendarDays/OtherPropertyApart", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newProperty(t, s, w.org.ID)
		must(t, s.SetCalendarDays(t.Context(), w.prop.ID, []booking.CalendarDay{{Date: day("2026-07-04"), Closed: true}}))
		got, err := s.CalendarDays(t.Context(), other.ID, day("2026-07-01"), day("2026-08-01"))
		must(t, err)
		if len(got) != 0 {
			t.Fatalf("other property has %+v", got)
		}
	}},
	{"CalendarDays/ErrNotFoundAndInvalid", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		wantCode(t, s.SetCalendarDays(t.Context(), w.prop.ID+1000, []booking.CalendarDay{{Date: day("2026-07-04"), Closed: true}}), booking.CodeNotFound)
		neg := dec("-1")
		wantCode(t, s.SetCalendarDays(t.Context(), w.prop.ID, []booking.CalendarDay{{Date: day("2026-07-04"), Price: &neg}}), booking.CodeInvalid)
		wantCode(t, s.SetCalendarDays(t.Context(), w.prop.ID, []booking.CalendarDay{
			{Date: day("2026-07-04"), Closed: true}, {Date: day("2026-07-04"), Closed: false, ClosedToArrival: true}}), booking.CodeInvalid)
		wantCode(t, s.SetCalendarDays(t.Context(), w.prop.ID, []booking.CalendarDay{{Date: day("2026-07-04"), MinStayNights: intp(0)}}), booking.CodeInvalid)
		got, err := s.CalendarDays(t.Context(), w.prop.ID, day("2026-07-01"), day("2026-08-01"))
		must(t, err)
		if len(got) != 0 {
			t.Fatalf("refused writes stored %+v", got)
		}
	}},
	{"CalendarDays/OrgCalendarDaysAreEachPropertysDays", func(t *testing.T, s Stores) {
		os, ok := s.CalendarStore.(booking.OrgCalendarStore)
		if !ok {
			t.Fatal("the store does not offer booking.OrgCalendarStore")
		}
		w := newWorld(t, s)
		second := newProperty(t, s, w.org.ID)
		newProperty(t, s, w.org.ID) // no days
		stranger := newOrg(t, s, "stranger")
		foreign := newProperty(t, s, stranger.ID)
		price := dec("199.95")
		must(t, s.SetCalendarDays(t.Context(), w.prop.ID, []booking.CalendarDay{
			{Date: day("2026-07-04"), Price: &price, MinStayNights: intp(7), MaxStayNights: intp(14), ClosedToDeparture: true},
			{Date: day("2026-07-01"), Closed: true, ClosedToArrival: true},
			{Date: day("2026-07-10"), ClosedToArrival: true}, // outside
		}))
		must(t, s.SetCalendarDays(t.Context(), second.ID, []booking.CalendarDay{
			{Date: day("2026-06-30"), Closed: true}, // outside
			{Date: day("2026-07-02"), Price: &price},
		}))
		must(t, s.SetCalendarDays(t.Context(), foreign.ID, []booking.CalendarDay{{Date: day("2026-07-02"), Closed: true}}))
		got, err := os.OrgCalendarDays(t.Context(), w.org.ID, day("2026-07-01"), day("2026-07-10"))
		must(t, err)
		var want []booking.PropertyCalendarDay
		for _, id := range []int64{w.prop.ID, second.ID} {
			days, err := s.CalendarDays(t.Context(), id, day("2026-07-01"), day("2026-07-10"))
			must(t, err)
			for _, d := range days {
				want = append(want, booking.PropertyCalendarDay{PropertyID: id, CalendarDay: d})
			}
		}
		if len(want) != 3 {
			t.Fatalf("fixture: %d days, want 3", len(want))
		}
		sameJSON(t, "org days", got, want)
	}},
}
