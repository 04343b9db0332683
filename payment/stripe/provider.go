// Package stripe is the payment.Provider on Stripe PaymentIntents, built on
// stripe-go v76 (API version 2023-10-16).
//
// Each Provider holds its own stripe-go client and backends: nothing here
// reads or writes stripe-go's package-level key or backends, so several
// providers with different accounts can live in one process.
package stripe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/client"

	"github.com/staykit/staykit/payment"
)

// DefaultTimeout bounds one HTTP exchange with Stripe when Config.HTTPClient
// is nil. stripe-go's own default is 80s, too long for a guest waiting on a
// checkout; Stripe answers PaymentIntent calls in well under a second.
const DefaultTimeout = 30 * time.Second

// DefaultMaxNetworkRetries is how often a request that failed in a way
// stripe-go knows to be safe to repeat (network error, 409, 503, 5xx on
// GET) is retried when Config.MaxNetworkRetries is zero. Retried writes
// reuse their idempotency key, so a retry never creates a second intent.
const DefaultMaxNetworkRetries = 2

// Config configures a Provider. Only SecretKey is required.
type Config struct {
	// SecretKey is the account's secret (sk_...) or restricted (rk_...)
	// key. It is sent only in the Authorization header and never logged.
	SecretKey string
	// PublishableKey (pk_...) is handed to the guest's browser.
	PublishableKey string
	// WebhookSecret (whsec_...) verifies webhook signatures. When empty,
	// ParseWebhook refuses every payload with payment.ErrSignature.
	WebhookSecret string
	// BackendURL replaces https://api.stripe.com, for tests and stripe-mock
	// (such as "http://127.0.0.1:12111"). Empty means Stripe itself.
	BackendURL string
	// HTTPClient carries the requests. Nil means a client with
	// DefaultTimeout; a given client is used as is, timeout included.
	HTTPClient *http.Client
	// MaxNetworkRetries: zero means DefaultMaxNetworkRetries, negative
	// means no retries.
	MaxNetworkRetries int
	// Logger receives stripe-go's diagnostics (requests at debug level,
	// retries and errors at warn). Nil discards them.
	Logger *slog.Logger

	// ChargeType makes the Provider a Stripe Connect platform (see
	// Platform): SecretKey is the platform's key and each organisation is
	// paid into its own connected account. Empty means one account, the
	// key's own.
	ChargeType payment.ChargeType
	// OnBehalfOf (destination charges) makes the connected account the
	// settlement merchant (on_behalf_of): its country's pricing, its name
	// on the guest's statement. Needed when the organisation and the
	// platform settle in different countries.
	OnBehalfOf bool
	// KeepFeeOnRefund keeps the platform's application fee when a charge
	// into a connected account is refunded; by default it goes back in
	// proportion to the refund (refund_application_fee=true).
	KeepFeeOnRefund bool
	// ConnectWebhookSecret (whsec_...) verifies the platform's Connect
	// webhook endpoint, which has its own secret.
	ConnectWebhookSecret string
}

// String leaves the keys out, so printing a Config cannot leak them.
func (c Config) String() string {
	return fmt.Sprintf("stripe.Config{BackendURL: %q, PublishableKey: %q, SecretKey: %s, WebhookSecret: %s}",
		c.BackendURL, c.PublishableKey, redacted(c.SecretKey), redacted(c.WebhookSecret))
}

// LogValue leaves the secrets out of structured logs.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("backend_url", c.BackendURL),
		slog.String("publishable_key", c.PublishableKey),
		slog.String("secret_key", redacted(c.SecretKey)),
		slog.String("webhook_secret", redacted(c.WebhookSecret)),
	)
}

func redacted(secret string) string {
	if secret == "" {
		return "unset"
	}
	return "set"
}

// Provider is a payment.Provider backed by Stripe. It is safe for concurrent
// use.
type Provider struct {
	api            *client.API
	publishableKey string
	webhookSecret  string

	// Connect: the platform's settings, and the connected account this
	// Provider's calls belong to (empty for the platform's own).
	chargeType    payment.ChargeType
	onBehalfOf    bool
	keepFee       bool
	connectSecret string
	account       string
}

var _ payment.Provider = (*Provider)(nil)

// New returns a Provider for the account cfg.SecretKey belongs to. It does
// not contact Stripe.
func New(cfg Config) (*Provider, error) {
	if cfg.SecretKey == "" {
		return nil, errors.New("stripe: SecretKey is required")
	}
	if strings.HasPrefix(cfg.SecretKey, "pk_") {
		return nil, errors.New("stripe: SecretKey holds a publishable key (pk_...)")
	}
	if strings.HasPrefix(cfg.PublishableKey, "sk_") || strings.HasPrefix(cfg.PublishableKey, "rk_") {
		// PublicKey goes to browsers: refuse to publish a secret.
		return nil, errors.New("stripe: PublishableKey holds a secret key")
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = &http.Client{Timeout: DefaultTimeout}
	}
	retries := int64(cfg.MaxNetworkRetries)
	switch {
	case retries == 0:
		retries = DefaultMaxNetworkRetries
	case retries < 0:
		retries = 0
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	leveled := &slogLeveled{l: logger}

	// One config per backend: GetBackendWithConfig fills in defaults in
	// place, so a shared config would give all three the first one's URL.
	backend := func(t stripego.SupportedBackend) stripego.Backend {
		bc := &stripego.BackendConfig{
			HTTPClient:        httpClient,
			LeveledLogger:     leveled,
			MaxNetworkRetries: stripego.Int64(retries),
			EnableTelemetry:   stripego.Bool(false),
		}
		if cfg.BackendURL != "" {
			bc.URL = stripego.String(cfg.BackendURL)
		}
		return stripego.GetBackendWithConfig(t, bc)
	}
	api := client.New(cfg.SecretKey, &stripego.Backends{
		API:     backend(stripego.APIBackend),
		Connect: backend(stripego.ConnectBackend),
		Uploads: backend(stripego.UploadsBackend),
	})
	if cfg.ChargeType != "" && !cfg.ChargeType.Valid() {
		return nil, fmt.Errorf("stripe: unknown ChargeType %q", cfg.ChargeType)
	}
	return &Provider{api: api, publishableKey: cfg.PublishableKey, webhookSecret: cfg.WebhookSecret,
		chargeType: cfg.ChargeType, onBehalfOf: cfg.OnBehalfOf, keepFee: cfg.KeepFeeOnRefund,
		connectSecret: cfg.ConnectWebhookSecret}, nil
}

// PublicKey returns the publishable key.
func (p *Provider) PublicKey() string { return p.publishableKey }

// slogLeveled adapts slog to stripe-go's logger interface. stripe-go's
// debug lines hold whole response bodies, client secrets included, so they
// are dropped; its info lines (one per request) become debug; its error
// lines become warnings, because the error also reaches the caller, who
// decides whether it matters.
type slogLeveled struct{ l *slog.Logger }

func (s *slogLeveled) Debugf(string, ...any) {}

func (s *slogLeveled) Infof(format string, v ...any) {
	s.log(slog.LevelDebug, format, v)
}

func (s *slogLeveled) Warnf(format string, v ...any) {
	s.log(slog.LevelWarn, format, v)
}

func (s *slogLeveled) Errorf(format string, v ...any) {
	s.log(slog.LevelWarn, format, v)
}

func (s *slogLeveled) log(level slog.Level, format string, v []any) {
	ctx := context.Background()
	if s.l.Enabled(ctx, level) {
		s.l.Log(ctx, level, fmt.Sprintf(format, v...), slog.String("component", "stripe-go"))
	}
}
