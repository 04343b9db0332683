package jobs_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"testing/synctest"
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

// TestRetentionRunsOnRiversSchedule: the check-in retention is a periodic
// job River runs every Options.Every, not only a step of RunDue. In a
// synctest bubble (River's timers on the bubble's clock, no sleeping for
// real), a French check-in kept at the first runs is deleted by the first
// run after the injected clock passes its keeping period, within one
// interval, and the deletion is audited.
func TestRetentionRunsOnRiversSchedule(t *testing.T) {
	const every = time.Minute
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
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
		d := civil.MustParse("2026-06-01")
		res, err := svc.Checkout(ctx, "demo", booking.CheckoutRequest{PropertyID: props[0].Property.ID,
			Stay:      booking.Stay{CheckIn: d, CheckOut: d.AddDays(3), Guests: 1},
			GuestName: "Ada Lovelace", GuestEmail: "ada@example.com", GuestPhone: "+33612345678"})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SaveCheckin(ctx, &checkin.Record{BookingID: res.Booking.ID, Country: "FR", Guests: []checkin.Guest{{GivenNames: "Ada", Surname: "Lovelace"}},
			UpdatedBy: "guest", UpdatedAt: clock.Now()}); err != nil {
			t.Fatal(err)
		}
		hs := host.New(host.Options{Stores: db.HostStores(), Bookings: svc, Clock: clock})
		w, err := jobs.NewSQLite(db, jobs.Options{Bookings: svc, Money: money.New(svc, money.Options{Store: db.Stores(), Payments: pay, Clock: clock}),
			Checkins: hs.CheckinRetention(nil), Clock: clock, Every: every, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		started := time.Now()
		done := make(chan error)
		go func() { done <- w.Run(ctx) }()
		// River stops before the bubble ends, whatever the outcome.
		defer func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		}()
		kept := func() bool {
			_, err := db.Checkin(ctx, res.Booking.ID)
			return err == nil
		}
		// Two runs (at the start, and an interval later) keep it: six
		// months after the check-out of 4 June are not over.
		time.Sleep(every + every/2)
		if !kept() {
			t.Fatal("the check-in was deleted before its keeping period ended")
		}
		clock.Set(time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC))
		moved := time.Since(started)
		for kept() && time.Since(started) < 4*every {
			time.Sleep(every / 10)
		}
		if kept() {
			t.Fatalf("the check-in is kept %v after its keeping period ended: River ran no retention", time.Since(started)-moved)
		}
		// The run that deleted it is the next scheduled one: two
		// intervals after the start.
		if at := time.Since(started); at < 2*every || at > 2*every+every/5 {
			t.Errorf("deleted %v after the start, want at the third run (%v)", at, 2*every)
		}
		org, err := db.OrganizationBySlug(ctx, "demo")
		if err != nil {
			t.Fatal(err)
		}
		log, err := db.AuditLog(ctx, org.ID, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) == 0 || log[0].Action != "checkin.purge" {
			t.Errorf("latest audit entry %+v, want the check-in's purge", log)
		}
	})
}
