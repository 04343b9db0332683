package stripe

import (
	"context"
	"fmt"

	stripego "github.com/stripe/stripe-go/v76"

	"github.com/staykit/staykit/payment"
)

// ListRefunds lists an intent's refunds (GET /v1/refunds?payment_intent=),
// oldest first, with their metadata, so that the engine matches refunds to
// its ledger by key.
func (p *Provider) ListRefunds(ctx context.Context, intentID string) ([]payment.Refund, error) {
	if intentID == "" {
		return nil, fmt.Errorf("stripe: list refunds: %w: empty intent id", payment.ErrNotFound)
	}
	if err := p.checkOwned(ctx, intentID); err != nil {
		return nil, fmt.Errorf("stripe: list refunds of %s: %w", intentID, err)
	}
	params := &stripego.RefundListParams{PaymentIntent: stripego.String(intentID)}
	params.Context = ctx
	p.scope(&params.ListParams)
	it := p.api.Refunds.List(params)
	var out []payment.Refund
	for it.Next() {
		out = append(out, *toRefund(it.Refund(), intentID))
	}
	if err := it.Err(); err != nil {
		return nil, mapError("list refunds of "+intentID, err)
	}
	// Stripe lists newest first.
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// IntentByKey finds the intent of customer whose metadata carries key
// (GET /v1/payment_intents?customer=, read in full: the list is consistent
// at once, unlike the search API, which lags by up to a minute).
func (p *Provider) IntentByKey(ctx context.Context, customer, key string) (*payment.Intent, error) {
	if customer == "" || key == "" {
		return nil, fmt.Errorf("stripe: find intent: %w: no customer or key", payment.ErrNotFound)
	}
	params := &stripego.PaymentIntentListParams{Customer: stripego.String(customer)}
	params.Context = ctx
	params.AddExpand("data." + expandCharge)
	p.scope(&params.ListParams)
	it := p.api.PaymentIntents.List(params)
	for it.Next() {
		pi := it.PaymentIntent()
		if pi.Metadata[payment.MetadataKey] == key && p.owns(pi) {
			return toIntent(pi), nil
		}
	}
	if err := it.Err(); err != nil {
		return nil, mapError("find intent "+key, err)
	}
	return nil, fmt.Errorf("stripe: find intent %s of %s: %w", key, customer, payment.ErrNotFound)
}
