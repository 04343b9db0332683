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

// CreateIntent creates a card PaymentIntent. Cards (wallets such as Apple
// Pay and Google Pay are cards to Stripe) settle at once: the slow methods
// that automatic payment methods would offer (bank debits) stay
// "processing" for days, longer than any hold on the dates. Amounts below
// the currency's Stripe minimum (see MinimumAmount) or not expressible in
// Stripe's units (see stripeAmount) are refused with payment.ErrInvalid
// before any request.
func (p *Provider) CreateIntent(ctx context.Context, cp payment.CreateParams) (*payment.Intent, error) {
	if err := validateCreate(cp); err != nil {
		return nil, fmt.Errorf("stripe: create intent: %w", err)
	}
	amount, _ := stripeAmount(cp.Amount, cp.Currency) // checked by validateCreate
	params := &stripego.PaymentIntentParams{
		Amount:             stripego.Int64(amount),
		Currency:           stripego.String(strings.ToLower(cp.Currency)),
		PaymentMethodTypes: stripego.StringSlice([]string{"card"}),
		Metadata:           maps.Clone(cp.Metadata),
	}
	if cp.ManualCapture {
		params.CaptureMethod = stripego.String(string(stripego.PaymentIntentCaptureMethodManual))
	}
	if cp.Customer != "" {
		params.Customer = stripego.String(cp.Customer)
	}
	if cp.SaveCard {
		// The guest agreed, at checkout, to have the card kept for the
		// balance and the security deposit.
		params.SetupFutureUsage = stripego.String(string(stripego.PaymentIntentSetupFutureUsageOffSession))
	}
	p.connectCharge(params, cp.ApplicationFee, cp.Currency)
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
	stripeUnits, err := stripeAmount(cp.Amount, cp.Currency)
	if err != nil {
		return err
	}
	if minimum, ok := MinimumAmount(cp.Currency); ok && stripeUnits < minimum {
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
	p.scope(&params.Params)
	pi, err := p.api.PaymentIntents.Get(id, params)
	if err != nil {
		return nil, mapError("get intent "+id, err)
	}
	if !p.owns(pi) {
		return nil, fmt.Errorf("stripe: get intent %s: %w: not a charge of account %s", id, payment.ErrNotFound, p.account)
	}
	return toIntent(pi), nil
}

// CaptureIntent captures the whole authorised amount of a requires_capture
// intent.
func (p *Provider) CaptureIntent(ctx context.Context, id, key string) (*payment.Intent, error) {
	if id == "" {
		return nil, fmt.Errorf("stripe: capture intent: %w: empty id", payment.ErrNotFound)
	}
	params := &stripego.PaymentIntentCaptureParams{}
	params.Context = ctx
	params.AddExpand(expandCharge)
	if err := setKey(&params.Params, key); err != nil {
		return nil, fmt.Errorf("stripe: capture intent %s: %w", id, err)
	}
	if err := p.checkOwned(ctx, id); err != nil {
		return nil, fmt.Errorf("stripe: capture intent %s: %w", id, err)
	}
	p.scope(&params.Params)
	pi, err := p.api.PaymentIntents.Capture(id, params)
	if err != nil {
		return nil, mapError("capture intent "+id, err)
	}
	return toIntent(pi), nil
}

// CancelIntent cancels an intent that has not succeeded, releasing an
// authorisation if there is one.
func (p *Provider) CancelIntent(ctx context.Context, id, key string) (*payment.Intent, error) {
	if id == "" {
		return nil, fmt.Errorf("stripe: cancel intent: %w: empty id", payment.ErrNotFound)
	}
	params := &stripego.PaymentIntentCancelParams{}
	params.Context = ctx
	params.AddExpand(expandCharge)
	if err := setKey(&params.Params, key); err != nil {
		return nil, fmt.Errorf("stripe: cancel intent %s: %w", id, err)
	}
	if err := p.checkOwned(ctx, id); err != nil {
		return nil, fmt.Errorf("stripe: cancel intent %s: %w", id, err)
	}
	p.scope(&params.Params)
	pi, err := p.api.PaymentIntents.Cancel(id, params)
	if err != nil {
		return nil, mapError("cancel intent "+id, err)
	}
	return toIntent(pi), nil
}

// Refund refunds part or all of a succeeded intent and returns the refund,
// whose status may still be pending (charge.refund.updated settles it).
func (p *Provider) Refund(ctx context.Context, rp payment.RefundParams) (*payment.Refund, error) {
	if rp.IntentID == "" {
		return nil, fmt.Errorf("stripe: refund intent: %w: empty id", payment.ErrNotFound)
	}
	if rp.Amount <= 0 {
		return nil, fmt.Errorf("stripe: refund intent %s: %w: amount %d is not positive", rp.IntentID, payment.ErrInvalid, rp.Amount)
	}
	params := &stripego.RefundParams{PaymentIntent: stripego.String(rp.IntentID)}
	params.Context = ctx
	for k, v := range rp.Metadata {
		params.AddMetadata(k, v)
	}
	if err := setKey(&params.Params, rp.IdempotencyKey); err != nil {
		return nil, fmt.Errorf("stripe: refund intent %s: %w", rp.IntentID, err)
	}
	// The amount is in the intent's currency, which the refund request
	// does not carry: read it so the amount can be put in Stripe's units.
	in, err := p.GetIntent(ctx, rp.IntentID)
	if err != nil {
		return nil, fmt.Errorf("stripe: refund intent %s: %w", rp.IntentID, err)
	}
	amount, err := stripeAmount(rp.Amount, in.Currency)
	if err != nil {
		return nil, fmt.Errorf("stripe: refund intent %s: %w", rp.IntentID, err)
	}
	params.Amount = stripego.Int64(amount)
	p.connectRefund(params)
	re, err := p.api.Refunds.New(params)
	if err != nil {
		return nil, mapError("refund intent "+rp.IntentID, err)
	}
	return toRefund(re, rp.IntentID), nil
}

// setKey sets a request's idempotency key when there is one. A key longer
// than Stripe's limit is payment.ErrInvalid: stripe-go would refuse it with
// an untyped error, which mapError would report as ErrUnavailable, and the
// engine would retry a request that can never be sent.
func setKey(params *stripego.Params, key string) error {
	if len(strings.TrimSpace(key)) > maxIdempotencyKey {
		return fmt.Errorf("%w: idempotency key longer than %d characters", payment.ErrInvalid, maxIdempotencyKey)
	}
	if key != "" {
		params.IdempotencyKey = stripego.String(key)
	}
	return nil
}
