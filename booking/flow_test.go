package booking_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

func TestFlowFullPaymentConfirmed(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	r := e.order("demo")
	q, err := e.svc.Quote(ctx, "demo", r.PropertyID, booking.QuoteRequest{Stay: r.Stay})
	if err != nil {
		t.Fatal(err)
	}
	// 3 weeknights × 100 = 300; cleaning 50; tax 2 guests × 3 nights × 1.50 = 9.
	if got, want := q.Total, dec("359"); !got.Equal(want) {
		t.Fatalf("quote total = %s, want %s", got, want)
	}
	res, err := e.svc.Checkout(ctx, "demo", r)
	if err != nil {
		t.Fatal(err)
	}
	b := res.Booking
	if b.Status != booking.StatusPending || !b.TotalAmount.Equal(q.Total) || !b.ChargeAmount.Equal(q.Total) || res.ClientSecret == "" {
		t.Fatalf("checkout = %+v (secret %q), want pending for the quoted 359", b, res.ClientSecret)
	}
	if got, want := b.ExpiresAt, start.Add(30*time.Minute); !got.Equal(want) {
		t.Errorf("hold expires %v, want %v", got, want)
	}
	_, err = e.svc.Confirm(ctx, "demo", b.Token, booking.ConfirmRequest{})
	wantCode(t, err, booking.CodePaymentNotConfirmed)

	if _, err := e.pay.SimulatePaid(b.PaymentIntentID); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.Confirm(ctx, "demo", b.Token, booking.ConfirmRequest{PaymentIntentID: b.PaymentIntentID})
	if err != nil {
		t.Fatal(err)
	}
	if d.Booking.Status != booking.StatusConfirmed || !d.Booking.PaidAmount.Equal(dec("359")) || d.PropertyName != "Villa Soleil" {
		t.Fatalf("confirmed booking = %+v", d)
	}
	// Confirming again is idempotent and notifies nobody twice.
	again, err := e.svc.Confirm(ctx, "demo", b.Token, booking.ConfirmRequest{})
	if err != nil || again.Booking.Status != booking.StatusConfirmed {
		t.Fatalf("second confirm = %v, %v", again, err)
	}
	if got, want := e.notified.Kinds(b.Token), []string{booking.NotifyConfirmed}; !slices.Equal(got, want) {
		t.Errorf("notifications = %v, want %v", got, want)
	}
}

func TestFlowDepositConfirmed(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, err := e.svc.Checkout(ctx, "demo-deposit", e.order("demo-deposit"))
	if err != nil {
		t.Fatal(err)
	}
	b := res.Booking
	// Total 359; check-in 8 June is 7 days away, beyond balance_due_days 3:
	// deposit 30 % = 107.70 now, 251.30 due on 5 June.
	if !b.ChargeAmount.Equal(dec("107.70")) || !b.BalanceAmount.Equal(dec("251.30")) || b.BalanceDueDate.String() != "2026-06-05" {
		t.Fatalf("deposit booking charge %s balance %s due %s", b.ChargeAmount, b.BalanceAmount, b.BalanceDueDate)
	}
	intent, _ := e.pay.Intent(b.PaymentIntentID)
	if intent.Amount != 10770 || intent.Currency != "EUR" || intent.ManualCapture {
		t.Fatalf("intent = %+v, want 10770 EUR automatic capture", intent)
	}
	if _, err := e.pay.SimulatePaid(b.PaymentIntentID); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.Confirm(ctx, "demo-deposit", b.Token, booking.ConfirmRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Booking.Status != booking.StatusConfirmed || !d.Booking.PaidAmount.Equal(dec("107.70")) {
		t.Fatalf("deposit confirm = %s paid %s", d.Booking.Status, d.Booking.PaidAmount)
	}
}

func TestFlowRequestApproved(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, err := e.svc.Checkout(ctx, "demo-request", e.order("demo-request"))
	if err != nil {
		t.Fatal(err)
	}
	b := res.Booking
	intent, _ := e.pay.Intent(b.PaymentIntentID)
	if !intent.ManualCapture || intent.Amount != 35900 {
		t.Fatalf("request intent = %+v, want manual capture of 35900", intent)
	}
	if _, err := e.pay.SimulatePaid(b.PaymentIntentID); err != nil { // authorises a manual-capture intent
		t.Fatal(err)
	}
	d, err := e.svc.Confirm(ctx, "demo-request", b.Token, booking.ConfirmRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Booking.Status != booking.StatusRequested {
		t.Fatalf("status after authorisation = %s, want requested", d.Booking.Status)
	}
	// Held for request_hold_hours (48 h), well inside the 7-day authorisation.
	if got, want := d.Booking.ExpiresAt, start.Add(48*time.Hour); !got.Equal(want) {
		t.Errorf("request expires %v, want %v", got, want)
	}
	approved, err := e.svc.Approve(ctx, "demo-request", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	captured, _ := e.pay.Intent(b.PaymentIntentID)
	if approved.Status != booking.StatusConfirmed || captured.Status != payment.StatusSucceeded || !approved.PaidAmount.Equal(dec("359")) {
		t.Fatalf("approve: booking %s paid %s, intent %s", approved.Status, approved.PaidAmount, captured.Status)
	}
	if got, want := e.notified.Kinds(b.Token), []string{booking.NotifyRequested, booking.NotifyConfirmed}; !slices.Equal(got, want) {
		t.Errorf("notifications = %v, want %v", got, want)
	}
}

func TestFlowRequestDeclinedFreesDates(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, err := e.svc.Checkout(ctx, "demo-request", e.order("demo-request"))
	if err != nil {
		t.Fatal(err)
	}
	b := res.Booking
	e.pay.SimulatePaid(b.PaymentIntentID)
	if _, err := e.svc.Confirm(ctx, "demo-request", b.Token, booking.ConfirmRequest{}); err != nil {
		t.Fatal(err)
	}
	declined, err := e.svc.Decline(ctx, "demo-request", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	intent, _ := e.pay.Intent(b.PaymentIntentID)
	if declined.Status != booking.StatusDeclined || intent.Status != payment.StatusCanceled {
		t.Fatalf("decline: booking %s, intent %s; want declined, canceled", declined.Status, intent.Status)
	}
	if _, err := e.svc.Approve(ctx, "demo-request", b.Token); err == nil {
		t.Fatal("approving a declined request succeeded")
	}
	if _, err := e.svc.Checkout(ctx, "demo-request", e.order("demo-request")); err != nil {
		t.Fatalf("dates of a declined request are still held: %v", err)
	}
}

func TestFlowRequestLapses(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, _ := e.svc.Checkout(ctx, "demo-request", e.order("demo-request"))
	b := res.Booking
	e.pay.SimulatePaid(b.PaymentIntentID)
	if _, err := e.svc.Confirm(ctx, "demo-request", b.Token, booking.ConfirmRequest{}); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(48 * time.Hour)
	_, err := e.svc.Approve(ctx, "demo-request", b.Token)
	wantCode(t, err, booking.CodeBookingClosed)
	n, err := e.svc.ExpireHolds(ctx)
	if err != nil || n != 1 {
		t.Fatalf("ExpireHolds = %d, %v; want 1", n, err)
	}
	intent, _ := e.pay.Intent(b.PaymentIntentID)
	if got := e.status(t, "demo-request", b.Token); got != booking.StatusExpired || intent.Status != payment.StatusCanceled {
		t.Fatalf("lapsed request: booking %s, intent %s; want expired, canceled", got, intent.Status)
	}
}

func TestFlowHoldExpiresWithoutSweeper(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	r := e.order("demo")
	r.CouponCode = "LAST1"
	first, err := e.svc.Checkout(ctx, "demo", r)
	if err != nil {
		t.Fatal(err)
	}
	// While the hold lasts, the dates and the single-use coupon are taken.
	second := e.order("demo")
	second.GuestEmail = "other@example.com"
	_, err = e.svc.Checkout(ctx, "demo", second)
	wantCode(t, err, booking.CodeUnavailable)

	e.clock.Advance(30 * time.Minute)
	// No sweeper has run: the lapsed hold no longer blocks, nor uses the coupon.
	second.CouponCode = "last1"
	res, err := e.svc.Checkout(ctx, "demo", second)
	if err != nil {
		t.Fatalf("checkout after the hold lapsed: %v", err)
	}
	if res.Booking.CouponCode != "LAST1" {
		t.Errorf("coupon of second booking = %q, want LAST1", res.Booking.CouponCode)
	}
	// The sweeper then tidies the first booking and voids its intent.
	n, err := e.svc.ExpireHolds(ctx)
	if err != nil || n != 1 {
		t.Fatalf("ExpireHolds = %d, %v; want 1", n, err)
	}
	intent, _ := e.pay.Intent(first.Booking.PaymentIntentID)
	if got := e.status(t, "demo", first.Booking.Token); got != booking.StatusExpired || intent.Status != payment.StatusCanceled {
		t.Fatalf("first booking %s, intent %s; want expired, canceled", got, intent.Status)
	}
	if got := e.notified.Kinds(first.Booking.Token); !slices.Equal(got, []string{booking.NotifyExpired}) {
		t.Errorf("notifications = %v", got)
	}
}

func TestLatePayment(t *testing.T) {
	t.Run("DatesStillFreeConfirms", func(t *testing.T) {
		e := newEnv(t)
		ctx := context.Background()
		res, _ := e.svc.Checkout(ctx, "demo", e.order("demo"))
		e.clock.Advance(45 * time.Minute)
		e.pay.SimulatePaid(res.Booking.PaymentIntentID)
		d, err := e.svc.Confirm(ctx, "demo", res.Booking.Token, booking.ConfirmRequest{})
		if err != nil || d.Booking.Status != booking.StatusConfirmed {
			t.Fatalf("late confirm with free dates = %v, %v; want confirmed", d, err)
		}
	})
	t.Run("DatesTakenRefunds", func(t *testing.T) {
		e := newEnv(t)
		ctx := context.Background()
		late, _ := e.svc.Checkout(ctx, "demo", e.order("demo"))
		e.clock.Advance(45 * time.Minute)
		if _, err := e.svc.Checkout(ctx, "demo", e.order("demo")); err != nil {
			t.Fatal(err)
		}
		e.pay.SimulatePaid(late.Booking.PaymentIntentID)
		_, err := e.svc.Confirm(ctx, "demo", late.Booking.Token, booking.ConfirmRequest{})
		wantCode(t, err, booking.CodePaymentLate)
		intent, _ := e.pay.Intent(late.Booking.PaymentIntentID)
		if intent.AmountRefunded != intent.Amount {
			t.Errorf("refunded %d of %d", intent.AmountRefunded, intent.Amount)
		}
		if got := e.status(t, "demo", late.Booking.Token); got != booking.StatusExpired {
			t.Errorf("late booking status = %s, want expired", got)
		}
	})
}

func TestCheckoutProviderDownLeavesNothing(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	r := e.order("demo")
	r.CouponCode = "LAST1"
	r.IdempotencyKey = "retry-me"
	e.pay.SetDown(true)
	_, err := e.svc.Checkout(ctx, "demo", r)
	wantCode(t, err, booking.CodePaymentUnavailable)
	if all, _ := e.svc.Bookings(ctx, "demo"); len(all) != 0 {
		t.Fatalf("a failed checkout left %d bookings", len(all))
	}
	// Dates, single-use coupon and idempotency key are all free again.
	e.pay.SetDown(false)
	res, err := e.svc.Checkout(ctx, "demo", r)
	if err != nil {
		t.Fatalf("retry after provider recovered: %v", err)
	}
	if res.Booking.CouponCode != "LAST1" {
		t.Errorf("coupon = %q", res.Booking.CouponCode)
	}
}

func TestCheckoutIdempotencyKey(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	r := e.order("demo")
	r.IdempotencyKey = "key-1"
	first, err := e.svc.Checkout(ctx, "demo", r)
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.svc.Checkout(ctx, "demo", r)
	if err != nil {
		t.Fatal(err)
	}
	if again.Booking.Token != first.Booking.Token || again.ClientSecret != first.ClientSecret {
		t.Fatalf("replay returned booking %s, want %s", again.Booking.Token, first.Booking.Token)
	}
	if n := e.pay.Calls("create"); n != 1 {
		t.Errorf("intents created = %d, want 1", n)
	}
	r.Guests = 3
	_, err = e.svc.Checkout(ctx, "demo", r)
	wantCode(t, err, booking.CodeConflict)
	// After 24 hours the key is forgotten.
	e.clock.Advance(24*time.Hour + time.Minute)
	r.Stay.CheckIn, r.Stay.CheckOut = civil.MustParse("2026-06-12"), civil.MustParse("2026-06-15")
	if _, err := e.svc.Checkout(ctx, "demo", r); err != nil {
		t.Fatalf("key reused after the window: %v", err)
	}
}

func TestCheckoutFreeStayConfirmedAtOnce(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	// A 100 % coupon on a property with no fees or tax: nothing to pay.
	p, err := e.store.Property(ctx, mustOrgID(t, e, "demo"), e.property["demo"])
	if err != nil {
		t.Fatal(err)
	}
	p.Fees, p.Tax = pricing.Fees{}, pricing.TouristTax{}
	if err := e.store.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	r := e.order("demo")
	r.CouponCode = "FREE100"
	res, err := e.svc.Checkout(ctx, "demo", r)
	if err != nil {
		t.Fatal(err)
	}
	if res.Booking.Status != booking.StatusConfirmed || res.ClientSecret != "" || !res.Booking.TotalAmount.IsZero() {
		t.Fatalf("free stay = %s total %s secret %q; want confirmed, 0, no secret", res.Booking.Status, res.Booking.TotalAmount, res.ClientSecret)
	}
	if e.pay.Calls("create") != 0 {
		t.Error("a payment intent was created for a free stay")
	}
}

func mustOrgID(t *testing.T, e *env, slug string) int64 {
	t.Helper()
	org, err := e.svc.Organization(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	return org.ID
}

func TestWebhookAloneConfirms(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, _ := e.svc.Checkout(ctx, "demo", e.order("demo"))
	e.pay.SimulatePaid(res.Booking.PaymentIntentID)
	ev, err := e.pay.Event(payment.EventSucceeded, res.Booking.PaymentIntentID)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the provider may deliver an event twice
		if err := e.money.HandlePaymentEvent(ctx, *ev); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.status(t, "demo", res.Booking.Token); got != booking.StatusConfirmed {
		t.Fatalf("status after webhook = %s, want confirmed", got)
	}
	if got := e.notified.Kinds(res.Booking.Token); len(got) != 1 {
		t.Errorf("notifications = %v, want one", got)
	}
}

func TestWebhookAndConfirmRaceApplyOnce(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, _ := e.svc.Checkout(ctx, "demo", e.order("demo"))
	e.pay.SimulatePaid(res.Booking.PaymentIntentID)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				ev, _ := e.pay.Event(payment.EventSucceeded, res.Booking.PaymentIntentID)
				errs <- e.money.HandlePaymentEvent(ctx, *ev)
				return
			}
			_, err := e.svc.Confirm(ctx, "demo", res.Booking.Token, booking.ConfirmRequest{})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("racing confirm/webhook: %v", err)
		}
	}
	if got := e.notified.Kinds(res.Booking.Token); !slices.Equal(got, []string{booking.NotifyConfirmed}) {
		t.Errorf("notifications = %v, want exactly one confirmed", got)
	}
}

func TestCancelConfirmedRefundsAndFreesDates(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, _ := e.svc.Checkout(ctx, "demo", e.order("demo"))
	e.pay.SimulatePaid(res.Booking.PaymentIntentID)
	if _, err := e.svc.Confirm(ctx, "demo", res.Booking.Token, booking.ConfirmRequest{}); err != nil {
		t.Fatal(err)
	}
	cancelled, err := e.svc.Cancel(ctx, "demo", res.Booking.Token, true)
	if err != nil {
		t.Fatal(err)
	}
	intent, _ := e.pay.Intent(res.Booking.PaymentIntentID)
	if cancelled.Status != booking.StatusCancelled || intent.AmountRefunded != 35900 {
		t.Fatalf("cancel: %s, refunded %d; want cancelled, 35900", cancelled.Status, intent.AmountRefunded)
	}
	if _, err := e.svc.Checkout(ctx, "demo", e.order("demo")); err != nil {
		t.Fatalf("dates of a cancelled booking still held: %v", err)
	}
	_, err = e.svc.Confirm(ctx, "demo", res.Booking.Token, booking.ConfirmRequest{})
	wantCode(t, err, booking.CodeBookingClosed)
}
