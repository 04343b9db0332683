package host

import (
	"context"
	"net/url"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/connect"
)

// PaymentAccount reports the organisation's Stripe Connect onboarding
// (connect.Service.Status).
func (s *Service) PaymentAccount(ctx context.Context, org *booking.Organization) (*connect.Status, error) {
	return s.connect.Status(ctx, org)
}

// StartOnboarding returns the URL where the organisation's owner connects
// its Stripe account, creating the connected account first when it has
// none (connect.Service.StartOnboarding); audited. Errors: CodeInvalid
// (URLs not absolute http(s), or no Connect platform),
// CodePaymentUnavailable.
func (s *Service) StartOnboarding(ctx context.Context, org *booking.Organization, returnURL, refreshURL string, by Actor) (string, error) {
	if err := booking.CheckBounds(struct {
		ReturnURL  string `json:"return_url"`
		RefreshURL string `json:"refresh_url"`
	}{returnURL, refreshURL}, org.Currency); err != nil {
		return "", err
	}
	f := booking.FieldErrors{}
	if !absoluteURL(returnURL) {
		f.Add("return_url", "invalid_url")
	}
	if !absoluteURL(refreshURL) {
		f.Add("refresh_url", "invalid_url")
	}
	if err := f.Err(); err != nil {
		return "", err
	}
	before, err := s.connect.Status(ctx, org)
	if err != nil {
		return "", err
	}
	link, err := s.connect.StartOnboarding(ctx, org, returnURL, refreshURL)
	if err != nil {
		return "", err
	}
	after, err := s.connect.Status(ctx, org)
	if err != nil {
		return "", err
	}
	if before.Account.AccountID != after.Account.AccountID {
		if err := s.audit(ctx, org, by, "stripe.account_create", target("organization", org.ID),
			before.Account.AccountID, after.Account.AccountID); err != nil {
			s.log.ErrorContext(ctx, "audit", "err", err)
		}
	}
	return link, nil
}

func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}
