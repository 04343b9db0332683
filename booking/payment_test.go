package booking_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/rules"
)

// The payment lifecycle under failures (issue "Money never lost"): each
// test injects one failure found in review and checks the invariants: no
// money without a booking, no booking without money, every mutating
// provider call idempotent.

func TestApproveCaptureResponseLostConfirmsOnce(t *testing.T) {
	e := newEnv(t)
	b := e.requested(t)
	e.pay.LoseNextResponse(paymenttest.OpCapture)
	got, err := e.svc.Approve(context.Background(), "demo-request", b.Token)
	if err != nil || got.Status != booking.StatusConfirmed {
		t.Fatalf("approve = %v, %v; want confirmed (the capture went through, its answer was lost)", got, err)
	}
	in := e.intent(t, b.PaymentIntentID)
	if in.Status != payment.StatusSucceeded || in.AmountRefunded != 0 {
		t.Errorf("intent %s refunded %d, want captured and kept", in.Status, in.AmountRefunded)
	}
	if !got.PaidAmount.Equal(b.ChargeAmount) {
		t.Errorf("paid %s, want %s", got.PaidAmount, b.ChargeAmount)
	}
}

// transitionFailingStore fails the next Transition with a plain (transient) error.
type transitionFailingStore struct {
	booking.BookingStore
	failTransitions int
}

func (s *transitionFailingStore) Transition(ctx context.Context, id int64, t booking.Transition) (*booking.Booking, error) {
	if s.failTransitions > 0 {
		s.failTransitions--
		return nil, errors.New("database is locked")
	}
	return s.BookingStore.Transition(ctx, id, t)
}

func TestApproveTransientDatabaseErrorRefundsNothing(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.requested(t)
	fs := &transitionFailingStore{BookingStore: e.store, failTransitions: 1}
	stores := e.store.Stores()
	stores.BookingStore = fs
	svc := booking.NewService(booking.Options{Stores: stores, Payments: e.pay, Clock: e.clock, Notifier: e.notified})
	money.New(svc, money.Options{Store: stores, Payments: e.pay, Clock: e.clock, Notifier: e.notified})
	if _, err := svc.Approve(ctx, "demo-request", b.Token); err == nil || booking.ErrorCode(err) != booking.CodeInternal {
		t.Fatalf("approve with a failing database = %v, want an internal error", err)
	}
	if in := e.intent(t, b.PaymentIntentID); in.AmountRefunded != 0 || len(e.ledger(t, b)) != 0 {
		t.Fatalf("a transient database error refunded %d (ledger %+v); want nothing", in.AmountRefunded, e.ledger(t, b))
	}
	// The host tries again: the capture replays by its key, nothing is
	// taken twice, and the booking is confirmed.
	got, err := svc.Approve(ctx, "demo-request", b.Token)
	if err != nil || got.Status != booking.StatusConfirmed {
		t.Fatalf("second approve = %v, %v; want confirmed", got, err)
	}
	if in := e.intent(t, b.PaymentIntentID); in.AmountReceived != in.Amount || e.pay.Calls(paymenttest.OpCapture) != 2 {
		t.Errorf("received %d of %d in %d captures", in.AmountReceived, in.Amount, e.pay.Calls(paymenttest.OpCapture))
	}
}

func TestApproveOfLapsedAuthorisationExpires(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.requested(t)
	in := e.intent(t, b.PaymentIntentID)
	// The authorisation lapses at the card network before the request
	// hold, which ends an hour before it; the host approves just then.
	e.clock.Set(in.CaptureBefore)
	got, err := e.svc.Approve(ctx, "demo-request", b.Token)
	wantCode(t, err, booking.CodeBookingClosed)
	_ = got
	if s := e.booking(t, b.ID).Status; s != booking.StatusRequested && s != booking.StatusExpired {
		t.Errorf("status %s", s)
	}
}

// TestLatePaymentKeepsTheCheckoutGuards: a payment arriving after its hold
// lapsed takes the dates back only if a checkout could book them now: a
// night the host closed since, a night the property's rules close, or
// another guest's stay within the preparation days refuses the claim, and
// the money goes back. The demo villa's late booking is 06-08..06-11.
func TestLatePaymentKeepsTheCheckoutGuards(t *testing.T) {
	for _, tt := range []struct {
		name string
		// since changes the property after the hold lapsed.
		since func(t *testing.T, e *env)
		want  booking.Status
	}{
		{"nothing changed", func(*testing.T, *env) {}, booking.StatusConfirmed},
		{"host closed a night", func(t *testing.T, e *env) {
			closed := booking.CalendarChange{From: d("2026-06-09"), To: d("2026-06-10"), Closed: ptr(true)}
			if err := e.store.ApplyCalendar(context.Background(), demoOrg(t, e).ID, e.property["demo"], closed, e.clock.Now()); err != nil {
				t.Fatal(err)
			}
		}, booking.StatusExpired},
		{"host closed the check-out day", func(t *testing.T, e *env) {
			closed := booking.CalendarChange{From: d("2026-06-11"), To: d("2026-06-12"), Closed: ptr(true)}
			if err := e.store.ApplyCalendar(context.Background(), demoOrg(t, e).ID, e.property["demo"], closed, e.clock.Now()); err != nil {
				t.Fatal(err)
			}
		}, booking.StatusConfirmed},
		{"rules closed a night", func(t *testing.T, e *env) {
			e.setRules(t, rules.Set{Days: []rules.Day{{Date: d("2026-06-10"), Closed: true}}}, nil)
		}, booking.StatusExpired},
		{"another stay within the preparation days", func(t *testing.T, e *env) {
			e.setRules(t, rules.Set{PreparationDaysAfter: 1}, nil)
			o := e.order("demo")
			o.CheckIn, o.CheckOut = d("2026-06-11"), d("2026-06-13")
			if _, err := e.svc.Checkout(context.Background(), "demo", o); err != nil {
				t.Fatal(err)
			}
		}, booking.StatusExpired},
		{"another stay clear of the preparation days", func(t *testing.T, e *env) {
			e.setRules(t, rules.Set{PreparationDaysAfter: 1}, nil)
			o := e.order("demo")
			o.CheckIn, o.CheckOut = d("2026-06-12"), d("2026-06-14")
			if _, err := e.svc.Checkout(context.Background(), "demo", o); err != nil {
				t.Fatal(err)
			}
		}, booking.StatusConfirmed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			ctx := context.Background()
			late, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
			if err != nil {
				t.Fatal(err)
			}
			e.clock.Advance(31 * time.Minute) // the hold lapses unpaid
			tt.since(t, e)
			if _, err := e.pay.SimulatePaid(late.Booking.PaymentIntentID); err != nil {
				t.Fatal(err)
			}
			_, err = e.svc.Confirm(ctx, "demo", late.Booking.Token, booking.ConfirmRequest{})
			if tt.want == booking.StatusConfirmed {
				if err != nil {
					t.Fatalf("late confirm with the dates still bookable: %v", err)
				}
			} else {
				wantCode(t, err, booking.CodePaymentLate)
			}
			e.drain(t)
			if got := e.booking(t, late.Booking.ID).Status; got != tt.want {
				t.Errorf("late booking is %s, want %s", got, tt.want)
			}
			in := e.intent(t, late.Booking.PaymentIntentID)
			wantRefunded := int64(0)
			if tt.want != booking.StatusConfirmed {
				wantRefunded = in.AmountReceived
			}
			if in.AmountReceived == 0 || in.AmountRefunded != wantRefunded {
				t.Errorf("refunded %d of %d received, want %d", in.AmountRefunded, in.AmountReceived, wantRefunded)
			}
		})
	}
}

// TestPaymentInTimeKeepsItsDates: a booking paid while its hold still
// holds the dates is confirmed, even if the property's rules changed
// since its checkout (a night closed, preparation days raised around a
// stay next to it): the dates were its own.
func TestPaymentInTimeKeepsItsDates(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	held, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
	if err != nil {
		t.Fatal(err)
	}
	next := e.order("demo")
	next.CheckIn, next.CheckOut = d("2026-06-11"), d("2026-06-13")
	if _, err := e.svc.Checkout(ctx, "demo", next); err != nil {
		t.Fatal(err)
	}
	e.setRules(t, rules.Set{PreparationDaysAfter: 1, Days: []rules.Day{{Date: d("2026-06-09"), Closed: true}}}, nil)
	e.clock.Advance(10 * time.Minute)
	if _, err := e.pay.SimulatePaid(held.Booking.PaymentIntentID); err != nil {
		t.Fatal(err)
	}
	got, err := e.svc.Confirm(ctx, "demo", held.Booking.Token, booking.ConfirmRequest{})
	if err != nil || got.Booking.Status != booking.StatusConfirmed {
		t.Fatalf("confirm in time = %v, %v; want confirmed", got, err)
	}
}

func TestSweeperLeavesPaidBookingWhenProviderUnreachable(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	paid := e.paidUnconfirmed(t, "demo", e.order("demo"))
	other := e.order("demo")
	other.CheckIn, other.CheckOut = civil.MustParse("2026-06-15"), civil.MustParse("2026-06-18")
	unpaid, err := e.svc.Checkout(ctx, "demo", other)
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(31 * time.Minute)
	e.pay.FailNext(paymenttest.OpGet, nil) // the first booking's read fails
	n, err := e.svc.ExpireHolds(ctx)
	if err == nil {
		t.Error("the sweep hid the provider failure")
	}
	if n != 1 || e.booking(t, unpaid.Booking.ID).Status != booking.StatusExpired {
		t.Errorf("expired %d; the sweep must go on past one failure and expire the unpaid hold", n)
	}
	if got := e.booking(t, paid.ID).Status; got != booking.StatusPending {
		t.Fatalf("paid booking %s after an unreachable provider, want left pending", got)
	}
	if _, err := e.svc.ExpireHolds(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.booking(t, paid.ID).Status; got != booking.StatusConfirmed {
		t.Errorf("paid booking %s on the next sweep, want confirmed (its dates are free)", got)
	}
}

// refusingProvider refuses every amount, as Stripe refuses one below its
// minimum.
type refusingProvider struct{ *paymenttest.Provider }

func (refusingProvider) CheckAmount(amount int64, currency string) error {
	return fmt.Errorf("%d %s below the minimum: %w", amount, currency, payment.ErrInvalid)
}

func TestAmountNotChargeableIs422AndHoldsNothing(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	svc := booking.NewService(booking.Options{Stores: e.store.Stores(), Payments: refusingProvider{e.pay}, Clock: e.clock})
	r := e.order("demo")
	_, err := svc.Quote(ctx, "demo", r.PropertyID, booking.QuoteRequest{Stay: r.Stay})
	wantCode(t, err, booking.CodeAmountNotChargeable)
	_, err = svc.Checkout(ctx, "demo", r)
	wantCode(t, err, booking.CodeAmountNotChargeable)
	// A provider that refuses only when asked to create the intent.
	e.pay.FailNext(paymenttest.OpCreate, payment.ErrInvalid)
	_, err = e.svc.Checkout(ctx, "demo", r)
	wantCode(t, err, booking.CodeAmountNotChargeable)
	if _, err := e.svc.Checkout(ctx, "demo", r); err != nil {
		t.Fatalf("the refused checkouts held the dates: %v", err)
	}
}

func TestProcessingPaymentKeepsTheHold(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
	if err != nil {
		t.Fatal(err)
	}
	e.pay.SimulateProcessing(res.Booking.PaymentIntentID)
	_, err = e.svc.Confirm(ctx, "demo", res.Booking.Token, booking.ConfirmRequest{})
	wantCode(t, err, booking.CodePaymentProcessing)
	e.clock.Advance(25 * time.Minute)
	if _, err := e.svc.ExpireHolds(ctx); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(10 * time.Minute) // past the first hold's end
	if _, err := e.svc.ExpireHolds(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.booking(t, res.Booking.ID).Status; got != booking.StatusPending {
		t.Fatalf("status %s while the payment processes, want pending", got)
	}
	if _, err := e.svc.Checkout(ctx, "demo", e.order("demo")); booking.ErrorCode(err) != booking.CodeUnavailable {
		t.Fatalf("another guest took the dates of a processing payment: %v", err)
	}
	e.pay.SimulatePaid(res.Booking.PaymentIntentID)
	d, err := e.svc.Confirm(ctx, "demo", res.Booking.Token, booking.ConfirmRequest{})
	if err != nil || d.Booking.Status != booking.StatusConfirmed {
		t.Fatalf("confirm after processing = %v, %v", d, err)
	}
}

func TestRequestHoldEndsBeforeCaptureBefore(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	org, _ := e.store.OrganizationBySlug(ctx, "demo-request")
	org.RequestHoldHours = booking.MaxAuthorizationHours // as long as an authorisation may last
	if err := e.store.UpdateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	b := e.requested(t)
	in := e.intent(t, b.PaymentIntentID)
	if want := in.CaptureBefore.Add(-time.Hour); !b.ExpiresAt.Equal(want) {
		t.Errorf("request hold ends %v, want an hour before capture_before %v", b.ExpiresAt, in.CaptureBefore)
	}
	// The authorisation lapses at the network: the booking expires, and no
	// release is owed.
	e.clock.Set(in.CaptureBefore.Add(time.Minute))
	if _, err := e.svc.ExpireHolds(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.booking(t, b.ID).Status; got != booking.StatusExpired {
		t.Errorf("status %s, want expired", got)
	}
}

// hundredthsProvider charges KWD in hundredths, as Stripe does.
type hundredthsProvider struct{ *paymenttest.Provider }

func (hundredthsProvider) ChargeDecimals(currency string) (int32, bool) {
	return 2, currency == "KWD"
}

func TestQuoteRoundsToWhatTheProviderCanCharge(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	org, _ := e.store.OrganizationBySlug(ctx, "demo")
	org.Currency = "KWD"
	if err := e.store.UpdateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	p, _ := e.store.Property(ctx, org.ID, e.property["demo"])
	p.Tax.PerGuestPerNight = dec("0.1235") // 2 guests × 3 nights = 0.741 KWD, 0.74 in hundredths
	if err := e.store.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	svc := booking.NewService(booking.Options{Stores: e.store.Stores(), Payments: hundredthsProvider{e.pay}, Clock: e.clock})
	r := e.order("demo")
	q, err := svc.Quote(ctx, "demo", r.PropertyID, booking.QuoteRequest{Stay: r.Stay})
	if err != nil {
		t.Fatal(err)
	}
	if tax := q.Taxes[0].Amount; !tax.Equal(dec("0.74")) {
		t.Errorf("tourist tax %s KWD, want 0.74 (hundredths)", tax)
	}
	if minor, err := pricing.ToMinor(q.Charge, "KWD"); err != nil || minor%10 != 0 {
		t.Errorf("charge %s KWD = %d fils, want a multiple of 10", q.Charge, minor)
	}
}

// TestLapsedProcessingHoldDoesNotRetakeBookedDates: a hold lapses before
// anyone sees its payment processing, and another guest books the dates.
// Seeing the payment processing then must not hold the dates again over
// the other booking; when the payment goes through it is returned.
func TestLapsedProcessingHoldDoesNotRetakeBookedDates(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	first, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(31 * time.Minute) // the hold lapses, unswept
	second := e.confirmed(t, e.order("demo"))

	e.pay.SimulateProcessing(first.Booking.PaymentIntentID)
	_, err = e.svc.Confirm(ctx, "demo", first.Booking.Token, booking.ConfirmRequest{})
	wantCode(t, err, booking.CodePaymentProcessing)
	if b := e.booking(t, first.Booking.ID); b.ExpiresAt.After(e.clock.Now()) {
		t.Fatalf("the lapsed hold was extended to %v over booking %d's dates", b.ExpiresAt, second.ID)
	}

	e.pay.SimulatePaid(first.Booking.PaymentIntentID)
	_, err = e.svc.Confirm(ctx, "demo", first.Booking.Token, booking.ConfirmRequest{})
	wantCode(t, err, booking.CodePaymentLate)
	e.drain(t)
	if got := e.booking(t, first.Booking.ID).Status; got != booking.StatusExpired {
		t.Errorf("first booking %s, want expired", got)
	}
	if got := e.booking(t, second.ID).Status; got != booking.StatusConfirmed {
		t.Errorf("second booking %s, want confirmed", got)
	}
	if in := e.intent(t, first.Booking.PaymentIntentID); in.AmountRefunded != in.AmountReceived {
		t.Errorf("refunded %d of %d", in.AmountRefunded, in.AmountReceived)
	}
}
