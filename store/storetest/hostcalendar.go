package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

var hostCalendarScenarios = []scenario{
	{"HostCalendar/ApplyMergesDays", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		price := dec("199.50")
		must(t, s.ApplyCalendar(t.Context(), w.org.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-07-01"), To: day("2026-07-04"), Price: &price, Closed: boolp(true), Reason: "works"}, t0))
		must(t, s.ApplyCalendar(t.Context(), w.org.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-07-02"), To: day("2026-07-03"), MinStayNights: intp(3), ClosedToArrival: boolp(true)}, t0))
		days, err := s.CalendarDays(t.Context(), w.prop.ID, day("2026-06-30"), day("2026-07-05"))
		must(t, err)
		want := []booking.CalendarDay{
			{Date: day("2026-07-01"), Price: &price, Closed: true},
			{Date: day("2026-07-02"), Price: &price, Closed: true, MinStayNights: intp(3), ClosedToArrival: true},
			{Date: day("2026-07-03"), Price: &price, Closed: true},
		}
		sameJSON(t, "days after two changes", days, want)
		// Clearing the price and reopening leaves only the stay rule.
		must(t, s.ApplyCalendar(t.Context(), w.org.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-07-01"), To: day("2026-07-04"), ClearPrice: true, Closed: boolp(false)}, t0))
		days, err = s.CalendarDays(t.Context(), w.prop.ID, day("2026-06-30"), day("2026-07-05"))
		must(t, err)
		sameJSON(t, "days after clearing", days, []booking.CalendarDay{{Date: day("2026-07-02"), MinStayNights: intp(3), ClosedToArrival: true}})
		// 0 removes a stay limit: the date is empty again.
		must(t, s.ApplyCalendar(t.Context(), w.org.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-07-02"), To: day("2026-07-03"), MinStayNights: intp(0), ClosedToArrival: boolp(false)}, t0))
		days, err = s.CalendarDays(t.Context(), w.prop.ID, day("2026-06-30"), day("2026-07-05"))
		must(t, err)
		if len(days) != 0 {
			t.Errorf("days after removing everything = %+v, want none", days)
		}
	}},
	{"HostCalendar/TakesOverRateOverrides", func(t *testing.T, s Stores) {
		w := newWorld(t, s) // the fixture's rate plan overrides 2026-12-31
		must(t, s.ApplyCalendar(t.Context(), w.org.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-12-30"), To: day("2027-01-02"), Closed: boolp(true)}, t0))
		p, err := s.Property(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		if len(p.Rates.Overrides) != 1 {
			t.Fatalf("closing changed the rate plan's overrides: %+v", p.Rates.Overrides)
		}
		price := dec("250")
		must(t, s.ApplyCalendar(t.Context(), w.org.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-12-31"), To: day("2027-01-01"), Price: &price}, t0))
		p, err = s.Property(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		if len(p.Rates.Overrides) != 0 {
			t.Errorf("overrides after pricing 12-31 on the calendar = %+v, want none", p.Rates.Overrides)
		}
		if len(p.Blocks) != 0 {
			t.Errorf("the calendar wrote blocks %+v", p.Blocks)
		}
		days, err := s.CalendarDays(t.Context(), w.prop.ID, day("2026-12-31"), day("2027-01-01"))
		must(t, err)
		if len(days) != 1 || days[0].Price == nil || !days[0].Price.Equal(price) || !days[0].Closed {
			t.Errorf("12-31 = %+v, want 250 and closed", days)
		}
	}},
	{"HostCalendar/Errors", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		newPending(t, s, w.prop, "2026-07-10", "2026-07-12", t0.Add(time.Hour))
		price := dec("90")
		err := s.ApplyCalendar(t.Context(), w.org.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-07-11"), To: day("2026-07-13"), Closed: boolp(true), Price: &price}, t0)
		wantCode(t, err, booking.CodeUnavailable)
		other := newOrg(t, s, "other")
		err = s.ApplyCalendar(t.Context(), other.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-07-11"), To: day("2026-07-13"), Closed: boolp(true)}, t0)
		wantCode(t, err, booking.CodeNotFound)
		err = s.ApplyCalendar(t.Context(), w.org.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-07-13"), To: day("2026-07-13"), Closed: boolp(true)}, t0)
		wantCode(t, err, booking.CodeInvalid)
		must(t, s.ApplyCalendar(t.Context(), w.org.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-08-01"), To: day("2026-08-02"), MinStayNights: intp(5)}, t0))
		err = s.ApplyCalendar(t.Context(), w.org.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-08-01"), To: day("2026-08-03"), MaxStayNights: intp(3)}, t0)
		wantCode(t, err, booking.CodeInvalid)
		days, err := s.CalendarDays(t.Context(), w.prop.ID, day("2026-07-01"), day("2026-09-01"))
		must(t, err)
		sameJSON(t, "days after refused changes", days, []booking.CalendarDay{{Date: day("2026-08-01"), MinStayNights: intp(5)}})
		// Once the hold lapsed, the same days close.
		must(t, s.ApplyCalendar(t.Context(), w.org.ID, w.prop.ID, booking.CalendarChange{
			From: day("2026-07-11"), To: day("2026-07-13"), Closed: boolp(true)}, t0.Add(2*time.Hour)))
	}},
	{"HostCalendar/UpdatePropertyFieldsKeepsBlocks", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		stale, err := s.Property(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		b := &booking.Block{Start: day("2026-09-01"), End: day("2026-09-04"), Reason: "works"}
		must(t, s.AddBlock(t.Context(), w.prop.ID, b, t0))
		stale.Name = "Renamed"
		stale.Blocks = nil
		must(t, s.UpdatePropertyFields(t.Context(), stale))
		got, err := s.Property(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		if got.Name != "Renamed" {
			t.Errorf("name = %q, want Renamed", got.Name)
		}
		if len(got.Blocks) != 1 || got.Blocks[0].ID != b.ID {
			t.Errorf("blocks after UpdatePropertyFields = %+v, want the block added meanwhile", got.Blocks)
		}
		sameJSON(t, "blocks set on p", stale.Blocks, got.Blocks)
		other := newOrg(t, s, "other")
		stale.OrgID = other.ID
		wantCode(t, s.UpdatePropertyFields(t.Context(), stale), booking.CodeNotFound)
		stale.OrgID, stale.Name = w.org.ID, ""
		wantCode(t, s.UpdatePropertyFields(t.Context(), stale), booking.CodeInvalid)
	}},
	{"Race/PropertyFieldsRacingAddBlockKeepsTheBlock", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		for round := range rounds {
			stale, err := s.Property(t.Context(), w.org.ID, w.prop.ID)
			must(t, err)
			stale.Name = fmt.Sprintf("Round %d", round)
			start := day("2027-01-01").AddDays(10 * round)
			b := &booking.Block{Start: start, End: start.AddDays(2), Reason: "owner"}
			counts := race(2, func(i int) error {
				if i == 0 {
					return s.UpdatePropertyFields(t.Context(), stale)
				}
				return s.AddBlock(t.Context(), w.prop.ID, b, t0)
			})
			wantCounts(t, counts, map[string]int{"": 2})
			got, err := s.Property(t.Context(), w.org.ID, w.prop.ID)
			must(t, err)
			if !slices.ContainsFunc(got.Blocks, func(x booking.Block) bool { return x.ID == b.ID }) {
				t.Fatalf("round %d: the block added during the update is lost: %+v", round, got.Blocks)
			}
			if len(got.Blocks) != round+1 {
				t.Errorf("round %d: %d blocks, want %d", round, len(got.Blocks), round+1)
			}
		}
	}},
	{"HostCalendar/BookingsPage", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		p2 := newProperty(t, s, w.org.ID)
		a := newPending(t, s, w.prop, "2026-07-01", "2026-07-05", t0.Add(time.Hour))
		b := moveTo(t, s, newPending(t, s, w.prop, "2026-07-10", "2026-07-12", t0.Add(time.Hour)), booking.StatusConfirmed)
		c := moveTo(t, s, newPending(t, s, p2, "2026-07-03", "2026-07-08", t0.Add(time.Hour)), booking.StatusConfirmed)
		d := moveTo(t, s, newPending(t, s, w.prop, "2026-08-01", "2026-08-03", t0.Add(time.Hour)), booking.StatusCancelled)
		other := newOrg(t, s, "other")
		otherProp := newProperty(t, s, other.ID)
		newPending(t, s, otherProp, "2026-07-01", "2026-07-05", t0.Add(time.Hour))
		for _, tc := range []struct {
			name string
			q    booking.BookingQuery
			want []int64
		}{
			{"all", booking.BookingQuery{}, []int64{d.ID, c.ID, b.ID, a.ID}},
			{"first page", booking.BookingQuery{Limit: 2}, []int64{d.ID, c.ID}},
			{"after the cursor", booking.BookingQuery{Limit: 2, Before: c.ID}, []int64{b.ID, a.ID}},
			{"statuses", booking.BookingQuery{Statuses: []booking.Status{booking.StatusConfirmed, booking.StatusPending}}, []int64{c.ID, b.ID, a.ID}},
			{"property", booking.BookingQuery{PropertyID: p2.ID}, []int64{c.ID}},
			{"overlapping July 4–10", booking.BookingQuery{From: day("2026-07-04"), To: day("2026-07-10")}, []int64{c.ID, a.ID}},
			{"from only", booking.BookingQuery{From: day("2026-07-12")}, []int64{d.ID}},
			{"to only", booking.BookingQuery{To: day("2026-07-03")}, []int64{a.ID}},
			{"everything", booking.BookingQuery{Statuses: []booking.Status{booking.StatusConfirmed}, PropertyID: w.prop.ID,
				From: day("2026-07-01"), To: day("2026-08-01"), Before: d.ID, Limit: 5}, []int64{b.ID}},
			{"statuses after the cursor", booking.BookingQuery{Statuses: []booking.Status{booking.StatusPending, booking.StatusConfirmed},
				Before: c.ID, Limit: 1}, []int64{b.ID}},
			{"statuses, one page", booking.BookingQuery{Statuses: []booking.Status{booking.StatusConfirmed, booking.StatusCancelled,
				booking.StatusPending}, Limit: 2}, []int64{d.ID, c.ID}},
			{"a status twice", booking.BookingQuery{Statuses: []booking.Status{booking.StatusConfirmed, booking.StatusConfirmed}}, []int64{c.ID, b.ID}},
			{"statuses of a property", booking.BookingQuery{Statuses: []booking.Status{booking.StatusConfirmed, booking.StatusCancelled},
				PropertyID: w.prop.ID}, []int64{d.ID, b.ID}},
			{"property after the cursor", booking.BookingQuery{PropertyID: w.prop.ID, Before: d.ID, Limit: 1}, []int64{b.ID}},
			{"property's window", booking.BookingQuery{PropertyID: w.prop.ID, From: day("2026-07-04"), To: day("2026-08-02")}, []int64{d.ID, b.ID, a.ID}},
			{"property's window after the cursor", booking.BookingQuery{PropertyID: w.prop.ID, From: day("2026-07-04"), Before: d.ID, Limit: 1}, []int64{b.ID}},
			{"property's window, holding", booking.BookingQuery{Statuses: booking.HoldingStatuses, PropertyID: w.prop.ID,
				From: day("2026-07-05"), To: day("2026-09-01")}, []int64{b.ID}},
			{"another organisation's property", booking.BookingQuery{PropertyID: otherProp.ID, From: day("2026-07-01")}, nil},
		} {
			got, err := s.BookingsPage(t.Context(), w.org.ID, tc.q)
			must(t, err)
			if !slices.Equal(ids(got), tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, ids(got), tc.want)
			}
		}
		got, err := s.BookingsPage(t.Context(), w.org.ID, booking.BookingQuery{PropertyID: w.prop.ID, Limit: 1})
		must(t, err)
		if len(got) != 1 {
			t.Fatalf("%d bookings, want 1", len(got))
		}
		want, err := s.BookingByID(t.Context(), d.ID)
		must(t, err)
		full := *want
		want.Quote = pricing.Quote{} // lists do not read it
		sameJSON(t, "listed booking", got[0], want)
		// Unless asked: a report sums the stored quotes.
		got, err = s.BookingsPage(t.Context(), w.org.ID, booking.BookingQuery{PropertyID: w.prop.ID, Limit: 1, WithQuote: true})
		must(t, err)
		if len(got) != 1 || got[0].Quote.Total.IsZero() {
			t.Fatalf("bookings with their quotes = %+v, want the stored quote", got)
		}
		sameJSON(t, "listed booking with its quote", got[0], &full)
		// The statuses' and the property's window's queries read it too.
		for _, q := range []booking.BookingQuery{{Statuses: []booking.Status{d.Status}, WithQuote: true},
			{PropertyID: w.prop.ID, From: d.CheckIn, WithQuote: true}} {
			got, err := s.BookingsPage(t.Context(), w.org.ID, q)
			must(t, err)
			for _, b := range got {
				if b.ID == d.ID && b.Quote.Total.IsZero() {
					t.Errorf("%+v: booking %d without its quote", q, d.ID)
				}
			}
		}
	}},
}
