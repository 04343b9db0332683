package reports_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/reports"
)

// fakeStore serves reports.Store from memory, as the stores do: bookings
// newest first, a page at a time.
type fakeStore struct {
	props    []booking.Property
	bookings []booking.Booking // by ID ascending
	pages    int
}

func (f *fakeStore) Properties(context.Context, int64) ([]booking.Property, error) {
	return f.props, nil
}
func (f *fakeStore) CalendarDays(context.Context, int64, civil.Date, civil.Date) ([]booking.CalendarDay, error) {
	return nil, nil
}
func (f *fakeStore) LedgerEntries(context.Context, int64) ([]ledger.Entry, error) { return nil, nil }
func (f *fakeStore) LedgerEntriesMoved(context.Context, int64, time.Time, time.Time) ([]reports.Entry, error) {
	return nil, nil
}

func (f *fakeStore) BookingsPage(_ context.Context, _ int64, q booking.BookingQuery) ([]booking.Booking, error) {
	f.pages++
	var out []booking.Booking
	for _, b := range slices.Backward(f.bookings) {
		switch {
		case q.Before > 0 && b.ID >= q.Before,
			len(q.Statuses) > 0 && !slices.Contains(q.Statuses, b.Status),
			!q.From.IsZero() && !b.CheckOut.After(q.From),
			!q.To.IsZero() && !b.CheckIn.Before(q.To):
			continue
		}
		if out = append(out, b); len(out) == q.PageSize() {
			break
		}
	}
	return out, nil
}

var org = &booking.Organization{ID: 1, Slug: "villa", Currency: "EUR", Timezone: "Europe/Paris"}

// TestReportReadsEveryPage: more bookings than one page of the store
// are all counted, each once.
func TestReportReadsEveryPage(t *testing.T) {
	f := &fakeStore{props: []booking.Property{{ID: 1, Name: "Soleil"}}}
	for i := range 1201 {
		b := stay{id: int64(i + 1), in: "2026-05-10", out: "2026-05-11"}.booking()
		f.bookings = append(f.bookings, b)
	}
	svc := reports.New(reports.Options{Store: f, Clock: bookingtest.NewClock(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))})
	r, err := svc.Report(t.Context(), org, reports.Query{Span: span("2026-05", "2026-05")})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Total.NightsBooked; got != 1201 {
		t.Errorf("nights booked = %d, want 1201 (every page once)", got)
	}
	if f.pages != 3 {
		t.Errorf("%d pages read, want 3", f.pages)
	}
}

func TestReportQueryValidate(t *testing.T) {
	tests := []struct {
		name  string
		q     reports.Query
		field string
	}{
		{"NoFrom", reports.Query{Span: reports.Span{To: month("2026-05")}}, "from"},
		{"ToBeforeFrom", reports.Query{Span: span("2026-05", "2026-04")}, "to"},
		{"OverMaxMonths", reports.Query{Span: span("2024-05", "2026-05")}, "to"},
		{"MaxMonths", reports.Query{Span: span("2024-06", "2026-05")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.q.Validate()
			var e *booking.Error
			switch {
			case tt.field == "" && err != nil:
				t.Fatalf("err = %v, want none", err)
			case tt.field != "" && (!asError(err, &e) || len(e.Fields[tt.field]) == 0):
				t.Fatalf("err = %v, want %s invalid", err, tt.field)
			}
		})
	}
}

func asError(err error, e **booking.Error) bool {
	if be, ok := err.(*booking.Error); ok {
		*e = be
		return true
	}
	return false
}

// TestUpcoming: arrivals and departures from today in the organisation's
// zone for the days asked, confirmed and requested bookings only, by date.
func TestUpcoming(t *testing.T) {
	f := &fakeStore{props: []booking.Property{{ID: 1, Name: "Soleil"}, {ID: 2, Name: "Mistral"}}}
	for _, s := range []stay{
		{id: 1, in: "2026-04-28", out: "2026-05-01"},                                  // leaves today
		{id: 2, prop: 2, in: "2026-05-03", out: "2026-05-09"},                         // arrives in 2 days, leaves after the window
		{id: 3, status: booking.StatusRequested, in: "2026-05-06", out: "2026-05-07"}, // leaves on the last day of the window
		{id: 4, status: booking.StatusCancelled, in: "2026-05-02", out: "2026-05-04"},
		{id: 5, in: "2026-05-08", out: "2026-05-10"}, // after the window
	} {
		f.bookings = append(f.bookings, s.booking())
	}
	// 30 April 23:30 UTC is 1 May in Paris.
	svc := reports.New(reports.Options{Store: f, Clock: bookingtest.NewClock(time.Date(2026, 4, 30, 23, 30, 0, 0, time.UTC))})
	u, err := svc.Upcoming(t.Context(), org, 7)
	if err != nil {
		t.Fatal(err)
	}
	if u.From != day("2026-05-01") || u.To != day("2026-05-08") {
		t.Errorf("window = %s … %s, want 2026-05-01 … 2026-05-08", u.From, u.To)
	}
	ids := func(list []reports.Stay) (out []int64) {
		for _, s := range list {
			out = append(out, s.BookingID)
		}
		return out
	}
	if got := ids(u.Arrivals); !slices.Equal(got, []int64{2, 3}) {
		t.Errorf("arrivals = %v, want [2 3]", got)
	}
	if got := ids(u.Departures); !slices.Equal(got, []int64{1, 3}) {
		t.Errorf("departures = %v, want [1 3]", got)
	}
	if u.Arrivals[0].PropertyName != "Mistral" || u.Arrivals[0].Date != day("2026-05-03") {
		t.Errorf("first arrival = %+v, want Mistral on 2026-05-03", u.Arrivals[0])
	}
	for _, days := range []int{0, reports.MaxDays + 1} {
		if _, err := svc.Upcoming(t.Context(), org, days); booking.ErrorCode(err) != booking.CodeInvalid {
			t.Errorf("%d days: err = %v, want invalid", days, err)
		}
	}
}
