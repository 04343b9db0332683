package booking_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// The failure paths of a checkout, which creates the payment intent before
// its one write (booking.Service.checkout, hold). Each test checks what a
// failed checkout must leave: no booking, no dates and no coupon held (the
// same stay with the single-use coupon LAST1 can be booked at once), and
// no intent that could be paid or captured.

// faultyCreate is a store whose CreateBooking runs before (a competitor
// taking the dates, a crash) or instead of (fail) the store's.
type faultyCreate struct {
	booking.Stores
	before func()
	fail   error
}

func (f *faultyCreate) seams() booking.Stores {
	s := f.Stores
	s.BookingStore = f
	return s
}

func (f *faultyCreate) CreateBooking(ctx context.Context, b *booking.Booking, o booking.CreateOptions) error {
	if f.before != nil {
		f.before()
	}
	if f.fail != nil {
		return f.fail
	}
	return f.Stores.CreateBooking(ctx, b, o)
}

// crashed is what faultyCreate panics with to stand for the process dying.
type crashed struct{}

// leftNothing checks that no booking of demo remains and that the stay of
// r, with r's coupon, can be booked again at once.
func leftNothing(t *testing.T, e *env, r booking.CheckoutRequest) {
	t.Helper()
	ctx := context.Background()
	if all, err := e.svc.Bookings(ctx, "demo"); err != nil || len(all) != 0 {
		t.Fatalf("a failed checkout left %d bookings (%v)", len(all), err)
	}
	r.IdempotencyKey = ""
	res, err := e.svc.Checkout(ctx, "demo", r)
	if err != nil {
		t.Fatalf("the dates or the coupon stayed held: %v", err)
	}
	if res.Booking.CouponCode != r.CouponCode {
		t.Errorf("coupon %q, want %q", res.Booking.CouponCode, r.CouponCode)
	}
}

// unpayable checks that the intents at the provider other than those of
// bookings are in no state that holds or can take money without the
// engine: never succeeded or authorised, and named by no booking.
func unpayable(t *testing.T, e *env) []payment.Intent {
	t.Helper()
	var orphans []payment.Intent
	for _, in := range e.pay.Intents() {
		if _, err := e.store.BookingByIntent(context.Background(), in.ID); err == nil {
			continue
		}
		if in.Status != payment.StatusRequiresPayment && in.Status != payment.StatusCanceled || in.AmountReceived != 0 {
			t.Errorf("orphan intent %s is %s with %d received", in.ID, in.Status, in.AmountReceived)
		}
		orphans = append(orphans, in)
	}
	return orphans
}

func lastOrder(e *env) booking.CheckoutRequest {
	r := e.order("demo")
	r.CouponCode = "LAST1"
	return r
}

// TestCheckoutAnswerLostAfterIntentCreated: the provider created the
// intent but its answer never came. The checkout fails with
// payment_unavailable and writes nothing; the intent it cannot know of
// stays unconfirmed, since its client secret never reached the guest.
func TestCheckoutAnswerLostAfterIntentCreated(t *testing.T) {
	e := newEnv(t)
	r := lastOrder(e)
	e.pay.LoseNextResponse(paymenttest.OpCreate)
	_, err := e.svc.Checkout(context.Background(), "demo", r)
	wantCode(t, err, booking.CodePaymentUnavailable)
	if n := len(e.pay.Intents()); n != 1 {
		t.Fatalf("%d intents at the provider, want the one whose answer was lost", n)
	}
	orphans := unpayable(t, e)
	if len(orphans) != 1 || orphans[0].Status != payment.StatusRequiresPayment {
		t.Fatalf("orphans %v, want the lost intent, unpaid", orphans)
	}
	leftNothing(t, e, r)
	if n := len(unpayable(t, e)); n != 1 {
		t.Errorf("%d orphan intents after the retry, want 1 (the retry's is its booking's)", n)
	}
}

// TestCheckoutCrashBetweenIntentAndWrite: the process dies after the
// provider created the intent and before the write. Nothing was written,
// so nothing is held; the intent is an orphan nobody can pay.
func TestCheckoutCrashBetweenIntentAndWrite(t *testing.T) {
	e := newEnv(t)
	r := lastOrder(e)
	r.IdempotencyKey = "crash-1"
	f := &faultyCreate{Stores: e.store.Stores(), before: func() { panic(crashed{}) }}
	svc := booking.NewService(booking.Options{Stores: f.seams(), Payments: e.pay, Clock: e.clock, Notifier: e.notified})
	func() {
		defer func() {
			if p := recover(); p == nil {
				t.Fatal("the checkout did not reach its write")
			} else if _, ok := p.(crashed); !ok {
				panic(p)
			}
		}()
		_, _ = svc.Checkout(context.Background(), "demo", r)
	}()
	if e.pay.Calls(paymenttest.OpCreate) != 1 {
		t.Fatalf("%d intents created before the crash, want 1", e.pay.Calls(paymenttest.OpCreate))
	}
	if orphans := unpayable(t, e); len(orphans) != 1 {
		t.Fatalf("orphans %v, want the crashed checkout's intent", orphans)
	}
	// The guest retries with the same key: nothing was recorded, so it is
	// a new checkout.
	res, err := e.svc.Checkout(context.Background(), "demo", r)
	if err != nil {
		t.Fatalf("retry after the crash: %v", err)
	}
	if res.Booking.CouponCode != "LAST1" || res.ClientSecret == "" {
		t.Errorf("retry: coupon %q secret %q", res.Booking.CouponCode, res.ClientSecret)
	}
}

// TestCheckoutWriteFailsCancelsIntent: the intent exists when the write
// fails. The checkout answers as the write did and cancels the intent;
// when the cancellation fails too, the intent stays unpaid and no booking
// names it.
func TestCheckoutWriteFailsCancelsIntent(t *testing.T) {
	for _, tc := range []struct {
		name         string
		cancelFails  bool
		datesTakenBy bool // a competitor takes the dates just before the write
		code         string
	}{
		{name: "DatabaseDown", code: ""},
		{name: "DatabaseDownAndCancelFails", cancelFails: true, code: ""},
		{name: "DatesTakenMeanwhile", datesTakenBy: true, code: booking.CodeUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			ctx := context.Background()
			r := lastOrder(e)
			r.IdempotencyKey = "write-fails"
			f := &faultyCreate{Stores: e.store.Stores()}
			var competitor *booking.CheckoutResult
			if tc.datesTakenBy {
				f.before = func() {
					f.before = nil // the competitor's own checkout goes through
					c := e.order("demo")
					var err error
					if competitor, err = e.svc.Checkout(ctx, "demo", c); err != nil {
						t.Errorf("competitor: %v", err)
					}
				}
			} else {
				f.fail = errors.New("database is down")
			}
			if tc.cancelFails {
				e.pay.FailNext(paymenttest.OpCancel, nil)
			}
			svc := booking.NewService(booking.Options{Stores: f.seams(), Payments: e.pay, Clock: e.clock, Notifier: e.notified})
			_, err := svc.Checkout(ctx, "demo", r)
			if tc.code != "" {
				wantCode(t, err, tc.code)
			} else if err == nil || booking.ErrorCode(err) == booking.CodeUnavailable {
				t.Fatalf("err = %v, want the write's failure", err)
			}
			orphans := unpayable(t, e)
			if len(orphans) != 1 {
				t.Fatalf("orphans %v, want the failed checkout's intent", orphans)
			}
			want := payment.StatusCanceled
			if tc.cancelFails {
				want = payment.StatusRequiresPayment
			}
			if orphans[0].Status != want {
				t.Errorf("the failed checkout's intent is %s, want %s", orphans[0].Status, want)
			}
			if tc.datesTakenBy {
				// The competitor holds the dates; the coupon is still free.
				all, _ := e.svc.Bookings(ctx, "demo")
				if len(all) != 1 || competitor == nil || all[0].Token != competitor.Booking.Token {
					t.Fatalf("bookings %v, want the competitor's alone", all)
				}
				if rec, err := e.store.IdempotencyRecord(ctx, all[0].OrgID, "checkout", r.IdempotencyKey, e.clock.Now().Add(-booking.IdempotencyWindow)); err == nil {
					t.Errorf("the failed checkout's key was recorded: %+v", rec)
				}
				return
			}
			leftNothing(t, e, r)
		})
	}
}

// TestCheckoutSameKeyTogether: two requests with the same idempotency key
// arrive together, both past the key's first read. Each creates an
// intent; one write wins, the other finds the key recorded, cancels its
// own intent and answers with the winner's booking and client secret.
func TestCheckoutSameKeyTogether(t *testing.T) {
	e := newEnv(t)
	r := lastOrder(e)
	r.IdempotencyKey = "twice"
	// Both requests reach the write before either writes.
	var arrived sync.WaitGroup
	arrived.Add(2)
	f := &faultyCreate{Stores: e.store.Stores(), before: func() { arrived.Done(); arrived.Wait() }}
	svc := booking.NewService(booking.Options{Stores: f.seams(), Payments: e.pay, Clock: e.clock, Notifier: e.notified})
	results := make([]*booking.CheckoutResult, 2)
	errs := make([]error, 2)
	var done sync.WaitGroup
	for i := range 2 {
		done.Add(1)
		go func() {
			defer done.Done()
			results[i], errs[i] = svc.Checkout(context.Background(), "demo", r)
		}()
	}
	done.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	if results[0].Booking.Token != results[1].Booking.Token || results[0].ClientSecret != results[1].ClientSecret || results[0].ClientSecret == "" {
		t.Fatalf("answers %s/%q and %s/%q, want the same booking and secret", results[0].Booking.Token, results[0].ClientSecret,
			results[1].Booking.Token, results[1].ClientSecret)
	}
	if all, _ := e.svc.Bookings(context.Background(), "demo"); len(all) != 1 {
		t.Fatalf("%d bookings, want 1", len(all))
	}
	if n := e.pay.Calls(paymenttest.OpCreate); n != 2 {
		t.Fatalf("%d intents created, want 2 (one per request)", n)
	}
	orphans := unpayable(t, e)
	if len(orphans) != 1 || orphans[0].Status != payment.StatusCanceled {
		t.Fatalf("orphans %v, want the loser's intent, cancelled", orphans)
	}
	// A later retry replays without calling the provider.
	again, err := e.svc.Checkout(context.Background(), "demo", r)
	if err != nil || again.ClientSecret != results[0].ClientSecret {
		t.Fatalf("retry: %v, secret %q", err, again.ClientSecret)
	}
	if n := e.pay.Calls(paymenttest.OpCreate); n != 2 {
		t.Errorf("a replay created an intent (%d in all)", n)
	}
}

// TestCheckoutDatesAlreadyTaken: a checkout reads no occupancy before its
// write (the quote did), so for dates taken since the quote the write
// refuses, and the intent created for it is cancelled at once.
func TestCheckoutDatesAlreadyTaken(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	first, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.Checkout(ctx, "demo", lastOrder(e))
	wantCode(t, err, booking.CodeUnavailable)
	orphans := unpayable(t, e)
	if len(orphans) != 1 || orphans[0].Status != payment.StatusCanceled {
		t.Fatalf("orphans %v, want the refused checkout's intent, cancelled", orphans)
	}
	if all, _ := e.svc.Bookings(ctx, "demo"); len(all) != 1 || all[0].Token != first.Booking.Token {
		t.Fatalf("bookings %v, want the first alone", all)
	}
	// The coupon the refused checkout asked for is still free.
	r := lastOrder(e)
	r.CheckIn, r.CheckOut = r.CheckOut, r.CheckOut.AddDays(3)
	if res, err := e.svc.Checkout(ctx, "demo", r); err != nil || res.Booking.CouponCode != "LAST1" {
		t.Fatalf("the coupon stayed held: %v", err)
	}
}
