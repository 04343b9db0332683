package storetest

import (
	"errors"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

// invalidOrganizations break one rule of Organization.Validate each; field
// is the field the store must name.
var invalidOrganizations = []struct {
	name, field string
	edit        func(o *booking.Organization)
}{
	{"BadSlug", "slug", func(o *booking.Organization) { o.Slug = "Not A Slug" }},
	{"NoName", "name", func(o *booking.Organization) { o.Name = "" }},
	{"UnknownPaymentMode", "payment_mode", func(o *booking.Organization) { o.PaymentMode = "barter" }},
	{"UnknownLocale", "default_locale", func(o *booking.Organization) { o.DefaultLocale = "de" }},
	{"UnknownCurrency", "currency", func(o *booking.Organization) { o.Currency = "euro" }},
	{"UnknownTimezone", "timezone", func(o *booking.Organization) { o.Timezone = "Mars/Olympus" }},
	{"DepositOver100", "deposit_percent", func(o *booking.Organization) { o.DepositPercent = dec("100.01") }},
	{"NoHold", "hold_minutes", func(o *booking.Organization) { o.HoldMinutes = 0 }},
	{"RequestHoldPastAuthorization", "request_hold_hours", func(o *booking.Organization) {
		o.RequestHoldHours = booking.MaxAuthorizationHours + 1
	}},
	{"MaxStayUnderMin", "max_stay_nights", func(o *booking.Organization) { o.MaxStayNights = intp(1) }},
}

// invalidProperties break one rule of Property.Validate each.
var invalidProperties = []struct {
	name, field string
	edit        func(p *booking.Property)
}{
	{"NoName", "name", func(p *booking.Property) { p.Name = "" }},
	{"NoGuests", "max_guests", func(p *booking.Property) { p.MaxGuests = 0 }},
	{"NegativeBedrooms", "bedrooms", func(p *booking.Property) { p.Bedrooms = -1 }},
	{"ZeroMinStay", "min_stay_nights", func(p *booking.Property) { p.MinStayNights = intp(0) }},
	{"NegativeBaseRate", "rates", func(p *booking.Property) { p.Rates.BaseRate = dec("-1") }},
	{"NegativeCleaningFee", "fees", func(p *booking.Property) { p.Fees.Cleaning = dec("-0.01") }},
	{"NegativeTax", "tax", func(p *booking.Property) { p.Tax.PerGuestPerNight = dec("-2") }},
	{"BlockEndsBeforeStart", "blocks", func(p *booking.Property) {
		p.Blocks = append(p.Blocks, booking.Block{Start: day("2026-11-05"), End: day("2026-11-01")})
	}},
}

// wantInvalid fails the test unless err is CodeInvalid naming field.
func wantInvalid(t *testing.T, err error, field string) {
	t.Helper()
	wantCode(t, err, booking.CodeInvalid)
	var be *booking.Error
	if !errors.As(err, &be) || len(be.Fields[field]) == 0 {
		t.Errorf("error %v names fields %v, want %q", err, be.Fields, field)
	}
}

var validationScenarios = []scenario{
	{"Organization/CreateInvalidRefused", func(t *testing.T, s Stores) {
		for _, tt := range invalidOrganizations {
			t.Run(tt.name, func(t *testing.T) {
				o := orgFixture("refused")
				tt.edit(o)
				wantInvalid(t, s.CreateOrganization(t.Context(), o), tt.field)
				if o.ID != 0 {
					t.Errorf("ID = %d after a refused create, want 0", o.ID)
				}
				list, err := s.Organizations(t.Context())
				must(t, err)
				if len(list) != 0 {
					t.Errorf("%d organizations stored after a refused create, want 0", len(list))
				}
			})
		}
	}},
	{"Organization/UpdateInvalidRefused", func(t *testing.T, s Stores) {
		want := newOrg(t, s, "kept")
		for _, tt := range invalidOrganizations {
			t.Run(tt.name, func(t *testing.T) {
				o := *want
				tt.edit(&o)
				wantInvalid(t, s.UpdateOrganization(t.Context(), &o), tt.field)
				got, err := s.OrganizationByID(t.Context(), want.ID)
				must(t, err)
				sameJSON(t, "organization after a refused update", got, want)
			})
		}
	}},
	{"Property/CreateInvalidRefused", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		for _, tt := range invalidProperties {
			t.Run(tt.name, func(t *testing.T) {
				p := propertyFixture(o.ID)
				tt.edit(p)
				wantInvalid(t, s.CreateProperty(t.Context(), p), tt.field)
				if p.ID != 0 {
					t.Errorf("ID = %d after a refused create, want 0", p.ID)
				}
				list, err := s.Properties(t.Context(), o.ID)
				must(t, err)
				if len(list) != 0 {
					t.Errorf("%d properties stored after a refused create, want 0", len(list))
				}
			})
		}
	}},
	{"Property/UpdateInvalidRefused", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		want := newProperty(t, s, o.ID)
		for _, tt := range invalidProperties {
			t.Run(tt.name, func(t *testing.T) {
				p := propertyFixture(o.ID)
				p.ID, p.Blocks = want.ID, nil
				tt.edit(p)
				wantInvalid(t, s.UpdateProperty(t.Context(), p), tt.field)
				got, err := s.Property(t.Context(), o.ID, want.ID)
				must(t, err)
				sameJSON(t, "property after a refused update", got, want)
			})
		}
	}},
	{"Organization/ValidEditsAccepted", func(t *testing.T, s Stores) {
		// The refusals above are not blanket: the same fixtures, valid,
		// are stored and updated.
		o := newOrg(t, s, "fine")
		o.PaymentMode, o.DepositPercent = pricing.ModeFull, dec("0")
		must(t, s.UpdateOrganization(t.Context(), o))
		p := newProperty(t, s, o.ID)
		p.MaxGuests = 1
		must(t, s.UpdateProperty(t.Context(), p))
	}},
}
