package booking_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/pricing"
)

func (e *env) setPolicy(t *testing.T, slug, name string) {
	t.Helper()
	p, err := policy.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SaveSettings(context.Background(), slug, booking.Settings{Policy: &p}); err != nil {
		t.Fatal(err)
	}
}

func refundedOn(e *env, t *testing.T, intentID string) int64 {
	t.Helper()
	var n int64
	for _, r := range e.pay.Refunds(intentID) {
		n += r.Amount
	}
	return n
}

// TestGuestCancelRefundsPreviewOnce previews a moderate-policy booking 3
// days before arrival (half back), then lets eight guests' requests cancel
// it at once: one wins, the others are told it is cancelled, and exactly
// the preview's amount goes back, once.
func TestGuestCancelRefundsPreviewOnce(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.setPolicy(t, "demo", policy.Moderate)
	b := e.confirmed(t, e.order("demo"))
	e.clock.Set(time.Date(2026, 6, 5, 8, 0, 0, 0, time.UTC)) // 3 days before check-in
	pv, err := e.svc.CancellationPreview(ctx, "demo", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	half := pricing.Round(b.TotalAmount.Div(dec("2")), "EUR")
	if !pv.Cancellable || !pv.Refund.Equal(half) || pv.Policy.Name != policy.Moderate {
		t.Fatalf("preview = %+v, want cancellable, %s back under moderate", pv, half)
	}
	// The half tier lasts until check-in day begins in Paris.
	if want := time.Date(2026, 6, 7, 22, 0, 0, 0, time.UTC); !pv.Until.Equal(want) {
		t.Errorf("until = %v, want %v", pv.Until, want)
	}
	var (
		start = make(chan struct{})
		wg    sync.WaitGroup
		mu    sync.Mutex
		codes = map[string]int{}
	)
	for range 8 {
		wg.Go(func() {
			<-start
			_, err := e.svc.CancelByGuest(ctx, "demo", b.Token)
			mu.Lock()
			codes[booking.ErrorCode(err)]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	if codes[""] != 1 || codes[booking.CodeBookingClosed] != 7 {
		t.Fatalf("outcomes %v, want one success and 7 booking_closed", codes)
	}
	e.drain(t)
	want, _ := pricing.ToMinor(pv.Refund, "EUR")
	if got := refundedOn(e, t, b.PaymentIntentID); got != want {
		t.Errorf("refunded %d, want the preview's %d", got, want)
	}
	if s := e.status(t, "demo", b.Token); s != booking.StatusCancelled {
		t.Errorf("status %s, want cancelled", s)
	}
}

// TestPolicyCopiedAtCheckout changes the organisation's policy after a
// booking: the booking keeps the one it was sold with.
func TestPolicyCopiedAtCheckout(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.setPolicy(t, "demo", policy.Flexible)
	b := e.confirmed(t, e.order("demo"))
	e.setPolicy(t, "demo", policy.NonRefundable)
	pv, err := e.svc.CancellationPreview(ctx, "demo", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	if pv.Policy.Name != policy.Flexible || !pv.Refund.Equal(b.PaidAmount) {
		t.Errorf("preview = %s, %s back; want flexible, all %s back", pv.Policy.Name, pv.Refund, b.PaidAmount)
	}
	now, err := e.svc.CancellationPolicy(ctx, "demo", e.property["demo"])
	if err != nil || now.Name != policy.NonRefundable {
		t.Errorf("policy for new bookings = %v, %v; want non_refundable", now, err)
	}
}

func TestHostCancelOverrides(t *testing.T) {
	tests := []struct {
		name string
		opts booking.CancelOptions
		// want is the refund in cents, as a function of what was paid.
		want func(paid int64) int64
	}{
		{"policy", booking.CancelOptions{Refund: booking.RefundPolicy}, func(paid int64) int64 { return 0 }}, // strict, 7 days before
		{"full", booking.CancelOptions{Refund: booking.RefundFull}, func(paid int64) int64 { return paid }},
		{"none", booking.CancelOptions{Refund: booking.RefundNone}, func(int64) int64 { return 0 }},
		{"amount", booking.CancelOptions{Refund: booking.RefundAmount, Amount: dec("12.34")}, func(int64) int64 { return 1234 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.setPolicy(t, "demo", policy.Strict)
			b := e.confirmed(t, e.order("demo"))
			e.clock.Set(time.Date(2026, 6, 1, 21, 0, 0, 0, time.UTC)) // 7 days before, past the 50 % tier
			got, err := e.svc.CancelWithOptions(context.Background(), "demo", b.Token, tt.opts)
			if err != nil || got.Status != booking.StatusCancelled {
				t.Fatalf("cancel = %v, %v", got, err)
			}
			e.drain(t)
			paid, _ := pricing.ToMinor(b.PaidAmount, "EUR")
			if r := refundedOn(e, t, b.PaymentIntentID); r != tt.want(paid) {
				t.Errorf("refunded %d, want %d", r, tt.want(paid))
			}
		})
	}
	t.Run("amount above what was paid", func(t *testing.T) {
		e := newEnv(t)
		b := e.confirmed(t, e.order("demo"))
		_, err := e.svc.CancelWithOptions(context.Background(), "demo", b.Token,
			booking.CancelOptions{Refund: booking.RefundAmount, Amount: b.PaidAmount.Add(dec("1"))})
		wantCode(t, err, booking.CodeInvalid)
		if s := e.status(t, "demo", b.Token); s != booking.StatusConfirmed {
			t.Errorf("status %s after a refused cancel, want confirmed", s)
		}
	})
}

// TestGuestCancelAfterBalanceRefundsBothIntents: a deposit booking whose
// balance was charged gets its policy refund from the balance's intent
// first, then the deposit's.
func TestGuestCancelAfterBalanceRefundsBothIntents(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b, _ := e.depositBooking(t)
	e.clock.Set(balanceDue)
	e.process(t)
	// Flexible (the default): still everything back until midnight on the 7th.
	d, err := e.svc.CancelByGuest(ctx, "demo-deposit", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	e.drain(t)
	total, _ := pricing.ToMinor(d.Booking.TotalAmount, "EUR")
	bal := e.balanceIntents()[0]
	if got := refundedOn(e, t, bal.ID) + refundedOn(e, t, b.PaymentIntentID); got != total {
		t.Errorf("refunded %d over both intents, want the total %d", got, total)
	}
	if bal.AmountReceived != refundedOn(e, t, bal.ID) {
		t.Errorf("balance intent refunded %d of %d, want all of it first", refundedOn(e, t, bal.ID), bal.AmountReceived)
	}
}

func TestSecurityDeposit(t *testing.T) {
	setup := func(t *testing.T) (*env, *booking.Booking) {
		e := newEnv(t)
		err := e.svc.SaveSettings(context.Background(), "demo", booking.Settings{PropertyID: e.property["demo"],
			SecurityDeposit: dec("300"), DepositHoldDays: 1, DepositReleaseDays: 0})
		if err != nil {
			t.Fatal(err)
		}
		b := e.confirmed(t, e.order("demo"))
		// Held from midnight starting 7 June in Paris.
		e.clock.Set(time.Date(2026, 6, 6, 21, 59, 0, 0, time.UTC))
		e.process(t)
		if n := e.terms(t, b).DepositStatus; n != booking.DepositScheduled {
			t.Fatalf("deposit %s before the hold day, want scheduled", n)
		}
		e.clock.Set(time.Date(2026, 6, 6, 22, 0, 0, 0, time.UTC))
		e.process(t)
		tm := e.terms(t, b)
		in := e.intent(t, tm.DepositIntentID)
		if tm.DepositStatus != booking.DepositHeld || in.Status != payment.StatusAuthorized || in.Amount != 30000 || !in.ManualCapture {
			t.Fatalf("deposit %s, intent %+v; want held, 300.00 authorised", tm.DepositStatus, in)
		}
		return e, b
	}
	// Released on the day of check-out (11 June), midnight in Paris: within
	// the five days an off-session authorisation lasts.
	releaseAt := time.Date(2026, 6, 10, 22, 0, 0, 0, time.UTC)
	t.Run("released", func(t *testing.T) {
		e, b := setup(t)
		e.clock.Set(releaseAt.Add(-time.Second))
		e.process(t)
		if s := e.terms(t, b).DepositStatus; s != booking.DepositHeld {
			t.Fatalf("deposit %s before the release day, want held", s)
		}
		e.clock.Set(releaseAt)
		e.process(t)
		tm := e.terms(t, b)
		if in := e.intent(t, tm.DepositIntentID); tm.DepositStatus != booking.DepositReleased || in.Status != payment.StatusCanceled {
			t.Errorf("deposit %s, intent %s; want released, canceled", tm.DepositStatus, in.Status)
		}
	})
	t.Run("partly claimed", func(t *testing.T) {
		e, b := setup(t)
		e.clock.Set(time.Date(2026, 6, 11, 12, 0, 0, 0, time.UTC))
		tm, err := e.svc.ClaimDeposit(context.Background(), "demo", b.Token, dec("120"))
		if err != nil {
			t.Fatal(err)
		}
		in := e.intent(t, tm.DepositIntentID)
		if tm.DepositStatus != booking.DepositClaimed || !tm.DepositClaimed.Equal(dec("120")) || in.AmountReceived != 12000 {
			t.Fatalf("deposit %s claimed %s, intent received %d; want claimed 120", tm.DepositStatus, tm.DepositClaimed, in.AmountReceived)
		}
		_, err = e.svc.ClaimDeposit(context.Background(), "demo", b.Token, dec("10"))
		wantCode(t, err, booking.CodeBookingClosed)
		e.clock.Set(releaseAt)
		e.process(t)
		if in := e.intent(t, tm.DepositIntentID); in.Status != payment.StatusSucceeded || in.AmountReceived != 12000 {
			t.Errorf("after the release day the claim is %s %d, want it kept", in.Status, in.AmountReceived)
		}
		var claims int
		for _, en := range e.ledger(t, b) {
			if en.Kind == ledger.KindDepositClaim && en.Amount == 12000 {
				claims++
			}
		}
		if claims != 1 {
			t.Errorf("%d claim entries, want 1", claims)
		}
	})
	t.Run("claim above the deposit", func(t *testing.T) {
		e, b := setup(t)
		_, err := e.svc.ClaimDeposit(context.Background(), "demo", b.Token, dec("300.01"))
		wantCode(t, err, booking.CodeInvalid)
	})
}
