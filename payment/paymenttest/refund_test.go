package paymenttest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

func TestRefund(t *testing.T) {
	// Every intent is 12000 and succeeded; refunds run in order.
	tests := []struct {
		name         string
		refunds      []int64
		wantRefunded int64
		wantErr      error // of the last refund
	}{
		{"zero refunds everything", []int64{0}, 12000, nil},
		{"partial", []int64{5000}, 5000, nil},
		{"partial then the rest with zero", []int64{5000, 0}, 12000, nil},
		{"partials up to the total", []int64{5000, 7000}, 12000, nil},
		{"exact total", []int64{12000}, 12000, nil},
		{"more than received", []int64{12001}, 0, payment.ErrInvalid},
		{"more than what remains", []int64{5000, 7001}, 5000, payment.ErrInvalid},
		{"again after a full refund", []int64{12000, 1}, 12000, payment.ErrInvalid},
		{"zero after a full refund", []int64{0, 0}, 12000, payment.ErrInvalid},
		{"negative", []int64{-1}, 0, payment.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			p := paymenttest.New()
			in := intentIn(t, p, succeededAuto)
			var got *payment.Intent
			var err error
			for i, amount := range tt.refunds {
				got, err = p.Refund(ctx, in.ID, amount)
				if i < len(tt.refunds)-1 && err != nil {
					t.Fatalf("refund %d of %d: %v", i+1, amount, err)
				}
			}
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("err = %v, want %v", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatalf("err = %v, want nil", err)
			} else if got.AmountRefunded != tt.wantRefunded {
				t.Errorf("returned AmountRefunded = %d, want %d", got.AmountRefunded, tt.wantRefunded)
			}
			stored, _ := p.Intent(in.ID)
			if stored.AmountRefunded != tt.wantRefunded {
				t.Errorf("stored AmountRefunded = %d, want %d", stored.AmountRefunded, tt.wantRefunded)
			}
			if stored.AmountReceived != 12000 || stored.Status != payment.StatusSucceeded {
				t.Errorf("stored = received %d, %s; want 12000, succeeded", stored.AmountReceived, stored.Status)
			}
		})
	}
}

func TestRefundCapturedManualIntent(t *testing.T) {
	p := paymenttest.New()
	in := intentIn(t, p, succeededManual)
	got, err := p.Refund(context.Background(), in.ID, 0)
	if err != nil {
		t.Fatalf("Refund: %v", err)
	}
	if got.AmountRefunded != in.Amount {
		t.Errorf("AmountRefunded = %d, want %d", got.AmountRefunded, in.Amount)
	}
}
