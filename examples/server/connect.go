package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/payment"
)

// parseConnect reads the Stripe Connect flags and
// STRIPE_CONNECT_WEBHOOK_SECRET into cfg.
func (cfg *config) parseConnect(chargeType string, onBehalfOf, keepFee bool, feePercent string, getenv func(string) string) error {
	ct := payment.ChargeType(strings.TrimSpace(chargeType))
	if ct == "" {
		if onBehalfOf || keepFee || feePercent != "" || cfg.platformFeeFixed != 0 {
			return errors.New("-stripe-on-behalf-of, -stripe-keep-fee-on-refund and -platform-fee-* need -stripe-connect")
		}
		return nil
	}
	if !ct.Valid() {
		return fmt.Errorf("-stripe-connect %q: want destination or direct", chargeType)
	}
	if cfg.stripe.SecretKey == "" {
		return errors.New("-stripe-connect needs STRIPE_SECRET_KEY (the platform's key), STRIPE_PUBLISHABLE_KEY and STRIPE_CONNECT_WEBHOOK_SECRET")
	}
	if onBehalfOf && ct != payment.ChargeDestination {
		return errors.New("-stripe-on-behalf-of applies to -stripe-connect destination only")
	}
	cfg.stripe.ChargeType, cfg.stripe.OnBehalfOf, cfg.stripe.KeepFeeOnRefund = ct, onBehalfOf, keepFee
	cfg.stripe.ConnectWebhookSecret = strings.TrimSpace(getenv("STRIPE_CONNECT_WEBHOOK_SECRET"))
	if cfg.stripe.ConnectWebhookSecret == "" {
		return errors.New("-stripe-connect needs STRIPE_CONNECT_WEBHOOK_SECRET: the connected accounts' events (account.updated, and with direct charges the payments) arrive on /api/v1/webhooks/stripe-connect")
	}
	if feePercent != "" {
		p, err := decimal.NewFromString(feePercent)
		if err != nil || p.IsNegative() || p.GreaterThan(decimal.NewFromInt(100)) {
			return fmt.Errorf("-platform-fee-percent %q: want a number from 0 to 100", feePercent)
		}
		cfg.platformFeePercent = p
	}
	if cfg.platformFeeFixed < 0 {
		return fmt.Errorf("-platform-fee-fixed %d: want 0 or more", cfg.platformFeeFixed)
	}
	cfg.platformFeeSet = feePercent != "" || cfg.platformFeeFixed != 0
	return nil
}

// connectOf returns the payments as a Connect platform when the server
// runs as one, else nil.
func connectOf(cfg config, payments payment.Provider) payment.Connect {
	if cfg.stripe.ChargeType == "" {
		return nil
	}
	c, _ := payments.(payment.Connect)
	return c
}

// applyPlatformFee sets the platform's fee flags on every organisation.
func applyPlatformFee(ctx context.Context, cfg config, svc *booking.Service, store booking.CatalogStore) error {
	if !cfg.platformFeeSet {
		return nil
	}
	orgs, err := store.Organizations(ctx)
	if err != nil {
		return fmt.Errorf("list organisations: %w", err)
	}
	for _, o := range orgs {
		if err := svc.SetPlatformFee(ctx, o.Slug, cfg.platformFeePercent, cfg.platformFeeFixed); err != nil {
			return fmt.Errorf("set the platform fee of %s: %w", o.Slug, err)
		}
	}
	return nil
}
