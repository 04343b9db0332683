package paymenttest

import (
	"context"
	"fmt"
	"slices"

	"github.com/staykit/staykit/payment"
)

// Operation names for FailNext and Calls.
const (
	OpCreate  = "create"
	OpGet     = "get"
	OpCapture = "capture"
	OpCancel  = "cancel"
	OpRefund  = "refund"
	OpPay     = "pay"
	// OpList is ListRefunds and IntentByKey (payment.Lookup).
	OpList = "list"
	// OpCustomer, OpChargeSaved, OpConfirmSaved and OpCaptureAmount are the
	// calls of payment.SavedCards.
	OpCustomer      = "customer"
	OpChargeSaved   = "charge_saved"
	OpConfirmSaved  = "confirm_saved"
	OpCaptureAmount = "capture_amount"
)

var operations = []string{OpList, OpCreate, OpGet, OpCapture, OpCancel, OpRefund, OpPay, OpCustomer, OpChargeSaved, OpConfirmSaved, OpCaptureAmount}

// SetDown takes the provider down (true) or back up (false). While it is
// down, CreateIntent, GetIntent, CaptureIntent, CancelIntent, Refund and Pay
// fail with an error wrapping payment.ErrUnavailable and change nothing.
func (p *Provider) SetDown(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
}

// FailNext makes the next call of operation op (one of the Op constants)
// fail with an error wrapping err, or payment.ErrUnavailable if err is nil,
// without changing state. Several FailNext calls queue up, one failure per
// call of op. It panics on an unknown op, a mistake in the test.
func (p *Provider) FailNext(op string, err error) {
	if !slices.Contains(operations, op) {
		panic(fmt.Sprintf("paymenttest: FailNext: unknown operation %q", op))
	}
	if err == nil {
		err = payment.ErrUnavailable
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failures[op] = append(p.failures[op], err)
}

// LoseNextResponse makes the next successful call of operation op (one of
// OpCreate, OpCapture, OpCancel, OpRefund) apply its change and then fail
// with an error wrapping payment.ErrUnavailable, as a timeout after the
// provider acted does. Several calls queue up. It panics on an unknown op.
func (p *Provider) LoseNextResponse(op string) {
	// Only the mutating calls consume a loss: a loss queued for get or pay
	// would wait forever, hiding the test's mistake.
	if !slices.Contains([]string{OpCreate, OpCapture, OpCancel, OpRefund, OpChargeSaved, OpCaptureAmount}, op) {
		panic(fmt.Sprintf("paymenttest: LoseNextResponse: unknown operation %q", op))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.losses[op]++
}

// lose reports whether the response of this call of op is to be lost, and
// counts it; the caller holds p.mu.
func (p *Provider) lose(op string) bool {
	if p.losses[op] == 0 {
		return false
	}
	p.losses[op]--
	return true
}

// LeaveNextRefundPending makes the next refund answer with status pending,
// as Stripe does for some payment methods; settle it with SettleRefund.
func (p *Provider) LeaveNextRefundPending() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pendingNext++
}

// Calls returns how many times operation op was called, counting calls that
// failed (for any reason) and idempotent replays.
func (p *Provider) Calls(op string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[op]
}

// begin counts a call of op and returns the error it must fail with, if any:
// a done context, the provider being down, or an injected failure. The
// caller holds p.mu.
func (p *Provider) begin(ctx context.Context, op string) error {
	p.calls[op]++
	p.scope = scopeOf(ctx)
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: %w", payment.ErrUnavailable, err)
	}
	if p.down {
		return fmt.Errorf("provider down: %w", payment.ErrUnavailable)
	}
	if queued := p.failures[op]; len(queued) > 0 {
		err := queued[0]
		p.failures[op] = queued[1:]
		return fmt.Errorf("injected failure: %w", err)
	}
	return nil
}
