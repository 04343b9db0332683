package paymenttest

import (
	"context"
	"errors"
	"fmt"
	"strings"

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
	if err := rec.move(to, payment.StatusRequiresPayment, payment.StatusProcessing); err != nil {
		return nil, err
	}
	if to == payment.StatusSucceeded {
		rec.intent.AmountReceived = rec.intent.Amount
	}
	return clone(rec.intent), nil
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
	if err := rec.move(payment.StatusAuthorized, payment.StatusRequiresPayment, payment.StatusProcessing); err != nil {
		return nil, fmt.Errorf("paymenttest: simulate authorized %s: %w", id, err)
	}
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
// StatusRequiresPayment or StatusProcessing returns to (or stays in)
// StatusRequiresPayment, so another card may be tried, and FailedAttempts
// grows by one. Other statuses are ErrState; an unknown id is ErrNotFound.
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
	if err := rec.move(payment.StatusRequiresPayment, payment.StatusRequiresPayment, payment.StatusProcessing); err != nil {
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
	in, err := p.cancel(id)
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
