package booking

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/payment"
)

// Config is what a guest site needs to start: the organisation and the
// payment provider's public key.
type Config struct {
	Organization     Organization
	PaymentPublicKey string
	// PaymentsReady is false when the organisation cannot take payments
	// (its connected account is not onboarded); checkouts then fail with
	// CodePaymentsNotReady.
	PaymentsReady bool
	// PaymentAccount is the connected account the browser initialises
	// the provider's library with (Stripe.js's stripeAccount), set with
	// direct charges only.
	PaymentAccount string
}

func (s *Service) config(ctx context.Context, resolve orgFunc) (*Config, error) {
	org, err := resolve(ctx)
	if err != nil {
		return nil, err
	}
	cfg := &Config{Organization: *org, PaymentPublicKey: s.payments.PublicKey(), PaymentsReady: true}
	if s.accounts.Connected() {
		a, err := s.accounts.OrgAccount(ctx, org.ID)
		if err != nil {
			return nil, err
		}
		cfg.PaymentsReady = a.Ready()
		if a.Ready() && s.connect.ChargeType() == payment.ChargeDirect {
			cfg.PaymentAccount = a.AccountID
		}
	}
	return cfg, nil
}

// Listing is a bookable property as the public sees it.
type Listing struct {
	Property Property
	Currency string
	// MinStayNights and MaxStayNights are the limits that apply outside
	// seasons (property, else organisation; 0 = none).
	MinStayNights int
	MaxStayNights int
	// PriceFrom is the lowest nightly price of the coming year.
	PriceFrom decimal.Decimal
}

// priceFromDays is how far ahead PriceFrom looks.
const priceFromDays = 365

func (s *Service) properties(ctx context.Context, resolve orgFunc) ([]Listing, error) {
	org, err := resolve(ctx)
	if err != nil {
		return nil, err
	}
	props, err := s.store.Properties(ctx, org.ID)
	if err != nil {
		return nil, fmt.Errorf("list properties of %q: %w", org.Slug, err)
	}
	today := s.today(org, s.clock.Now())
	out := make([]Listing, 0, len(props))
	for _, p := range props {
		if !p.Active {
			continue
		}
		l := Listing{Property: p, Currency: org.Currency, PriceFrom: s.priceFrom(&p, today)}
		l.MinStayNights, l.MaxStayNights = p.StayLimits(*org, civilZero)
		out = append(out, l)
	}
	return out, nil
}
