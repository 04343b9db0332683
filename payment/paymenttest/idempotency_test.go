package paymenttest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

func TestCaptureAndCancelReplayByKey(t *testing.T) {
	ops := []struct {
		op   string
		do   func(p *paymenttest.Provider, id, key string) (*payment.Intent, error)
		want payment.IntentStatus
	}{
		{paymenttest.OpCapture, func(p *paymenttest.Provider, id, key string) (*payment.Intent, error) {
			return p.CaptureIntent(context.Background(), id, key)
		}, payment.StatusSucceeded},
		{paymenttest.OpCancel, func(p *paymenttest.Provider, id, key string) (*payment.Intent, error) {
			return p.CancelIntent(context.Background(), id, key)
		}, payment.StatusCanceled},
	}
	for _, tt := range ops {
		t.Run(tt.op, func(t *testing.T) {
			p := paymenttest.New()
			in := intentIn(t, p, authorizedManual)
			first, err := tt.do(p, in.ID, "key-1")
			if err != nil {
				t.Fatalf("first call: %v", err)
			}

			second, err := tt.do(p, in.ID, "key-1")

			if err != nil {
				t.Fatalf("replay: err = %v, want the first answer", err)
			}
			if !equalIntent(*second, *first) || second.Status != tt.want {
				t.Errorf("replay = %+v, want the first answer %+v", *second, *first)
			}
			if got, want := p.Calls(tt.op), 2; got != want {
				t.Errorf("Calls(%s) = %d, want %d", tt.op, got, want)
			}
			// Another key is another call, which the state rules refuse.
			if _, err := tt.do(p, in.ID, "key-2"); !errors.Is(err, payment.ErrState) {
				t.Errorf("other key: err = %v, want ErrState", err)
			}
			stored, _ := p.Intent(in.ID)
			if stored.Status != tt.want || stored.AmountReceived != first.AmountReceived {
				t.Errorf("stored = %s received %d, want %s received %d", stored.Status, stored.AmountReceived, tt.want, first.AmountReceived)
			}
		})
	}
}

func TestCaptureReplayDoesNotCaptureTwice(t *testing.T) {
	// Two captures of one authorisation with the same key, the second after
	// a refund: the replay must not take the money again.
	p := paymenttest.New()
	in := intentIn(t, p, authorizedManual)
	if _, err := p.CaptureIntent(context.Background(), in.ID, "capture-1"); err != nil {
		t.Fatalf("CaptureIntent: %v", err)
	}
	refund(t, p, in.ID, 12000, "")
	if _, err := p.CaptureIntent(context.Background(), in.ID, "capture-1"); err != nil {
		t.Fatalf("replayed CaptureIntent: %v", err)
	}
	stored, _ := p.Intent(in.ID)
	if stored.AmountReceived != 12000 || stored.AmountRefunded != 12000 {
		t.Errorf("stored received %d refunded %d, want 12000 and 12000", stored.AmountReceived, stored.AmountRefunded)
	}
}

func TestMutatingKeyReusedForAnotherIntentErrInvalid(t *testing.T) {
	ctx := context.Background()
	ops := map[string]func(p *paymenttest.Provider, id string) (*payment.Intent, error){
		paymenttest.OpCapture: func(p *paymenttest.Provider, id string) (*payment.Intent, error) {
			return p.CaptureIntent(ctx, id, "key-1")
		},
		paymenttest.OpCancel: func(p *paymenttest.Provider, id string) (*payment.Intent, error) {
			return p.CancelIntent(ctx, id, "key-1")
		},
	}
	for op, do := range ops {
		t.Run(op, func(t *testing.T) {
			p := paymenttest.New()
			a := intentIn(t, p, authorizedManual)
			b := intentIn(t, p, authorizedManual)
			if _, err := do(p, a.ID); err != nil {
				t.Fatalf("first intent: %v", err)
			}
			got, err := do(p, b.ID)
			if !errors.Is(err, payment.ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if got != nil {
				t.Errorf("intent = %+v, want nil", got)
			}
			if stored, _ := p.Intent(b.ID); stored.Status != payment.StatusAuthorized {
				t.Errorf("other intent status = %s, want unchanged %s", stored.Status, payment.StatusAuthorized)
			}
		})
	}
}

func TestLoseNextResponseAppliesThenFails(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		op   string
		from start
		// call makes the call with key and returns what identifies its
		// answer: an intent id, a status or a refund id.
		call func(p *paymenttest.Provider, id, key string) (string, error)
		// applied checks the change is visible and returns what the retry
		// must answer.
		applied func(t *testing.T, p *paymenttest.Provider, id string) string
	}{
		{
			op:   paymenttest.OpCreate,
			from: requiresPaymentAuto, // an intent that is not the one created
			call: func(p *paymenttest.Provider, _, key string) (string, error) {
				in, err := p.CreateIntent(ctx, payment.CreateParams{Amount: 3000, Currency: "EUR", IdempotencyKey: key})
				if err != nil {
					return "", err
				}
				return in.ID, nil
			},
			applied: func(t *testing.T, p *paymenttest.Provider, _ string) string {
				all := p.Intents()
				if len(all) != 2 || all[1].Amount != 3000 || all[1].Status != payment.StatusRequiresPayment {
					t.Fatalf("Intents = %+v, want a second intent of 3000", all)
				}
				return all[1].ID
			},
		},
		{
			op:   paymenttest.OpCapture,
			from: authorizedManual,
			call: func(p *paymenttest.Provider, id, key string) (string, error) {
				in, err := p.CaptureIntent(ctx, id, key)
				if err != nil {
					return "", err
				}
				return string(in.Status), nil
			},
			applied: func(t *testing.T, p *paymenttest.Provider, id string) string {
				if in, _ := p.Intent(id); in.Status != payment.StatusSucceeded || in.AmountReceived != 12000 {
					t.Fatalf("intent = %s received %d, want succeeded received 12000", in.Status, in.AmountReceived)
				}
				return string(payment.StatusSucceeded)
			},
		},
		{
			op:   paymenttest.OpCancel,
			from: authorizedManual,
			call: func(p *paymenttest.Provider, id, key string) (string, error) {
				in, err := p.CancelIntent(ctx, id, key)
				if err != nil {
					return "", err
				}
				return string(in.Status), nil
			},
			applied: func(t *testing.T, p *paymenttest.Provider, id string) string {
				if in, _ := p.Intent(id); in.Status != payment.StatusCanceled {
					t.Fatalf("intent status = %s, want canceled", in.Status)
				}
				return string(payment.StatusCanceled)
			},
		},
		{
			op:   paymenttest.OpRefund,
			from: succeededAuto,
			call: func(p *paymenttest.Provider, id, key string) (string, error) {
				r, err := p.Refund(ctx, payment.RefundParams{IntentID: id, Amount: 5000, IdempotencyKey: key})
				if err != nil {
					return "", err
				}
				return r.ID, nil
			},
			applied: func(t *testing.T, p *paymenttest.Provider, id string) string {
				rs := p.Refunds(id)
				if len(rs) != 1 || rs[0].Amount != 5000 || rs[0].Status != payment.RefundSucceeded {
					t.Fatalf("Refunds = %+v, want one succeeded refund of 5000", rs)
				}
				if in, _ := p.Intent(id); in.AmountRefunded != 5000 {
					t.Fatalf("AmountRefunded = %d, want 5000", in.AmountRefunded)
				}
				return rs[0].ID
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			p := paymenttest.New()
			in := intentIn(t, p, tt.from)
			p.LoseNextResponse(tt.op)

			got, err := tt.call(p, in.ID, "key-1")

			if !errors.Is(err, payment.ErrUnavailable) {
				t.Fatalf("err = %v (answer %q), want ErrUnavailable", err, got)
			}
			want := tt.applied(t, p, in.ID)
			// The retry with the same key learns what happened, and
			// nothing happens twice.
			got, err = tt.call(p, in.ID, "key-1")
			if err != nil {
				t.Fatalf("retry: %v", err)
			}
			if got != want {
				t.Errorf("retry answered %q, want %q", got, want)
			}
			tt.applied(t, p, in.ID)
		})
	}
}

func TestLoseNextResponseQueues(t *testing.T) {
	p := paymenttest.New()
	p.LoseNextResponse(paymenttest.OpCreate)
	p.LoseNextResponse(paymenttest.OpCreate)
	for i := range 3 {
		_, err := p.CreateIntent(context.Background(), payment.CreateParams{Amount: 100, Currency: "EUR"})
		if wantLost := i < 2; errors.Is(err, payment.ErrUnavailable) != wantLost {
			t.Errorf("create %d: err = %v, want lost = %v", i+1, err, wantLost)
		}
	}
	if got, want := len(p.Intents()), 3; got != want {
		t.Errorf("stored intents = %d, want %d", got, want)
	}
}

func TestLoseNextResponseWaitsForASuccessfulCall(t *testing.T) {
	ctx := context.Background()
	p := paymenttest.New()
	in := intentIn(t, p, authorizedManual)
	p.LoseNextResponse(paymenttest.OpCapture)
	p.FailNext(paymenttest.OpCapture, nil)
	other := intentIn(t, p, requiresPaymentManual)

	// An injected failure changes nothing and keeps the loss queued.
	if _, err := p.CaptureIntent(ctx, in.ID, "capture-1"); !errors.Is(err, payment.ErrUnavailable) {
		t.Fatalf("injected failure: err = %v, want ErrUnavailable", err)
	}
	if stored, _ := p.Intent(in.ID); stored.Status != payment.StatusAuthorized {
		t.Fatalf("after an injected failure status = %s, want authorized", stored.Status)
	}
	// So does a call the state rules refuse.
	if _, err := p.CaptureIntent(ctx, other.ID, "capture-other"); !errors.Is(err, payment.ErrState) {
		t.Fatalf("refused call: err = %v, want ErrState", err)
	}
	// The first successful call is applied and its answer lost.
	if _, err := p.CaptureIntent(ctx, in.ID, "capture-1"); !errors.Is(err, payment.ErrUnavailable) {
		t.Fatalf("lost response: err = %v, want ErrUnavailable", err)
	}
	if stored, _ := p.Intent(in.ID); stored.Status != payment.StatusSucceeded {
		t.Fatalf("after a lost response status = %s, want succeeded", stored.Status)
	}
	if _, err := p.CaptureIntent(ctx, in.ID, "capture-1"); err != nil {
		t.Errorf("retry: %v", err)
	}
}

func TestLoseNextResponseOperationsPanic(t *testing.T) {
	// Get and pay change nothing the caller could lose: a loss queued for
	// them is a mistake in the test.
	for _, op := range []string{"charge", paymenttest.OpGet, paymenttest.OpPay} {
		t.Run(op, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("LoseNextResponse(%q) did not panic", op)
				}
			}()
			paymenttest.New().LoseNextResponse(op)
		})
	}
}
