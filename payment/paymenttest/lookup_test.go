package paymenttest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

func TestRefundKeyForgottenAfterWindow(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name        string
		after       time.Duration
		wantRefunds int
	}{
		{"replayed within the window", payment.IdempotencyWindow - time.Second, 1},
		{"applied again after it", payment.IdempotencyWindow, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{now: authorizedAt}
			p := paymenttest.New(paymenttest.WithClock(clock.Now))
			in := create(t, p, false)
			if _, err := p.SimulatePaid(in.ID); err != nil {
				t.Fatal(err)
			}
			rp := payment.RefundParams{IntentID: in.ID, Amount: 1000, IdempotencyKey: "refund-1",
				Metadata: map[string]string{payment.MetadataKey: "refund-1"}}
			if _, err := p.Refund(ctx, rp); err != nil {
				t.Fatal(err)
			}
			clock.now = clock.now.Add(tt.after)
			if _, err := p.Refund(ctx, rp); err != nil {
				t.Fatal(err)
			}
			got, err := p.ListRefunds(ctx, in.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.wantRefunds {
				t.Fatalf("%d refunds, want %d", len(got), tt.wantRefunds)
			}
			if got[0].Key() != "refund-1" {
				t.Errorf("refund key = %q, want the metadata's refund-1", got[0].Key())
			}
		})
	}
}

func TestIntentByKey(t *testing.T) {
	ctx := context.Background()
	p := paymenttest.New()
	charge := payment.SavedChargeParams{Customer: "cus_1", PaymentMethod: paymenttest.SavedPaymentMethod, Amount: 500,
		Currency: "EUR", IdempotencyKey: "balance:pi_1", Metadata: map[string]string{payment.MetadataKey: "balance:pi_1"}}
	p.LoseNextResponse(paymenttest.OpChargeSaved)
	if _, err := p.ChargeSaved(ctx, charge); !errors.Is(err, payment.ErrUnavailable) {
		t.Fatalf("ChargeSaved err = %v, want the answer lost", err)
	}
	got, err := p.IntentByKey(ctx, "cus_1", "balance:pi_1")
	if err != nil || got.Status != payment.StatusSucceeded || got.AmountReceived != 500 {
		t.Fatalf("IntentByKey = %+v, %v; want the succeeded charge", got, err)
	}
	for _, q := range [][2]string{{"cus_2", "balance:pi_1"}, {"cus_1", "balance:pi_2"}} {
		if _, err := p.IntentByKey(ctx, q[0], q[1]); !errors.Is(err, payment.ErrNotFound) {
			t.Errorf("IntentByKey(%s, %s) err = %v, want ErrNotFound", q[0], q[1], err)
		}
	}
	p.SetDown(true)
	if _, err := p.IntentByKey(ctx, "cus_1", "balance:pi_1"); !errors.Is(err, payment.ErrUnavailable) {
		t.Errorf("IntentByKey while down err = %v, want ErrUnavailable", err)
	}
}

func TestOffSessionHoldLapsesAfterFiveDays(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{now: authorizedAt}
	p := paymenttest.New(paymenttest.WithClock(clock.Now))
	in, err := p.ChargeSaved(ctx, payment.SavedChargeParams{Customer: "cus_1", PaymentMethod: paymenttest.SavedPaymentMethod,
		Amount: 30000, Currency: "EUR", ManualCapture: true, IdempotencyKey: "hold"})
	if err != nil {
		t.Fatal(err)
	}
	if want := authorizedAt.Add(paymenttest.OffSessionAuthorizationWindow); in.Status != payment.StatusAuthorized || !in.CaptureBefore.Equal(want) {
		t.Fatalf("hold %s capture before %v, want authorized until %v", in.Status, in.CaptureBefore, want)
	}
	clock.now = in.CaptureBefore.Add(-time.Second)
	if got, _ := p.GetIntent(ctx, in.ID); got.Status != payment.StatusAuthorized {
		t.Fatalf("hold %s a second before capture_before, want authorized", got.Status)
	}
	clock.now = in.CaptureBefore
	if got, _ := p.GetIntent(ctx, in.ID); got.Status != payment.StatusCanceled {
		t.Errorf("hold %s at capture_before, want canceled (lapsed)", got.Status)
	}
}
