package sqlite_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// historyDB is a database whose organisation has properties properties
// with perProperty confirmed stays each, back to back from 2015-01-01
// on, after ANALYZE: the history a host calendar must not walk.
func historyDB(tb testing.TB, properties, perProperty int) (*sqlite.DB, *booking.Organization, []*booking.Property) {
	tb.Helper()
	db := sqlitetest.Open(tb)
	org := &booking.Organization{Slug: "villa", Name: "Villa", PaymentMode: pricing.ModeFull,
		DefaultLocale: "fr", Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48}
	if err := db.CreateOrganization(tb.Context(), org); err != nil {
		tb.Fatal(err)
	}
	var props []*booking.Property
	for i := range properties {
		p := &booking.Property{OrgID: org.ID, Name: "Cabin " + strconv.Itoa(i), MaxGuests: 2,
			Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(80)}}
		if err := db.CreateProperty(tb.Context(), p); err != nil {
			tb.Fatal(err)
		}
		props = append(props, p)
	}
	in := civil.MustParse("2014-01-01")
	q := pricing.Quote{CheckIn: in, CheckOut: in.AddDays(3), Nights: 3, Guests: 1, Currency: "EUR",
		Accommodation: decimal.NewFromInt(240), Total: decimal.NewFromInt(300), Mode: pricing.ModeFull,
		Charge: decimal.NewFromInt(300), CouponBase: decimal.NewFromInt(240),
		Fees: []pricing.Line{{Code: pricing.LineCleaningFee, Label: "Cleaning", Amount: decimal.NewFromInt(60)}}}
	for i := range 3 {
		q.NightsDetail = append(q.NightsDetail, pricing.Night{Date: in.AddDays(i), Price: decimal.NewFromInt(80)})
	}
	template := &booking.Booking{OrgID: org.ID, PropertyID: props[0].ID, Token: "template", Status: booking.StatusPending,
		CheckIn: in, CheckOut: in.AddDays(3), Guests: 1, Currency: "EUR", PaymentMode: pricing.ModeFull,
		TotalAmount: q.Total, ChargeAmount: q.Total, Quote: q, ExpiresAt: now.Add(-30 * time.Minute)}
	if err := db.CreateBooking(tb.Context(), template, booking.CreateOptions{Now: now.Add(-30 * time.Minute * 2)}); err != nil {
		tb.Fatal(err)
	}
	if err := sqlite.FillHistoryForTest(tb.Context(), db, template.ID, perProperty, "2015-01-01"); err != nil {
		tb.Fatal(err)
	}
	return db, org, props
}

// calendarBookings lists the bookings holding the nights [from, to) of a
// property as host.Service.Calendar does: pages of 100 after a keyset
// cursor until a page is short.
func calendarBookings(tb testing.TB, db *sqlite.DB, org *booking.Organization, p *booking.Property, from, to string) []booking.Booking {
	var all []booking.Booking
	q := booking.BookingQuery{Statuses: booking.HoldingStatuses, PropertyID: p.ID,
		From: civil.MustParse(from), To: civil.MustParse(to), Limit: 100}
	for {
		page, err := db.BookingsPage(tb.Context(), org.ID, q)
		if err != nil {
			tb.Fatal(err)
		}
		all = append(all, page...)
		if len(page) < q.Limit {
			return all
		}
		q.Before = page[len(page)-1].ID
	}
}

// BenchmarkHostCalendar: the bookings of one property's year (122 stays,
// two pages) in an organisation with 100,000 bookings of history (100
// properties × 1,000 stays over eight years), after ANALYZE.
func BenchmarkHostCalendar(b *testing.B) {
	db, org, props := historyDB(b, 100, 1000)
	b.ResetTimer()
	for b.Loop() {
		if got := calendarBookings(b, db, org, props[7], "2022-03-01", "2023-03-01"); len(got) != 122 {
			b.Fatalf("%d bookings in the year, want 122", len(got))
		}
	}
}

// BenchmarkHostBookingsList: the first page of the host's bookings list
// (50 and one to see whether there is a next page) of that organisation.
func BenchmarkHostBookingsList(b *testing.B) {
	db, org, _ := historyDB(b, 100, 1000)
	q := booking.BookingQuery{Limit: 51}
	b.ResetTimer()
	for b.Loop() {
		got, err := db.BookingsPage(b.Context(), org.ID, q)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != 51 {
			b.Fatalf("%d bookings, want 51", len(got))
		}
	}
}

// calendarQuery is the first query host.Service.Calendar makes for the
// nights [from, to) of a property.
func calendarQuery(p *booking.Property, from, to string) booking.BookingQuery {
	return booking.BookingQuery{Statuses: booking.HoldingStatuses, PropertyID: p.ID,
		From: civil.MustParse(from), To: civil.MustParse(to), Limit: 100}
}

// TestBookingsPagePlans: after ANALYZE over thousands of bookings, each
// kind of BookingsPage query reads the index that matches it, never the
// whole organisation's history (bookings_org_id with a filter it does not
// serve) nor the table.
func TestBookingsPagePlans(t *testing.T) {
	db, org, props := historyDB(t, 4, 1000)
	calendar := calendarQuery(props[1], "2022-03-01", "2023-03-01")
	calendarNext := calendar
	calendarNext.Before = 3000
	for _, tc := range []struct {
		name  string
		q     booking.BookingQuery
		index string
	}{
		{"host calendar", calendar, "bookings_property_checkout (property_id=? AND check_out>?)"},
		{"host calendar after the cursor", calendarNext, "bookings_property_checkout (property_id=? AND check_out>?)"},
		{"list", booking.BookingQuery{Limit: 51}, "bookings_org_id (org_id=?)"},
		{"list after the cursor", booking.BookingQuery{Limit: 51, Before: 3000}, "bookings_org_id (org_id=? AND id<?)"},
		{"list of a status", booking.BookingQuery{Statuses: []booking.Status{booking.StatusRequested}, Before: 3000},
			"bookings_org_status (org_id=? AND status=? AND id<?)"},
		{"list of statuses", booking.BookingQuery{Statuses: booking.HoldingStatuses}, "bookings_org_status (org_id=? AND status=?)"},
		{"list of a property", booking.BookingQuery{PropertyID: props[2].ID, Before: 3000}, "bookings_property_id (property_id=? AND id<?)"},
		{"list of a property's arrivals before a date", booking.BookingQuery{PropertyID: props[2].ID, To: civil.MustParse("2016-01-01")},
			"bookings_property_id (property_id=?)"},
	} {
		plan, err := sqlite.ExplainBookingsPageForTest(t.Context(), db, org.ID, tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !strings.Contains(plan, "SEARCH bookings USING INDEX "+tc.index) {
			t.Errorf("%s: plan\n%s\nwant a search of %s", tc.name, plan, tc.index)
		}
		if strings.Contains(plan, "SCAN bookings") {
			t.Errorf("%s: plan\n%s\nscans the table", tc.name, plan)
		}
		if tc.q.PropertyID != 0 && strings.Contains(plan, "bookings_org_id") {
			t.Errorf("%s: plan\n%s\nwalks the organisation's history", tc.name, plan)
		}
	}
}
