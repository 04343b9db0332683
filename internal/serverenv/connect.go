package serverenv

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/payment"
)

// parseConnect reads the Stripe Connect flags and
// STRIPE_CONNECT_WEBHOOK_SECRET into cfg.
func (cfg *Config) parseConnect(chargeType string, onBehalfOf, keepFee bool, feePercent string, getenv func(string) string) error {
	ct := payment.ChargeType(strings.TrimSpace(chargeType))
	if ct == "" {
		if onBehalfOf || keepFee || feePercent != "" || cfg.PlatformFeeFixed != 0 {
			return errors.New("-stripe-on-behalf-of, -stripe-keep-fee-on-refund and -platform-fee-* need -stripe-connect")
		}
		return nil
	}
	if !ct.Valid() {
		return fmt.Errorf("-stripe-connect %q: want destination or direct", chargeType)
	}
	if cfg.Stripe.SecretKey == "" {
		return errors.New("-stripe-connect needs STRIPE_SECRET_KEY (the platform's key), STRIPE_PUBLISHABLE_KEY and STRIPE_CONNECT_WEBHOOK_SECRET")
	}
	if onBehalfOf && ct != payment.ChargeDestination {
		return errors.New("-stripe-on-behalf-of applies to -stripe-connect destination only")
	}
	cfg.Stripe.ChargeType, cfg.Stripe.OnBehalfOf, cfg.Stripe.KeepFeeOnRefund = ct, onBehalfOf, keepFee
	cfg.Stripe.ConnectWebhookSecret = strings.TrimSpace(getenv("STRIPE_CONNECT_WEBHOOK_SECRET"))
	if cfg.Stripe.ConnectWebhookSecret == "" {
		return errors.New("-stripe-connect needs STRIPE_CONNECT_WEBHOOK_SECRET: the connected accounts' events (account.updated, and with direct charges the payments) arrive on /api/v1/webhooks/stripe-connect")
	}
	if feePercent != "" {
		p, err := decimal.NewFromString(feePercent)
		if err != nil || p.IsNegative() || p.GreaterThan(decimal.NewFromInt(100)) {
			return fmt.Errorf("-platform-fee-percent %q: want a number from 0 to 100", feePercent)
		}
		cfg.PlatformFeePercent = p
	}
	if cfg.PlatformFeeFixed < 0 {
		return fmt.Errorf("-platform-fee-fixed %d: want 0 or more", cfg.PlatformFeeFixed)
	}
	cfg.PlatformFeeSet = feePercent != "" || cfg.PlatformFeeFixed != 0
	return nil
}

// Connect returns payments as a Connect platform when cfg runs as one
// (-stripe-connect), else nil: booking.Options.Connect and
// connect.Options.Platform.
func (cfg Config) Connect(payments payment.Provider) payment.Connect {
	if cfg.Stripe.ChargeType == "" {
		return nil
	}
	c, _ := payments.(payment.Connect)
	return c
}

// ApplyPlatformFee sets the platform's fee flags (-platform-fee-percent,
// -platform-fee-fixed) on every organisation of store; without them it
// does nothing.
func ApplyPlatformFee(ctx context.Context, cfg Config, svc *connect.Service, store organizationLister) error {
	if !cfg.PlatformFeeSet {
		return nil
	}
	orgs, err := store.Organizations(ctx)
	if err != nil {
		return fmt.Errorf("list organisations: %w", err)
	}
	for _, o := range orgs {
		if err := svc.SetPlatformFee(ctx, &o, cfg.PlatformFeePercent, cfg.PlatformFeeFixed); err != nil {
			return fmt.Errorf("set the platform fee of %s: %w", o.Slug, err)
		}
	}
	return nil
}

// organizationLister is the one store method ApplyPlatformFee uses.
type organizationLister interface {
	Organizations(ctx context.Context) ([]booking.Organization, error)
}
