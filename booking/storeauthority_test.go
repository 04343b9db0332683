package booking_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/rules"
	"github.com/staykit/staykit/store/sqlite"
)

// blindStore hides the occupancy and the calendar from the service's own
// checks (checkFree, withCalendar), as if another checkout or the host
// had written in between: only CreateBooking's transaction can see them.
type blindStore struct {
	booking.BookingStore
	booking.CalendarStore
}

// seams are db's seams with the bookings and the calendar blind.
func (b blindStore) seams(db *sqlite.DB) booking.Stores {
	s := db.Stores()
	s.BookingStore, s.CalendarStore = b, b
	return s
}

func (blindStore) Occupied(context.Context, int64, civil.Date, civil.Date, time.Time) ([]booking.Hold, error) {
	return nil, nil
}

func (blindStore) CalendarDays(context.Context, int64, civil.Date, civil.Date) ([]booking.CalendarDay, error) {
	return nil, nil
}

// TestCheckoutRefusedByTheStore: when the service's early check misses a
// preparation day or a closed night (a concurrent writer), CreateBooking
// refuses the stay itself, and the guest gets the same answer as from the
// early check: unavailable, with the same message.
func TestCheckoutRefusedByTheStore(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		set  rules.Set
		days []booking.CalendarDay
		// The "demo" villa holds 06-08..06-11 (e.order) before the stay.
		in, out string
	}{
		{"preparation day after a stay", rules.Set{PreparationDaysAfter: 1}, nil, "2026-06-11", "2026-06-13"},
		{"preparation day before a stay", rules.Set{PreparationDaysBefore: 1}, nil, "2026-06-05", "2026-06-08"},
		{"preparation day after a block", rules.Set{PreparationDaysAfter: 1}, nil, "2026-06-23", "2026-06-25"},
		{"closed night", rules.Set{}, []booking.CalendarDay{{Date: d("2026-06-15"), Closed: true}}, "2026-06-14", "2026-06-17"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.setRules(t, tt.set, nil, tt.days...)
			if _, err := e.svc.Checkout(ctx, "demo", e.order("demo")); err != nil {
				t.Fatal(err)
			}
			o := e.order("demo")
			o.CheckIn, o.CheckOut = d(tt.in), d(tt.out)
			// The early check refuses it...
			_, early := e.svc.Checkout(ctx, "demo", o)
			wantCode(t, early, booking.CodeUnavailable)
			// ...and so does the store, when the early check is blind.
			blind := booking.NewService(booking.Options{Stores: blindStore{e.store, e.store}.seams(e.store), Payments: e.pay, Clock: e.clock, Notifier: e.notified})
			_, err := blind.Checkout(ctx, "demo", o)
			wantCode(t, err, booking.CodeUnavailable)
			var got, want *booking.Error
			if errorsAs(err, &got) && errorsAs(early, &want) && got.Message != want.Message {
				t.Errorf("store's refusal says %q, the early check %q", got.Message, want.Message)
			}
			list, err := e.store.Bookings(ctx, demoOrg(t, e).ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 1 {
				t.Errorf("%d bookings stored, want the first one only", len(list))
			}
		})
	}
}

// demoOrg returns the "demo" organisation.
func demoOrg(t *testing.T, e *env) *booking.Organization {
	t.Helper()
	org, err := e.svc.Organization(context.Background(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	return org
}

// TestCheckoutGivesTheStoreItsChecks: checkout passes CreateBooking the
// property's preparation days and the nights its own rules close (not
// those of the calendar, which the store reads itself).
func TestCheckoutGivesTheStoreItsChecks(t *testing.T) {
	e := newEnv(t)
	e.setRules(t, rules.Set{PreparationDaysBefore: 2, PreparationDaysAfter: 3,
		Days: []rules.Day{{Date: d("2026-06-25"), Closed: true}, {Date: d("2026-06-26"), ClosedToArrival: true}}},
		nil, booking.CalendarDay{Date: d("2026-06-27"), Closed: true})
	log := &writeLog{Stores: e.store.Stores()}
	svc := booking.NewService(booking.Options{Stores: log.seams(), Payments: e.pay, Clock: e.clock, Notifier: e.notified})
	if _, err := svc.Checkout(context.Background(), "demo", e.order("demo")); err != nil {
		t.Fatal(err)
	}
	if len(log.opts) != 1 {
		t.Fatalf("%d CreateBooking calls, want 1", len(log.opts))
	}
	o := log.opts[0]
	if o.PreparationDaysBefore != 2 || o.PreparationDaysAfter != 3 {
		t.Errorf("preparation days before %d after %d, want 2 and 3", o.PreparationDaysBefore, o.PreparationDaysAfter)
	}
	if want := []civil.Date{d("2026-06-25")}; !slices.Equal(o.RuleClosed, want) {
		t.Errorf("RuleClosed = %v, want %v", o.RuleClosed, want)
	}
	if !o.Now.Equal(start) {
		t.Errorf("Now = %v, want %v", o.Now, start)
	}
}
