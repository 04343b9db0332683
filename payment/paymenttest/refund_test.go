package paymenttest_test

import (
	"context"
	"errors"
	"reflect"
	"regexp"
	"testing"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// refund refunds amount of intent id with key and fails the test on error.
func refund(t *testing.T, p *paymenttest.Provider, id string, amount int64, key string) *payment.Refund {
	t.Helper()
	r, err := p.Refund(context.Background(), payment.RefundParams{IntentID: id, Amount: amount, IdempotencyKey: key})
	if err != nil {
		t.Fatalf("Refund(%s, %d, %q): %v", id, amount, key, err)
	}
	return r
}

// refunded reads intent id back and returns its AmountRefunded.
func refunded(t *testing.T, p *paymenttest.Provider, id string) int64 {
	t.Helper()
	in, err := p.GetIntent(context.Background(), id)
	if err != nil {
		t.Fatalf("GetIntent: %v", err)
	}
	return in.AmountRefunded
}

func TestRefund(t *testing.T) {
	// Every intent is 12000 and succeeded; refunds run in order.
	tests := []struct {
		name         string
		refunds      []int64
		wantRefunded int64
		wantErr      error // of the last refund
	}{
		{"partial", []int64{5000}, 5000, nil},
		{"partials up to the total", []int64{5000, 7000}, 12000, nil},
		{"exact total", []int64{12000}, 12000, nil},
		{"zero", []int64{0}, 0, payment.ErrInvalid},
		{"zero after a partial", []int64{5000, 0}, 5000, payment.ErrInvalid},
		{"more than received", []int64{12001}, 0, payment.ErrInvalid},
		{"more than what remains", []int64{5000, 7001}, 5000, payment.ErrInvalid},
		{"again after a full refund", []int64{12000, 1}, 12000, payment.ErrInvalid},
		{"negative", []int64{-1}, 0, payment.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			p := paymenttest.New()
			in := intentIn(t, p, succeededAuto)
			var got *payment.Refund
			var err error
			for i, amount := range tt.refunds {
				got, err = p.Refund(ctx, payment.RefundParams{IntentID: in.ID, Amount: amount})
				if i < len(tt.refunds)-1 && err != nil {
					t.Fatalf("refund %d of %d: %v", i+1, amount, err)
				}
			}
			last := tt.refunds[len(tt.refunds)-1]
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("err = %v, want %v", err, tt.wantErr)
				}
				if got != nil {
					t.Errorf("refund = %+v, want nil on error", got)
				}
			} else if err != nil {
				t.Fatalf("err = %v, want nil", err)
			} else {
				want := payment.Refund{ID: got.ID, IntentID: in.ID, Amount: last, Currency: "EUR", Status: payment.RefundSucceeded}
				if !reflect.DeepEqual(*got, want) {
					t.Errorf("refund = %+v, want %+v", *got, want)
				}
				if !regexp.MustCompile(`^re_[A-Za-z0-9]{24}$`).MatchString(got.ID) {
					t.Errorf("refund ID = %q, want re_ + 24 alphanumerics", got.ID)
				}
			}
			if got := refunded(t, p, in.ID); got != tt.wantRefunded {
				t.Errorf("AmountRefunded = %d, want %d", got, tt.wantRefunded)
			}
			stored, _ := p.Intent(in.ID)
			if stored.AmountReceived != 12000 || stored.Status != payment.StatusSucceeded {
				t.Errorf("stored = received %d, %s; want 12000, succeeded", stored.AmountReceived, stored.Status)
			}
			if got, want := len(p.Refunds(in.ID)), len(tt.refunds); tt.wantErr == nil && got != want {
				t.Errorf("Refunds = %d, want %d", got, want)
			}
		})
	}
}

func TestRefundCapturedManualIntent(t *testing.T) {
	p := paymenttest.New()
	in := intentIn(t, p, succeededManual)
	refund(t, p, in.ID, in.Amount, "")
	if got, want := refunded(t, p, in.ID), in.Amount; got != want {
		t.Errorf("AmountRefunded = %d, want %d", got, want)
	}
	if stored, _ := p.Intent(in.ID); !stored.Refunded() {
		t.Error("Refunded() = false after a full refund, want true")
	}
}

func TestRefundReplaysByKey(t *testing.T) {
	p := paymenttest.New()
	in := intentIn(t, p, succeededAuto)

	first := refund(t, p, in.ID, 5000, "refund-1")
	second := refund(t, p, in.ID, 5000, "refund-1")

	if !reflect.DeepEqual(*second, *first) {
		t.Errorf("replayed refund = %+v, want the first %+v", *second, *first)
	}
	if got, want := refunded(t, p, in.ID), int64(5000); got != want {
		t.Errorf("AmountRefunded = %d, want %d (moved once)", got, want)
	}
	if got, want := len(p.Refunds(in.ID)), 1; got != want {
		t.Errorf("Refunds = %d, want %d", got, want)
	}
	if got, want := p.Calls(paymenttest.OpRefund), 2; got != want {
		t.Errorf("Calls(refund) = %d, want %d", got, want)
	}
	// Another key is another refund.
	refund(t, p, in.ID, 5000, "refund-2")
	if got, want := refunded(t, p, in.ID), int64(10000); got != want {
		t.Errorf("AmountRefunded after a second key = %d, want %d", got, want)
	}
}

func TestRefundReplayAfterFullRefund(t *testing.T) {
	// The replay answers even though nothing is left to refund: a retry of
	// a refund that went through must not look like a failure.
	p := paymenttest.New()
	in := intentIn(t, p, succeededAuto)
	first := refund(t, p, in.ID, 12000, "refund-all")
	if again := refund(t, p, in.ID, 12000, "refund-all"); again.ID != first.ID {
		t.Errorf("replay id = %s, want %s", again.ID, first.ID)
	}
}

func TestRefundKeyReusedErrInvalid(t *testing.T) {
	tests := []struct {
		name   string
		params func(first, other string) payment.RefundParams
	}{
		{"other amount", func(first, _ string) payment.RefundParams {
			return payment.RefundParams{IntentID: first, Amount: 6000, IdempotencyKey: "refund-1"}
		}},
		{"other intent", func(_, other string) payment.RefundParams {
			return payment.RefundParams{IntentID: other, Amount: 5000, IdempotencyKey: "refund-1"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := paymenttest.New()
			first := intentIn(t, p, succeededAuto)
			other := intentIn(t, p, succeededAuto)
			refund(t, p, first.ID, 5000, "refund-1")

			got, err := p.Refund(context.Background(), tt.params(first.ID, other.ID))

			if !errors.Is(err, payment.ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if got != nil {
				t.Errorf("refund = %+v, want nil", got)
			}
			if got, want := refunded(t, p, first.ID), int64(5000); got != want {
				t.Errorf("first AmountRefunded = %d, want %d", got, want)
			}
			if got := refunded(t, p, other.ID); got != 0 {
				t.Errorf("other AmountRefunded = %d, want 0", got)
			}
		})
	}
}

func TestLeaveNextRefundPending(t *testing.T) {
	p := paymenttest.New()
	in := intentIn(t, p, succeededAuto)
	p.LeaveNextRefundPending()

	pending := refund(t, p, in.ID, 5000, "refund-1")
	next := refund(t, p, in.ID, 1000, "refund-2")

	if pending.Status != payment.RefundPending {
		t.Errorf("first refund status = %s, want %s", pending.Status, payment.RefundPending)
	}
	if next.Status != payment.RefundSucceeded {
		t.Errorf("second refund status = %s, want %s (one pending only)", next.Status, payment.RefundSucceeded)
	}
	// As Stripe's amount_refunded, a pending refund counts.
	if got, want := refunded(t, p, in.ID), int64(6000); got != want {
		t.Errorf("AmountRefunded = %d, want %d", got, want)
	}
	settled, err := p.SettleRefund(pending.ID, payment.RefundSucceeded)
	if err != nil {
		t.Fatalf("SettleRefund: %v", err)
	}
	if settled.Status != payment.RefundSucceeded || settled.ID != pending.ID {
		t.Errorf("settled = %+v, want %s succeeded", *settled, pending.ID)
	}
	if got, want := refunded(t, p, in.ID), int64(6000); got != want {
		t.Errorf("AmountRefunded after success = %d, want %d", got, want)
	}
	if got := p.Refunds(in.ID)[0].Status; got != payment.RefundSucceeded {
		t.Errorf("Refunds()[0].Status = %s, want %s", got, payment.RefundSucceeded)
	}
}

func TestSettleRefundFailedGivesMoneyBack(t *testing.T) {
	tests := []struct {
		name    string
		pending bool
		settle  []payment.RefundStatus
	}{
		{"pending then failed", true, []payment.RefundStatus{payment.RefundFailed}},
		{"pending then canceled", true, []payment.RefundStatus{payment.RefundCanceled}},
		// Stripe can fail a refund it had reported succeeded.
		{"succeeded then failed", false, []payment.RefundStatus{payment.RefundFailed}},
		// The money comes back once, however often it is settled.
		{"failed twice", true, []payment.RefundStatus{payment.RefundFailed, payment.RefundFailed}},
		{"failed then canceled", true, []payment.RefundStatus{payment.RefundFailed, payment.RefundCanceled}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := paymenttest.New()
			in := intentIn(t, p, succeededAuto)
			if tt.pending {
				p.LeaveNextRefundPending()
			}
			r := refund(t, p, in.ID, 12000, "refund-all")
			for _, s := range tt.settle {
				got, err := p.SettleRefund(r.ID, s)
				if err != nil {
					t.Fatalf("SettleRefund(%s): %v", s, err)
				}
				if got.Status != s {
					t.Errorf("SettleRefund status = %s, want %s", got.Status, s)
				}
			}

			if got := refunded(t, p, in.ID); got != 0 {
				t.Errorf("AmountRefunded = %d, want 0", got)
			}
			// The whole amount is refundable again.
			again := refund(t, p, in.ID, 12000, "refund-all-again")
			if again.ID == r.ID {
				t.Errorf("new refund has the failed refund's id %s", r.ID)
			}
			if got, want := refunded(t, p, in.ID), int64(12000); got != want {
				t.Errorf("AmountRefunded after refunding again = %d, want %d", got, want)
			}
		})
	}
}

func TestSettleRefundFailedThenSucceededCountsAgain(t *testing.T) {
	p := paymenttest.New()
	in := intentIn(t, p, succeededAuto)
	r := refund(t, p, in.ID, 5000, "")
	for _, s := range []payment.RefundStatus{payment.RefundFailed, payment.RefundSucceeded} {
		if _, err := p.SettleRefund(r.ID, s); err != nil {
			t.Fatalf("SettleRefund(%s): %v", s, err)
		}
	}
	if got, want := refunded(t, p, in.ID), int64(5000); got != want {
		t.Errorf("AmountRefunded = %d, want %d", got, want)
	}
}

func TestSettleRefundErrNotFound(t *testing.T) {
	_, err := paymenttest.New().SettleRefund("re_unknown", payment.RefundFailed)
	if !errors.Is(err, payment.ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
}

func TestSimulateDashboardRefund(t *testing.T) {
	p := paymenttest.New()
	in := intentIn(t, p, succeededAuto)
	p.SetDown(true) // the dashboard is not the engine's connection
	r, err := p.SimulateDashboardRefund(in.ID, 3000)
	if err != nil {
		t.Fatalf("SimulateDashboardRefund: %v", err)
	}
	p.SetDown(false)

	want := payment.Refund{ID: r.ID, IntentID: in.ID, Amount: 3000, Currency: "EUR", Status: payment.RefundSucceeded}
	if !reflect.DeepEqual(*r, want) {
		t.Errorf("refund = %+v, want %+v", *r, want)
	}
	if got := p.Refunds(in.ID); len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("Refunds = %+v, want [%+v]", got, want)
	}
	if got, want := refunded(t, p, in.ID), int64(3000); got != want {
		t.Errorf("AmountRefunded = %d, want %d", got, want)
	}
	if got := p.Calls(paymenttest.OpRefund); got != 0 {
		t.Errorf("Calls(refund) = %d, want 0", got)
	}
	// The engine's refunds see what the dashboard took.
	if _, err := p.Refund(context.Background(), payment.RefundParams{IntentID: in.ID, Amount: 9001}); !errors.Is(err, payment.ErrInvalid) {
		t.Errorf("Refund of more than remains: err = %v, want ErrInvalid", err)
	}
	refund(t, p, in.ID, 9000, "")
}

func TestSimulateDashboardRefundErrInvalid(t *testing.T) {
	tests := []struct {
		name   string
		from   start
		amount int64
	}{
		{"not succeeded", authorizedManual, 100},
		{"zero", succeededAuto, 0},
		{"more than received", succeededAuto, 12001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := paymenttest.New()
			in := intentIn(t, p, tt.from)
			if _, err := p.SimulateDashboardRefund(in.ID, tt.amount); !errors.Is(err, payment.ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
			if got := p.Refunds(in.ID); len(got) != 0 {
				t.Errorf("Refunds = %+v, want none", got)
			}
		})
	}
}

func TestRefundsUnknownIntent(t *testing.T) {
	if got := paymenttest.New().Refunds("pi_unknown"); got != nil {
		t.Errorf("Refunds(unknown) = %+v, want nil", got)
	}
}
