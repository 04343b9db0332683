package paymenttest

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/staykit/staykit/payment"
)

var _ payment.SavedCards = (*Provider)(nil)

// SavedPaymentMethod is the id of the card a fake intent was paid with; an
// intent created with SaveCard keeps it on its customer.
const SavedPaymentMethod = "pm_fake_saved"

// Outcomes of an off-session attempt, for NextOffSession.
const (
	OffSessionSucceeds      = "succeeds"
	OffSessionDeclined      = payment.ErrorCardDeclined
	OffSessionAuthenticates = payment.ErrorAuthenticationRequired
)

// idemSave remembers the first off-session answer of an idempotency key.
type idemSave struct {
	params payment.SavedChargeParams
	id     string
}

// NextOffSession queues the outcomes of the next off-session attempts
// (ChargeSaved and ConfirmSaved), one per attempt; without any, they
// succeed.
func (p *Provider) NextOffSession(outcomes ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.offSession = append(p.offSession, outcomes...)
}

// CreateCustomer returns a new customer id ("cus_..."); a repeated key
// returns the first. It obeys SetDown and FailNext(OpCustomer, ...).
func (p *Provider) CreateCustomer(ctx context.Context, c payment.CustomerParams) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.begin(ctx, OpCustomer); err != nil {
		return "", fmt.Errorf("paymenttest: create customer: %w", err)
	}
	if id, ok := p.customers[c.IdempotencyKey]; ok && c.IdempotencyKey != "" {
		return id, nil
	}
	id := "cus_" + strings.TrimPrefix(newIntentID(), "pi_")
	if c.IdempotencyKey != "" {
		p.customers[c.IdempotencyKey] = id
	}
	return id, nil
}

// ChargeSaved creates an intent on the customer and confirms it off
// session: it succeeds (or is authorised, with ManualCapture) unless
// NextOffSession queued a decline or an authentication. A repeated key
// returns the first intent as it is now; with other parameters it is
// ErrInvalid.
func (p *Provider) ChargeSaved(ctx context.Context, c payment.SavedChargeParams) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.begin(ctx, OpChargeSaved); err != nil {
		return nil, fmt.Errorf("paymenttest: charge saved card: %w", err)
	}
	switch {
	case c.Customer == "" || c.PaymentMethod == "":
		return nil, fmt.Errorf("paymenttest: charge saved card: no customer or card: %w", payment.ErrInvalid)
	case c.Amount <= 0 || c.Amount > MaxAmount:
		return nil, fmt.Errorf("paymenttest: charge saved card: amount %d outside 1..%d: %w", c.Amount, MaxAmount, payment.ErrInvalid)
	case !isCurrencyCode(c.Currency):
		return nil, fmt.Errorf("paymenttest: charge saved card: currency %q: %w", c.Currency, payment.ErrInvalid)
	}
	c.Currency = strings.ToUpper(c.Currency)
	if err := p.canCharge(); err != nil {
		return nil, fmt.Errorf("paymenttest: charge saved card: %w", err)
	}
	if prev, ok := p.saved[c.IdempotencyKey]; ok && c.IdempotencyKey != "" && p.remembers(OpChargeSaved, c.IdempotencyKey) {
		if prev.params.Amount != c.Amount || prev.params.Currency != c.Currency || prev.params.Customer != c.Customer || prev.params.ManualCapture != c.ManualCapture {
			return nil, fmt.Errorf("paymenttest: charge saved card: idempotency key %q reused with different parameters: %w", c.IdempotencyKey, payment.ErrInvalid)
		}
		return clone(p.intents[prev.id].intent), nil
	}
	id := newIntentID()
	rec := &record{intent: payment.Intent{
		ID: id, ClientSecret: newClientSecret(id), Amount: c.Amount, Currency: c.Currency,
		Status: payment.StatusRequiresPayment, ManualCapture: c.ManualCapture, Metadata: maps.Clone(c.Metadata),
		Created: p.now(), Customer: c.Customer, PaymentMethod: c.PaymentMethod,
	}, account: p.scope, fee: c.ApplicationFee, offSession: true}
	p.intents[id] = rec
	p.order = append(p.order, id)
	if c.IdempotencyKey != "" {
		p.saved[c.IdempotencyKey] = idemSave{params: c, id: id}
		p.keyUsed[OpChargeSaved+"\x00"+c.IdempotencyKey] = p.now()
	}
	p.attemptOffSession(rec)
	if p.lose(OpChargeSaved) {
		return nil, fmt.Errorf("paymenttest: charge saved card: applied, response lost: %w", payment.ErrUnavailable)
	}
	return clone(rec.intent), nil
}

// ConfirmSaved tries a declined off-session intent again.
func (p *Provider) ConfirmSaved(ctx context.Context, id, paymentMethod, key string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	in, err := p.mutate(ctx, OpConfirmSaved, key, id, func() (*payment.Intent, error) {
		rec, err := p.lookupScoped(id)
		if err != nil {
			return nil, err
		}
		if rec.intent.Status != payment.StatusRequiresPayment {
			return nil, fmt.Errorf("cannot confirm an intent that is %s: %w", rec.intent.Status, payment.ErrState)
		}
		rec.intent.PaymentMethod = paymentMethod
		p.attemptOffSession(rec)
		return clone(rec.intent), nil
	})
	if err != nil {
		return nil, fmt.Errorf("paymenttest: confirm saved card on %s: %w", id, err)
	}
	return in, nil
}

// attemptOffSession applies the next queued outcome to a payable intent;
// the caller holds p.mu.
func (p *Provider) attemptOffSession(rec *record) {
	outcome := OffSessionSucceeds
	if len(p.offSession) > 0 {
		outcome, p.offSession = p.offSession[0], p.offSession[1:]
	}
	switch outcome {
	case OffSessionDeclined:
		rec.failed++
		rec.intent.LastPaymentError = payment.ErrorCardDeclined
	case OffSessionAuthenticates:
		rec.intent.Status = payment.StatusRequiresAction
		rec.intent.LastPaymentError = payment.ErrorAuthenticationRequired
	default:
		_, _ = p.paid(rec.intent.ID)
	}
}

// CaptureAmount takes amount of an authorised intent; the rest is
// released, as on Stripe (amount_to_capture).
func (p *Provider) CaptureAmount(ctx context.Context, id string, amount int64, key string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	in, err := p.mutate(ctx, OpCaptureAmount, key, id, func() (*payment.Intent, error) {
		rec, err := p.lookupScoped(id)
		if err != nil {
			return nil, err
		}
		if amount <= 0 || amount > rec.intent.Amount {
			return nil, fmt.Errorf("amount %d outside 1..%d: %w", amount, rec.intent.Amount, payment.ErrInvalid)
		}
		if err := rec.move(payment.StatusSucceeded, payment.StatusAuthorized); err != nil {
			return nil, err
		}
		rec.intent.AmountReceived = amount
		return clone(rec.intent), nil
	})
	if err != nil {
		return nil, fmt.Errorf("paymenttest: capture %d of intent %s: %w", amount, id, err)
	}
	return in, nil
}
