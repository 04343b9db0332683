package postgres_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/postgres"
)

// TestBookingsPagePlans: after ANALYZE over thousands of bookings (4
// organisations of 4 properties × 500 back-to-back stays over four years),
// each kind of
// BookingsPage query reads an index: the host calendar's only the
// property's (never the organisation's history: bookings_org_id or the
// primary key), and none scans the table.
func TestBookingsPagePlans(t *testing.T) {
	schema := newSchema(t)
	db := openIn(t, schema)
	org, first := newCabin(t, db)
	props := []*booking.Property{first}
	for o := range 4 {
		orgID := org.ID
		if o > 0 {
			other := &booking.Organization{Slug: "other-" + strconv.Itoa(o), Name: "Other", PaymentMode: pricing.ModeFull,
				DefaultLocale: "fr", Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48}
			if err := db.CreateOrganization(t.Context(), other); err != nil {
				t.Fatal(err)
			}
			orgID = other.ID
		}
		for i := range 4 {
			if o == 0 && i == 0 {
				continue
			}
			p := &booking.Property{OrgID: orgID, Name: "Cabin " + strconv.Itoa(i), MaxGuests: 2,
				Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(80)}}
			if err := db.CreateProperty(t.Context(), p); err != nil {
				t.Fatal(err)
			}
			props = append(props, p)
		}
	}
	template := hold(t, db, first, "2014-01-01", "2014-01-04", now.Add(-time.Hour), now.Add(-30*time.Minute))
	conn := rawConn(t, schema)
	if _, err := conn.Exec(t.Context(), `
		INSERT INTO bookings (org_id, property_id, token, status, check_in, check_out, guests,
			currency, payment_mode, total_amount, charge_amount, paid_amount, balance_amount,
			quote, created_at, updated_at)
		SELECT p.org_id, p.id, 'h-' || p.id || '-' || n.i, 'confirmed',
			DATE '2019-01-01' + 3 * n.i, DATE '2019-01-01' + 3 * n.i + 3, t.guests,
			t.currency, t.payment_mode, t.total_amount, t.charge_amount, t.paid_amount, t.balance_amount,
			t.quote, t.created_at, t.updated_at
		FROM generate_series(0, 499) n(i), bookings t, properties p
		WHERE t.id = $1 ORDER BY n.i, p.id`, template.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(t.Context(), `ANALYZE bookings`); err != nil {
		t.Fatal(err)
	}
	calendar := booking.BookingQuery{Statuses: booking.HoldingStatuses, PropertyID: props[1].ID,
		From: civil.MustParse("2022-03-01"), To: civil.MustParse("2023-03-01"), Limit: 100}
	calendarNext := calendar
	calendarNext.Before = 6000
	for _, tc := range []struct {
		name string
		q    booking.BookingQuery
		uses string
	}{
		{"host calendar", calendar, "bookings_property_checkout"},
		{"host calendar after the cursor", calendarNext, "bookings_property_checkout"},
		{"list", booking.BookingQuery{Limit: 51}, "Index Scan"},
		{"list after the cursor", booking.BookingQuery{Limit: 51, Before: 6000}, "Index Scan"},
		{"list of a status", booking.BookingQuery{Statuses: []booking.Status{booking.StatusRequested}, Before: 6000}, "bookings_org_status"},
		{"list of statuses", booking.BookingQuery{Statuses: booking.HoldingStatuses}, "bookings_org_status"},
		{"list of a property", booking.BookingQuery{PropertyID: props[2].ID, Before: 6000}, "Index Scan"},
	} {
		plan, err := postgres.ExplainBookingsPageForTest(t.Context(), db, org.ID, tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !strings.Contains(plan, tc.uses) {
			t.Errorf("%s: plan\n%s\nwant %s", tc.name, plan, tc.uses)
		}
		if strings.Contains(plan, "Seq Scan on bookings") {
			t.Errorf("%s: plan\n%s\nscans the table", tc.name, plan)
		}
		if !tc.q.From.IsZero() && (strings.Contains(plan, "bookings_org_id") || strings.Contains(plan, "bookings_pkey")) {
			t.Errorf("%s: plan\n%s\nwalks the organisation's history", tc.name, plan)
		}
	}
}
