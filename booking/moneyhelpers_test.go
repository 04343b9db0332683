package booking_test

import (
	"context"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// balanceDue is when the balance of the deposit villa's order (check-in 8
// June, balance due 3 days before) is charged: midnight in Paris starting
// 5 June, 22:00 UTC the day before.
var balanceDue = time.Date(2026, 6, 4, 22, 0, 0, 0, time.UTC)

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

// depositBooking checks out the deposit villa, pays the deposit and
// confirms.
func (e *env) depositBooking(t *testing.T) (*booking.Booking, *booking.CheckoutResult) {
	t.Helper()
	ctx := context.Background()
	res, err := e.svc.Checkout(ctx, "demo-deposit", e.order("demo-deposit"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.pay.Pay(res.Booking.PaymentIntentID, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.Confirm(ctx, "demo-deposit", res.Booking.Token, booking.ConfirmRequest{})
	if err != nil || d.Booking.Status != booking.StatusConfirmed {
		t.Fatalf("confirm = %v, %v; want confirmed", d, err)
	}
	return &d.Booking, res
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

func (e *env) process(t *testing.T) {
	t.Helper()
	if _, err := e.money.ProcessPayments(context.Background()); err != nil {
		t.Logf("process payments: %v", err)
	}
}

// balanceIntents are the intents charged off session for a balance.
func (e *env) balanceIntents() []payment.Intent {
	var out []payment.Intent
	for _, in := range e.pay.Intents() {
		if in.Metadata["purpose"] == "balance" {
			out = append(out, in)
		}
	}
	return out
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

func (e *env) terms(t *testing.T, b *booking.Booking) *booking.Terms {
	t.Helper()
	tm, err := e.store.Terms(context.Background(), b.ID)
	if err != nil {
		t.Fatal(err)
	}
	return tm
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
