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
}
