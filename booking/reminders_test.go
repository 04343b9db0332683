package booking_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// TestQueueRemindersOnlyConfirmedArrivals: with reminders 3 days ahead on
// 1 June, only the confirmed bookings arriving on 4 June, of every
// organisation, are reminded; a stay arriving another day, leaving that
// day, or in another status is not. A second run records nothing new.
func TestQueueRemindersOnlyConfirmedArrivals(t *testing.T) {
	e := newEnv(t)
	e.addOrg(t, "demo-hold", pricing.ModeFull)
	ctx := context.Background()
	// Each booking is made in turn, so a cancelled stay frees its nights
	// for the next one of the same villa.
	bookings := []struct {
		name     string
		slug     string
		in, out  string
		status   booking.Status
		reminded bool
	}{
		{"CancelledArrivingThatDay", "demo", "2026-06-04", "2026-06-06", booking.StatusCancelled, false},
		{"ConfirmedArrivingThatDay", "demo", "2026-06-04", "2026-06-06", booking.StatusConfirmed, true},
		{"ConfirmedLeavingThatDay", "demo", "2026-06-02", "2026-06-04", booking.StatusConfirmed, false},
		{"ConfirmedArrivingNextDay", "demo", "2026-06-06", "2026-06-08", booking.StatusConfirmed, false},
		{"ConfirmedOtherOrganisation", "demo-deposit", "2026-06-04", "2026-06-07", booking.StatusConfirmed, true},
		{"RequestedArrivingThatDay", "demo-request", "2026-06-04", "2026-06-06", booking.StatusRequested, false},
		{"PendingArrivingThatDay", "demo-hold", "2026-06-04", "2026-06-06", booking.StatusPending, false},
	}
	var want []int64
	for _, bk := range bookings {
		r := e.order(bk.slug)
		r.Stay.CheckIn, r.Stay.CheckOut = civil.MustParse(bk.in), civil.MustParse(bk.out)
		res, err := e.svc.Checkout(ctx, bk.slug, r)
		if err != nil {
			t.Fatalf("%s: checkout: %v", bk.name, err)
		}
		b := res.Booking
		if bk.status != booking.StatusPending {
			if _, err := e.pay.SimulatePaid(b.PaymentIntentID); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.Confirm(ctx, bk.slug, b.Token, booking.ConfirmRequest{}); err != nil {
				t.Fatalf("%s: confirm: %v", bk.name, err)
			}
		}
		if bk.status == booking.StatusCancelled {
			if _, err := e.svc.Cancel(ctx, bk.slug, b.Token, false); err != nil {
				t.Fatalf("%s: cancel: %v", bk.name, err)
			}
		}
		if got := e.status(t, bk.slug, b.Token); got != bk.status {
			t.Fatalf("%s: status %s, want %s", bk.name, got, bk.status)
		}
		if bk.reminded {
			want = append(want, b.ID)
		}
	}

	for run := 1; run <= 2; run++ {
		n, err := e.svc.QueueReminders(ctx, 3)
		if err != nil || n != len(want) {
			t.Fatalf("run %d: QueueReminders = %d, %v; want %d", run, n, err, len(want))
		}
	}
	events, err := e.store.ClaimOutboxEvents(ctx, start.Add(time.Hour), start.Add(2*time.Hour), 1000)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, ev := range events {
		if ev.Kind == booking.NotifyReminder {
			got = append(got, ev.BookingID)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("reminded bookings %v, want %v (each once)", got, want)
	}
}
