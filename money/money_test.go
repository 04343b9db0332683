package money_test

import (
	"context"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
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
