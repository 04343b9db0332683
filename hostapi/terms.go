package hostapi

import (
	"bytes"
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/policy"
)

// termsView is an organisation's cancellation policy and security
// deposit, as its bookings get them.
type termsView struct {
	CancellationPolicy policy.Policy   `json:"cancellation_policy"`
	SecurityDeposit    decimal.Decimal `json:"security_deposit"`
	DepositHoldDays    int             `json:"deposit_hold_days"`
	DepositReleaseDays int             `json:"deposit_release_days"`
}

func newTermsView(st booking.Settings) termsView {
	v := termsView{SecurityDeposit: st.SecurityDeposit, DepositHoldDays: st.DepositHoldDays, DepositReleaseDays: st.DepositReleaseDays}
	if st.Policy != nil {
		v.CancellationPolicy = *st.Policy
	}
	return v
}

// orgSettingsView is GET and PATCH /settings: the organisation's settings,
// its terms and the host's contact e-mail.
type orgSettingsView struct {
	settingsView
	termsView
	ContactEmail string `json:"contact_email"`
}

func newOrgSettingsView(s *host.OrgSettings) orgSettingsView {
	return orgSettingsView{settingsView: newSettingsView(s.Org), termsView: newTermsView(s.Terms), ContactEmail: s.ContactEmail}
}

// propertyTermsView is a property's own terms; a nil policy follows the
// organisation's.
type propertyTermsView struct {
	CancellationPolicy *policy.Policy  `json:"cancellation_policy"`
	SecurityDeposit    decimal.Decimal `json:"security_deposit"`
	DepositHoldDays    int             `json:"deposit_hold_days"`
	DepositReleaseDays int             `json:"deposit_release_days"`
}

// propertyDetailView is one property with its own terms (null: the
// organisation's apply).
type propertyDetailView struct {
	propertyView
	Terms *propertyTermsView `json:"terms"`
	// CalendarSync is the property's exposure window (GET only).
	CalendarSync *exposureView `json:"calendar_sync,omitempty"`
}

func newPropertyDetailView(d *host.PropertyDetail) propertyDetailView {
	v := propertyDetailView{propertyView: newPropertyView(d.Property)}
	if st := d.Terms; st != nil {
		v.Terms = &propertyTermsView{CancellationPolicy: st.Policy, SecurityDeposit: st.SecurityDeposit,
			DepositHoldDays: st.DepositHoldDays, DepositReleaseDays: st.DepositReleaseDays}
	}
	return v
}

// termsBody is the terms part of PATCH /settings (flat) and of PATCH
// /properties/{id} (under "terms").
type termsBody struct {
	// CancellationPolicy is {"name": preset} or a custom policy; null
	// (properties only) follows the organisation's.
	CancellationPolicy json.RawMessage  `json:"cancellation_policy"`
	SecurityDeposit    *decimal.Decimal `json:"security_deposit"`
	DepositHoldDays    *int             `json:"deposit_hold_days"`
	DepositReleaseDays *int             `json:"deposit_release_days"`
}

func (b termsBody) change() (host.TermsChange, error) {
	c := host.TermsChange{SecurityDeposit: b.SecurityDeposit, DepositHoldDays: b.DepositHoldDays, DepositReleaseDays: b.DepositReleaseDays}
	raw := bytes.TrimSpace(b.CancellationPolicy)
	switch {
	case len(raw) == 0:
	case bytes.Equal(raw, []byte("null")):
		c.InheritPolicy = true
	default:
		var p policy.Policy
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return c, invalid("cancellation_policy", "invalid_type")
		}
		c.Policy = &p
	}
	return c, nil
}
