package paymenttest

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/staykit/staykit/payment"
)

var _ payment.Provider = (*Provider)(nil)

// Default option values.
const (
	DefaultPublicKey     = "pk_test_fake"
	DefaultWebhookSecret = "whsec_fake"
)

// AuthorizationWindow is how long a card authorisation lasts before it
// lapses, as for most card networks on Stripe, when the guest authorised it
// in the browser (customer-initiated).
const AuthorizationWindow = 7 * 24 * time.Hour

// OffSessionAuthorizationWindow is how long an off-session
// (merchant-initiated) authorisation lasts. Visa's 4 days 18 hours is the
// shortest of the networks' windows; the fake models 5 days and, as Stripe
// does, reports the real deadline in Intent.CaptureBefore, which is what the
// engine must go by.
const OffSessionAuthorizationWindow = 5 * 24 * time.Hour

// MaxAmount is the largest amount Stripe accepts for an intent, in minor
// units (eight digits).
const MaxAmount int64 = 99_999_999

// Provider is an in-memory payment.Provider. The zero value is not usable;
// create one with New. It is safe for concurrent use.
type Provider struct {
	publicKey     string
	webhookSecret string
	now           func() time.Time

	mu       sync.Mutex
	intents  map[string]*record
	order    []string // intent ids in creation order
	idem     map[string]idemEntry
	down     bool
	failures map[string][]error // injected one-shot failures per operation
	losses   map[string]int     // responses to lose after applying, per operation
	calls    map[string]int

	replies       map[string]payment.Intent // capture and cancel answers by operation and key
	refunds       map[string]*payment.Refund
	refundReplies map[string]payment.Refund // by idempotency key
	// keyUsed is when each idempotency key (per operation) was first
	// used: keys older than payment.IdempotencyWindow are forgotten, as
	// Stripe forgets them, so a late retry applies the call again.
	keyUsed     map[string]time.Time
	pendingNext int // refunds to leave pending, for LeaveNextRefundPending

	// Connect (see Platform): the account of the call under way, set by
	// begin from the context; the connected accounts; the platform.
	scope    string
	accounts map[string]*payment.Account
	platform *Platform

	customers  map[string]string   // customer id by idempotency key
	offSession []string            // outcomes of the next off-session attempts, for NextOffSession
	saved      map[string]idemSave // off-session answers by idempotency key
}

// record is the stored state of one intent.
type record struct {
	intent payment.Intent
	// offSession: created by ChargeSaved, so its authorisation is
	// merchant-initiated and lapses after OffSessionAuthorizationWindow.
	offSession bool
	// failed counts declined payment attempts.
	failed int
	// refunds are the ids of the intent's refunds, oldest first.
	refunds []string
	// account is the connected account the intent belongs to (empty: the
	// platform's own); fee is the application fee; reversed and
	// feeRefunded are what refunds took back from a destination charge's
	// transfer and from the fee.
	account     string
	fee         int64
	reversed    int64
	feeRefunded int64
}

// idemEntry remembers the first request and response for an idempotency key.
type idemEntry struct {
	params   payment.CreateParams // currency normalised, metadata copied
	response payment.Intent
}

// Option configures a Provider.
type Option func(*Provider)

// WithPublicKey sets the key PublicKey returns (default DefaultPublicKey).
func WithPublicKey(key string) Option {
	return func(p *Provider) { p.publicKey = key }
}

// WithClock sets the clock used for Intent.Created and webhook timestamps
// (default time.Now).
func WithClock(now func() time.Time) Option {
	return func(p *Provider) { p.now = now }
}

// WithWebhookSecret sets the secret SignedWebhook signs with and
// ParseWebhook verifies against (default DefaultWebhookSecret).
func WithWebhookSecret(secret string) Option {
	return func(p *Provider) { p.webhookSecret = secret }
}

// New returns an empty Provider configured by opts.
func New(opts ...Option) *Provider {
	p := &Provider{
		publicKey:     DefaultPublicKey,
		webhookSecret: DefaultWebhookSecret,
		now:           time.Now,
		intents:       make(map[string]*record),
		idem:          make(map[string]idemEntry),
		failures:      make(map[string][]error),
		losses:        make(map[string]int),
		calls:         make(map[string]int),
		replies:       make(map[string]payment.Intent),
		refunds:       make(map[string]*payment.Refund),
		refundReplies: make(map[string]payment.Refund),
		keyUsed:       make(map[string]time.Time),
		customers:     make(map[string]string),
		accounts:      make(map[string]*payment.Account),
		saved:         make(map[string]idemSave),
	}
	for _, opt := range opts {
		opt(p)
	}
	return p
}

// PublicKey returns the configured public key.
func (p *Provider) PublicKey() string { return p.publicKey }

// CreateIntent starts a payment in StatusRequiresPayment. The amount must be
// between 1 and MaxAmount and the currency three letters, else ErrInvalid. A
// repeated IdempotencyKey with the same parameters returns the first
// response, as Stripe replays it, and stores nothing new; with different
// parameters it fails with ErrInvalid (Stripe answers 400).
func (p *Provider) CreateIntent(ctx context.Context, params payment.CreateParams) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.begin(ctx, OpCreate); err != nil {
		return nil, fmt.Errorf("paymenttest: create intent: %w", err)
	}
	if params.Amount <= 0 || params.Amount > MaxAmount {
		return nil, fmt.Errorf("paymenttest: create intent: amount %d outside 1..%d: %w", params.Amount, MaxAmount, payment.ErrInvalid)
	}
	if !isCurrencyCode(params.Currency) {
		return nil, fmt.Errorf("paymenttest: create intent: currency %q is not a 3-letter code: %w", params.Currency, payment.ErrInvalid)
	}
	params.Currency = strings.ToUpper(params.Currency)
	// The intent's metadata, copied once and never written: the intent,
	// the idempotency record's parameters and response share it, and
	// every answer carries a copy (clone). A provider in a demo server
	// keeps every intent it made.
	params.Metadata = maps.Clone(params.Metadata)
	if err := p.canCharge(); err != nil {
		return nil, fmt.Errorf("paymenttest: create intent: %w", err)
	}

	if params.IdempotencyKey != "" && p.remembers(OpCreate, params.IdempotencyKey) {
		if prev, ok := p.idem[params.IdempotencyKey]; ok {
			if !sameParams(prev.params, params) {
				return nil, fmt.Errorf("paymenttest: create intent: idempotency key %q reused with different parameters: %w", params.IdempotencyKey, payment.ErrInvalid)
			}
			return clone(prev.response), nil
		}
	}

	id := newIntentID()
	rec := &record{intent: payment.Intent{
		ID:            id,
		ClientSecret:  newClientSecret(id),
		Amount:        params.Amount,
		Currency:      params.Currency,
		Status:        payment.StatusRequiresPayment,
		ManualCapture: params.ManualCapture,
		Metadata:      params.Metadata,
		Created:       p.now(),
		Customer:      params.Customer,
	}, account: p.scope, fee: params.ApplicationFee}
	p.intents[id] = rec
	p.order = append(p.order, id)
	if params.IdempotencyKey != "" {
		p.idem[params.IdempotencyKey] = idemEntry{params: params, response: rec.intent}
		p.keyUsed[OpCreate+"\x00"+params.IdempotencyKey] = p.now()
	}
	if p.lose(OpCreate) {
		return nil, fmt.Errorf("paymenttest: create intent: applied, response lost: %w", payment.ErrUnavailable)
	}
	return clone(rec.intent), nil
}

// GetIntent returns a copy of the intent. Errors: ErrNotFound, ErrUnavailable.
func (p *Provider) GetIntent(ctx context.Context, id string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.begin(ctx, OpGet); err != nil {
		return nil, fmt.Errorf("paymenttest: get intent %s: %w", id, err)
	}
	rec, err := p.lookupScoped(id)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: get intent %s: %w", id, err)
	}
	return clone(rec.intent), nil
}

// CaptureIntent moves an authorised intent to StatusSucceeded with the whole
// amount received. Any other status is ErrState. A repeated idempotency key
// replays the first successful answer, as Stripe does.
func (p *Provider) CaptureIntent(ctx context.Context, id, key string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	in, err := p.mutate(ctx, OpCapture, key, id, func() (*payment.Intent, error) {
		rec, err := p.lookupScoped(id)
		if err != nil {
			return nil, err
		}
		if err := rec.move(payment.StatusSucceeded, payment.StatusAuthorized); err != nil {
			return nil, err
		}
		rec.intent.AmountReceived = rec.intent.Amount
		return clone(rec.intent), nil
	})
	if err != nil {
		return nil, fmt.Errorf("paymenttest: capture intent %s: %w", id, err)
	}
	return in, nil
}

// CancelIntent voids an intent in StatusRequiresPayment,
// StatusRequiresAction, StatusProcessing or StatusAuthorized. Succeeded and
// canceled intents are ErrState. A repeated idempotency key replays the
// first successful answer.
func (p *Provider) CancelIntent(ctx context.Context, id, key string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	in, err := p.mutate(ctx, OpCancel, key, id, func() (*payment.Intent, error) { return p.cancel(id, true) })
	if err != nil {
		return nil, fmt.Errorf("paymenttest: cancel intent %s: %w", id, err)
	}
	return in, nil
}

// mutate runs one mutating call of op on intent id: it counts the call,
// fails it as begin says, replays the answer recorded for key, or applies
// apply and records its answer. A response lost by LoseNextResponse is
// applied and then reported as ErrUnavailable. The caller holds p.mu.
func (p *Provider) mutate(ctx context.Context, op, key, id string, apply func() (*payment.Intent, error)) (*payment.Intent, error) {
	if err := p.begin(ctx, op); err != nil {
		return nil, err
	}
	if key != "" && p.remembers(op, key) {
		if prev, ok := p.replies[op+"\x00"+key]; ok {
			if prev.ID != id {
				return nil, fmt.Errorf("idempotency key %q reused for another intent: %w", key, payment.ErrInvalid)
			}
			return clone(prev), nil
		}
	}
	in, err := apply()
	if err != nil {
		return nil, err
	}
	if key != "" {
		p.replies[op+"\x00"+key] = *clone(*in)
		p.keyUsed[op+"\x00"+key] = p.now()
	}
	if p.lose(op) {
		return nil, fmt.Errorf("applied, response lost: %w", payment.ErrUnavailable)
	}
	return in, nil
}

// cancel applies CancelIntent's rules; the caller holds p.mu and wraps the
// error.
func (p *Provider) cancel(id string, scoped bool) (*payment.Intent, error) {
	lookup := p.lookup
	if scoped {
		lookup = p.lookupScoped
	}
	rec, err := lookup(id)
	if err != nil {
		return nil, err
	}
	if err := rec.move(payment.StatusCanceled, payment.StatusRequiresPayment, payment.StatusRequiresAction, payment.StatusProcessing, payment.StatusAuthorized); err != nil {
		return nil, err
	}
	return clone(rec.intent), nil
}

// Refund returns part of a succeeded intent's money as a new refund
// ("re_..."), which succeeds at once unless LeaveNextRefundPending was
// called. The intent stays StatusSucceeded, as on Stripe. A non-positive
// amount, more than remains, or nothing left to refund is ErrInvalid; an
// intent that has not succeeded is ErrState. A repeated idempotency key
// returns the first refund and moves no more money; with another intent or
// amount it is ErrInvalid.
func (p *Provider) Refund(ctx context.Context, rp payment.RefundParams) (*payment.Refund, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	id := rp.IntentID
	if err := p.begin(ctx, OpRefund); err != nil {
		return nil, fmt.Errorf("paymenttest: refund intent %s: %w", id, err)
	}
	if rp.IdempotencyKey != "" && p.remembers(OpRefund, rp.IdempotencyKey) {
		if prev, ok := p.refundReplies[rp.IdempotencyKey]; ok {
			if prev.IntentID != id || prev.Amount != rp.Amount {
				return nil, fmt.Errorf("paymenttest: refund intent %s: idempotency key %q reused with different parameters: %w", id, rp.IdempotencyKey, payment.ErrInvalid)
			}
			r := cloneRefund(*p.refunds[prev.ID])
			return &r, nil
		}
	}
	rec, err := p.lookupScoped(id)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: refund intent %s: %w", id, err)
	}
	if rec.intent.Status != payment.StatusSucceeded {
		return nil, fmt.Errorf("paymenttest: refund intent %s: status %s, want %s: %w", id, rec.intent.Status, payment.StatusSucceeded, payment.ErrState)
	}
	remaining := rec.intent.AmountReceived - rec.intent.AmountRefunded
	switch {
	case rp.Amount <= 0:
		return nil, fmt.Errorf("paymenttest: refund intent %s: amount %d is not positive: %w", id, rp.Amount, payment.ErrInvalid)
	case remaining <= 0:
		return nil, fmt.Errorf("paymenttest: refund intent %s: already fully refunded: %w", id, payment.ErrInvalid)
	case rp.Amount > remaining:
		return nil, fmt.Errorf("paymenttest: refund intent %s: amount %d exceeds the %d left to refund: %w", id, rp.Amount, remaining, payment.ErrInvalid)
	}
	r := p.addRefund(rec, rp.Amount, payment.RefundSucceeded)
	r.Metadata = maps.Clone(rp.Metadata)
	p.reverse(rec, rp.Amount)
	if p.pendingNext > 0 {
		p.pendingNext--
		r.Status = payment.RefundPending
	}
	if rp.IdempotencyKey != "" {
		p.refundReplies[rp.IdempotencyKey] = *r
		p.keyUsed[OpRefund+"\x00"+rp.IdempotencyKey] = p.now()
	}
	out := cloneRefund(*r)
	if p.lose(OpRefund) {
		return nil, fmt.Errorf("paymenttest: refund intent %s: applied, response lost: %w", id, payment.ErrUnavailable)
	}
	return &out, nil
}

// addRefund records a refund of amount on rec; the caller holds p.mu.
func (p *Provider) addRefund(rec *record, amount int64, status payment.RefundStatus) *payment.Refund {
	r := &payment.Refund{ID: newRefundID(), IntentID: rec.intent.ID, Amount: amount, Currency: rec.intent.Currency, Status: status}
	p.refunds[r.ID] = r
	rec.refunds = append(rec.refunds, r.ID)
	if countsAsRefunded(status) {
		rec.intent.AmountRefunded += amount
	}
	return r
}

// lookup finds an intent; the caller holds p.mu. An authorisation whose
// window has passed on the provider's clock is canceled first, as card
// networks let it lapse.
func (p *Provider) lookup(id string) (*record, error) {
	rec, ok := p.intents[id]
	if !ok {
		return nil, payment.ErrNotFound
	}
	p.lapse(rec)
	return rec, nil
}

// lapse cancels rec if it is an authorisation whose window has passed on
// the provider's clock; the caller holds p.mu.
func (p *Provider) lapse(rec *record) {
	if rec.intent.Status == payment.StatusAuthorized && !rec.intent.CaptureBefore.IsZero() && !p.now().Before(rec.intent.CaptureBefore) {
		rec.intent.Status = payment.StatusCanceled
	}
}

// move sets the status to "to" if the current status is one of from, else
// returns ErrState.
func (r *record) move(to payment.IntentStatus, from ...payment.IntentStatus) error {
	for _, s := range from {
		if r.intent.Status == s {
			r.intent.Status = to
			return nil
		}
	}
	return fmt.Errorf("cannot move from %s to %s: %w", r.intent.Status, to, payment.ErrState)
}

// remembers reports whether the provider still remembers idempotency key
// of op: keys are forgotten payment.IdempotencyWindow after their first
// use, as on Stripe. The caller holds p.mu.
func (p *Provider) remembers(op, key string) bool {
	used, ok := p.keyUsed[op+"\x00"+key]
	return ok && p.now().Sub(used) < payment.IdempotencyWindow
}

// ListRefunds lists an intent's refunds, oldest first, with their
// metadata. It obeys SetDown and FailNext(OpList). Errors: ErrNotFound,
// ErrUnavailable.
func (p *Provider) ListRefunds(ctx context.Context, intentID string) ([]payment.Refund, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.begin(ctx, OpList); err != nil {
		return nil, fmt.Errorf("paymenttest: list refunds of %s: %w", intentID, err)
	}
	rec, err := p.lookupScoped(intentID)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: list refunds of %s: %w", intentID, err)
	}
	out := make([]payment.Refund, 0, len(rec.refunds))
	for _, id := range rec.refunds {
		out = append(out, cloneRefund(*p.refunds[id]))
	}
	return out, nil
}

// IntentByKey finds the intent of customer created with key in
// payment.MetadataKey. It obeys SetDown and FailNext(OpList). Errors:
// ErrNotFound, ErrUnavailable.
func (p *Provider) IntentByKey(ctx context.Context, customer, key string) (*payment.Intent, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.begin(ctx, OpList); err != nil {
		return nil, fmt.Errorf("paymenttest: find intent %s: %w", key, err)
	}
	for _, id := range p.order {
		rec := p.intents[id]
		if rec.intent.Customer != customer || rec.intent.Metadata[payment.MetadataKey] != key || key == "" {
			continue
		}
		if rec, err := p.lookupScoped(id); err == nil {
			return clone(rec.intent), nil
		}
	}
	return nil, fmt.Errorf("paymenttest: find intent %s of %s: %w", key, customer, payment.ErrNotFound)
}

func cloneRefund(r payment.Refund) payment.Refund {
	r.Metadata = maps.Clone(r.Metadata)
	return r
}

// clone returns a copy of in that shares no memory with it.
func clone(in payment.Intent) *payment.Intent {
	in.Metadata = maps.Clone(in.Metadata)
	return &in
}

func isCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, c := range []byte(s) {
		if (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// sameParams reports whether two normalised create requests are the same.
func sameParams(a, b payment.CreateParams) bool {
	return a.Amount == b.Amount &&
		a.Currency == b.Currency &&
		a.ManualCapture == b.ManualCapture &&
		a.Customer == b.Customer && a.SaveCard == b.SaveCard &&
		maps.Equal(a.Metadata, b.Metadata)
}
