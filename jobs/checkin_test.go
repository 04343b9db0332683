package jobs_test

import (
	"bytes"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/jobs"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// TestCheckinRetention: the periodic check-in retention, run by RunDue
// on the injected clock, deletes a French stay's check-in the day after
// six months from its check-out, not before, keeps a Spanish one (three
// years), audits each deletion without the guests' data, and logs the
// count without any.
func TestCheckinRetention(t *testing.T) {
	ctx := t.Context()
	db := sqlitetest.Open(t)
	clock := bookingtest.NewClock(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	if err := seed.LoadFile(ctx, db, "../examples/server/demo-seed.json", clock.Now()); err != nil {
		t.Fatal(err)
	}
	pay := paymenttest.New(paymenttest.WithClock(clock.Now))
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: pay, Clock: clock})
	props, err := svc.Properties(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	stay := func(in string, country string) int64 {
		d := civil.MustParse(in)
		res, err := svc.Checkout(ctx, "demo", booking.CheckoutRequest{PropertyID: props[0].Property.ID,
			Stay:      booking.Stay{CheckIn: d, CheckOut: d.AddDays(3), Guests: 1},
			GuestName: "Ada Lovelace", GuestEmail: "ada@example.com", GuestPhone: "+33612345678"})
		if err != nil {
			t.Fatal(err)
		}
		g := checkin.Guest{GivenNames: "Ada", Surname: "Lovelace", BirthDate: civil.MustParse("1980-12-10"), Nationality: "GB",
			DocumentNumber: "925076473", Email: "ada@example.com"}
		if err := db.SaveCheckin(ctx, &checkin.Record{BookingID: res.Booking.ID, Country: country, Guests: []checkin.Guest{g},
			UpdatedBy: "guest", UpdatedAt: clock.Now()}); err != nil {
			t.Fatal(err)
		}
		return res.Booking.ID
	}
	fr := stay("2026-06-01", "FR") // check-out 2026-06-04
	es := stay("2026-06-10", "ES")

	var logs bytes.Buffer
	hs := host.New(host.Options{Stores: db.HostStores(), Bookings: svc, Clock: clock})
	w, err := jobs.NewSQLite(db, jobs.Options{Bookings: svc, Money: money.New(svc, money.Options{Store: db.Stores(), Payments: pay, Clock: clock}),
		Checkins: hs.CheckinRetention(nil), Clock: clock, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	kept := func(id int64) bool {
		_, err := db.Checkin(ctx, id)
		if err != nil && booking.ErrorCode(err) != booking.CodeNotFound {
			t.Fatal(err)
		}
		return err == nil
	}
	for _, step := range []struct {
		at         string
		frKept     bool
		esKept     bool
		purgeAudit int
	}{
		{"2026-06-05", true, true, 0},
		{"2026-12-04", true, true, 0}, // six months after the check-out: still kept that day
		{"2026-12-05", false, true, 1},
		{"2027-06-01", false, true, 1},
	} {
		clock.Set(civil.MustParse(step.at).In(time.UTC).Add(3 * time.Hour))
		if err := w.RunDue(ctx); err != nil {
			t.Fatalf("%s: RunDue: %v", step.at, err)
		}
		if kept(fr) != step.frKept || kept(es) != step.esKept {
			t.Errorf("%s: French check-in kept %v, Spanish %v; want %v, %v", step.at, kept(fr), kept(es), step.frKept, step.esKept)
		}
		org, err := db.OrganizationBySlug(ctx, "demo")
		if err != nil {
			t.Fatal(err)
		}
		log, err := db.AuditLog(ctx, org.ID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, a := range log {
			if a.Action == "checkin.purge" {
				n++
				if a.Target != "booking:"+strconv.FormatInt(fr, 10) || string(a.After) != `{"country":"FR"}` || a.Actor != "system:0" {
					t.Errorf("purge audit %+v %s", a, a.After)
				}
			}
		}
		if n != step.purgeAudit {
			t.Errorf("%s: %d checkin.purge audit entries, want %d", step.at, n, step.purgeAudit)
		}
	}
	if !bytes.Contains(logs.Bytes(), []byte("deleted check-ins past their keeping period")) ||
		bytes.Contains(logs.Bytes(), []byte("Lovelace")) || bytes.Contains(logs.Bytes(), []byte("ada@example.com")) {
		t.Errorf("log:\n%s", logs.String())
	}
}
