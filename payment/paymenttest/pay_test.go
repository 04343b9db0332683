package paymenttest_test

import (
	"errors"
	"testing"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

func TestPay(t *testing.T) {
	tests := []struct {
		name       string
		from       start
		card       string
		wantStatus payment.IntentStatus // stored afterwards
		wantErr    error
		wantFailed int
	}{
		{"success card pays", requiresPaymentAuto, "4242424242424242", payment.StatusSucceeded, nil, 0},
		{"success card with spaces", requiresPaymentAuto, "4242 4242 4242 4242", payment.StatusSucceeded, nil, 0},
		{"success card authorises manual capture", requiresPaymentManual, "4242424242424242", payment.StatusAuthorized, nil, 0},
		{"declined card", requiresPaymentAuto, "4000000000000002", payment.StatusRequiresPayment, paymenttest.ErrCardDeclined, 1},
		{"declined card on manual capture", requiresPaymentManual, "4000-0000-0000-0002", payment.StatusRequiresPayment, paymenttest.ErrCardDeclined, 1},
		{"unknown card", requiresPaymentAuto, "4111111111111111", payment.StatusRequiresPayment, payment.ErrInvalid, 0},
		{"empty card", requiresPaymentAuto, "", payment.StatusRequiresPayment, payment.ErrInvalid, 0},
		{"paying twice", succeededAuto, "4242424242424242", payment.StatusSucceeded, payment.ErrState, 0},
		{"declined after success", succeededAuto, "4000000000000002", payment.StatusSucceeded, payment.ErrState, 0},
		{"paying a canceled intent", canceledAuto, "4242424242424242", payment.StatusCanceled, payment.ErrState, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := paymenttest.New()
			in := intentIn(t, p, tt.from)

			got, err := p.Pay(in.ID, tt.card)

			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			stored, _ := p.Intent(in.ID)
			if stored.Status != tt.wantStatus {
				t.Errorf("stored status = %s, want %s", stored.Status, tt.wantStatus)
			}
			if got := p.FailedAttempts(in.ID); got != tt.wantFailed {
				t.Errorf("FailedAttempts = %d, want %d", got, tt.wantFailed)
			}
			switch {
			case tt.wantErr == nil || errors.Is(tt.wantErr, paymenttest.ErrCardDeclined):
				// A decline still reports the intent, ready for another card.
				if got == nil || got.Status != tt.wantStatus {
					t.Errorf("returned intent = %+v, want status %s", got, tt.wantStatus)
				}
			case got != nil:
				t.Errorf("returned intent = %+v, want nil", got)
			}
		})
	}
}

func TestPayAfterDeclineSucceeds(t *testing.T) {
	p := paymenttest.New()
	in := create(t, p, false)
	if _, err := p.Pay(in.ID, paymenttest.CardDeclined); !errors.Is(err, paymenttest.ErrCardDeclined) {
		t.Fatalf("declined Pay err = %v, want ErrCardDeclined", err)
	}
	got, err := p.Pay(in.ID, paymenttest.CardSucceeds)
	if err != nil {
		t.Fatalf("Pay: %v", err)
	}
	if got.Status != payment.StatusSucceeded || got.AmountReceived != got.Amount {
		t.Errorf("intent = %s received %d, want succeeded received %d", got.Status, got.AmountReceived, got.Amount)
	}
}
