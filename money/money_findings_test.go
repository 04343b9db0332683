package money_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/policy"
)

// The findings of the payments review (issue #23), one test each: every
// one of them lost or moved money on the code before "decide once,
// reconcile always".

// hookedProvider is the fake provider with hooks around its calls, for
// what the fake cannot stage alone: an event delivered while a call is in
// flight, a read that fails for one intent only.
type hookedProvider struct {
	*paymenttest.Provider
	// duringRefund runs after the provider applied a refund and before
	// the caller has its answer.
	duringRefund func(r *payment.Refund)
	// failGet makes reads of these intents fail as unreachable;
	// panicGet makes them panic, as a bug in an adapter would.
	failGet, panicGet map[string]bool
}

func (h *hookedProvider) Refund(ctx context.Context, rp payment.RefundParams) (*payment.Refund, error) {
	r, err := h.Provider.Refund(ctx, rp)
	if err == nil && h.duringRefund != nil {
		h.duringRefund(r)
	}
	return r, err
}

func (h *hookedProvider) GetIntent(ctx context.Context, id string) (*payment.Intent, error) {
	if h.failGet[id] {
		return nil, fmt.Errorf("hooked: %w", payment.ErrUnavailable)
	}
	if h.panicGet[id] {
		panic("hooked: a bug reading " + id)
	}
	return h.Provider.GetIntent(ctx, id)
}

// hook puts a hookedProvider between the Service and the fake.
func (e *env) hook() *hookedProvider {
	h := &hookedProvider{Provider: e.pay, failGet: map[string]bool{}, panicGet: map[string]bool{}}
	e.svc = booking.NewService(booking.Options{Stores: e.store.Stores(), Payments: h, Clock: e.clock, Notifier: e.notified})
	e.money = money.New(e.svc, money.Options{Store: e.store.Stores(), Payments: h, Clock: e.clock, Notifier: e.notified})
	return h
}

// net is what the provider keeps of an intent.
func (e *env) net(t *testing.T, intentID string) int64 {
	t.Helper()
	in := e.intent(t, intentID)
	return in.AmountReceived - in.AmountRefunded
}

// Finding 1: a booking cancelled under a non-refundable policy keeps its
// money, whatever intent event or stale release comes after.
func TestCancelledBookingKeepsWhatItsDecisionKept(t *testing.T) {
	ctx := context.Background()
	t.Run("late intent event", func(t *testing.T) {
		e := newEnv(t)
		e.setPolicy(t, "demo", policy.NonRefundable)
		b := e.confirmed(t, e.order("demo"))
		if _, err := e.svc.CancelByGuest(ctx, "demo", b.Token); err != nil {
			t.Fatal(err)
		}
		if err := e.money.HandlePaymentEvent(ctx, e.event(t, payment.EventSucceeded, b.PaymentIntentID)); err != nil {
			t.Fatal(err)
		}
		e.drain(t)
		if got := e.intent(t, b.PaymentIntentID).AmountRefunded; got != 0 {
			t.Errorf("refunded %d of a non-refundable booking, want 0", got)
		}
	})
	t.Run("host refund then event", func(t *testing.T) {
		e := newEnv(t)
		b := e.confirmed(t, e.order("demo"))
		if _, err := e.svc.CancelWithOptions(ctx, "demo", b.Token, booking.CancelOptions{Refund: booking.RefundAmount, Amount: dec("5.81")}); err != nil {
			t.Fatal(err)
		}
		e.drain(t)
		if err := e.money.HandlePaymentEvent(ctx, e.event(t, payment.EventSucceeded, b.PaymentIntentID)); err != nil {
			t.Fatal(err)
		}
		e.drain(t)
		if got := e.intent(t, b.PaymentIntentID).AmountRefunded; got != 581 {
			t.Errorf("refunded %d, want the host's 581", got)
		}
	})
	t.Run("stale release of the lapsed hold", func(t *testing.T) {
		e := newEnv(t)
		e.setPolicy(t, "demo", policy.NonRefundable)
		res, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
		if err != nil {
			t.Fatal(err)
		}
		// The hold lapses unpaid; its release does not reach the
		// provider and waits in the ledger.
		e.clock.Advance(31 * time.Minute)
		e.pay.FailNext(paymenttest.OpCancel, nil)
		if n, err := e.svc.ExpireHolds(ctx); err != nil || n != 1 {
			t.Fatalf("expire = %d, %v; want the hold expired", n, err)
		}
		// The guest pays late; the dates are free: confirmed.
		if _, err := e.pay.SimulatePaid(res.Booking.PaymentIntentID); err != nil {
			t.Fatal(err)
		}
		if d, err := e.svc.Confirm(ctx, "demo", res.Booking.Token, booking.ConfirmRequest{}); err != nil || d.Booking.Status != booking.StatusConfirmed {
			t.Fatalf("late confirm = %v, %v; want confirmed", d, err)
		}
		if _, err := e.svc.CancelByGuest(ctx, "demo", res.Booking.Token); err != nil {
			t.Fatal(err)
		}
		e.drain(t)
		if got := e.intent(t, res.Booking.PaymentIntentID).AmountRefunded; got != 0 {
			t.Errorf("refunded %d of a non-refundable booking after its stale release ran, want 0", got)
		}
	})
}

// Finding 2: the provider's refund event arriving while the refund call
// is in flight is our refund, not a second one from the dashboard.
func TestRefundEventDuringTheCallCountedOnce(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	h := e.hook()
	b := e.confirmed(t, e.order("demo"))
	h.duringRefund = func(r *payment.Refund) {
		ev := e.event(t, payment.EventRefunded, r.IntentID)
		ev.Refund = r
		if err := e.money.HandlePaymentEvent(ctx, ev); err != nil {
			t.Errorf("event during the refund: %v", err)
		}
	}
	if _, err := e.svc.Cancel(ctx, "demo", b.Token, true); err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	var refunds int64
	for _, en := range e.ledger(t, b) {
		if en.Kind == ledger.KindRefund && en.Status != ledger.StatusFailed {
			refunds += en.Amount
		}
	}
	if got := e.intent(t, b.PaymentIntentID).AmountRefunded; refunds != got || got != 35900 {
		t.Errorf("ledger refunds %d, provider refunded %d; want both 35900", refunds, got)
	}
	d, err := e.svc.Booking(ctx, "demo", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Refunded.Equal(dec("359")) {
		t.Errorf("status page shows %s refunded, want 359", d.Refunded)
	}
}

// Finding 3: a balance retry that meets a provider error waits for the
// next attempt; the worker does not die.
func TestBalanceRetryWithTheProviderFailingDoesNotPanic(t *testing.T) {
	e := newEnv(t)
	h := e.hook()
	b, _ := e.depositBooking(t)
	e.pay.NextOffSession(paymenttest.OffSessionDeclined)
	e.clock.Set(balanceDue)
	e.process(t)
	bal := e.balanceIntents()
	if len(bal) != 1 || e.terms(t, b).BalanceStatus != booking.BalanceRetrying {
		t.Fatalf("balance %v, terms %s; want one declined balance, retrying", bal, e.terms(t, b).BalanceStatus)
	}
	h.failGet[bal[0].ID] = true
	e.clock.Advance(money.BalanceRetries[0])
	e.process(t) // panicked on a nil intent
	delete(h.failGet, bal[0].ID)
	e.clock.Advance(time.Hour)
	e.process(t)
	if got := e.terms(t, b).BalanceStatus; got != booking.BalancePaid {
		t.Errorf("balance %s after the provider came back, want paid", got)
	}
}

// Finding 3, the sweeper's side: a panic with one booking is that
// booking's error; the others are expired.
func TestSweeperSurvivesAPanicWithOneBooking(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	h := e.hook()
	var ids []string
	for _, stay := range [][2]string{{"2026-06-08", "2026-06-10"}, {"2026-06-12", "2026-06-14"}} {
		r := e.order("demo")
		r.CheckIn, r.CheckOut = civil.MustParse(stay[0]), civil.MustParse(stay[1])
		res, err := e.svc.Checkout(ctx, "demo", r)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Booking.PaymentIntentID)
	}
	h.panicGet[ids[0]] = true
	e.clock.Advance(31 * time.Minute)
	n, err := e.svc.ExpireHolds(ctx)
	if n != 1 || err == nil {
		t.Errorf("ExpireHolds = %d, %v; want the other hold expired and the panic as an error", n, err)
	}
}

// Finding 4: a balance charged with its answer lost is returned when the
// booking is cancelled.
func TestBalanceChargedAnswerLostThenCancelled(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	b, _ := e.depositBooking(t)
	e.clock.Set(balanceDue)
	e.pay.LoseNextResponse(paymenttest.OpChargeSaved)
	e.process(t)
	bal := e.balanceIntents()
	if len(bal) != 1 || bal[0].Status != payment.StatusSucceeded {
		t.Fatalf("balance intents %+v, want one charged", bal)
	}
	if _, err := e.svc.Cancel(ctx, "demo-deposit", b.Token, true); err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	if n1, n2 := e.net(t, b.PaymentIntentID), e.net(t, bal[0].ID); n1 != 0 || n2 != 0 {
		t.Errorf("provider keeps %d of the deposit and %d of the balance after a full refund, want 0 and 0", n1, n2)
	}
}

// Finding 5: a refund the provider fails is owed again and sent under a
// new key, and shown as owed meanwhile.
func TestFailedRefundIsOwedAgain(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	b := e.confirmed(t, e.order("demo"))
	e.pay.LeaveNextRefundPending()
	if _, err := e.svc.Cancel(ctx, "demo", b.Token, true); err != nil {
		t.Fatal(err)
	}
	first := e.ledger(t, b)[0]
	r, err := e.pay.SettleRefund(first.ProviderID, payment.RefundFailed)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.money.HandlePaymentEvent(ctx, payment.Event{ID: "evt_rf", Type: payment.EventRefundUpdated, Refund: r}); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.Booking(ctx, "demo", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	if !d.RefundPending.Equal(dec("359")) || !d.Refunded.IsZero() {
		t.Errorf("status page: %s refunded, %s pending; want 0 and 359 still owed", d.Refunded, d.RefundPending)
	}
	e.drain(t)
	if got := e.intent(t, b.PaymentIntentID).AmountRefunded; got != 35900 {
		t.Errorf("refunded %d after the failure, want 35900 sent again", got)
	}
	if n := len(e.pay.Refunds(b.PaymentIntentID)); n != 2 {
		t.Errorf("%d refunds at the provider, want the failed one and its replacement", n)
	}
}

// Finding 7: a security deposit hold whose card authorisation runs out
// before the release date is let go and marked lapsed, and the host told.
func TestDepositHoldLapsesBeforeItsRelease(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	if err := e.svc.SaveSettings(ctx, "demo", booking.Settings{PropertyID: e.property["demo"],
		SecurityDeposit: dec("300"), DepositHoldDays: 1, DepositReleaseDays: 2}); err != nil {
		t.Fatal(err)
	}
	b := e.confirmed(t, e.order("demo"))
	e.clock.Set(time.Date(2026, 6, 6, 22, 0, 0, 0, time.UTC)) // 7 June in Paris
	e.process(t)
	tm := e.terms(t, b)
	hold := e.intent(t, tm.DepositIntentID)
	if tm.DepositStatus != booking.DepositHeld || hold.CaptureBefore.IsZero() {
		t.Fatalf("deposit %s, capture before %v; want held with a deadline", tm.DepositStatus, hold.CaptureBefore)
	}
	// The release is due 13 June; the hold lasts five days, to 11 June.
	e.clock.Set(hold.CaptureBefore.Add(-2 * time.Hour))
	e.process(t)
	if got := e.terms(t, b).DepositStatus; got != booking.DepositHeld {
		t.Fatalf("deposit %s two hours before the hold runs out, want held", got)
	}
	e.clock.Set(hold.CaptureBefore.Add(-time.Hour))
	e.process(t)
	if got, in := e.terms(t, b).DepositStatus, e.intent(t, hold.ID); got != booking.DepositLapsed || in.Status != payment.StatusCanceled {
		t.Errorf("deposit %s, hold %s an hour before it runs out; want lapsed, canceled", got, in.Status)
	}
	if kinds := e.notified.Kinds(b.Token); kinds[len(kinds)-1] != booking.NotifyPaymentFailed {
		t.Errorf("notifications %v, want the host told", kinds)
	}
}

// Finding 8: a balance waiting for 3-D Secure gives up at the check-in
// day, and a cancellation voids its intent: a guest authenticating later
// is not charged, or is refunded.
func TestBalanceAwaitingAuthentication(t *testing.T) {
	ctx := context.Background()
	t.Run("deadline", func(t *testing.T) {
		e := newEnv(t)
		b, _ := e.depositBooking(t)
		e.pay.NextOffSession(paymenttest.OffSessionAuthenticates)
		e.clock.Set(balanceDue)
		e.process(t)
		if got := e.terms(t, b).BalanceStatus; got != booking.BalanceActionRequired {
			t.Fatalf("balance %s, want action_required", got)
		}
		e.clock.Set(time.Date(2026, 6, 7, 22, 0, 0, 0, time.UTC)) // 8 June, check-in, in Paris
		e.process(t)
		bal := e.balanceIntents()[0]
		if got := e.terms(t, b).BalanceStatus; got != booking.BalanceFailed || bal.Status != payment.StatusCanceled {
			t.Errorf("balance %s, intent %s at check-in; want failed, canceled", got, bal.Status)
		}
		if kinds := e.notified.Kinds(b.Token); kinds[len(kinds)-1] != booking.NotifyPaymentFailed {
			t.Errorf("notifications %v, want the host told", kinds)
		}
	})
	t.Run("cancelled, then authenticated", func(t *testing.T) {
		e := newEnv(t)
		b, _ := e.depositBooking(t)
		e.pay.NextOffSession(paymenttest.OffSessionAuthenticates)
		e.clock.Set(balanceDue)
		e.process(t)
		bal := e.balanceIntents()[0]
		e.pay.SetDown(true) // the void does not reach the provider
		if _, err := e.svc.Cancel(ctx, "demo-deposit", b.Token, false); err != nil {
			t.Fatal(err)
		}
		e.pay.SetDown(false)
		if _, err := e.pay.SimulatePaid(bal.ID); err != nil { // the guest completes 3-D Secure
			t.Fatal(err)
		}
		e.drain(t)
		if got := e.net(t, bal.ID); got != 0 {
			t.Errorf("provider keeps %d of a balance paid after the cancellation, want 0", got)
		}
		if got := e.net(t, b.PaymentIntentID); got != e.intent(t, b.PaymentIntentID).AmountReceived {
			t.Errorf("the deposit kept %d, want all of it (cancelled without refund)", got)
		}
	})
}

// Finding 9: security deposits and the first charge in the ledger.
func TestDepositAndChargeRecords(t *testing.T) {
	ctx := context.Background()
	withDeposit := func(t *testing.T) (*env, *booking.Booking) {
		e := newEnv(t)
		if err := e.svc.SaveSettings(ctx, "demo", booking.Settings{PropertyID: e.property["demo"],
			SecurityDeposit: dec("300"), DepositHoldDays: 1, DepositReleaseDays: 0}); err != nil {
			t.Fatal(err)
		}
		return e, e.confirmed(t, e.order("demo"))
	}
	holdDay := time.Date(2026, 6, 6, 22, 0, 0, 0, time.UTC)
	t.Run("hold placed with its answer lost, then cancelled", func(t *testing.T) {
		e, b := withDeposit(t)
		e.clock.Set(holdDay)
		e.pay.LoseNextResponse(paymenttest.OpChargeSaved)
		e.process(t)
		var hold *payment.Intent
		for _, in := range e.pay.Intents() {
			if in.Metadata["purpose"] == "security_deposit" {
				hold = &in
			}
		}
		if hold == nil || hold.Status != payment.StatusAuthorized {
			t.Fatalf("hold %+v, want authorised at the provider", hold)
		}
		if _, err := e.svc.Cancel(ctx, "demo", b.Token, true); err != nil {
			t.Fatal(err)
		}
		e.drain(t)
		if got := e.intent(t, hold.ID).Status; got != payment.StatusCanceled {
			t.Errorf("hold %s after the cancellation, want canceled", got)
		}
	})
	t.Run("claim captured with its answer lost", func(t *testing.T) {
		e, b := withDeposit(t)
		e.clock.Set(holdDay)
		e.process(t)
		hold := e.terms(t, b).DepositIntentID
		e.pay.LoseNextResponse(paymenttest.OpCaptureAmount)
		e.pay.FailNext(paymenttest.OpGet, nil)
		if _, err := e.svc.ClaimDeposit(ctx, "demo", b.Token, dec("120")); err == nil {
			t.Fatal("claim with the answer lost and the provider unreadable succeeded, want an error")
		}
		e.drain(t)
		var claimed int64
		for _, en := range e.ledger(t, b) {
			if en.Kind == ledger.KindDepositClaim && en.Status == ledger.StatusSucceeded {
				claimed += en.Amount
			}
		}
		if got := e.intent(t, hold).AmountReceived; got != 12000 || claimed != 12000 {
			t.Errorf("provider took %d, ledger claims %d; want both 12000", got, claimed)
		}
		if tm := e.terms(t, b); tm.DepositStatus != booking.DepositClaimed {
			t.Errorf("deposit %s, want claimed", tm.DepositStatus)
		}
	})
	t.Run("no claim on a cancelled booking", func(t *testing.T) {
		e, b := withDeposit(t)
		e.clock.Set(holdDay)
		e.process(t)
		hold := e.terms(t, b).DepositIntentID
		e.pay.SetDown(true) // the release waits
		if _, err := e.svc.Cancel(ctx, "demo", b.Token, true); err != nil {
			t.Fatal(err)
		}
		e.pay.SetDown(false)
		_, err := e.svc.ClaimDeposit(ctx, "demo", b.Token, dec("100"))
		wantCode(t, err, booking.CodeBookingClosed)
		if got := e.intent(t, hold).AmountReceived; got != 0 {
			t.Errorf("captured %d of a cancelled booking's deposit, want 0", got)
		}
	})
	t.Run("a dispute lowers what can be refunded", func(t *testing.T) {
		e := newEnv(t)
		b := e.confirmed(t, e.order("demo"))
		ev := payment.Event{ID: "evt_dp", Type: payment.EventDisputed,
			Dispute: &payment.Dispute{ID: "dp_1", IntentID: b.PaymentIntentID, Amount: 34000, Currency: "EUR", Reason: "fraudulent"}}
		if err := e.money.HandlePaymentEvent(ctx, ev); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Cancel(ctx, "demo", b.Token, true); err != nil {
			t.Fatal(err)
		}
		var refund int64
		for _, en := range e.ledger(t, b) {
			if en.Kind == ledger.KindRefund {
				refund += en.Amount
			}
		}
		if refund != 35900-34000 {
			t.Errorf("refund %d, want the 1900 not disputed", refund)
		}
	})
	t.Run("the first charge is in the host's payments", func(t *testing.T) {
		e := newEnv(t)
		b := e.confirmed(t, e.order("demo"))
		entries, err := e.svc.Payments(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) == 0 || entries[0].Kind != ledger.KindCharge || entries[0].Amount != 35900 || entries[0].IntentID != b.PaymentIntentID {
			t.Errorf("payments %+v, want the 35900 charge first", entries)
		}
	})
}

// Finding 10: an entry whose first attempt may have reached the provider
// is looked up there before it is sent again after the provider's
// idempotency window: money never moves twice.
func TestResendAfterTheIdempotencyWindowLooksFirst(t *testing.T) {
	ctx := context.Background()
	t.Run("refund", func(t *testing.T) {
		e := newEnv(t)
		b := e.confirmed(t, e.order("demo"))
		e.pay.LoseNextResponse(paymenttest.OpRefund)
		if _, err := e.svc.CancelWithOptions(ctx, "demo", b.Token, booking.CancelOptions{Refund: booking.RefundAmount, Amount: dec("100")}); err != nil {
			t.Fatal(err)
		}
		e.pay.SetDown(true) // down for a day and more
		e.clock.Advance(payment.IdempotencyWindow + time.Hour)
		e.process(t)
		e.pay.SetDown(false)
		e.drain(t)
		if n, got := len(e.pay.Refunds(b.PaymentIntentID)), e.intent(t, b.PaymentIntentID).AmountRefunded; n != 1 || got != 10000 {
			t.Errorf("%d refunds of %d in all, want one of 10000", n, got)
		}
	})
	t.Run("balance", func(t *testing.T) {
		e := newEnv(t)
		b, _ := e.depositBooking(t)
		e.clock.Set(balanceDue)
		e.pay.LoseNextResponse(paymenttest.OpChargeSaved)
		e.process(t)
		e.pay.SetDown(true)
		e.clock.Advance(payment.IdempotencyWindow + time.Hour)
		e.process(t)
		e.pay.SetDown(false)
		e.drain(t)
		if n := len(e.balanceIntents()); n != 1 {
			t.Errorf("%d balance charges, want 1", n)
		}
		if got := e.terms(t, b).BalanceStatus; got != booking.BalancePaid {
			t.Errorf("balance %s, want paid", got)
		}
	})
}
