package stripe

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	stripego "github.com/stripe/stripe-go/v76"

	"github.com/staykit/staykit/payment"
)

var _ payment.Connect = (*Provider)(nil)

// ChargeType returns how the platform charges; empty for a single account.
func (p *Provider) ChargeType() payment.ChargeType { return p.chargeType }

// ForAccount returns the payments of one connected account: with direct
// charges every call carries the Stripe-Account header; with destination
// charges intents are created on the platform with
// transfer_data[destination] = account, and an intent whose destination is
// another account is payment.ErrNotFound. An empty account is the
// platform's own payments.
func (p *Provider) ForAccount(account string) payment.Provider {
	q := *p
	q.account = account
	return &q
}

// scope adds the Stripe-Account header to a direct charge's calls.
func (p *Provider) scope(params interface{ SetStripeAccount(string) }) {
	if p.account != "" && p.chargeType == payment.ChargeDirect {
		params.SetStripeAccount(p.account)
	}
}

// owns reports whether pi belongs to the Provider's account: a
// destination charge must transfer to it. Direct charges are scoped by the
// header: Stripe answers 404 for another account's intent.
func (p *Provider) owns(pi *stripego.PaymentIntent) bool {
	if p.account == "" || p.chargeType != payment.ChargeDestination {
		return true
	}
	return pi.TransferData != nil && pi.TransferData.Destination != nil && pi.TransferData.Destination.ID == p.account
}

// checkOwned reads a destination charge before it is changed, so that an
// account's Provider never captures or cancels another account's intent.
func (p *Provider) checkOwned(ctx context.Context, id string) error {
	if p.account == "" || p.chargeType != payment.ChargeDestination {
		return nil
	}
	_, err := p.GetIntent(ctx, id)
	return err
}

// connectCharge sets what a charge into the connected account needs; fee
// is the application fee in ISO minor units of the charge's currency.
func (p *Provider) connectCharge(params *stripego.PaymentIntentParams, fee int64, currency string) {
	if p.account == "" {
		return
	}
	if units := stripeFee(fee, currency); units > 0 {
		params.ApplicationFeeAmount = stripego.Int64(units)
	}
	switch p.chargeType {
	case payment.ChargeDirect:
		params.SetStripeAccount(p.account)
	case payment.ChargeDestination:
		params.TransferData = &stripego.PaymentIntentTransferDataParams{Destination: stripego.String(p.account)}
		if p.onBehalfOf {
			params.OnBehalfOf = stripego.String(p.account)
		}
	}
}

// connectRefund applies the refund rule of a charge into a connected
// account: a destination charge's transfer is reversed in proportion
// (reverse_transfer), so the organisation, not the platform, gives the
// money back; the application fee goes back in proportion too
// (refund_application_fee) unless the platform keeps it.
func (p *Provider) connectRefund(params *stripego.RefundParams) {
	if p.account == "" {
		return
	}
	switch p.chargeType {
	case payment.ChargeDirect:
		params.SetStripeAccount(p.account)
	case payment.ChargeDestination:
		params.ReverseTransfer = stripego.Bool(true)
	}
	params.RefundApplicationFee = stripego.Bool(!p.keepFee)
}

// CreateAccount creates an Express connected account able to take card
// payments and receive transfers.
func (p *Provider) CreateAccount(ctx context.Context, ap payment.AccountParams) (*payment.Account, error) {
	params := &stripego.AccountParams{
		Type:     stripego.String(string(stripego.AccountTypeExpress)),
		Metadata: maps.Clone(ap.Metadata),
		Capabilities: &stripego.AccountCapabilitiesParams{
			CardPayments: &stripego.AccountCapabilitiesCardPaymentsParams{Requested: stripego.Bool(true)},
			Transfers:    &stripego.AccountCapabilitiesTransfersParams{Requested: stripego.Bool(true)},
		},
	}
	if ap.Country != "" {
		params.Country = stripego.String(ap.Country)
	}
	if ap.Email != "" {
		params.Email = stripego.String(ap.Email)
	}
	params.Context = ctx
	if err := setKey(&params.Params, ap.IdempotencyKey); err != nil {
		return nil, fmt.Errorf("stripe: create account: %w", err)
	}
	a, err := p.api.Accounts.New(params)
	if err != nil {
		return nil, mapError("create account", err)
	}
	return toAccount(a), nil
}

// GetAccount reads a connected account.
func (p *Provider) GetAccount(ctx context.Context, id string) (*payment.Account, error) {
	if id == "" {
		return nil, fmt.Errorf("stripe: get account: %w: empty id", payment.ErrNotFound)
	}
	params := &stripego.AccountParams{}
	params.Context = ctx
	a, err := p.api.Accounts.GetByID(id, params)
	if err != nil {
		return nil, mapError("get account "+id, err)
	}
	return toAccount(a), nil
}

// AccountLink creates an account_onboarding Account Link.
func (p *Provider) AccountLink(ctx context.Context, lp payment.AccountLinkParams) (string, error) {
	if lp.Account == "" {
		return "", fmt.Errorf("stripe: account link: %w: empty account", payment.ErrNotFound)
	}
	params := &stripego.AccountLinkParams{
		Account:    stripego.String(lp.Account),
		RefreshURL: stripego.String(lp.RefreshURL),
		ReturnURL:  stripego.String(lp.ReturnURL),
		Type:       stripego.String(string(stripego.AccountLinkTypeAccountOnboarding)),
	}
	params.Context = ctx
	l, err := p.api.AccountLinks.New(params)
	if err != nil {
		return "", mapError("account link for "+lp.Account, err)
	}
	return l.URL, nil
}

// ParseConnectWebhook verifies a payload of the Connect endpoint with
// Config.ConnectWebhookSecret; the event's account field is
// Event.Account. An event without one is payment.ErrInvalid: every
// lookup it leads to is scoped by it.
func (p *Provider) ParseConnectWebhook(payload []byte, signature string) (*payment.Event, error) {
	ev, err := parseWebhook(payload, signature, p.connectSecret)
	if err != nil {
		return nil, fmt.Errorf("stripe: connect: %w", err)
	}
	if ev.Account == "" {
		return nil, fmt.Errorf("stripe: connect webhook %s: %w: no account", ev.ID, payment.ErrInvalid)
	}
	return ev, nil
}

func toAccount(a *stripego.Account) *payment.Account {
	return &payment.Account{ID: a.ID, ChargesEnabled: a.ChargesEnabled, PayoutsEnabled: a.PayoutsEnabled,
		DetailsSubmitted: a.DetailsSubmitted}
}

// eventAccount holds the account fields an account.updated event is read
// for.
type eventAccount struct {
	ID               string `json:"id"`
	Object           string `json:"object"`
	ChargesEnabled   bool   `json:"charges_enabled"`
	PayoutsEnabled   bool   `json:"payouts_enabled"`
	DetailsSubmitted bool   `json:"details_submitted"`
}

func decodeAccount(raw []byte) (*payment.Account, error) {
	var ea eventAccount
	if err := json.Unmarshal(raw, &ea); err != nil {
		return nil, fmt.Errorf("decoding data.object: %w", err)
	}
	if ea.Object != "account" || !strings.HasPrefix(ea.ID, "acct_") {
		return nil, fmt.Errorf("data.object is %q %q, not an account", ea.Object, ea.ID)
	}
	return &payment.Account{ID: ea.ID, ChargesEnabled: ea.ChargesEnabled, PayoutsEnabled: ea.PayoutsEnabled,
		DetailsSubmitted: ea.DetailsSubmitted}, nil
}
