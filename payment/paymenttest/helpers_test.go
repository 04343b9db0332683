package paymenttest_test

import (
	"context"
	"testing"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// create makes an intent of 12000 EUR minor units and fails the test on error.
func create(t *testing.T, p *paymenttest.Provider, manual bool) *payment.Intent {
	t.Helper()
	in, err := p.CreateIntent(context.Background(), payment.CreateParams{
		Amount: 12000, Currency: "eur", ManualCapture: manual,
	})
	if err != nil {
		t.Fatalf("CreateIntent: %v", err)
	}
	return in
}

// start names a status an intent is brought to before a test acts on it.
type start struct {
	status payment.IntentStatus
	manual bool
}

func (s start) String() string {
	if s.manual {
		return string(s.status) + "/manual"
	}
	return string(s.status) + "/auto"
}

var (
	requiresPaymentAuto   = start{payment.StatusRequiresPayment, false}
	requiresPaymentManual = start{payment.StatusRequiresPayment, true}
	requiresActionAuto    = start{payment.StatusRequiresAction, false}
	requiresActionManual  = start{payment.StatusRequiresAction, true}
	processingAuto        = start{payment.StatusProcessing, false}
	processingManual      = start{payment.StatusProcessing, true}
	authorizedManual      = start{payment.StatusAuthorized, true}
	succeededAuto         = start{payment.StatusSucceeded, false}
	succeededManual       = start{payment.StatusSucceeded, true}
	canceledAuto          = start{payment.StatusCanceled, false}
	canceledManual        = start{payment.StatusCanceled, true}
)

var allStarts = []start{
	requiresPaymentAuto, requiresPaymentManual, requiresActionAuto, requiresActionManual,
	processingAuto, processingManual, authorizedManual, succeededAuto, succeededManual, canceledAuto, canceledManual,
}

// intentIn creates an intent and moves it to s through legal transitions.
func intentIn(t *testing.T, p *paymenttest.Provider, s start) *payment.Intent {
	t.Helper()
	ctx := context.Background()
	in := create(t, p, s.manual)
	var err error
	switch s.status {
	case payment.StatusRequiresPayment:
	case payment.StatusRequiresAction:
		in, err = p.SimulateRequiresAction(in.ID)
	case payment.StatusProcessing:
		in, err = p.SimulateProcessing(in.ID)
	case payment.StatusAuthorized:
		in, err = p.SimulateAuthorized(in.ID)
	case payment.StatusSucceeded:
		in, err = p.SimulatePaid(in.ID)
		if err == nil && s.manual {
			in, err = p.CaptureIntent(ctx, in.ID, "")
		}
	case payment.StatusCanceled:
		in, err = p.CancelIntent(ctx, in.ID, "")
	default:
		t.Fatalf("intentIn: unknown status %s", s.status)
	}
	if err != nil {
		t.Fatalf("intentIn(%s): %v", s, err)
	}
	if in.Status != s.status {
		t.Fatalf("intentIn(%s): status = %s", s, in.Status)
	}
	return in
}
