package paymenttest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"strings"

	"github.com/staykit/staykit/payment"
)

var (
	_ payment.Connect    = (*Platform)(nil)
	_ payment.Provider   = (*AccountProvider)(nil)
	_ payment.SavedCards = (*AccountProvider)(nil)
)

// DefaultConnectWebhookSecret is the secret of the fake Connect webhook
// endpoint, distinct from the platform's own.
const DefaultConnectWebhookSecret = "whsec_fake_connect"

// OpAccount counts CreateAccount, GetAccount and AccountLink calls.
const OpAccount = "account"

// Platform is an in-memory payment.Connect on a Provider: the Provider is
// the platform's account, and each connected account's intents live in the
// same Provider tagged with their account. An intent of account A is not
// found through ForAccount(B), nor through the Provider itself. A
// connected account takes charges only once SetChargesEnabled says so.
type Platform struct {
	p             *Provider
	chargeType    payment.ChargeType
	webhookSecret string
	// refundFee: refunds of destination charges give back the
	// application fee in proportion (Stripe's refund_application_fee).
	refundFee bool
}

// PlatformOption configures a Platform.
type PlatformOption func(*Platform)

// WithConnectWebhookSecret sets the Connect endpoint's secret (default
// DefaultConnectWebhookSecret).
func WithConnectWebhookSecret(secret string) PlatformOption {
	return func(pl *Platform) { pl.webhookSecret = secret }
}

// KeepFeeOnRefund makes refunds keep the application fee (Stripe's
// refund_application_fee=false); by default it is refunded in proportion.
func KeepFeeOnRefund() PlatformOption {
	return func(pl *Platform) { pl.refundFee = false }
}

// NewPlatform makes p a Connect platform charging with chargeType.
func NewPlatform(p *Provider, chargeType payment.ChargeType, opts ...PlatformOption) *Platform {
	pl := &Platform{p: p, chargeType: chargeType, webhookSecret: DefaultConnectWebhookSecret, refundFee: true}
	for _, o := range opts {
		o(pl)
	}
	p.mu.Lock()
	p.platform = pl
	p.mu.Unlock()
	return pl
}

// Provider returns the platform's own Provider.
func (pl *Platform) Provider() *Provider { return pl.p }

// ChargeType returns the platform's charge type.
func (pl *Platform) ChargeType() payment.ChargeType { return pl.chargeType }

// ForAccount returns the payments of one connected account.
func (pl *Platform) ForAccount(account string) payment.Provider {
	return &AccountProvider{p: pl.p, account: account}
}

// CreateAccount creates a connected account ("acct_..."), charges not
// enabled yet; a repeated key returns the first.
func (pl *Platform) CreateAccount(ctx context.Context, ap payment.AccountParams) (*payment.Account, error) {
	p := pl.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.begin(ctx, OpAccount); err != nil {
		return nil, fmt.Errorf("paymenttest: create account: %w", err)
	}
	if ap.IdempotencyKey != "" {
		if id, ok := p.customers["account\x00"+ap.IdempotencyKey]; ok {
			a := *p.accounts[id]
			return &a, nil
		}
	}
	id := "acct_" + strings.TrimPrefix(newIntentID(), "pi_")[:16]
	p.accounts[id] = &payment.Account{ID: id}
	if ap.IdempotencyKey != "" {
		p.customers["account\x00"+ap.IdempotencyKey] = id
	}
	a := *p.accounts[id]
	return &a, nil
}

// GetAccount reads a connected account. Errors: ErrNotFound.
func (pl *Platform) GetAccount(ctx context.Context, id string) (*payment.Account, error) {
	p := pl.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.begin(ctx, OpAccount); err != nil {
		return nil, fmt.Errorf("paymenttest: get account %s: %w", id, err)
	}
	a, ok := p.accounts[id]
	if !ok {
		return nil, fmt.Errorf("paymenttest: get account %s: %w", id, payment.ErrNotFound)
	}
	out := *a
	return &out, nil
}

// AccountLink returns a fake onboarding URL naming the account and the
// return URL. Errors: ErrNotFound, ErrInvalid (no return URL).
func (pl *Platform) AccountLink(ctx context.Context, lp payment.AccountLinkParams) (string, error) {
	p := pl.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.begin(ctx, OpAccount); err != nil {
		return "", fmt.Errorf("paymenttest: account link: %w", err)
	}
	if _, ok := p.accounts[lp.Account]; !ok {
		return "", fmt.Errorf("paymenttest: account link for %s: %w", lp.Account, payment.ErrNotFound)
	}
	if lp.ReturnURL == "" || lp.RefreshURL == "" {
		return "", fmt.Errorf("paymenttest: account link: return and refresh URLs are required: %w", payment.ErrInvalid)
	}
	return "https://connect.fake.test/setup/" + lp.Account + "?return_url=" + url.QueryEscape(lp.ReturnURL), nil
}

// SetChargesEnabled is the owner finishing (or the provider suspending)
// the account's onboarding. It creates the account if unknown.
func (pl *Platform) SetChargesEnabled(account string, enabled bool) {
	p := pl.p
	p.mu.Lock()
	defer p.mu.Unlock()
	a, ok := p.accounts[account]
	if !ok {
		a = &payment.Account{ID: account}
		p.accounts[account] = a
	}
	a.ChargesEnabled, a.PayoutsEnabled, a.DetailsSubmitted = enabled, enabled, enabled || a.DetailsSubmitted
}

// Transfer is what a destination charge moved to its connected account.
type Transfer struct {
	Destination string
	// Amount is what was transferred: the captured amount less the fee.
	Amount int64
	// Reversed is what refunds took back from the connected account.
	Reversed int64
	// Fee is the platform's application fee; FeeRefunded what of it went
	// back with refunds.
	Fee, FeeRefunded int64
}

// Transfer returns the transfer of intent id; false when the intent is not
// a destination charge or has taken no money.
func (pl *Platform) Transfer(id string) (Transfer, bool) {
	p := pl.p
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.intents[id]
	if !ok || rec.account == "" || pl.chargeType != payment.ChargeDestination || rec.intent.AmountReceived == 0 {
		return Transfer{}, false
	}
	return Transfer{Destination: rec.account, Amount: rec.intent.AmountReceived - rec.fee, Reversed: rec.reversed,
		Fee: rec.fee, FeeRefunded: rec.feeRefunded}, true
}

// Account returns the connected account an intent belongs to ("" for the
// platform's own) and whether the intent exists.
func (p *Provider) Account(id string) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.intents[id]
	if !ok {
		return "", false
	}
	return rec.account, true
}

// canCharge refuses a charge into a connected account that cannot take
// charges; the caller holds p.mu.
func (p *Provider) canCharge() error {
	if p.scope == "" {
		return nil
	}
	a, ok := p.accounts[p.scope]
	if !ok {
		return fmt.Errorf("no such account %s: %w", p.scope, payment.ErrInvalid)
	}
	if !a.ChargesEnabled {
		return fmt.Errorf("account %s cannot take charges: %w", p.scope, payment.ErrInvalid)
	}
	return nil
}

// lookupScoped is lookup restricted to the account of the call under way;
// the caller holds p.mu.
func (p *Provider) lookupScoped(id string) (*record, error) {
	rec, err := p.lookup(id)
	if err != nil {
		return nil, err
	}
	if rec.account != p.scope {
		return nil, payment.ErrNotFound
	}
	return rec, nil
}

// reverse takes a refund of amount back from a destination charge's
// transfer and, unless the platform keeps it, from its fee, in proportion
// to the amount captured; the caller holds p.mu.
func (p *Provider) reverse(rec *record, amount int64) {
	if p.platform == nil || p.platform.chargeType != payment.ChargeDestination || rec.account == "" || rec.intent.AmountReceived == 0 {
		return
	}
	received := rec.intent.AmountReceived
	fee := rec.fee * amount / received
	if !p.platform.refundFee {
		fee = 0
	}
	rec.feeRefunded += fee
	rec.reversed += amount - fee
}

type scopeKey struct{}

// scopeOf is the connected account a call's context carries.
func scopeOf(ctx context.Context) string {
	s, _ := ctx.Value(scopeKey{}).(string)
	return s
}

// AccountProvider is the payments of one connected account of a Platform.
type AccountProvider struct {
	p       *Provider
	account string
}

func (a *AccountProvider) ctx(ctx context.Context) context.Context {
	return context.WithValue(ctx, scopeKey{}, a.account)
}

// CreateIntent creates an intent of the account. Errors as Provider's,
// and ErrInvalid when the account cannot take charges.
func (a *AccountProvider) CreateIntent(ctx context.Context, cp payment.CreateParams) (*payment.Intent, error) {
	return a.p.CreateIntent(a.ctx(ctx), cp)
}

// GetIntent reads an intent of the account; another account's is
// ErrNotFound.
func (a *AccountProvider) GetIntent(ctx context.Context, id string) (*payment.Intent, error) {
	return a.p.GetIntent(a.ctx(ctx), id)
}

// CaptureIntent captures an intent of the account.
func (a *AccountProvider) CaptureIntent(ctx context.Context, id, key string) (*payment.Intent, error) {
	return a.p.CaptureIntent(a.ctx(ctx), id, key)
}

// CancelIntent cancels an intent of the account.
func (a *AccountProvider) CancelIntent(ctx context.Context, id, key string) (*payment.Intent, error) {
	return a.p.CancelIntent(a.ctx(ctx), id, key)
}

// Refund refunds an intent of the account; a destination charge's transfer
// is reversed.
func (a *AccountProvider) Refund(ctx context.Context, rp payment.RefundParams) (*payment.Refund, error) {
	return a.p.Refund(a.ctx(ctx), rp)
}

// ListRefunds lists the refunds of an intent of the account.
func (a *AccountProvider) ListRefunds(ctx context.Context, intentID string) ([]payment.Refund, error) {
	return a.p.ListRefunds(a.ctx(ctx), intentID)
}

// IntentByKey finds an intent of the account by its key.
func (a *AccountProvider) IntentByKey(ctx context.Context, customer, key string) (*payment.Intent, error) {
	return a.p.IntentByKey(a.ctx(ctx), customer, key)
}

// ParseWebhook is the platform's.
func (a *AccountProvider) ParseWebhook(payload []byte, signature string) (*payment.Event, error) {
	return a.p.ParseWebhook(payload, signature)
}

// PublicKey is the platform's publishable key.
func (a *AccountProvider) PublicKey() string { return a.p.PublicKey() }

// CreateCustomer creates a customer of the account.
func (a *AccountProvider) CreateCustomer(ctx context.Context, c payment.CustomerParams) (string, error) {
	return a.p.CreateCustomer(a.ctx(ctx), c)
}

// ChargeSaved charges a saved card into the account.
func (a *AccountProvider) ChargeSaved(ctx context.Context, c payment.SavedChargeParams) (*payment.Intent, error) {
	return a.p.ChargeSaved(a.ctx(ctx), c)
}

// ConfirmSaved retries an off-session intent of the account.
func (a *AccountProvider) ConfirmSaved(ctx context.Context, id, pm, key string) (*payment.Intent, error) {
	return a.p.ConfirmSaved(a.ctx(ctx), id, pm, key)
}

// CaptureAmount captures part of an authorised intent of the account.
func (a *AccountProvider) CaptureAmount(ctx context.Context, id string, amount int64, key string) (*payment.Intent, error) {
	return a.p.CaptureAmount(a.ctx(ctx), id, amount, key)
}

// Connect webhook format: the platform's (see webhook.go) plus "account",
// the connected account the event happened on, and for account.updated
// "connected", the account as it is now.
type wireConnectEvent struct {
	wireEvent
	Account   string           `json:"account"`
	Connected *payment.Account `json:"connected,omitempty"`
}

// SignedConnectWebhook builds an event of typ on account about intent
// intentID (read whatever its account, so tests can send an event naming
// another account's intent), or about the account itself for
// EventAccountUpdated, signed with the Connect secret.
func (pl *Platform) SignedConnectWebhook(typ payment.EventType, account, intentID string) (payload []byte, signature string, err error) {
	p := pl.p
	w := wireConnectEvent{wireEvent: wireEvent{ID: newEventID(), Type: typ, Created: p.now().Unix()}, Account: account}
	p.mu.Lock()
	if intentID != "" {
		rec, ok := p.intents[intentID]
		if !ok {
			p.mu.Unlock()
			return nil, "", fmt.Errorf("paymenttest: signed connect webhook for %s: %w", intentID, payment.ErrNotFound)
		}
		in := rec.intent
		w.Intent = &wireIntent{ID: in.ID, ClientSecret: in.ClientSecret, Amount: in.Amount, AmountReceived: in.AmountReceived,
			AmountRefunded: in.AmountRefunded, Currency: in.Currency, Status: in.Status, ManualCapture: in.ManualCapture,
			Metadata: maps.Clone(in.Metadata), Created: in.Created}
	}
	if typ == payment.EventAccountUpdated {
		if a, ok := p.accounts[account]; ok {
			c := *a
			w.Connected = &c
		} else {
			w.Connected = &payment.Account{ID: account}
		}
	}
	p.mu.Unlock()
	payload, err = json.Marshal(w)
	if err != nil {
		return nil, "", fmt.Errorf("paymenttest: signed connect webhook: encode: %w", err)
	}
	return payload, pl.signer().SignPayload(payload, p.now()), nil
}

// signer is a Provider signing with the Connect secret.
func (pl *Platform) signer() *Provider {
	return &Provider{webhookSecret: pl.webhookSecret, now: pl.p.now}
}

// ParseConnectWebhook verifies a Connect payload with the Connect secret
// and decodes it. Errors: ErrSignature, ErrInvalid (no account).
func (pl *Platform) ParseConnectWebhook(payload []byte, signature string) (*payment.Event, error) {
	ev, err := pl.signer().ParseWebhook(payload, signature)
	if err != nil {
		return nil, fmt.Errorf("paymenttest: connect: %w", err)
	}
	var w wireConnectEvent
	if err := json.Unmarshal(payload, &w); err != nil {
		return nil, fmt.Errorf("paymenttest: parse connect webhook: %w: %w", payment.ErrInvalid, err)
	}
	if w.Account == "" {
		return nil, fmt.Errorf("paymenttest: parse connect webhook %s: account missing: %w", w.ID, payment.ErrInvalid)
	}
	ev.Account, ev.Connected = w.Account, w.Connected
	return ev, nil
}
