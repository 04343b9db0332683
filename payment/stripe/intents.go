package stripe

import (
	"context"
	"fmt"
	"maps"
	"strings"

	stripego "github.com/stripe/stripe-go/v76"

	"github.com/staykit/staykit/payment"
)

// expandCharge asks Stripe to embed the latest charge in the intent, the
// only place its refunded amount is found.
const expandCharge = "latest_charge"

// maxIdempotencyKey is Stripe's limit; stripe-go refuses longer keys with
// an untyped error before sending anything.
const maxIdempotencyKey = 255

// CreateIntent creates a PaymentIntent with automatic payment methods.
// Amounts below the currency's Stripe minimum (see MinimumAmount) are
// refused with payment.ErrInvalid before any request.
func (p *Provider) CreateIntent(ctx context.Context, cp payment.CreateParams) (*payment.Intent, error) {
	if err := validateCreate(cp); err != nil {
		return nil, fmt.Errorf("stripe: create intent: %w", err)
	}
	params := &stripego.PaymentIntentParams{
		Amount:   stripego.Int64(cp.Amount),
		Currency: stripego.String(strings.ToLower(cp.Currency)),
		AutomaticPaymentMethods: &stripego.PaymentIntentAutomaticPaymentMethodsParams{
			Enabled: stripego.Bool(true),
		},
		Metadata: maps.Clone(cp.Metadata),
	}
	if cp.ManualCapture {
		params.CaptureMethod = stripego.String(string(stripego.PaymentIntentCaptureMethodManual))
	}
	params.Context = ctx
	if cp.IdempotencyKey != "" {
		params.IdempotencyKey = stripego.String(cp.IdempotencyKey)
	}
	pi, err := p.api.PaymentIntents.New(params)
	if err != nil {
		return nil, mapError("create intent", err)
	}
	return toIntent(pi), nil
}

func validateCreate(cp payment.CreateParams) error {
	if !isCurrencyCode(cp.Currency) {
		return fmt.Errorf("%w: currency %q is not an ISO 4217 code", payment.ErrInvalid, cp.Currency)
	}
	if cp.Amount <= 0 {
		return fmt.Errorf("%w: amount %d is not positive", payment.ErrInvalid, cp.Amount)
	}
	if minimum, ok := MinimumAmount(cp.Currency); ok && cp.Amount < minimum {
		return fmt.Errorf("%w: amount %d %s is below Stripe's minimum of %d",
			payment.ErrInvalid, cp.Amount, strings.ToUpper(cp.Currency), minimum)
	}
	if len(strings.TrimSpace(cp.IdempotencyKey)) > maxIdempotencyKey {
		return fmt.Errorf("%w: idempotency key longer than %d characters", payment.ErrInvalid, maxIdempotencyKey)
	}
	return nil
}

func isCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}

// GetIntent reads an intent, with its latest charge expanded so that
// AmountRefunded is filled in.
func (p *Provider) GetIntent(ctx context.Context, id string) (*payment.Intent, error) {
	if id == "" {
		return nil, fmt.Errorf("stripe: get intent: %w: empty id", payment.ErrNotFound)
	}
	params := &stripego.PaymentIntentParams{}
	params.Context = ctx
	params.AddExpand(expandCharge)
	pi, err := p.api.PaymentIntents.Get(id, params)
	if err != nil {
		return nil, mapError("get intent "+id, err)
	}
	return toIntent(pi), nil
}

// CaptureIntent captures the whole authorised amount of a requires_capture
// intent.
func (p *Provider) CaptureIntent(ctx context.Context, id string) (*payment.Intent, error) {
	if id == "" {
		return nil, fmt.Errorf("stripe: capture intent: %w: empty id", payment.ErrNotFound)
	}
	params := &stripego.PaymentIntentCaptureParams{}
	params.Context = ctx
	params.AddExpand(expandCharge)
	pi, err := p.api.PaymentIntents.Capture(id, params)
	if err != nil {
		return nil, mapError("capture intent "+id, err)
	}
	return toIntent(pi), nil
}

// CancelIntent cancels an intent that has not succeeded, releasing an
// authorisation if there is one.
func (p *Provider) CancelIntent(ctx context.Context, id string) (*payment.Intent, error) {
	if id == "" {
		return nil, fmt.Errorf("stripe: cancel intent: %w: empty id", payment.ErrNotFound)
	}
	params := &stripego.PaymentIntentCancelParams{}
	params.Context = ctx
	params.AddExpand(expandCharge)
	pi, err := p.api.PaymentIntents.Cancel(id, params)
	if err != nil {
		return nil, mapError("cancel intent "+id, err)
	}
	return toIntent(pi), nil
}

// Refund refunds amount minor units (0: all that remains) of a succeeded
// intent, then reads the intent back so AmountRefunded includes this
// refund. If that read fails, the refund has still been made, and the error
// says so.
func (p *Provider) Refund(ctx context.Context, id string, amount int64) (*payment.Intent, error) {
	if id == "" {
		return nil, fmt.Errorf("stripe: refund intent: %w: empty id", payment.ErrNotFound)
	}
	if amount < 0 {
		return nil, fmt.Errorf("stripe: refund intent %s: %w: negative amount %d", id, payment.ErrInvalid, amount)
	}
	params := &stripego.RefundParams{PaymentIntent: stripego.String(id)}
	if amount > 0 {
		params.Amount = stripego.Int64(amount)
	}
	params.Context = ctx
	re, err := p.api.Refunds.New(params)
	if err != nil {
		return nil, mapError("refund intent "+id, err)
	}
	in, err := p.GetIntent(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("stripe: refund %s of intent %s was created, but reading the intent back failed: %w", re.ID, id, err)
	}
	return in, nil
}
