package host

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
)

// The use cases of the host API's routes that change several things at
// once or answer with more than one record: one call per route, so that
// an HTTP handler only reads the request and writes the answer.

// OrgSettings is an organisation's settings as the host sees and edits
// them: the organisation, its terms and the address its e-mails go to.
type OrgSettings struct {
	Org          *booking.Organization
	Terms        booking.Settings
	ContactEmail string
}

// Settings returns org's settings, terms and contact address.
func (s *Service) Settings(ctx context.Context, org *booking.Organization) (*OrgSettings, error) {
	st, err := s.OrganizationTerms(ctx, org)
	if err != nil {
		return nil, err
	}
	email, err := s.ContactEmail(ctx, org)
	if err != nil {
		return nil, err
	}
	return &OrgSettings{Org: org, Terms: st, ContactEmail: email}, nil
}

// SettingsPatch is a change of an organisation's settings, terms and
// contact address, made at once.
type SettingsPatch struct {
	Settings Settings
	// Terms are the organisation's terms; InheritPolicy is refused (an
	// organisation has no policy to inherit).
	Terms TermsChange
	// ContactEmail, when set, is the new contact address ("" for none).
	ContactEmail *string
}

// PatchSettings checks p whole, then makes its changes (UpdateSettings,
// UpdateTerms, SetContactEmail, each audited) in one unit of work: all of
// them or none. It returns the settings after. Errors: CodeInvalid,
// CodeNotFound.
func (s *Service) PatchSettings(ctx context.Context, org *booking.Organization, p SettingsPatch, by Actor) (*OrgSettings, error) {
	if p.Terms.InheritPolicy {
		return nil, invalid("cancellation_policy", "invalid_type")
	}
	if err := s.CheckTerms(org, p.Terms); err != nil {
		return nil, err
	}
	if p.ContactEmail != nil {
		if err := CheckContactEmail(*p.ContactEmail); err != nil {
			return nil, err
		}
	}
	var o *booking.Organization
	err := s.atomically(ctx, func(ctx context.Context) error {
		var err error
		if o, err = s.UpdateSettings(ctx, org, p.Settings, by); err != nil {
			return err
		}
		if !p.Terms.IsEmpty() {
			if _, err := s.UpdateTerms(ctx, o, 0, p.Terms, by); err != nil {
				return err
			}
		}
		if p.ContactEmail != nil {
			return s.SetContactEmail(ctx, o, *p.ContactEmail, by)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.Settings(ctx, o)
}

// PropertyDetail is a property with its own terms (nil: the
// organisation's apply).
type PropertyDetail struct {
	Property *booking.Property
	Terms    *booking.Settings
}

// PropertyDetail finds a property of org with its own terms. Errors:
// CodeNotFound.
func (s *Service) PropertyDetail(ctx context.Context, org *booking.Organization, id int64) (*PropertyDetail, error) {
	p, err := s.Property(ctx, org, id)
	if err != nil {
		return nil, err
	}
	return s.propertyDetail(ctx, org, p)
}

func (s *Service) propertyDetail(ctx context.Context, org *booking.Organization, p *booking.Property) (*PropertyDetail, error) {
	st, err := s.PropertyTerms(ctx, org, p.ID)
	if err != nil {
		return nil, err
	}
	return &PropertyDetail{Property: p, Terms: st}, nil
}

// PropertyPatch is a change of a property and, when Terms is set, of its
// own terms, made at once.
type PropertyPatch struct {
	Property PropertyChange
	Terms    *TermsChange
}

// PatchProperty checks the terms of p, then changes the property and its
// terms (UpdateProperty, UpdateTerms, each audited) in one unit of work.
// It returns the property after with its terms. Errors: CodeNotFound,
// CodeInvalid.
func (s *Service) PatchProperty(ctx context.Context, org *booking.Organization, id int64, p PropertyPatch, by Actor) (*PropertyDetail, error) {
	if p.Terms != nil {
		if err := s.CheckTerms(org, *p.Terms); err != nil {
			return nil, err
		}
	}
	var prop *booking.Property
	err := s.atomically(ctx, func(ctx context.Context) error {
		var err error
		if prop, err = s.UpdateProperty(ctx, org, id, p.Property, by); err != nil {
			return err
		}
		if p.Terms != nil && !p.Terms.IsEmpty() {
			_, err = s.UpdateTerms(ctx, org, id, *p.Terms, by)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.propertyDetail(ctx, org, prop)
}

// ChangeCalendar sets dates of a property's calendar (SetCalendar) and
// returns the calendar of [c.From, c.To) after.
func (s *Service) ChangeCalendar(ctx context.Context, org *booking.Organization, propertyID int64, c booking.CalendarChange, by Actor) ([]Day, error) {
	if err := s.SetCalendar(ctx, org, propertyID, c, by); err != nil {
		return nil, err
	}
	return s.Calendar(ctx, org, propertyID, c.From, c.To)
}

// BookingDetail is a booking of the host with its ledger entries and the
// terms it was sold with (nil for a booking made before terms existed).
type BookingDetail struct {
	Booking *booking.Booking
	Ledger  []ledger.Entry
	Terms   *booking.Terms
}

// BookingDetail finds a booking of org with its ledger and terms. Errors:
// CodeNotFound.
func (s *Service) BookingDetail(ctx context.Context, org *booking.Organization, id int64) (*BookingDetail, error) {
	b, entries, err := s.Booking(ctx, org, id)
	if err != nil {
		return nil, err
	}
	t, err := s.BookingTerms(ctx, org, b)
	if err != nil {
		return nil, err
	}
	return &BookingDetail{Booking: b, Ledger: entries, Terms: t}, nil
}

// BookingAction is what the host does to a booking: Approve, Decline,
// CancelWithOptions or ClaimDeposit, bound to its arguments.
type BookingAction func(ctx context.Context, s *Service, org *booking.Organization, id int64, by Actor) error

// ApproveAction approves a requested booking (Approve).
func ApproveAction() BookingAction {
	return func(ctx context.Context, s *Service, org *booking.Organization, id int64, by Actor) error {
		_, err := s.Approve(ctx, org, id, by)
		return err
	}
}

// DeclineAction refuses a requested booking (Decline).
func DeclineAction() BookingAction {
	return func(ctx context.Context, s *Service, org *booking.Organization, id int64, by Actor) error {
		_, err := s.Decline(ctx, org, id, by)
		return err
	}
}

// CancelAction cancels a booking as o says (CancelWithOptions).
func CancelAction(o booking.CancelOptions) BookingAction {
	return func(ctx context.Context, s *Service, org *booking.Organization, id int64, by Actor) error {
		_, err := s.CancelWithOptions(ctx, org, id, o, by)
		return err
	}
}

// ClaimDepositAction takes amount of a booking's held deposit
// (ClaimDeposit).
func ClaimDepositAction(amount decimal.Decimal) BookingAction {
	return func(ctx context.Context, s *Service, org *booking.Organization, id int64, by Actor) error {
		_, err := s.ClaimDeposit(ctx, org, id, amount, by)
		return err
	}
}

// ActOnBooking does act to a booking of org and returns the booking's
// detail after it. The action calls the payment provider: it is audited
// after it is made, not in a unit of work. Errors: those of act, then of
// BookingDetail.
func (s *Service) ActOnBooking(ctx context.Context, org *booking.Organization, id int64, act BookingAction, by Actor) (*BookingDetail, error) {
	if err := act(ctx, s, org, id, by); err != nil {
		return nil, err
	}
	return s.BookingDetail(ctx, org, id)
}
