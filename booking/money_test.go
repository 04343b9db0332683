package booking_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
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

// requested checks out the request-mode villa, authorises the card and
// confirms, leaving a requested booking.
func (e *env) requested(t *testing.T) *booking.Booking {
	t.Helper()
	ctx := context.Background()
	res, err := e.svc.Checkout(ctx, "demo-request", e.order("demo-request"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.pay.SimulateAuthorized(res.Booking.PaymentIntentID); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.Confirm(ctx, "demo-request", res.Booking.Token, booking.ConfirmRequest{})
	if err != nil || d.Booking.Status != booking.StatusRequested {
		t.Fatalf("confirm = %v, %v; want requested", d, err)
	}
	return &d.Booking
}

// paidUnconfirmed checks out the full-payment villa and pays, without the
// page confirming or the webhook arriving yet.
func (e *env) paidUnconfirmed(t *testing.T, slug string, r booking.CheckoutRequest) *booking.Booking {
	t.Helper()
	res, err := e.svc.Checkout(context.Background(), slug, r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.pay.SimulatePaid(res.Booking.PaymentIntentID); err != nil {
		t.Fatal(err)
	}
	return &res.Booking
}

// confirmed checks out and pays the full-payment villa, confirmed.
func (e *env) confirmed(t *testing.T, r booking.CheckoutRequest) *booking.Booking {
	t.Helper()
	b := e.paidUnconfirmed(t, "demo", r)
	d, err := e.svc.Confirm(context.Background(), "demo", b.Token, booking.ConfirmRequest{})
	if err != nil || d.Booking.Status != booking.StatusConfirmed {
		t.Fatalf("confirm = %v, %v; want confirmed", d, err)
	}
	return &d.Booking
}

func (e *env) intent(t *testing.T, id string) payment.Intent {
	t.Helper()
	in, ok := e.pay.Intent(id)
	if !ok {
		t.Fatalf("no intent %s", id)
	}
	return in
}

// ledger is a booking's entries that move money after its first payment:
// the receipt of that payment (KindCharge) and a cancellation's decision
// (KindDecision) are records every booking of these tests has, checked by
// their own tests (allLedger).
func (e *env) ledger(t *testing.T, b *booking.Booking) []ledger.Entry {
	t.Helper()
	var out []ledger.Entry
	for _, en := range e.allLedger(t, b) {
		if en.Kind != ledger.KindCharge && en.Kind != ledger.KindDecision {
			out = append(out, en)
		}
	}
	return out
}

// allLedger is every entry of a booking, oldest first.
func (e *env) allLedger(t *testing.T, b *booking.Booking) []ledger.Entry {
	t.Helper()
	entries, err := e.store.LedgerEntries(context.Background(), b.ID)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func (e *env) booking(t *testing.T, id int64) *booking.Booking {
	t.Helper()
	b, err := e.store.BookingByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// event builds a provider event for an intent in its current state.
func (e *env) event(t *testing.T, typ payment.EventType, intentID string) payment.Event {
	t.Helper()
	ev, err := e.pay.Event(typ, intentID)
	if err != nil {
		t.Fatal(err)
	}
	return *ev
}

// drain runs the ledger worker until every entry went through, moving the
// clock an hour (the longest backoff) before each run so that everything
// pending is due, and fails if money is still pending after a day.
func (e *env) drain(t *testing.T) {
	t.Helper()
	for range 30 {
		e.clock.Advance(time.Hour)
		if _, err := e.money.ProcessPayments(context.Background()); err == nil {
			return
		}
	}
	t.Fatal("ledger entries still failing after 30 hours")
}

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

func TestApproveCaptureLostAndProviderDownSettledBySweeperOrEvent(t *testing.T) {
	for _, via := range []string{"sweeper", "event"} {
		t.Run(via, func(t *testing.T) {
			e := newEnv(t)
			ctx := context.Background()
			b := e.requested(t)
			e.pay.LoseNextResponse(paymenttest.OpCapture)
			e.pay.FailNext(paymenttest.OpGet, nil)
			_, err := e.svc.Approve(ctx, "demo-request", b.Token)
			wantCode(t, err, booking.CodePaymentUnavailable)
			if got := e.booking(t, b.ID).Status; got != booking.StatusRequested {
				t.Fatalf("after a failed approve the booking is %s, want requested", got)
			}
			switch via {
			case "sweeper": // the request lapses before the host tries again
				e.clock.Set(b.ExpiresAt.Add(time.Minute))
				if _, err := e.svc.ExpireHolds(ctx); err != nil {
					t.Fatal(err)
				}
			case "event":
				if err := e.money.HandlePaymentEvent(ctx, e.event(t, payment.EventSucceeded, b.PaymentIntentID)); err != nil {
					t.Fatal(err)
				}
			}
			if got := e.booking(t, b.ID); got.Status != booking.StatusConfirmed || !got.PaidAmount.Equal(b.ChargeAmount) {
				t.Errorf("booking %s paid %s, want confirmed with %s: the guest was charged", got.Status, got.PaidAmount, b.ChargeAmount)
			}
			if in := e.intent(t, b.PaymentIntentID); in.AmountRefunded != 0 {
				t.Errorf("refunded %d of a booking that stands", in.AmountRefunded)
			}
		})
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

func TestLateRefundedPaymentIsNeverConfirmed(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	late, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(31 * time.Minute) // the hold lapses unpaid
	other := e.confirmed(t, e.order("demo"))
	e.pay.SimulatePaid(late.Booking.PaymentIntentID) // the first guest pays late
	_, err = e.svc.Confirm(ctx, "demo", late.Booking.Token, booking.ConfirmRequest{})
	wantCode(t, err, booking.CodePaymentLate)
	e.drain(t)
	if in := e.intent(t, late.Booking.PaymentIntentID); in.AmountRefunded != in.AmountReceived || in.AmountReceived == 0 {
		t.Fatalf("late payment refunded %d of %d", in.AmountRefunded, in.AmountReceived)
	}
	// The dates free up; the intent still reads succeeded. Neither confirm
	// nor a redelivered event may confirm a booking whose money went back.
	if _, err := e.svc.Cancel(ctx, "demo", other.Token, true); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.Confirm(ctx, "demo", late.Booking.Token, booking.ConfirmRequest{})
	if err == nil {
		t.Fatal("confirm of a refunded late payment succeeded")
	}
	if err := e.money.HandlePaymentEvent(ctx, e.event(t, payment.EventSucceeded, late.Booking.PaymentIntentID)); err != nil {
		t.Fatal(err)
	}
	if got := e.booking(t, late.Booking.ID); got.Status != booking.StatusExpired {
		t.Errorf("late booking is %s, want expired: its money was refunded", got.Status)
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

func TestHostCancelOfPaidPendingBookingRefunds(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.paidUnconfirmed(t, "demo", e.order("demo")) // paid; the webhook has not arrived
	got, err := e.svc.Cancel(ctx, "demo", b.Token, false)
	if err != nil || got.Status != booking.StatusCancelled {
		t.Fatalf("cancel = %v, %v", got, err)
	}
	e.drain(t)
	in := e.intent(t, b.PaymentIntentID)
	if in.AmountRefunded != in.AmountReceived {
		t.Fatalf("refunded %d of %d taken for a cancelled booking", in.AmountRefunded, in.AmountReceived)
	}
	// The late webhook changes nothing and refunds nothing twice.
	if err := e.money.HandlePaymentEvent(ctx, e.event(t, payment.EventSucceeded, b.PaymentIntentID)); err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	if got := e.booking(t, b.ID).Status; got != booking.StatusCancelled {
		t.Errorf("status %s after the late event, want cancelled", got)
	}
	if n := len(e.pay.Refunds(b.PaymentIntentID)); n != 1 {
		t.Errorf("%d refunds, want 1", n)
	}
}

func TestRefundRetriedUntilTheProviderHasIt(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.confirmed(t, e.order("demo"))
	e.pay.SetDown(true)
	got, err := e.svc.Cancel(ctx, "demo", b.Token, true)
	if err != nil || got.Status != booking.StatusCancelled {
		t.Fatalf("cancel with the provider down = %v, %v; want cancelled, refund pending", got, err)
	}
	entries := e.ledger(t, b)
	if len(entries) != 1 || entries[0].Kind != ledger.KindRefund || entries[0].Status != ledger.StatusPending {
		t.Fatalf("ledger %+v, want one pending refund", entries)
	}
	if n, err := e.money.ProcessPayments(ctx); err != nil || n != 0 {
		t.Fatalf("ProcessPayments before the backoff ran = %d, %v; want nothing due", n, err)
	}
	e.clock.Advance(time.Minute) // past the first backoff (30 s)
	if _, err := e.money.ProcessPayments(ctx); err == nil {
		t.Fatal("ProcessPayments with the provider down reported no error")
	}
	if got := e.ledger(t, b)[0]; got.Attempts != 2 || got.Status != ledger.StatusPending || got.LastError == "" {
		t.Fatalf("entry after two failed sends = %+v, want pending, 2 attempts, the error kept", got)
	}
	// Back up, but the first answer is lost after the refund was made: the
	// retry with the same key must not refund twice.
	e.pay.SetDown(false)
	e.pay.LoseNextResponse(paymenttest.OpRefund)
	e.drain(t)
	in := e.intent(t, b.PaymentIntentID)
	if in.AmountRefunded != in.AmountReceived || len(e.pay.Refunds(b.PaymentIntentID)) != 1 {
		t.Fatalf("refunded %d of %d in %d refunds, want all in one", in.AmountRefunded, in.AmountReceived, len(e.pay.Refunds(b.PaymentIntentID)))
	}
	if got := e.ledger(t, b)[0]; got.Status != ledger.StatusSucceeded || got.ProviderID == "" {
		t.Errorf("ledger entry %+v, want succeeded with the refund id", got)
	}
}

func TestEventNotMarkedProcessedWhenItFails(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.paidUnconfirmed(t, "demo", e.order("demo"))
	ev := e.event(t, payment.EventSucceeded, b.PaymentIntentID)
	e.pay.FailNext(paymenttest.OpGet, nil)
	if err := e.money.HandlePaymentEvent(ctx, ev); err == nil {
		t.Fatal("event applied although the intent could not be read")
	}
	if err := e.money.HandlePaymentEvent(ctx, ev); err != nil { // the provider redelivers
		t.Fatal(err)
	}
	if got := e.booking(t, b.ID).Status; got != booking.StatusConfirmed {
		t.Errorf("status %s after redelivery, want confirmed", got)
	}
}

func TestStaleAuthorisedEventDoesNotReviveLapsedRequest(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.requested(t)
	stale := e.event(t, payment.EventAuthorized, b.PaymentIntentID) // delivered late
	e.clock.Set(b.ExpiresAt.Add(time.Minute))
	e.pay.FailNext(paymenttest.OpCancel, nil) // the release does not get through yet
	if _, err := e.svc.ExpireHolds(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.booking(t, b.ID).Status; got != booking.StatusExpired {
		t.Fatalf("status %s, want expired", got)
	}
	if err := e.money.HandlePaymentEvent(ctx, stale); err != nil {
		t.Fatal(err)
	}
	if got := e.booking(t, b.ID).Status; got != booking.StatusExpired {
		t.Fatalf("a stale authorised event moved the lapsed request to %s", got)
	}
	e.drain(t)
	if in := e.intent(t, b.PaymentIntentID); in.Status != payment.StatusCanceled {
		t.Errorf("authorisation %s, want released", in.Status)
	}
}

func TestReorderedAndDuplicateEventsActOnCurrentState(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
	if err != nil {
		t.Fatal(err)
	}
	id := res.Booking.PaymentIntentID
	e.pay.SimulateDeclined(id)
	failed := e.event(t, payment.EventFailed, id)
	e.pay.SimulatePaid(id)
	succeeded := e.event(t, payment.EventSucceeded, id)
	for _, ev := range []payment.Event{succeeded, failed, succeeded, failed} { // reordered, duplicated
		if err := e.money.HandlePaymentEvent(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.booking(t, res.Booking.ID).Status; got != booking.StatusConfirmed {
		t.Errorf("status %s, want confirmed", got)
	}
	if kinds := e.notified.Kinds(res.Booking.Token); len(kinds) != 1 || kinds[0] != booking.NotifyConfirmed {
		t.Errorf("notifications %v, want one confirmation", kinds)
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

func TestDashboardRefundRecordedAndHostTold(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.confirmed(t, e.order("demo"))
	if _, err := e.pay.SimulateDashboardRefund(b.PaymentIntentID, 5000); err != nil {
		t.Fatal(err)
	}
	ev := payment.Event{ID: "evt_dash1", Type: payment.EventRefunded, Intent: &payment.Intent{ID: b.PaymentIntentID}}
	if err := e.money.HandlePaymentEvent(ctx, ev); err != nil {
		t.Fatal(err)
	}
	ev.ID = "evt_dash2" // the same refund told again under another id
	if err := e.money.HandlePaymentEvent(ctx, ev); err != nil {
		t.Fatal(err)
	}
	entries := e.ledger(t, b)
	if len(entries) != 1 || entries[0].Amount != 5000 || entries[0].Reason != ledger.ReasonDashboard {
		t.Fatalf("ledger %+v, want one dashboard refund of 5000", entries)
	}
	if kinds := e.notified.Kinds(b.Token); kinds[len(kinds)-1] != booking.NotifyRefunded {
		t.Errorf("notifications %v, want the host told of the refund", kinds)
	}
	d, err := e.svc.Booking(ctx, "demo", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Refunded.Equal(dec("50")) {
		t.Errorf("status page shows %s refunded, want 50", d.Refunded)
	}
}

func TestRefundFailingLaterTellsTheHost(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.confirmed(t, e.order("demo"))
	e.pay.LeaveNextRefundPending()
	if _, err := e.svc.Cancel(ctx, "demo", b.Token, true); err != nil {
		t.Fatal(err)
	}
	entry := e.ledger(t, b)[0]
	if entry.Status != ledger.StatusSubmitted {
		t.Fatalf("entry %s, want submitted (the provider answered pending)", entry.Status)
	}
	r, err := e.pay.SettleRefund(entry.ProviderID, payment.RefundFailed)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.money.HandlePaymentEvent(ctx, payment.Event{ID: "evt_rf", Type: payment.EventRefundUpdated, Refund: r}); err != nil {
		t.Fatal(err)
	}
	if got := e.ledger(t, b)[0]; got.Status != ledger.StatusFailed {
		t.Errorf("entry %s, want failed", got.Status)
	}
	if kinds := e.notified.Kinds(b.Token); kinds[len(kinds)-1] != booking.NotifyPaymentFailed {
		t.Errorf("notifications %v, want the host told the refund failed", kinds)
	}
}

func TestDisputeRecordedAndHostTold(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.confirmed(t, e.order("demo"))
	ev := payment.Event{ID: "evt_dp", Type: payment.EventDisputed,
		Dispute: &payment.Dispute{ID: "dp_1", IntentID: b.PaymentIntentID, Amount: 34000, Currency: "EUR", Reason: "fraudulent"}}
	for range 2 {
		if err := e.money.HandlePaymentEvent(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	entries := e.ledger(t, b)
	if len(entries) != 1 || entries[0].Kind != ledger.KindDispute || entries[0].Amount != 34000 {
		t.Fatalf("ledger %+v, want one dispute", entries)
	}
	if kinds := e.notified.Kinds(b.Token); kinds[len(kinds)-1] != booking.NotifyDisputed {
		t.Errorf("notifications %v, want the host told of the dispute", kinds)
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

// TestPartlyRefundedPaymentIsReturnedNotKept: the host refunds part of a
// payment from the dashboard before the booking is confirmed; the booking
// can no longer be confirmed, and the rest of the money goes back too.
func TestPartlyRefundedPaymentIsReturnedNotKept(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.paidUnconfirmed(t, "demo", e.order("demo"))
	if _, err := e.pay.SimulateDashboardRefund(b.PaymentIntentID, 1000); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Confirm(ctx, "demo", b.Token, booking.ConfirmRequest{}); err == nil {
		t.Fatal("confirmed a booking on partly refunded money")
	}
	e.drain(t)
	if got := e.booking(t, b.ID).Status; got != booking.StatusExpired {
		t.Errorf("status %s, want expired", got)
	}
	if in := e.intent(t, b.PaymentIntentID); in.AmountRefunded != in.AmountReceived {
		t.Errorf("refunded %d of %d: the rest of the money was kept", in.AmountRefunded, in.AmountReceived)
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
