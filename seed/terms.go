package seed

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/policy"
)

// termsJSON is an organisation's or a property's cancellation policy and
// security deposit (issue #12), as a host writes them:
//
//	"terms": {"cancellation_policy": "moderate", "security_deposit": 300,
//	          "deposit_hold_days": 2, "deposit_release_days": 3}
//
// cancellation_policy names a preset (flexible, moderate, strict,
// non_refundable); "policy" gives custom tiers instead, in package
// policy's JSON form.
type termsJSON struct {
	CancellationPolicy string          `json:"cancellation_policy"`
	Policy             *policy.Policy  `json:"policy"`
	SecurityDeposit    decimal.Decimal `json:"security_deposit"`
	DepositHoldDays    int             `json:"deposit_hold_days"`
	DepositReleaseDays int             `json:"deposit_release_days"`
}

// parseTerms checks t, in currency, and returns the settings it stands
// for; nil when t is nil.
func parseTerms(c *checker, path string, t *termsJSON, currency string) *booking.Settings {
	if t == nil {
		return nil
	}
	c.validation(path, booking.CheckBounds(t, currency))
	st := &booking.Settings{SecurityDeposit: t.SecurityDeposit, DepositHoldDays: t.DepositHoldDays, DepositReleaseDays: t.DepositReleaseDays}
	switch {
	case t.CancellationPolicy != "" && t.Policy != nil:
		c.add(path+".policy", "conflict: give cancellation_policy (a preset) or policy (custom tiers), not both")
	case t.CancellationPolicy != "":
		p, err := policy.Preset(t.CancellationPolicy)
		if err != nil {
			c.add(path+".cancellation_policy", fmt.Sprintf("invalid_choice: want one of %v", policy.Presets()))
		}
		st.Policy = &p
	case t.Policy != nil:
		if err := t.Policy.Validate(); err != nil {
			c.add(path+".policy", "invalid_policy: "+err.Error())
		}
		st.Policy = t.Policy
	}
	if t.SecurityDeposit.IsNegative() {
		c.add(path+".security_deposit", "out_of_range: must not be negative")
	}
	if t.DepositHoldDays < 0 || t.DepositHoldDays > booking.MaxDepositHoldDays {
		c.add(path+".deposit_hold_days", fmt.Sprintf("out_of_range: 0 to %d", booking.MaxDepositHoldDays))
	}
	if t.DepositReleaseDays < 0 || t.DepositReleaseDays > booking.MaxDepositReleaseDays {
		c.add(path+".deposit_release_days", fmt.Sprintf("out_of_range: 0 to %d", booking.MaxDepositReleaseDays))
	}
	return st
}

// saveTerms stores settings for an organisation (propertyID 0) or one of
// its properties; the store must keep them (booking.TermsStore).
func saveTerms(ctx context.Context, store booking.CatalogStore, path string, st *booking.Settings, orgID, propertyID int64) error {
	if st == nil {
		return nil
	}
	ts, ok := store.(interface {
		SaveSettings(ctx context.Context, st booking.Settings) error
	})
	if !ok {
		return fmt.Errorf("seed: %s.terms: this store keeps no cancellation policies or deposits", path)
	}
	s := *st
	s.OrgID, s.PropertyID = orgID, propertyID
	if err := ts.SaveSettings(ctx, s); err != nil {
		return fmt.Errorf("seed: store %s.terms: %w", path, err)
	}
	return nil
}
