package host

import (
	"context"
	"fmt"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/policy"
)

// TermsChange changes the cancellation policy and security deposit of an
// organisation or a property (booking.Settings): nil fields stay as they
// are.
type TermsChange struct {
	// Policy is a preset by name (its tiers are filled in) or a custom
	// policy with its tiers.
	Policy *policy.Policy
	// InheritPolicy (properties only) drops the property's own policy:
	// the organisation's applies.
	InheritPolicy      bool
	SecurityDeposit    *decimal.Decimal
	DepositHoldDays    *int
	DepositReleaseDays *int
}

// checkBounds refuses values out of booking.CheckBounds, named as the
// host API names them.
func (c TermsChange) checkBounds(currency string) error {
	return booking.CheckBounds(struct {
		Policy             *policy.Policy   `json:"cancellation_policy"`
		SecurityDeposit    *decimal.Decimal `json:"security_deposit"`
		DepositHoldDays    *int             `json:"deposit_hold_days"`
		DepositReleaseDays *int             `json:"deposit_release_days"`
	}{c.Policy, c.SecurityDeposit, c.DepositHoldDays, c.DepositReleaseDays}, currency)
}

// IsEmpty reports whether c changes nothing.
func (c TermsChange) IsEmpty() bool {
	return c.Policy == nil && !c.InheritPolicy && c.SecurityDeposit == nil && c.DepositHoldDays == nil && c.DepositReleaseDays == nil
}

// apply returns st with c set. Errors: CodeInvalid.
func (c TermsChange) apply(st booking.Settings) (booking.Settings, error) {
	if c.Policy != nil {
		p := *c.Policy
		if p.Name != policy.Custom {
			preset, err := policy.Preset(p.Name)
			if err != nil {
				return st, invalid("cancellation_policy", "invalid_policy")
			}
			if p.Tiers != nil && !slices.Equal(p.Tiers, preset.Tiers) {
				return st, invalid("cancellation_policy", "invalid_policy")
			}
			preset.NonRefundable = p.NonRefundable
			p = preset
		}
		if p.Tiers == nil {
			p.Tiers = []policy.Tier{}
		}
		if p.Validate() != nil {
			return st, invalid("cancellation_policy", "invalid_policy")
		}
		st.Policy = &p
	}
	if c.InheritPolicy {
		st.Policy = nil
	}
	set(&st.SecurityDeposit, c.SecurityDeposit)
	set(&st.DepositHoldDays, c.DepositHoldDays)
	set(&st.DepositReleaseDays, c.DepositReleaseDays)
	return st, nil
}

func invalid(field, reason string) error {
	return &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.", Fields: booking.FieldErrors{field: {reason}}}
}

// OrganizationTerms returns an organisation's cancellation policy and
// security deposit as its bookings get them: the policy defaults to
// booking.DefaultPolicy, the deposit to none.
func (s *Service) OrganizationTerms(ctx context.Context, org *booking.Organization) (booking.Settings, error) {
	st, err := s.store.Settings(ctx, org.ID, 0)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		st = &booking.Settings{OrgID: org.ID}
	case err != nil:
		return booking.Settings{}, fmt.Errorf("read settings of %s: %w", org.Slug, err)
	}
	if st.Policy == nil {
		p, err := policy.Preset(booking.DefaultPolicy)
		if err != nil {
			return booking.Settings{}, err
		}
		st.Policy = &p
	}
	return *st, nil
}

// PropertyTerms returns a property's own settings, nil when it has none
// (the organisation's apply). A property's settings, once saved, carry
// its own deposit; a nil Policy follows the organisation's.
func (s *Service) PropertyTerms(ctx context.Context, org *booking.Organization, propertyID int64) (*booking.Settings, error) {
	st, err := s.store.Settings(ctx, org.ID, propertyID)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read settings of property %d: %w", propertyID, err)
	}
	return st, nil
}

// CheckTerms reports whether c would be accepted for org. Errors:
// CodeInvalid.
func (s *Service) CheckTerms(org *booking.Organization, c TermsChange) error {
	if err := c.checkBounds(org.Currency); err != nil {
		return err
	}
	st, err := c.apply(booking.Settings{})
	if err != nil {
		return err
	}
	return checkDeposit(st)
}

func checkDeposit(st booking.Settings) error {
	f := booking.FieldErrors{}
	if st.SecurityDeposit.IsNegative() {
		f.Add("security_deposit", "invalid_amount")
	}
	if st.DepositHoldDays < 0 || st.DepositHoldDays > booking.MaxDepositHoldDays {
		f.Add("deposit_hold_days", "out_of_range")
	}
	if st.DepositReleaseDays < 0 || st.DepositReleaseDays > booking.MaxDepositReleaseDays {
		f.Add("deposit_release_days", "out_of_range")
	}
	return f.Err()
}

// UpdateTerms applies c to the settings of org (propertyID 0) or of one
// of its properties; bookings already made keep the terms they were sold
// with. A property without settings of its own starts from the
// organisation's deposit and policy inherited. Errors: CodeNotFound,
// CodeInvalid.
func (s *Service) UpdateTerms(ctx context.Context, org *booking.Organization, propertyID int64, c TermsChange, by Actor) (*booking.Settings, error) {
	if c.InheritPolicy && propertyID == 0 {
		return nil, invalid("cancellation_policy", "invalid_type")
	}
	if err := c.checkBounds(org.Currency); err != nil {
		return nil, err
	}
	var before *booking.Settings
	var st booking.Settings
	if propertyID == 0 {
		cur, err := s.OrganizationTerms(ctx, org)
		if err != nil {
			return nil, err
		}
		before, st = &cur, cur
	} else {
		if _, err := s.Property(ctx, org, propertyID); err != nil {
			return nil, err
		}
		var err error
		if before, err = s.PropertyTerms(ctx, org, propertyID); err != nil {
			return nil, err
		}
		if before != nil {
			st = *before
		} else {
			orgTerms, err := s.OrganizationTerms(ctx, org)
			if err != nil {
				return nil, err
			}
			st = booking.Settings{SecurityDeposit: orgTerms.SecurityDeposit, DepositHoldDays: orgTerms.DepositHoldDays,
				DepositReleaseDays: orgTerms.DepositReleaseDays}
		}
	}
	st, err := c.apply(st)
	if err != nil {
		return nil, err
	}
	if err := checkDeposit(st); err != nil {
		return nil, err
	}
	st.OrgID, st.PropertyID = org.ID, propertyID
	tgt := target("organization", org.ID)
	if propertyID != 0 {
		tgt = target("property", propertyID)
	}
	var beforeAudit any
	if before != nil {
		beforeAudit = before
	}
	err = s.atomically(ctx, func(ctx context.Context) error {
		if err := s.bookings.SaveSettings(ctx, org.Slug, st); err != nil {
			return notFoundAs(err, "property", "save terms")
		}
		return s.audit(ctx, org, by, "terms.update", tgt, beforeAudit, st)
	})
	if err != nil {
		return nil, err
	}
	return &st, nil
}
