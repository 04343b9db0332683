package hostapi

import (
	"net/http"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/connect"
)

// stripeView is an organisation's Stripe Connect onboarding.
type stripeView struct {
	// Connect: the server is a platform paying each organisation into its
	// own account; when false the other fields are empty and nothing is to
	// be connected.
	Connect        bool            `json:"connect"`
	ChargeType     *string         `json:"charge_type"`
	AccountID      *string         `json:"account_id"`
	State          string          `json:"state"`
	ChargesEnabled bool            `json:"charges_enabled"`
	FeePercent     decimal.Decimal `json:"fee_percent"`
	FeeFixed       int64           `json:"fee_fixed"`
}

func newStripeView(st *connect.Status) stripeView {
	v := stripeView{Connect: st.Enabled, State: string(st.Account.State), ChargesEnabled: st.Account.ChargesEnabled,
		FeePercent: st.Account.FeePercent, FeeFixed: st.Account.FeeFixed}
	if st.Enabled {
		ct := string(st.ChargeType)
		v.ChargeType = &ct
	}
	if st.Account.AccountID != "" {
		id := st.Account.AccountID
		v.AccountID = &id
	}
	if v.State == "" {
		v.State = string(booking.OnboardingNone)
	}
	return v
}

// GET /stripe: the organisation's onboarding state.
func (h *handler) getStripe(r *http.Request, c *call) (int, any, error) {
	st, err := h.host.PaymentAccount(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newStripeView(st), nil
}

type onboardingBody struct {
	ReturnURL  string `json:"return_url"`
	RefreshURL string `json:"refresh_url"`
}

// POST /stripe/onboarding: an Account Link, creating the connected account
// if there is none.
func (h *handler) startOnboarding(r *http.Request, c *call) (int, any, error) {
	var b onboardingBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	link, err := h.host.StartOnboarding(r.Context(), c.org, b.ReturnURL, b.RefreshURL, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, onboardingView{URL: &link}, nil
}

// onboardingView is a Stripe Account Link: a short-lived URL that opens
// the organisation's onboarding to whoever has it (null in the replay of
// a retried request: ask for a new link).
type onboardingView struct {
	URL *string `json:"url"`
}

func (v onboardingView) withoutSecret() any {
	v.URL = nil
	return v
}
