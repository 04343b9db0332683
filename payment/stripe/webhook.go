package stripe

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/staykit/staykit/payment"
)

// ParseWebhook verifies a webhook payload against its Stripe-Signature
// header with the webhook secret and returns the event. The signature's
// timestamp must be within stripe-go's default tolerance of 300s of now,
// on either side: stripe-go refuses older ones, and a timestamp ahead of
// the clock by more than that is refused here too, so that no signature
// stays replayable for longer than five minutes.
//
// The event's api_version is not checked against stripe-go's pinned one
// (IgnoreAPIVersionMismatch): Stripe renders an event in the API version of
// the webhook endpoint, or the account's default version, which may well
// differ from 2023-10-16. That is safe here because the only object read is
// the payment_intent in data.object, and only through the fields that have
// kept their name and type across versions (id, amount, amount_received,
// currency, status, capture_method, client_secret, metadata, created),
// decoded into a narrow struct that ignores every other field, so a field
// that changed shape elsewhere in the object cannot make a genuine event
// unreadable.
//
// Events of type payment_intent.* come with Intent set; the engine acts on
// the four EventType constants and should ignore the other types, which are
// returned with their Stripe type as is. Events about other objects come
// with Intent nil.
//
// Errors: payment.ErrSignature for a missing, malformed or wrong signature
// or a timestamp outside the tolerance; payment.ErrInvalid for a signed
// payload that is not a readable event. Limiting the body size is the HTTP
// layer's job.
func (p *Provider) ParseWebhook(payload []byte, signature string) (*payment.Event, error) {
	return parseWebhook(payload, signature, p.webhookSecret)
}

// parseWebhook is ParseWebhook with the endpoint's secret.
func parseWebhook(payload []byte, signature, secret string) (*payment.Event, error) {
	if secret == "" {
		return nil, fmt.Errorf("stripe: webhook: %w: no webhook secret configured", payment.ErrSignature)
	}
	if t, ok := signatureTime(signature); ok && time.Until(t) > webhook.DefaultTolerance {
		return nil, fmt.Errorf("stripe: webhook: %w: timestamp %s is in the future", payment.ErrSignature, t.UTC().Format(time.RFC3339))
	}
	ev, err := webhook.ConstructEventWithOptions(payload, signature, secret, webhook.ConstructEventOptions{
		Tolerance:                webhook.DefaultTolerance,
		IgnoreAPIVersionMismatch: true,
	})
	switch {
	case errors.Is(err, webhook.ErrNotSigned), errors.Is(err, webhook.ErrInvalidHeader),
		errors.Is(err, webhook.ErrNoValidSignature), errors.Is(err, webhook.ErrTooOld):
		return nil, fmt.Errorf("stripe: webhook: %w: %w", payment.ErrSignature, err)
	case err != nil:
		// The signature is checked before the body is decoded, so this is a
		// genuine payload stripe-go could not read.
		return nil, fmt.Errorf("stripe: webhook: %w: %w", payment.ErrInvalid, err)
	}
	if ev.ID == "" || ev.Type == "" {
		return nil, fmt.Errorf("stripe: webhook: %w: event without id or type", payment.ErrInvalid)
	}
	out := &payment.Event{ID: ev.ID, Type: payment.EventType(ev.Type), Account: ev.Account}
	if out.Type == payment.EventAccountUpdated {
		if ev.Data == nil || len(ev.Data.Raw) == 0 {
			return nil, fmt.Errorf("stripe: webhook: event %s (%s): %w: no data.object", ev.ID, ev.Type, payment.ErrInvalid)
		}
		a, err := decodeAccount(ev.Data.Raw)
		if err != nil {
			return nil, fmt.Errorf("stripe: webhook: event %s (%s): %w: %w", ev.ID, ev.Type, payment.ErrInvalid, err)
		}
		out.Connected = a
		if out.Account == "" {
			out.Account = a.ID
		}
		return out, nil
	}
	if isChargeEvent(out.Type) {
		if ev.Data == nil || len(ev.Data.Raw) == 0 {
			return nil, fmt.Errorf("stripe: webhook: event %s (%s): %w: no data.object", ev.ID, ev.Type, payment.ErrInvalid)
		}
		if err := decodeChargeEvent(out, ev.Data.Raw); err != nil {
			return nil, fmt.Errorf("stripe: webhook: event %s (%s): %w: %w", ev.ID, ev.Type, payment.ErrInvalid, err)
		}
		return out, nil
	}
	if !strings.HasPrefix(string(ev.Type), "payment_intent.") {
		return out, nil
	}
	if ev.Data == nil || len(ev.Data.Raw) == 0 {
		return nil, fmt.Errorf("stripe: webhook: event %s (%s): %w: no data.object", ev.ID, ev.Type, payment.ErrInvalid)
	}
	pi, err := decodeIntent(ev.Data.Raw)
	if err != nil {
		return nil, fmt.Errorf("stripe: webhook: event %s (%s): %w: %w", ev.ID, ev.Type, payment.ErrInvalid, err)
	}
	out.Intent = toIntent(pi)
	return out, nil
}

// signatureTime reads the t= timestamp of a Stripe-Signature header.
func signatureTime(header string) (time.Time, bool) {
	for part := range strings.SplitSeq(header, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(part), "t="); ok {
			sec, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return time.Time{}, false
			}
			return time.Unix(sec, 0), true
		}
	}
	return time.Time{}, false
}

// eventIntent holds the payment_intent fields ParseWebhook reads. Fields not
// listed, whatever their shape in the event's API version, are skipped.
type eventIntent struct {
	ID             string            `json:"id"`
	Object         string            `json:"object"`
	Amount         int64             `json:"amount"`
	AmountReceived int64             `json:"amount_received"`
	Currency       string            `json:"currency"`
	Status         string            `json:"status"`
	CaptureMethod  string            `json:"capture_method"`
	ClientSecret   string            `json:"client_secret"`
	Metadata       map[string]string `json:"metadata"`
	Created        int64             `json:"created"`
}

func decodeIntent(raw []byte) (*stripego.PaymentIntent, error) {
	var ei eventIntent
	if err := json.Unmarshal(raw, &ei); err != nil {
		return nil, fmt.Errorf("decoding data.object: %w", err)
	}
	if ei.Object != "payment_intent" || ei.ID == "" {
		return nil, fmt.Errorf("data.object is %q %q, not a payment_intent", ei.Object, ei.ID)
	}
	return &stripego.PaymentIntent{
		ID:             ei.ID,
		Object:         ei.Object,
		Amount:         ei.Amount,
		AmountReceived: ei.AmountReceived,
		Currency:       stripego.Currency(ei.Currency),
		Status:         stripego.PaymentIntentStatus(ei.Status),
		CaptureMethod:  stripego.PaymentIntentCaptureMethod(ei.CaptureMethod),
		ClientSecret:   ei.ClientSecret,
		Metadata:       ei.Metadata,
		Created:        ei.Created,
	}, nil
}
