package host

import (
	"context"
	"net/url"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

// Settings is a change to an organisation's settings: nil fields stay as
// they are. For the stay limits, 0 removes the limit.
type Settings struct {
	Name                *string
	Logo                *string
	Branding            *map[string]string
	DefaultLocale       *string
	PaymentMode         *pricing.PaymentMode
	DepositPercent      *decimal.Decimal
	MinStayNights       *int
	MaxStayNights       *int
	AllowedOrigins      *[]string
	CustomDomain        *string
	TermsURL            *string
	PublicEngineEnabled *bool
}

// UpdateSettings applies a change to an organisation's settings; the
// public API sees it at its next request. Errors: CodeInvalid (among
// others, a value out of booking.CheckBounds).
func (s *Service) UpdateSettings(ctx context.Context, org *booking.Organization, c Settings, by Actor) (*booking.Organization, error) {
	if err := booking.CheckBounds(c, org.Currency); err != nil {
		return nil, err
	}
	before := *org
	o := *org
	f := booking.FieldErrors{}
	set(&o.Name, c.Name)
	set(&o.Logo, c.Logo)
	set(&o.Branding, c.Branding)
	set(&o.DefaultLocale, c.DefaultLocale)
	set(&o.PaymentMode, c.PaymentMode)
	set(&o.DepositPercent, c.DepositPercent)
	set(&o.AllowedOrigins, c.AllowedOrigins)
	set(&o.CustomDomain, c.CustomDomain)
	set(&o.TermsURL, c.TermsURL)
	set(&o.PublicEngineEnabled, c.PublicEngineEnabled)
	if c.MinStayNights != nil {
		o.MinStayNights = limit(*c.MinStayNights)
	}
	if c.MaxStayNights != nil {
		o.MaxStayNights = limit(*c.MaxStayNights)
	}
	checkURL(f, "logo", o.Logo)
	checkURL(f, "terms_url", o.TermsURL)
	for _, origin := range o.AllowedOrigins {
		if u, err := url.Parse(origin); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != "" || origin != u.Scheme+"://"+u.Host {
			f.Add("allowed_origins", "invalid_origin")
			break
		}
	}
	if d := o.CustomDomain; d != "" && (strings.ContainsAny(d, "/:@ ") || !strings.Contains(d, ".") || strings.ToLower(d) != d) {
		f.Add("custom_domain", "invalid_domain")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	err := s.atomically(ctx, func(ctx context.Context) error {
		if err := s.store.UpdateOrganization(ctx, &o); err != nil {
			return notFoundAs(err, "organization", "update settings")
		}
		return s.audit(ctx, org, by, "settings.update", target("organization", org.ID), before, o)
	})
	if err != nil {
		return nil, err
	}
	return &o, nil
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// limit is a stay limit as stored: nil for 0 (no limit).
func limit(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// checkURL records a problem when s is neither empty nor an http(s) URL.
func checkURL(f booking.FieldErrors, field, s string) {
	if s == "" {
		return
	}
	if u, err := url.Parse(s); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		f.Add(field, "invalid_url")
	}
}
