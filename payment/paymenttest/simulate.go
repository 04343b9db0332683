package paymenttest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/staykit/staykit/payment"
)

// Test card numbers Pay understands, as on Stripe.
const (
	// CardSucceeds pays (or authorises, for manual capture).
	CardSucceeds = "4242424242424242"
	// CardDeclined is refused; the intent stays payable.
	CardDeclined = "4000000000000002"
)

// ErrCardDeclined is what Pay returns, wrapped, for CardDeclined.
var ErrCardDeclined = errors.New("card declined")

// SimulatePaid is the guest paying successfully: an intent in
// StatusRequiresPayment or StatusProcessing becomes StatusSucceeded with the
// whole amount received, or StatusAuthorized if it uses manual capture.
// Other statuses are ErrState; an unknown id is ErrNotFound.
func (p *Provider) SimulatePaid(id string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	in, err := p.paid(id)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: simulate paid %s: %w", id, err)
	}
	return in, nil
}

// paid applies SimulatePaid's rules; the caller holds p.mu and wraps the
// error.
func (p *Provider) paid(id string) (*payment.Intent, error) {
	rec, err := p.lookup(id)
	if err != nil {
		return nil, err
	}
	to := payment.StatusSucceeded
	if rec.intent.ManualCapture {
		to = payment.StatusAuthorized
	}
	if err := rec.move(to, payment.StatusRequiresPayment, payment.StatusRequiresAction, payment.StatusProcessing); err != nil {
		return nil, err
	}
	if rec.intent.PaymentMethod == "" {
		rec.intent.PaymentMethod = SavedPaymentMethod
	}
	rec.intent.LastPaymentError = ""
	if to == payment.StatusSucceeded {
		rec.intent.AmountReceived = rec.intent.Amount
	} else {
		rec.intent.CaptureBefore = p.now().Add(rec.window())
	}
	return clone(rec.intent), nil
}

// window is how long an authorisation of the intent lasts: shorter when
// the merchant initiated it off session.
func (r *record) window() time.Duration {
	if r.offSession {
		return OffSessionAuthorizationWindow
	}
	return AuthorizationWindow
}

// SimulateAuthorized is the card being authorised on a manual-capture
// intent: StatusRequiresPayment or StatusProcessing becomes StatusAuthorized.
// An automatic-capture intent cannot be authorised without being captured,
// so it is ErrState, as are other statuses; an unknown id is ErrNotFound.
func (p *Provider) SimulateAuthorized(id string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, err := p.lookup(id)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: simulate authorized %s: %w", id, err)
	}
	if !rec.intent.ManualCapture {
		return nil, fmt.Errorf("paymenttest: simulate authorized %s: intent captures automatically: %w", id, payment.ErrState)
	}
	if err := rec.move(payment.StatusAuthorized, payment.StatusRequiresPayment, payment.StatusRequiresAction, payment.StatusProcessing); err != nil {
		return nil, fmt.Errorf("paymenttest: simulate authorized %s: %w", id, err)
	}
	rec.intent.CaptureBefore = p.now().Add(AuthorizationWindow)
	return clone(rec.intent), nil
}

// SimulateProcessing is the provider still working on a payment (a bank
// debit, say): StatusRequiresPayment becomes StatusProcessing. Other
// statuses are ErrState; an unknown id is ErrNotFound.
func (p *Provider) SimulateProcessing(id string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, err := p.lookup(id)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: simulate processing %s: %w", id, err)
	}
	if err := rec.move(payment.StatusProcessing, payment.StatusRequiresPayment); err != nil {
		return nil, fmt.Errorf("paymenttest: simulate processing %s: %w", id, err)
	}
	return clone(rec.intent), nil
}

// SimulateDeclined is a payment attempt failing: an intent in
// StatusRequiresPayment, StatusRequiresAction (the guest failed 3-D Secure)
// or StatusProcessing returns to (or stays in) StatusRequiresPayment, so
// another card may be tried, and FailedAttempts grows by one. Other
// statuses are ErrState; an unknown id is ErrNotFound.
func (p *Provider) SimulateDeclined(id string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	in, err := p.declined(id)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: simulate declined %s: %w", id, err)
	}
	return in, nil
}

// declined applies SimulateDeclined's rules; the caller holds p.mu and wraps
// the error.
func (p *Provider) declined(id string) (*payment.Intent, error) {
	rec, err := p.lookup(id)
	if err != nil {
		return nil, err
	}
	if err := rec.move(payment.StatusRequiresPayment, payment.StatusRequiresPayment, payment.StatusRequiresAction, payment.StatusProcessing); err != nil {
		return nil, err
	}
	rec.failed++
	return clone(rec.intent), nil
}

// SimulateCanceled is the intent being canceled outside the engine (from the
// provider's dashboard, say). It follows CancelIntent's rules but ignores
// SetDown and FailNext and is not counted by Calls.
func (p *Provider) SimulateCanceled(id string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	in, err := p.cancel(id, false)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: simulate canceled %s: %w", id, err)
	}
	return in, nil
}

// Pay is the guest's browser paying intent id with a test card, the way the
// reference server's /fakepay route does. Spaces and dashes in cardNumber are
// ignored. CardSucceeds acts as SimulatePaid. CardDeclined acts as
// SimulateDeclined and returns the updated intent together with an error
// wrapping ErrCardDeclined. Any other number is ErrInvalid. Illegal moves
// are ErrState, an unknown id ErrNotFound. Pay obeys SetDown and
// FailNext(OpPay, ...), failing with the intent unchanged.
func (p *Provider) Pay(id, cardNumber string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.begin(context.Background(), OpPay); err != nil {
		return nil, fmt.Errorf("paymenttest: pay intent %s: %w", id, err)
	}
	var in *payment.Intent
	var err error
	switch strings.NewReplacer(" ", "", "-", "").Replace(cardNumber) {
	case CardSucceeds:
		in, err = p.paid(id)
	case CardDeclined:
		in, err = p.declined(id)
		if err == nil {
			return in, fmt.Errorf("paymenttest: pay intent %s: %w", id, ErrCardDeclined)
		}
	default:
		err = fmt.Errorf("card number is not a test card: %w", payment.ErrInvalid)
	}
	if err != nil {
		return nil, fmt.Errorf("paymenttest: pay intent %s: %w", id, err)
	}
	return in, nil
}

// SimulateRequiresAction is the card asking for 3-D Secure:
// StatusRequiresPayment becomes StatusRequiresAction until the guest
// completes it (SimulatePaid or SimulateAuthorized) or the intent is
// canceled. Other statuses are ErrState; an unknown id is ErrNotFound.
func (p *Provider) SimulateRequiresAction(id string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, err := p.lookup(id)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: simulate requires action %s: %w", id, err)
	}
	if err := rec.move(payment.StatusRequiresAction, payment.StatusRequiresPayment); err != nil {
		return nil, fmt.Errorf("paymenttest: simulate requires action %s: %w", id, err)
	}
	return clone(rec.intent), nil
}

// SimulateDashboardRefund is the host refunding amount minor units from the
// provider's dashboard, out of the engine's sight until an event tells it.
// It follows Refund's rules but ignores SetDown, FailNext and idempotency.
func (p *Provider) SimulateDashboardRefund(id string, amount int64) (*payment.Refund, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, err := p.lookup(id)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: simulate dashboard refund %s: %w", id, err)
	}
	if rec.intent.Status != payment.StatusSucceeded || amount <= 0 || amount > rec.intent.AmountReceived-rec.intent.AmountRefunded {
		return nil, fmt.Errorf("paymenttest: simulate dashboard refund %s of %d: %w", id, amount, payment.ErrInvalid)
	}
	r := *p.addRefund(rec, amount, payment.RefundSucceeded)
	return &r, nil
}

// SettleRefund sets a refund's final status: RefundSucceeded, or
// RefundFailed (the money comes back to the intent, as when a card was
// closed). Unknown ids are ErrNotFound.
func (p *Provider) SettleRefund(refundID string, status payment.RefundStatus) (*payment.Refund, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.refunds[refundID]
	if !ok {
		return nil, fmt.Errorf("paymenttest: settle refund %s: %w", refundID, payment.ErrNotFound)
	}
	// Only the move between counted (pending, succeeded) and not counted
	// (failed, canceled) changes the intent's refunded amount: settling a
	// failed refund as canceled must not give its money back twice.
	switch was, is := countsAsRefunded(r.Status), countsAsRefunded(status); {
	case was && !is:
		p.intents[r.IntentID].intent.AmountRefunded -= r.Amount
	case !was && is:
		p.intents[r.IntentID].intent.AmountRefunded += r.Amount
	}
	r.Status = status
	out := *r
	return &out, nil
}

// Refunds returns copies of an intent's refunds, oldest first.
func (p *Provider) Refunds(intentID string) []payment.Refund {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.intents[intentID]
	if !ok {
		return nil
	}
	out := make([]payment.Refund, 0, len(rec.refunds))
	for _, id := range rec.refunds {
		out = append(out, *p.refunds[id])
	}
	return out
}

// countsAsRefunded reports whether a refund in status s counts in its
// intent's AmountRefunded, as in Stripe's amount_refunded.
func countsAsRefunded(s payment.RefundStatus) bool {
	return s != payment.RefundFailed && s != payment.RefundCanceled
}
