package paymenttest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// providerCalls runs each Provider operation subject to failures on an
// intent id and returns its error. Mutating calls carry a key of their own,
// so a failed call followed by its retry shows that a failure records no
// answer to replay.
var providerCalls = []struct {
	op string
	do func(p *paymenttest.Provider, id string) error
}{
	{paymenttest.OpCreate, func(p *paymenttest.Provider, _ string) error {
		_, err := p.CreateIntent(context.Background(), payment.CreateParams{Amount: 100, Currency: "EUR"})
		return err
	}},
	{paymenttest.OpGet, func(p *paymenttest.Provider, id string) error {
		_, err := p.GetIntent(context.Background(), id)
		return err
	}},
	{paymenttest.OpCapture, func(p *paymenttest.Provider, id string) error {
		_, err := p.CaptureIntent(context.Background(), id, "capture-"+id)
		return err
	}},
	{paymenttest.OpCancel, func(p *paymenttest.Provider, id string) error {
		_, err := p.CancelIntent(context.Background(), id, "cancel-"+id)
		return err
	}},
	{paymenttest.OpRefund, func(p *paymenttest.Provider, id string) error {
		_, err := p.Refund(context.Background(), payment.RefundParams{IntentID: id, Amount: 100, IdempotencyKey: "refund-" + id})
		return err
	}},
	{paymenttest.OpPay, func(p *paymenttest.Provider, id string) error {
		_, err := p.Pay(id, paymenttest.CardSucceeds)
		return err
	}},
}

func TestSetDownErrUnavailable(t *testing.T) {
	for _, c := range providerCalls {
		t.Run(c.op, func(t *testing.T) {
			p := paymenttest.New()
			in := intentIn(t, p, authorizedManual)
			calls := p.Calls(c.op)
			p.SetDown(true)

			err := c.do(p, in.ID)

			if !errors.Is(err, payment.ErrUnavailable) {
				t.Fatalf("err = %v, want ErrUnavailable", err)
			}
			if got, want := len(p.Intents()), 1; got != want {
				t.Errorf("stored intents = %d, want %d", got, want)
			}
			if stored, _ := p.Intent(in.ID); stored.Status != payment.StatusAuthorized {
				t.Errorf("status = %s, want unchanged %s", stored.Status, payment.StatusAuthorized)
			}
			if got, want := p.Calls(c.op), calls+1; got != want {
				t.Errorf("Calls(%s) = %d, want %d", c.op, got, want)
			}
			p.SetDown(false)
			// Up again, the call reaches the state rules (refund and pay
			// are not legal on an authorised intent).
			if err := c.do(p, in.ID); errors.Is(err, payment.ErrUnavailable) {
				t.Errorf("after SetDown(false): %v", err)
			}
		})
	}
}

func TestSetDownLeavesTestHooksWorking(t *testing.T) {
	p := paymenttest.New()
	in := create(t, p, false)
	p.SetDown(true)
	if _, err := p.SimulatePaid(in.ID); err != nil {
		t.Errorf("SimulatePaid while down: %v", err)
	}
	payload, sig, err := p.SignedWebhook(payment.EventSucceeded, in.ID)
	if err != nil {
		t.Fatalf("SignedWebhook while down: %v", err)
	}
	if _, err := p.ParseWebhook(payload, sig); err != nil {
		t.Errorf("ParseWebhook while down: %v", err)
	}
	if got, ok := p.Intent(in.ID); !ok || got.Status != payment.StatusSucceeded {
		t.Errorf("Intent = %s, %v; want succeeded, true", got.Status, ok)
	}
}

func TestFailNextFailsOnce(t *testing.T) {
	injected := errors.New("boom")
	for _, c := range providerCalls {
		t.Run(c.op, func(t *testing.T) {
			p := paymenttest.New()
			in := intentIn(t, p, requiresPaymentManual)
			calls := p.Calls(c.op)
			p.FailNext(c.op, injected)
			p.FailNext(c.op, nil)

			if err := c.do(p, in.ID); !errors.Is(err, injected) {
				t.Fatalf("first call err = %v, want %v", err, injected)
			}
			if err := c.do(p, in.ID); !errors.Is(err, payment.ErrUnavailable) {
				t.Fatalf("second call err = %v, want ErrUnavailable (nil err)", err)
			}
			if stored, _ := p.Intent(in.ID); stored.Status != payment.StatusRequiresPayment {
				t.Errorf("status = %s, want unchanged %s", stored.Status, payment.StatusRequiresPayment)
			}
			if got, want := len(p.Intents()), 1; got != want {
				t.Errorf("stored intents = %d, want %d", got, want)
			}
			if c.op == paymenttest.OpCapture || c.op == paymenttest.OpRefund {
				// Not legal from requires_payment: the third call reaching
				// the state rules proves the queue is empty.
				if err := c.do(p, in.ID); !errors.Is(err, payment.ErrState) {
					t.Errorf("third call err = %v, want ErrState", err)
				}
			} else if err := c.do(p, in.ID); err != nil {
				t.Errorf("third call err = %v, want nil", err)
			}
			if got, want := p.Calls(c.op), calls+3; got != want {
				t.Errorf("Calls(%s) = %d, want %d", c.op, got, want)
			}
		})
	}
}

func TestFailNextOnlyThatOperation(t *testing.T) {
	p := paymenttest.New()
	p.FailNext(paymenttest.OpCapture, nil)
	in := create(t, p, false)
	if _, err := p.GetIntent(context.Background(), in.ID); err != nil {
		t.Errorf("GetIntent with a capture failure queued: %v", err)
	}
}

func TestFailNextUnknownOperationPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("FailNext(\"charge\") did not panic")
		}
	}()
	paymenttest.New().FailNext("charge", nil)
}

func TestCanceledContextErrUnavailable(t *testing.T) {
	p := paymenttest.New()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.CreateIntent(ctx, payment.CreateParams{Amount: 100, Currency: "EUR"})
	if !errors.Is(err, payment.ErrUnavailable) || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want ErrUnavailable and context.Canceled", err)
	}
	if n := len(p.Intents()); n != 0 {
		t.Errorf("stored intents = %d, want 0", n)
	}
}

func TestCallsCountsEachOperation(t *testing.T) {
	ctx := context.Background()
	p := paymenttest.New()
	in := create(t, p, true)
	_, _ = p.GetIntent(ctx, in.ID)
	_, _ = p.GetIntent(ctx, "pi_unknown")
	_, _ = p.SimulatePaid(in.ID) // not a provider call
	_, _ = p.CaptureIntent(ctx, in.ID, "k")
	want := map[string]int{
		paymenttest.OpCreate: 1, paymenttest.OpGet: 2, paymenttest.OpCapture: 1,
		paymenttest.OpCancel: 0, paymenttest.OpRefund: 0, paymenttest.OpPay: 0, "bogus": 0,
	}
	for op, n := range want {
		if got := p.Calls(op); got != n {
			t.Errorf("Calls(%q) = %d, want %d", op, got, n)
		}
	}
}
