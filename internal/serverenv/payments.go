package serverenv

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/payment/stripe"
)

// NewPayments returns Stripe when cfg has its keys, else the in-memory
// fake provider, which it also returns so that a card step (/fakepay) can
// pay its intents.
//
// The fake's webhook secret is random and never leaves the process: with
// paymenttest's published default, anyone could sign a
// payment_intent.succeeded for the webhook route and confirm an unpaid
// booking. The fake's own events reach the service directly (fakePay), so
// nothing outside needs the secret.
//
// The fake reads clock (nil: the wall clock), the sandbox's with -sandbox.
func NewPayments(cfg Config, logger *slog.Logger, clock booking.Clock) (payment.Provider, *paymenttest.Provider, error) {
	if cfg.Stripe.SecretKey == "" {
		opts := []paymenttest.Option{paymenttest.WithWebhookSecret("whsec_" + rand.Text())}
		if clock != nil {
			opts = append(opts, paymenttest.WithClock(clock.Now))
		}
		fake := paymenttest.New(opts...)
		return fake, fake, nil
	}
	sc := cfg.Stripe
	sc.Logger = logger
	p, err := stripe.New(sc)
	if err != nil {
		return nil, nil, fmt.Errorf("stripe: %w", err)
	}
	if sc.WebhookSecret == "" {
		logger.Warn("STRIPE_WEBHOOK_SECRET is not set: webhooks are refused, so a guest who closes the tab after paying is only confirmed when the page confirms")
	}
	return p, nil, nil
}

// DetachedFake is the payment provider of the host commands in fake mode.
// Fake intents live in the memory of the server process that created them,
// out of another process's reach; DetachedFake answers capture, cancel and
// refund as the fake would for an intent in the right state, so that the
// host's decision is recorded in the database. It cannot start or read a
// payment. With Stripe keys set, the host commands use Stripe itself.
type DetachedFake struct{}

var _ payment.Provider = DetachedFake{}

func (DetachedFake) CreateIntent(context.Context, payment.CreateParams) (*payment.Intent, error) {
	return nil, fmt.Errorf("fake payments: cannot create an intent outside the server: %w", payment.ErrUnavailable)
}

func (DetachedFake) GetIntent(_ context.Context, id string) (*payment.Intent, error) {
	return nil, fmt.Errorf("fake payments: intent %s lives in the server process: %w", id, payment.ErrNotFound)
}

func (DetachedFake) CaptureIntent(_ context.Context, id, _ string) (*payment.Intent, error) {
	return &payment.Intent{ID: id, Status: payment.StatusSucceeded}, nil
}

func (DetachedFake) CancelIntent(_ context.Context, id, _ string) (*payment.Intent, error) {
	return &payment.Intent{ID: id, Status: payment.StatusCanceled}, nil
}

func (DetachedFake) Refund(_ context.Context, r payment.RefundParams) (*payment.Refund, error) {
	return &payment.Refund{ID: "re_detached_" + r.IdempotencyKey, IntentID: r.IntentID, Amount: r.Amount, Status: payment.RefundSucceeded}, nil
}

func (DetachedFake) ListRefunds(_ context.Context, id string) ([]payment.Refund, error) {
	return nil, fmt.Errorf("fake payments: intent %s lives in the server process: %w", id, payment.ErrNotFound)
}

func (DetachedFake) IntentByKey(_ context.Context, _, key string) (*payment.Intent, error) {
	return nil, fmt.Errorf("fake payments: intent %s lives in the server process: %w", key, payment.ErrNotFound)
}

func (DetachedFake) ParseWebhook([]byte, string) (*payment.Event, error) {
	return nil, payment.ErrSignature
}

func (DetachedFake) PublicKey() string { return "" }

// CaptureAmount simulates a claim on a security deposit held by the
// server's in-memory fake.
func (DetachedFake) CaptureAmount(_ context.Context, id string, amount int64, _ string) (*payment.Intent, error) {
	return &payment.Intent{ID: id, Status: payment.StatusSucceeded, Amount: amount, AmountReceived: amount}, nil
}

// CreateCustomer, ChargeSaved and ConfirmSaved are the server's: host
// commands never charge a card.
func (DetachedFake) CreateCustomer(context.Context, payment.CustomerParams) (string, error) {
	return "", fmt.Errorf("fake payments: cannot create a customer outside the server: %w", payment.ErrUnavailable)
}

func (DetachedFake) ChargeSaved(context.Context, payment.SavedChargeParams) (*payment.Intent, error) {
	return nil, fmt.Errorf("fake payments: cannot charge outside the server: %w", payment.ErrUnavailable)
}

func (DetachedFake) ConfirmSaved(_ context.Context, id, _, _ string) (*payment.Intent, error) {
	return nil, fmt.Errorf("fake payments: intent %s lives in the server process: %w", id, payment.ErrUnavailable)
}
