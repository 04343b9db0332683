package money_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
)

// balanceDue is when the balance of the deposit villa's order (check-in 8
// June, balance due 3 days before) is charged: midnight in Paris starting
// 5 June, 22:00 UTC the day before.
var balanceDue = time.Date(2026, 6, 4, 22, 0, 0, 0, time.UTC)

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

func (e *env) terms(t *testing.T, b *booking.Booking) *booking.Terms {
	t.Helper()
	tm, err := e.store.Terms(context.Background(), b.ID)
	if err != nil {
		t.Fatal(err)
	}
	return tm
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

func (e *env) process(t *testing.T) {
	t.Helper()
	if _, err := e.money.ProcessPayments(context.Background()); err != nil {
		t.Logf("process payments: %v", err)
	}
}

func TestCheckoutSavesCardForBalance(t *testing.T) {
	e := newEnv(t)
	b, res := e.depositBooking(t)
	if res.Terms == nil || res.Terms.Customer == "" || res.Terms.BalanceStatus != booking.BalanceScheduled {
		t.Fatalf("checkout terms = %+v, want a customer and a scheduled balance", res.Terms)
	}
	in := e.intent(t, b.PaymentIntentID)
	if in.Customer != res.Terms.Customer {
		t.Errorf("deposit intent customer = %q, want %q (the card is saved on it)", in.Customer, res.Terms.Customer)
	}
	want, _ := pricing.ToMinor(b.ChargeAmount, "EUR")
	if in.AmountReceived != want || !b.BalanceAmount.IsPositive() {
		t.Errorf("deposit received %d, want %d; balance %s", in.AmountReceived, want, b.BalanceAmount)
	}
	var entry *ledger.Entry
	for _, en := range e.ledger(t, b) {
		if en.Kind == ledger.KindBalance {
			entry = &en
		}
	}
	if entry == nil || entry.Status != ledger.StatusPending || !entry.NextAttemptAt.Equal(balanceDue) {
		t.Fatalf("balance entry = %+v, want pending, due %v", entry, balanceDue)
	}
}

func TestBalanceChargedOnDueDate(t *testing.T) {
	e := newEnv(t)
	b, _ := e.depositBooking(t)
	e.clock.Set(balanceDue.Add(-time.Second))
	e.process(t)
	if n := e.pay.Calls(paymenttest.OpChargeSaved); n != 0 {
		t.Fatalf("charged %d times a second before the due date", n)
	}
	e.clock.Set(balanceDue)
	e.process(t)
	got := e.booking(t, b.ID)
	if !got.PaidAmount.Equal(got.TotalAmount) {
		t.Errorf("paid %s after the due date, want the total %s", got.PaidAmount, got.TotalAmount)
	}
	if tm := e.terms(t, b); tm.BalanceStatus != booking.BalancePaid {
		t.Errorf("balance status = %s, want paid", tm.BalanceStatus)
	}
	ins := e.balanceIntents()
	want, _ := pricing.ToMinor(b.BalanceAmount, "EUR")
	if len(ins) != 1 || ins[0].AmountReceived != want || ins[0].Status != payment.StatusSucceeded {
		t.Fatalf("balance intents = %+v, want one succeeded for %d", ins, want)
	}
	if !slices.Contains(e.notified.Kinds(b.Token), booking.NotifyBalancePaid) {
		t.Errorf("notifications %v, want %s", e.notified.Kinds(b.Token), booking.NotifyBalancePaid)
	}
	d, err := e.svc.Booking(context.Background(), "demo-deposit", b.Token)
	if err != nil || d.Terms == nil || d.Terms.BalanceStatus != booking.BalancePaid {
		t.Errorf("booking details = %+v, %v; want the balance paid", d, err)
	}
}

func TestBalanceAuthenticationCompletedByGuest(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b, _ := e.depositBooking(t)
	e.pay.NextOffSession(paymenttest.OffSessionAuthenticates)
	e.clock.Set(balanceDue)
	e.process(t)
	st, err := e.svc.BalancePayment(ctx, "demo-deposit", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	ins := e.balanceIntents()
	if st.Status != booking.BalanceActionRequired || len(ins) != 1 || st.ClientSecret != ins[0].ClientSecret {
		t.Fatalf("balance = %+v, want action_required with the secret of the one balance intent %+v", st, ins)
	}
	if !slices.Contains(e.notified.Kinds(b.Token), booking.NotifyBalanceActionRequired) {
		t.Errorf("notifications %v, want %s", e.notified.Kinds(b.Token), booking.NotifyBalanceActionRequired)
	}
	// The guest authenticates in the browser.
	if _, err := e.pay.Pay(ins[0].ID, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	st, err = e.svc.BalancePayment(ctx, "demo-deposit", b.Token)
	if err != nil || st.Status != booking.BalancePaid || st.ClientSecret != "" {
		t.Fatalf("balance after authentication = %+v, %v; want paid", st, err)
	}
	if got := e.booking(t, b.ID); !got.PaidAmount.Equal(got.TotalAmount) {
		t.Errorf("paid %s, want %s", got.PaidAmount, got.TotalAmount)
	}
	if n := len(e.balanceIntents()); n != 1 {
		t.Errorf("%d balance intents, want 1", n)
	}
}

func TestBalanceAuthenticatedSettledByWebhook(t *testing.T) {
	e := newEnv(t)
	b, _ := e.depositBooking(t)
	e.pay.NextOffSession(paymenttest.OffSessionAuthenticates)
	e.clock.Set(balanceDue)
	e.process(t)
	in := e.balanceIntents()[0]
	if _, err := e.pay.Pay(in.ID, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	if err := e.money.HandlePaymentEvent(context.Background(), e.event(t, payment.EventSucceeded, in.ID)); err != nil {
		t.Fatal(err)
	}
	if tm := e.terms(t, b); tm.BalanceStatus != booking.BalancePaid {
		t.Errorf("balance after the webhook = %s, want paid", tm.BalanceStatus)
	}
}

func TestBalanceDeclinesRetriedThenFailed(t *testing.T) {
	e := newEnv(t)
	b, _ := e.depositBooking(t)
	e.pay.NextOffSession(paymenttest.OffSessionDeclined, paymenttest.OffSessionDeclined, paymenttest.OffSessionDeclined, paymenttest.OffSessionDeclined)
	e.clock.Set(balanceDue)
	e.process(t)
	if tm := e.terms(t, b); tm.BalanceStatus != booking.BalanceRetrying || tm.BalanceDeclines != 1 {
		t.Fatalf("after the first decline: %s, %d declines; want retrying, 1", tm.BalanceStatus, tm.BalanceDeclines)
	}
	for i, wait := range money.BalanceRetries {
		// Not before the schedule says.
		e.clock.Advance(wait - time.Second)
		e.process(t)
		if n := e.terms(t, b).BalanceDeclines; n != i+1 {
			t.Fatalf("retried early: %d declines, want %d", n, i+1)
		}
		e.clock.Advance(time.Second)
		e.process(t)
	}
	tm := e.terms(t, b)
	if tm.BalanceStatus != booking.BalanceFailed || tm.BalanceDeclines != 4 {
		t.Fatalf("after every retry: %s, %d declines; want failed, 4", tm.BalanceStatus, tm.BalanceDeclines)
	}
	if n, m := e.pay.Calls(paymenttest.OpChargeSaved), e.pay.Calls(paymenttest.OpConfirmSaved); n != 1 || m != 3 {
		t.Errorf("%d charges and %d retries, want 1 and 3 (one intent, tried again)", n, m)
	}
	for _, en := range e.ledger(t, b) {
		if en.Kind == ledger.KindBalance && en.Status != ledger.StatusFailed {
			t.Errorf("balance entry %s, want failed", en.Status)
		}
	}
	if !slices.Contains(e.notified.Kinds(b.Token), booking.NotifyPaymentFailed) {
		t.Errorf("notifications %v, want the host told (%s)", e.notified.Kinds(b.Token), booking.NotifyPaymentFailed)
	}
	if got := e.booking(t, b.ID); got.PaidAmount.Equal(got.TotalAmount) {
		t.Errorf("paid the total although every attempt was declined")
	}
}

func TestBalanceUnreachableProviderChargedOnce(t *testing.T) {
	e := newEnv(t)
	b, _ := e.depositBooking(t)
	e.clock.Set(balanceDue)
	e.pay.LoseNextResponse(paymenttest.OpChargeSaved)
	e.process(t)
	if n := len(e.balanceIntents()); n != 1 {
		t.Fatalf("%d balance intents after a lost answer, want 1", n)
	}
	e.pay.SetDown(true)
	e.clock.Advance(time.Hour)
	e.process(t)
	e.pay.SetDown(false)
	e.drain(t)
	ins := e.balanceIntents()
	if len(ins) != 1 || ins[0].Status != payment.StatusSucceeded {
		t.Fatalf("balance intents = %+v, want the one intent, succeeded", ins)
	}
	got := e.booking(t, b.ID)
	if !got.PaidAmount.Equal(got.TotalAmount) {
		t.Errorf("paid %s, want %s", got.PaidAmount, got.TotalAmount)
	}
}

func TestBalanceCancelledBeforeDueIsNotCharged(t *testing.T) {
	e := newEnv(t)
	b, _ := e.depositBooking(t)
	if _, err := e.svc.Cancel(context.Background(), "demo-deposit", b.Token, true); err != nil {
		t.Fatal(err)
	}
	e.clock.Set(balanceDue)
	e.process(t)
	if n := e.pay.Calls(paymenttest.OpChargeSaved); n != 0 {
		t.Errorf("charged the balance of a cancelled booking %d times", n)
	}
	if tm := e.terms(t, b); tm.BalanceStatus != booking.BalanceCancelled {
		t.Errorf("balance status = %s, want cancelled", tm.BalanceStatus)
	}
}
