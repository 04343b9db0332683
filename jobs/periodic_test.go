package jobs

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// failingHolds fails LapsedHolds a number of times before it works.
type failingHolds struct {
	booking.BookingStore
	failures atomic.Int32
}

func (f *failingHolds) LapsedHolds(ctx context.Context, now time.Time, limit int) ([]booking.Booking, error) {
	if f.failures.Add(-1) >= 0 {
		return nil, errors.New("database is down")
	}
	return f.BookingStore.LapsedHolds(ctx, now, limit)
}

// The periodic hold expiry (what booking's RunSweeper did each sweep)
// expires a lapsed hold, tells the host and logs it; a run that fails
// says why (River logs the job's error and runs it again) and a later run
// does the work.
func TestPeriodicExpireHolds(t *testing.T) {
	for _, tc := range []struct {
		name     string
		failures int32
	}{
		{"ExpiresLapsedHold", 0},
		{"KeepsGoingAfterErrors", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			db := sqlitetest.Open(t)
			clock := bookingtest.NewClock(time.Now())
			if err := seed.LoadFile(ctx, db, "../examples/server/demo-seed.json", clock.Now()); err != nil {
				t.Fatal(err)
			}
			holds := &failingHolds{BookingStore: db}
			holds.failures.Store(tc.failures)
			stores := db.Stores()
			stores.BookingStore = holds
			pay, notified := paymenttest.New(), &bookingtest.Notifier{}
			svc := booking.NewService(booking.Options{Stores: stores, Payments: pay, Clock: clock, Notifier: notified})
			props, err := svc.Properties(ctx, "demo")
			if err != nil {
				t.Fatal(err)
			}
			in := civil.Today(clock.Now(), time.UTC).AddDays(30)
			res, err := svc.Checkout(ctx, "demo", booking.CheckoutRequest{PropertyID: props[0].Property.ID,
				Stay:      booking.Stay{CheckIn: in, CheckOut: in.AddDays(3), Guests: 2},
				GuestName: "Ada Lovelace", GuestEmail: "ada@example.com", GuestPhone: "+33612345678"})
			if err != nil {
				t.Fatal(err)
			}
			clock.Advance(31 * time.Minute) // past the 30-minute hold

			var logs bytes.Buffer
			o := Options{Bookings: svc, Money: money.New(svc, money.Options{Store: stores, Payments: pay, Clock: clock, Notifier: notified}), Clock: clock, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
			if err := o.defaults(); err != nil {
				t.Fatal(err)
			}
			w := &Workers{opts: o, store: db}
			for run := range tc.failures {
				err := w.runTask(ctx, TaskExpireHolds)
				if err == nil || !strings.Contains(err.Error(), "expire holds") || !strings.Contains(err.Error(), "database is down") {
					t.Fatalf("run %d = %v, want the store's failure", run+1, err)
				}
			}
			if err := w.runTask(ctx, TaskExpireHolds); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(logs.String(), "expired holds") || !strings.Contains(logs.String(), "count=1") {
				t.Errorf("log lacks the expiry:\n%s", logs.String())
			}
			if got := notified.Kinds(res.Booking.Token); len(got) != 1 || got[0] != booking.NotifyExpired {
				t.Errorf("notifications = %v, want %s", got, booking.NotifyExpired)
			}
			if in, _ := pay.Intent(res.Booking.PaymentIntentID); in.Status != "canceled" {
				t.Errorf("intent of the expired hold = %s, want canceled", in.Status)
			}
		})
	}
}
