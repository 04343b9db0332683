package paymenttest_test

import (
	"errors"
	"testing"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

func TestSimulateRequiresActionThenPaid(t *testing.T) {
	tests := []struct {
		name         string
		manual       bool
		wantStatus   payment.IntentStatus
		wantReceived int64
	}{
		{"automatic capture", false, payment.StatusSucceeded, 12000},
		{"manual capture", true, payment.StatusAuthorized, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := paymenttest.New()
			in := create(t, p, tt.manual)

			waiting, err := p.SimulateRequiresAction(in.ID)
			if err != nil {
				t.Fatalf("SimulateRequiresAction: %v", err)
			}
			if waiting.Status != payment.StatusRequiresAction || waiting.AmountReceived != 0 {
				t.Errorf("after 3-D Secure asked: %s received %d, want requires_action received 0", waiting.Status, waiting.AmountReceived)
			}
			paid, err := p.SimulatePaid(in.ID)
			if err != nil {
				t.Fatalf("SimulatePaid: %v", err)
			}
			if paid.Status != tt.wantStatus || paid.AmountReceived != tt.wantReceived {
				t.Errorf("paid = %s received %d, want %s received %d", paid.Status, paid.AmountReceived, tt.wantStatus, tt.wantReceived)
			}
		})
	}
}

func TestRequiresActionFailedIsPayableAgain(t *testing.T) {
	// The guest fails 3-D Secure: Stripe returns the intent to
	// requires_payment_method, and another card may be tried.
	p := paymenttest.New()
	in := intentIn(t, p, requiresActionAuto)
	got, err := p.Pay(in.ID, paymenttest.CardDeclined)
	if !errors.Is(err, paymenttest.ErrCardDeclined) {
		t.Fatalf("Pay(declined): err = %v, want ErrCardDeclined", err)
	}
	if got.Status != payment.StatusRequiresPayment || p.FailedAttempts(in.ID) != 1 {
		t.Errorf("after a failed 3-D Secure: %s, %d failed; want requires_payment, 1", got.Status, p.FailedAttempts(in.ID))
	}
	if _, err := p.Pay(in.ID, paymenttest.CardSucceeds); err != nil {
		t.Errorf("Pay with another card: %v", err)
	}
}
