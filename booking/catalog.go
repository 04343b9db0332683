package booking

import (
	"context"
	"fmt"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
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
		out = append(out, s.listing(org, &p, today))
	}
	return out, nil
}

// listing is p as Properties lists it on today.
func (s *Service) listing(org *Organization, p *Property, today civil.Date) Listing {
	l := Listing{Property: *p, Currency: org.Currency, PriceFrom: s.priceFrom(p, today)}
	l.MinStayNights, l.MaxStayNights = p.stayLimits(org, civilZero)
	return l
}

// PropertiesVersioner is what a read model (package store/cache) may offer
// beside its CatalogStore so that the properties list is built and encoded
// once per change rather than per request (OrgService.PropertiesVersion,
// package httpapi).
type PropertiesVersioner interface {
	// PropertiesVersion returns a number that differs whenever
	// Properties(orgID) or the organisation may answer differently
	// since; ok is false when it cannot tell.
	PropertiesVersion(orgID int64) (v uint64, ok bool)
}

// PropertiesVersion returns a key of what Properties answers now: while
// the key is the same, so is the answer (the store's version of the
// catalogue, today's date, and the organisation's fields a listing
// shows). ok is false when the store cannot tell.
func (o *OrgService) PropertiesVersion() (string, bool) {
	vs, ok := o.s.store.CatalogStore.(PropertiesVersioner)
	if !ok {
		return "", false
	}
	v, ok := vs.PropertiesVersion(o.org.ID)
	if !ok {
		return "", false
	}
	opt := func(p *int) string {
		if p == nil {
			return "-"
		}
		return strconv.Itoa(*p)
	}
	return strconv.FormatUint(v, 10) + "/" + o.s.today(o.org, o.s.clock.Now()).String() + "/" +
		o.org.Currency + "/" + opt(o.org.MinStayNights) + "/" + opt(o.org.MaxStayNights), true
}
