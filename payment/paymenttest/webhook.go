package paymenttest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/payment"
)

// Fake webhook format. The payload is JSON:
//
//	{"id": "evt_...", "type": "payment_intent.succeeded", "created": 1700000000,
//	 "intent": {"id": "pi_...", "client_secret": "...", "amount": 12000,
//	            "amount_received": 12000, "amount_refunded": 0, "currency": "EUR",
//	            "status": "succeeded", "manual_capture": false,
//	            "metadata": {"booking": "..."}, "created": "2026-01-02T15:04:05Z"}}
//
// "intent" is null for events that concern no intent; statuses are the
// payment package's. The signature header is Stripe's shape,
// "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed with the
// webhook secret>"; several v1 entries may be given and one must match.
// As on Stripe, the timestamp must be within WebhookTolerance of the
// Provider's clock (WithClock), so a captured webhook cannot be replayed
// later; a test with a fake clock signs and parses at the same fake time.

// WebhookTolerance is how far a webhook's signature timestamp may be from
// the Provider's clock, before or after, for ParseWebhook to accept it:
// Stripe's five minutes.
const WebhookTolerance = 5 * time.Minute

type wireEvent struct {
	ID      string            `json:"id"`
	Type    payment.EventType `json:"type"`
	Created int64             `json:"created"`
	Intent  *wireIntent       `json:"intent"`
}

type wireIntent struct {
	ID             string               `json:"id"`
	ClientSecret   string               `json:"client_secret"`
	Amount         int64                `json:"amount"`
	AmountReceived int64                `json:"amount_received"`
	AmountRefunded int64                `json:"amount_refunded"`
	Currency       string               `json:"currency"`
	Status         payment.IntentStatus `json:"status"`
	ManualCapture  bool                 `json:"manual_capture"`
	Metadata       map[string]string    `json:"metadata"`
	Created        time.Time            `json:"created"`
}

// Event builds an event of type typ carrying a copy of intent id in its
// current state, with a fresh unique id "evt_...". The type is not checked
// against the intent's status, so tests can send stale or contradictory
// events. An empty id gives an event with no intent. Errors: ErrNotFound.
func (p *Provider) Event(typ payment.EventType, id string) (*payment.Event, error) {
	ev, err := p.event(typ, id)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: event %s for %s: %w", typ, id, err)
	}
	return ev, nil
}

// event builds Event's result; the caller wraps the error.
func (p *Provider) event(typ payment.EventType, id string) (*payment.Event, error) {
	ev := &payment.Event{ID: newEventID(), Type: typ}
	if id == "" {
		return ev, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, err := p.lookup(id)
	if err != nil {
		return nil, err
	}
	ev.Intent = clone(rec.intent)
	return ev, nil
}

// SignedWebhook builds Event(typ, intentID) and returns it as a webhook
// payload with its signature header, ready for ParseWebhook (or an HTTP
// webhook route backed by this Provider). Errors: ErrNotFound.
func (p *Provider) SignedWebhook(typ payment.EventType, intentID string) (payload []byte, signature string, err error) {
	ev, err := p.event(typ, intentID)
	if err != nil {
		return nil, "", fmt.Errorf("paymenttest: signed webhook %s for %s: %w", typ, intentID, err)
	}
	now := p.now()
	w := wireEvent{ID: ev.ID, Type: ev.Type, Created: now.Unix()}
	if in := ev.Intent; in != nil {
		w.Intent = &wireIntent{
			ID:             in.ID,
			ClientSecret:   in.ClientSecret,
			Amount:         in.Amount,
			AmountReceived: in.AmountReceived,
			AmountRefunded: in.AmountRefunded,
			Currency:       in.Currency,
			Status:         in.Status,
			ManualCapture:  in.ManualCapture,
			Metadata:       in.Metadata,
			Created:        in.Created,
		}
	}
	payload, err = json.Marshal(w)
	if err != nil {
		return nil, "", fmt.Errorf("paymenttest: signed webhook: encode: %w", err)
	}
	return payload, p.SignPayload(payload, now), nil
}

// SignPayload returns the signature header for any payload at time t, for
// tests that need a correctly signed but otherwise unusual payload.
func (p *Provider) SignPayload(payload []byte, t time.Time) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(p.mac(ts, payload))
}

func (p *Provider) mac(ts string, payload []byte) []byte {
	m := hmac.New(sha256.New, []byte(p.webhookSecret))
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(payload)
	return m.Sum(nil)
}

// ParseWebhook verifies the signature header over payload with the webhook
// secret and decodes the event (the format is described above). A missing,
// malformed or wrong signature, or a timestamp further than WebhookTolerance
// from the Provider's clock, is ErrSignature; a correctly signed payload
// that is not a valid event is ErrInvalid. It ignores SetDown and FailNext:
// verification needs no network.
func (p *Provider) ParseWebhook(payload []byte, signature string) (*payment.Event, error) {
	if !p.verify(payload, signature) {
		return nil, fmt.Errorf("paymenttest: parse webhook: %w", payment.ErrSignature)
	}
	var w wireEvent
	if err := json.Unmarshal(payload, &w); err != nil {
		return nil, fmt.Errorf("paymenttest: parse webhook: %w: %w", payment.ErrInvalid, err)
	}
	if w.ID == "" || w.Type == "" {
		return nil, fmt.Errorf("paymenttest: parse webhook: event id or type missing: %w", payment.ErrInvalid)
	}
	ev := &payment.Event{ID: w.ID, Type: w.Type}
	if in := w.Intent; in != nil {
		if in.ID == "" {
			return nil, fmt.Errorf("paymenttest: parse webhook %s: intent id missing: %w", w.ID, payment.ErrInvalid)
		}
		if !knownStatus(in.Status) {
			return nil, fmt.Errorf("paymenttest: parse webhook %s: unknown intent status %q: %w", w.ID, in.Status, payment.ErrInvalid)
		}
		ev.Intent = &payment.Intent{
			ID:             in.ID,
			ClientSecret:   in.ClientSecret,
			Amount:         in.Amount,
			AmountReceived: in.AmountReceived,
			AmountRefunded: in.AmountRefunded,
			Currency:       in.Currency,
			Status:         in.Status,
			ManualCapture:  in.ManualCapture,
			Metadata:       in.Metadata,
			Created:        in.Created,
		}
	}
	return ev, nil
}

// verify reports whether signature carries a timestamp within
// WebhookTolerance of the Provider's clock and a v1 HMAC of payload that
// matches.
func (p *Provider) verify(payload []byte, signature string) bool {
	var ts string
	var sigs [][]byte
	for part := range strings.SplitSeq(signature, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			ts = v
		case "v1":
			if b, err := hex.DecodeString(v); err == nil {
				sigs = append(sigs, b)
			}
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return false
	}
	if age := p.now().Sub(time.Unix(sec, 0)); age > WebhookTolerance || age < -WebhookTolerance {
		return false
	}
	want := p.mac(ts, payload)
	for _, s := range sigs {
		if hmac.Equal(s, want) {
			return true
		}
	}
	return false
}

func knownStatus(s payment.IntentStatus) bool {
	switch s {
	case payment.StatusRequiresPayment, payment.StatusRequiresAction, payment.StatusProcessing,
		payment.StatusAuthorized, payment.StatusSucceeded, payment.StatusCanceled:
		return true
	}
	return false
}
