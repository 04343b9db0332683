package stripe

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	stripego "github.com/stripe/stripe-go/v76"

	"github.com/staykit/staykit/payment"
)

var _ payment.SavedCards = (*Provider)(nil)

// CreateCustomer creates the Stripe Customer a guest's card is saved on.
func (p *Provider) CreateCustomer(ctx context.Context, c payment.CustomerParams) (string, error) {
	params := &stripego.CustomerParams{Metadata: maps.Clone(c.Metadata)}
	if c.Email != "" {
		params.Email = stripego.String(c.Email)
	}
	if c.Name != "" {
		params.Name = stripego.String(c.Name)
	}
	params.Context = ctx
	if err := setKey(&params.Params, c.IdempotencyKey); err != nil {
		return "", fmt.Errorf("stripe: create customer: %w", err)
	}
	// A direct charge's customer lives on the connected account; a
	// destination charge's on the platform.
	p.scope(&params.Params)
	cus, err := p.api.Customers.New(params)
	if err != nil {
		return "", mapError("create customer", err)
	}
	return cus.ID, nil
}

// ChargeSaved creates and confirms an off-session PaymentIntent on a saved
// card. Stripe answers a decline or a request for authentication with a
// 402 carrying the intent it created: that intent is returned, not an
// error.
func (p *Provider) ChargeSaved(ctx context.Context, c payment.SavedChargeParams) (*payment.Intent, error) {
	if c.Customer == "" || c.PaymentMethod == "" {
		return nil, fmt.Errorf("stripe: charge saved card: %w: no customer or payment method", payment.ErrInvalid)
	}
	if err := validateCreate(payment.CreateParams{Amount: c.Amount, Currency: c.Currency, IdempotencyKey: c.IdempotencyKey}); err != nil {
		return nil, fmt.Errorf("stripe: charge saved card: %w", err)
	}
	amount, _ := stripeAmount(c.Amount, c.Currency) // checked by validateCreate
	params := &stripego.PaymentIntentParams{
		Amount:             stripego.Int64(amount),
		Currency:           stripego.String(strings.ToLower(c.Currency)),
		Customer:           stripego.String(c.Customer),
		PaymentMethod:      stripego.String(c.PaymentMethod),
		PaymentMethodTypes: stripego.StringSlice([]string{"card"}),
		OffSession:         stripego.Bool(true),
		Confirm:            stripego.Bool(true),
		Metadata:           maps.Clone(c.Metadata),
	}
	if c.ManualCapture {
		params.CaptureMethod = stripego.String(string(stripego.PaymentIntentCaptureMethodManual))
	}
	p.connectCharge(params, c.ApplicationFee, c.Currency)
	params.Context = ctx
	if err := setKey(&params.Params, c.IdempotencyKey); err != nil {
		return nil, fmt.Errorf("stripe: charge saved card: %w", err)
	}
	pi, err := p.api.PaymentIntents.New(params)
	return offSessionOutcome("charge saved card", pi, err)
}

// ConfirmSaved confirms a declined off-session intent again.
func (p *Provider) ConfirmSaved(ctx context.Context, id, paymentMethod, key string) (*payment.Intent, error) {
	if id == "" {
		return nil, fmt.Errorf("stripe: confirm intent: %w: empty id", payment.ErrNotFound)
	}
	params := &stripego.PaymentIntentConfirmParams{OffSession: stripego.Bool(true)}
	if paymentMethod != "" {
		params.PaymentMethod = stripego.String(paymentMethod)
	}
	params.Context = ctx
	if err := setKey(&params.Params, key); err != nil {
		return nil, fmt.Errorf("stripe: confirm intent %s: %w", id, err)
	}
	if err := p.checkOwned(ctx, id); err != nil {
		return nil, fmt.Errorf("stripe: confirm intent %s: %w", id, err)
	}
	p.scope(&params.Params)
	pi, err := p.api.PaymentIntents.Confirm(id, params)
	return offSessionOutcome("confirm intent "+id, pi, err)
}

// offSessionOutcome returns the intent of an off-session attempt, also
// when Stripe refused the card (402 with the intent).
func offSessionOutcome(op string, pi *stripego.PaymentIntent, err error) (*payment.Intent, error) {
	var se *stripego.Error
	if err != nil && errors.As(err, &se) && se.PaymentIntent != nil && se.PaymentIntent.ID != "" {
		in := toIntent(se.PaymentIntent)
		if in.LastPaymentError == "" {
			in.LastPaymentError = string(se.Code)
			if se.Code == stripego.ErrorCodeAuthenticationRequired || se.DeclineCode == stripego.DeclineCodeAuthenticationRequired {
				in.LastPaymentError = payment.ErrorAuthenticationRequired
			}
		}
		return in, nil
	}
	if err != nil {
		return nil, mapError(op, err)
	}
	return toIntent(pi), nil
}

// CaptureAmount captures part of an authorised intent (amount_to_capture);
// Stripe releases the rest.
func (p *Provider) CaptureAmount(ctx context.Context, id string, amount int64, key string) (*payment.Intent, error) {
	if id == "" {
		return nil, fmt.Errorf("stripe: capture intent: %w: empty id", payment.ErrNotFound)
	}
	if amount <= 0 {
		return nil, fmt.Errorf("stripe: capture intent %s: %w: amount %d is not positive", id, payment.ErrInvalid, amount)
	}
	in, err := p.GetIntent(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("stripe: capture intent %s: %w", id, err)
	}
	units, err := stripeAmount(amount, in.Currency)
	if err != nil {
		return nil, fmt.Errorf("stripe: capture intent %s: %w", id, err)
	}
	params := &stripego.PaymentIntentCaptureParams{AmountToCapture: stripego.Int64(units)}
	params.Context = ctx
	params.AddExpand(expandCharge)
	if err := setKey(&params.Params, key); err != nil {
		return nil, fmt.Errorf("stripe: capture intent %s: %w", id, err)
	}
	p.scope(&params.Params) // GetIntent above checked the account
	pi, err := p.api.PaymentIntents.Capture(id, params)
	if err != nil {
		return nil, mapError("capture intent "+id, err)
	}
	return toIntent(pi), nil
}
