package paymenttest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// outcome is what an operation should do: move to status, or fail with err.
type outcome struct {
	status payment.IntentStatus
	err    error
}

func to(s payment.IntentStatus) outcome { return outcome{status: s} }

var refused = outcome{err: payment.ErrState}

func TestTransitions(t *testing.T) {
	ops := []struct {
		name string
		do   func(p *paymenttest.Provider, id string) (*payment.Intent, error)
		// want holds the outcome from every start in allStarts.
		want map[start]outcome
	}{
		{
			name: "CaptureIntent",
			do: func(p *paymenttest.Provider, id string) (*payment.Intent, error) {
				return p.CaptureIntent(context.Background(), id, "capture-"+id)
			},
			want: map[start]outcome{
				requiresPaymentAuto: refused, requiresPaymentManual: refused,
				requiresActionAuto: refused, requiresActionManual: refused,
				processingAuto: refused, processingManual: refused,
				authorizedManual: to(payment.StatusSucceeded),
				succeededAuto:    refused, succeededManual: refused,
				canceledAuto: refused, canceledManual: refused,
			},
		},
		{
			name: "CancelIntent",
			do: func(p *paymenttest.Provider, id string) (*payment.Intent, error) {
				return p.CancelIntent(context.Background(), id, "cancel-"+id)
			},
			want: map[start]outcome{
				requiresPaymentAuto: to(payment.StatusCanceled), requiresPaymentManual: to(payment.StatusCanceled),
				requiresActionAuto: to(payment.StatusCanceled), requiresActionManual: to(payment.StatusCanceled),
				processingAuto: to(payment.StatusCanceled), processingManual: to(payment.StatusCanceled),
				authorizedManual: to(payment.StatusCanceled),
				succeededAuto:    refused, succeededManual: refused,
				canceledAuto: refused, canceledManual: refused,
			},
		},
		{
			name: "Refund",
			// A refund answers with the refund; the intent is read back.
			do: func(p *paymenttest.Provider, id string) (*payment.Intent, error) {
				if _, err := p.Refund(context.Background(), payment.RefundParams{IntentID: id, Amount: 12000}); err != nil {
					return nil, err
				}
				in, _ := p.Intent(id)
				return &in, nil
			},
			want: map[start]outcome{
				requiresPaymentAuto: refused, requiresPaymentManual: refused,
				requiresActionAuto: refused, requiresActionManual: refused,
				processingAuto: refused, processingManual: refused,
				authorizedManual: refused,
				succeededAuto:    to(payment.StatusSucceeded), succeededManual: to(payment.StatusSucceeded),
				canceledAuto: refused, canceledManual: refused,
			},
		},
		{
			name: "SimulatePaid",
			do:   (*paymenttest.Provider).SimulatePaid,
			want: map[start]outcome{
				requiresPaymentAuto: to(payment.StatusSucceeded), requiresPaymentManual: to(payment.StatusAuthorized),
				requiresActionAuto: to(payment.StatusSucceeded), requiresActionManual: to(payment.StatusAuthorized),
				processingAuto: to(payment.StatusSucceeded), processingManual: to(payment.StatusAuthorized),
				authorizedManual: refused,
				succeededAuto:    refused, succeededManual: refused,
				canceledAuto: refused, canceledManual: refused,
			},
		},
		{
			name: "SimulateAuthorized",
			do:   (*paymenttest.Provider).SimulateAuthorized,
			want: map[start]outcome{
				requiresPaymentAuto: refused, requiresPaymentManual: to(payment.StatusAuthorized),
				requiresActionAuto: refused, requiresActionManual: to(payment.StatusAuthorized),
				processingAuto: refused, processingManual: to(payment.StatusAuthorized),
				authorizedManual: refused,
				succeededAuto:    refused, succeededManual: refused,
				canceledAuto: refused, canceledManual: refused,
			},
		},
		{
			name: "SimulateProcessing",
			do:   (*paymenttest.Provider).SimulateProcessing,
			want: map[start]outcome{
				requiresPaymentAuto: to(payment.StatusProcessing), requiresPaymentManual: to(payment.StatusProcessing),
				requiresActionAuto: refused, requiresActionManual: refused,
				processingAuto: refused, processingManual: refused,
				authorizedManual: refused,
				succeededAuto:    refused, succeededManual: refused,
				canceledAuto: refused, canceledManual: refused,
			},
		},
		{
			name: "SimulateDeclined",
			do:   (*paymenttest.Provider).SimulateDeclined,
			want: map[start]outcome{
				requiresPaymentAuto: to(payment.StatusRequiresPayment), requiresPaymentManual: to(payment.StatusRequiresPayment),
				requiresActionAuto: to(payment.StatusRequiresPayment), requiresActionManual: to(payment.StatusRequiresPayment),
				processingAuto: to(payment.StatusRequiresPayment), processingManual: to(payment.StatusRequiresPayment),
				authorizedManual: refused,
				succeededAuto:    refused, succeededManual: refused,
				canceledAuto: refused, canceledManual: refused,
			},
		},
		{
			name: "SimulateRequiresAction",
			do:   (*paymenttest.Provider).SimulateRequiresAction,
			want: map[start]outcome{
				requiresPaymentAuto: to(payment.StatusRequiresAction), requiresPaymentManual: to(payment.StatusRequiresAction),
				requiresActionAuto: refused, requiresActionManual: refused,
				processingAuto: refused, processingManual: refused,
				authorizedManual: refused,
				succeededAuto:    refused, succeededManual: refused,
				canceledAuto: refused, canceledManual: refused,
			},
		},
		{
			name: "SimulateCanceled",
			do:   (*paymenttest.Provider).SimulateCanceled,
			want: map[start]outcome{
				requiresPaymentAuto: to(payment.StatusCanceled), requiresPaymentManual: to(payment.StatusCanceled),
				requiresActionAuto: to(payment.StatusCanceled), requiresActionManual: to(payment.StatusCanceled),
				processingAuto: to(payment.StatusCanceled), processingManual: to(payment.StatusCanceled),
				authorizedManual: to(payment.StatusCanceled),
				succeededAuto:    refused, succeededManual: refused,
				canceledAuto: refused, canceledManual: refused,
			},
		},
	}
	for _, op := range ops {
		if len(op.want) != len(allStarts) {
			t.Fatalf("%s: table covers %d starts, want %d", op.name, len(op.want), len(allStarts))
		}
		for _, from := range allStarts {
			want := op.want[from]
			t.Run(op.name+"/"+from.String(), func(t *testing.T) {
				p := paymenttest.New()
				before := intentIn(t, p, from)

				got, err := op.do(p, before.ID)

				stored, _ := p.Intent(before.ID)
				if want.err != nil {
					if !errors.Is(err, want.err) {
						t.Fatalf("err = %v, want %v", err, want.err)
					}
					if got != nil {
						t.Errorf("intent = %+v, want nil on error", got)
					}
					if stored.Status != before.Status || stored.AmountReceived != before.AmountReceived || stored.AmountRefunded != before.AmountRefunded {
						t.Errorf("stored = %+v, want unchanged %+v", stored, *before)
					}
					return
				}
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				if got.Status != want.status {
					t.Errorf("returned status = %s, want %s", got.Status, want.status)
				}
				if stored.Status != want.status {
					t.Errorf("stored status = %s, want %s", stored.Status, want.status)
				}
				wantReceived := int64(0)
				if want.status == payment.StatusSucceeded {
					wantReceived = got.Amount
				}
				if got.AmountReceived != wantReceived {
					t.Errorf("AmountReceived = %d, want %d", got.AmountReceived, wantReceived)
				}
			})
		}
	}
}

func TestTransitionsUnknownIntentErrNotFound(t *testing.T) {
	ctx := context.Background()
	ops := map[string]func(p *paymenttest.Provider, id string) (*payment.Intent, error){
		"GetIntent": func(p *paymenttest.Provider, id string) (*payment.Intent, error) { return p.GetIntent(ctx, id) },
		"CaptureIntent": func(p *paymenttest.Provider, id string) (*payment.Intent, error) {
			return p.CaptureIntent(ctx, id, "k")
		},
		"CancelIntent": func(p *paymenttest.Provider, id string) (*payment.Intent, error) { return p.CancelIntent(ctx, id, "k") },
		"Refund": func(p *paymenttest.Provider, id string) (*payment.Intent, error) {
			if _, err := p.Refund(ctx, payment.RefundParams{IntentID: id, Amount: 100, IdempotencyKey: "k"}); err != nil {
				return nil, err
			}
			return &payment.Intent{}, nil
		},
		"SimulatePaid":           (*paymenttest.Provider).SimulatePaid,
		"SimulateAuthorized":     (*paymenttest.Provider).SimulateAuthorized,
		"SimulateProcessing":     (*paymenttest.Provider).SimulateProcessing,
		"SimulateDeclined":       (*paymenttest.Provider).SimulateDeclined,
		"SimulateCanceled":       (*paymenttest.Provider).SimulateCanceled,
		"SimulateRequiresAction": (*paymenttest.Provider).SimulateRequiresAction,
		"SimulateDashboardRefund": func(p *paymenttest.Provider, id string) (*payment.Intent, error) {
			if _, err := p.SimulateDashboardRefund(id, 100); err != nil {
				return nil, err
			}
			return &payment.Intent{}, nil
		},
		"Pay": func(p *paymenttest.Provider, id string) (*payment.Intent, error) {
			return p.Pay(id, paymenttest.CardSucceeds)
		},
	}
	for name, do := range ops {
		t.Run(name, func(t *testing.T) {
			p := paymenttest.New()
			create(t, p, false)
			got, err := do(p, "pi_doesnotexist")
			if !errors.Is(err, payment.ErrNotFound) {
				t.Fatalf("err = %v, want ErrNotFound", err)
			}
			if got != nil {
				t.Errorf("intent = %+v, want nil", got)
			}
		})
	}
}

func TestSimulateDeclinedRecordsFailedAttempts(t *testing.T) {
	p := paymenttest.New()
	in := create(t, p, false)
	for range 2 {
		if _, err := p.SimulateDeclined(in.ID); err != nil {
			t.Fatalf("SimulateDeclined: %v", err)
		}
	}
	if got, want := p.FailedAttempts(in.ID), 2; got != want {
		t.Errorf("FailedAttempts = %d, want %d", got, want)
	}
	got, err := p.SimulatePaid(in.ID)
	if err != nil {
		t.Fatalf("SimulatePaid after declines: %v", err)
	}
	if got.Status != payment.StatusSucceeded {
		t.Errorf("status = %s, want %s", got.Status, payment.StatusSucceeded)
	}
	if got := p.FailedAttempts("pi_unknown"); got != 0 {
		t.Errorf("FailedAttempts(unknown) = %d, want 0", got)
	}
}
