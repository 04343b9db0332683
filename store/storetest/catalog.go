package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

var organizationScenarios = []scenario{
	{"Organization/CreatedRoundTrips", func(t *testing.T, s Stores) {
		want := newOrg(t, s, "villa-soleil")
		got, err := s.OrganizationBySlug(t.Context(), "villa-soleil")
		must(t, err)
		sameJSON(t, "organization", got, want)
		if !got.DepositPercent.Equal(dec("30.5")) {
			t.Errorf("DepositPercent = %s, want 30.5", got.DepositPercent)
		}
		if got.Country != "BE" || got.BookingHorizonDays != 400 {
			t.Errorf("Country, BookingHorizonDays = %q, %d; want BE, 400", got.Country, got.BookingHorizonDays)
		}
	}},
	{"Organization/ByID", func(t *testing.T, s Stores) {
		newOrg(t, s, "other")
		want := newOrg(t, s, "by-id")
		got, err := s.OrganizationByID(t.Context(), want.ID)
		must(t, err)
		sameJSON(t, "organization", got, want)
		_, err = s.OrganizationByID(t.Context(), want.ID+100)
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Organization/ZeroSettingsRoundTrip", func(t *testing.T, s Stores) {
		want := &booking.Organization{Slug: "bare", Name: "Bare", PaymentMode: pricing.ModeFull,
			DefaultLocale: "fr", Currency: "EUR", Timezone: "UTC", HoldMinutes: 30, RequestHoldHours: 48}
		must(t, s.CreateOrganization(t.Context(), want))
		got, err := s.OrganizationBySlug(t.Context(), "bare")
		must(t, err)
		sameJSON(t, "organization", got, want)
		if got.MinStayNights != nil || got.MaxStayNights != nil || got.Branding != nil || got.AllowedOrigins != nil {
			t.Errorf("unset settings came back set: %+v", got)
		}
	}},
	{"Organization/SlugTakenConflict", func(t *testing.T, s Stores) {
		newOrg(t, s, "taken")
		err := s.CreateOrganization(t.Context(), orgFixture("taken"))
		wantCode(t, err, booking.CodeConflict)
		list, err := s.Organizations(t.Context())
		must(t, err)
		if len(list) != 1 {
			t.Errorf("%d organizations after the refused create, want 1", len(list))
		}
	}},
	{"Organization/UpdateReplaces", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "before")
		o.Slug, o.Name, o.PaymentMode = "after", "Renamed", pricing.ModeRequest
		o.MinStayNights, o.Branding, o.PublicEngineEnabled = nil, map[string]string{"x": "y"}, false
		o.DepositPercent = dec("0")
		o.Country, o.BookingHorizonDays = "CH", 90
		must(t, s.UpdateOrganization(t.Context(), o))
		got, err := s.OrganizationBySlug(t.Context(), "after")
		must(t, err)
		sameJSON(t, "organization", got, o)
		_, err = s.OrganizationBySlug(t.Context(), "before")
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Organization/UpdateToTakenSlugConflict", func(t *testing.T, s Stores) {
		newOrg(t, s, "first")
		o := newOrg(t, s, "second")
		o.Slug = "first"
		wantCode(t, s.UpdateOrganization(t.Context(), o), booking.CodeConflict)
		if _, err := s.OrganizationBySlug(t.Context(), "second"); err != nil {
			t.Errorf("the refused update changed the organization: %v", err)
		}
	}},
	{"Organization/UpdateUnknownNotFound", func(t *testing.T, s Stores) {
		o := orgFixture("ghost")
		o.ID = 999
		wantCode(t, s.UpdateOrganization(t.Context(), o), booking.CodeNotFound)
	}},
	{"Organization/BySlugUnknownNotFound", func(t *testing.T, s Stores) {
		_, err := s.OrganizationBySlug(t.Context(), "nobody")
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Organization/ListedBySlug", func(t *testing.T, s Stores) {
		for _, slug := range []string{"bravo", "alpha", "charlie"} {
			newOrg(t, s, slug)
		}
		list, err := s.Organizations(t.Context())
		must(t, err)
		var got []string
		for _, o := range list {
			got = append(got, o.Slug)
		}
		if want := []string{"alpha", "bravo", "charlie"}; !slices.Equal(got, want) {
			t.Errorf("slugs = %v, want %v", got, want)
		}
	}},
}

var propertyScenarios = []scenario{
	{"Property/CreatedRoundTrips", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		p := propertyFixture(o.ID)
		must(t, s.CreateProperty(t.Context(), p))
		if p.ID == 0 || p.Blocks[0].ID == 0 || p.Blocks[1].ID == 0 || p.Blocks[0].ID == p.Blocks[1].ID {
			t.Fatalf("IDs not set: property %d, blocks %+v", p.ID, p.Blocks)
		}
		got, err := s.Property(t.Context(), o.ID, p.ID)
		must(t, err)
		want := *p
		// Blocks come back by start.
		want.Blocks = []booking.Block{p.Blocks[1], p.Blocks[0]}
		sameJSON(t, "property", got, want)
		if !got.Rates.BaseRate.Equal(dec("120.5")) || !got.Rates.WeekendRate.Equal(dec("150")) ||
			!got.Fees.ExtraGuest.Equal(dec("15.25")) || !got.Tax.PerGuestPerNight.Equal(dec("2.3")) {
			t.Errorf("amounts changed: rates %+v fees %+v tax %+v", got.Rates, got.Fees, got.Tax)
		}
	}},
	{"Property/MinimalRoundTrips", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		p := &booking.Property{OrgID: o.ID, Name: "Cabin", MaxGuests: 1,
			Rates: pricing.RatePlan{BaseRate: dec("80")}}
		must(t, s.CreateProperty(t.Context(), p))
		got, err := s.Property(t.Context(), o.ID, p.ID)
		must(t, err)
		sameJSON(t, "property", got, p)
		if got.Rates.WeekendRate != nil || got.MinStayNights != nil || len(got.Blocks) != 0 {
			t.Errorf("unset fields came back set: %+v", got)
		}
	}},
	{"Property/CreateUnknownOrganizationNotFound", func(t *testing.T, s Stores) {
		wantCode(t, s.CreateProperty(t.Context(), propertyFixture(999)), booking.CodeNotFound)
	}},
	{"Property/UpdateReplacesRatesAndBlocks", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		p := propertyFixture(o.ID)
		must(t, s.CreateProperty(t.Context(), p))
		kept := p.Blocks[0]
		p.Name, p.Active, p.MaxStayNights = "Renamed", false, intp(14)
		p.Rates.BaseRate, p.Rates.WeekendRate, p.Rates.Seasons = dec("99.99"), nil, nil
		p.Fees.Cleaning = dec("0")
		p.Blocks = []booking.Block{kept, {Start: day("2026-11-01"), End: day("2026-11-03"), Reason: "new"}}
		must(t, s.UpdateProperty(t.Context(), p))
		if p.Blocks[0].ID != kept.ID {
			t.Errorf("kept block ID = %d, want %d", p.Blocks[0].ID, kept.ID)
		}
		if p.Blocks[1].ID == 0 {
			t.Error("new block ID not set")
		}
		got, err := s.Property(t.Context(), o.ID, p.ID)
		must(t, err)
		sameJSON(t, "property", got, p)
	}},
	{"Property/OfAnotherOrganizationNotFound", func(t *testing.T, s Stores) {
		a, b := newOrg(t, s, "alpha"), newOrg(t, s, "bravo")
		p := newProperty(t, s, a.ID)
		_, err := s.Property(t.Context(), b.ID, p.ID)
		wantCode(t, err, booking.CodeNotFound)
		other := *p
		other.OrgID, other.Name = b.ID, "Stolen"
		wantCode(t, s.UpdateProperty(t.Context(), &other), booking.CodeNotFound)
		got, err := s.Property(t.Context(), a.ID, p.ID)
		must(t, err)
		if got.Name != p.Name {
			t.Errorf("name = %q after another organization's update, want %q", got.Name, p.Name)
		}
	}},
	{"Property/UnknownNotFound", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		_, err := s.Property(t.Context(), o.ID, 999)
		wantCode(t, err, booking.CodeNotFound)
		p := propertyFixture(o.ID)
		p.ID = 999
		wantCode(t, s.UpdateProperty(t.Context(), p), booking.CodeNotFound)
	}},
	{"Property/ListedByIDWithBlocks", func(t *testing.T, s Stores) {
		a, b := newOrg(t, s, "alpha"), newOrg(t, s, "bravo")
		first := propertyFixture(a.ID)
		must(t, s.CreateProperty(t.Context(), first))
		newProperty(t, s, b.ID)
		second := newProperty(t, s, a.ID)
		list, err := s.Properties(t.Context(), a.ID)
		must(t, err)
		if len(list) != 2 || list[0].ID != first.ID || list[1].ID != second.ID {
			t.Fatalf("properties = %+v, want IDs %d, %d", list, first.ID, second.ID)
		}
		if len(list[0].Blocks) != 2 || !list[0].Blocks[0].Start.Before(list[0].Blocks[1].Start) {
			t.Errorf("blocks = %+v, want 2 by start", list[0].Blocks)
		}
		none, err := s.Properties(t.Context(), 999)
		must(t, err)
		if len(none) != 0 {
			t.Errorf("unknown organization has %d properties", len(none))
		}
	}},
	{"Block/AddedAndRemoved", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := &booking.Block{Start: day("2026-05-01"), End: day("2026-05-04"), Reason: "family"}
		must(t, s.AddBlock(t.Context(), w.prop.ID, b, t0))
		if b.ID == 0 {
			t.Fatal("AddBlock left ID 0")
		}
		got, err := s.Property(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		sameJSON(t, "blocks", got.Blocks, []booking.Block{*b})
		other := newProperty(t, s, w.org.ID)
		wantCode(t, s.RemoveBlock(t.Context(), other.ID, b.ID), booking.CodeNotFound)
		must(t, s.RemoveBlock(t.Context(), w.prop.ID, b.ID))
		wantCode(t, s.RemoveBlock(t.Context(), w.prop.ID, b.ID), booking.CodeNotFound)
		got, err = s.Property(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		if len(got.Blocks) != 0 {
			t.Errorf("blocks after removal = %+v", got.Blocks)
		}
	}},
	{"Block/UnknownPropertyNotFound", func(t *testing.T, s Stores) {
		b := &booking.Block{Start: day("2026-05-01"), End: day("2026-05-04")}
		wantCode(t, s.AddBlock(t.Context(), 999, b, t0), booking.CodeNotFound)
	}},
	{"Block/OverHoldingBookingUnavailable", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		newPending(t, s, w.prop, "2026-05-10", "2026-05-13", t0.Add(time.Hour))
		newPending(t, s, w.prop, "2026-06-10", "2026-06-13", t0.Add(time.Minute))
		tests := []struct {
			name       string
			start, end string
			at         time.Time
			want       string
		}{
			{"overlapsPending", "2026-05-12", "2026-05-15", t0, booking.CodeUnavailable},
			{"endsOnCheckIn", "2026-05-08", "2026-05-10", t0, ""},
			{"startsOnCheckOut", "2026-05-13", "2026-05-14", t0, ""},
			{"overlapsLapsedPending", "2026-06-09", "2026-06-20", t0.Add(time.Minute), ""},
		}
		for _, tt := range tests {
			b := &booking.Block{Start: day(tt.start), End: day(tt.end)}
			err := s.AddBlock(t.Context(), w.prop.ID, b, tt.at)
			if got := booking.ErrorCode(err); got != tt.want {
				t.Errorf("%s: code = %q (%v), want %q", tt.name, got, err, tt.want)
			}
		}
		got, err := s.Property(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		if len(got.Blocks) != 3 {
			t.Errorf("%d blocks stored, want 3 (the refused one is not)", len(got.Blocks))
		}
	}},
}

var couponScenarios = []scenario{
	{"Coupon/CreatedNormalizedRoundTrips", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		c := couponFixture(o.ID, "  welcome10 ", 5)
		must(t, s.CreateCoupon(t.Context(), c))
		if c.ID == 0 || c.Code != "WELCOME10" {
			t.Fatalf("after create: ID %d, code %q, want an ID and WELCOME10", c.ID, c.Code)
		}
		for _, code := range []string{"WELCOME10", "welcome10", " Welcome10"} {
			got, err := s.CouponByCode(t.Context(), o.ID, code)
			must(t, err)
			sameJSON(t, "coupon "+code, got, c)
		}
	}},
	{"Coupon/SameCodeConflict", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		newCoupon(t, s, o.ID, "SUMMER", 0)
		wantCode(t, s.CreateCoupon(t.Context(), couponFixture(o.ID, "summer", 0)), booking.CodeConflict)
	}},
	{"Coupon/SameCodeOtherOrganizationAllowed", func(t *testing.T, s Stores) {
		a, b := newOrg(t, s, "alpha"), newOrg(t, s, "bravo")
		ca := newCoupon(t, s, a.ID, "SUMMER", 0)
		cb := newCoupon(t, s, b.ID, "summer", 3)
		got, err := s.CouponByCode(t.Context(), b.ID, "SUMMER")
		must(t, err)
		if got.ID != cb.ID || got.ID == ca.ID {
			t.Errorf("coupon of bravo = %d, want %d", got.ID, cb.ID)
		}
	}},
	{"Coupon/UnknownNotFound", func(t *testing.T, s Stores) {
		a, b := newOrg(t, s, "alpha"), newOrg(t, s, "bravo")
		newCoupon(t, s, a.ID, "SUMMER", 0)
		_, err := s.CouponByCode(t.Context(), a.ID, "WINTER")
		wantCode(t, err, booking.CodeNotFound)
		_, err = s.CouponByCode(t.Context(), b.ID, "SUMMER")
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Coupon/UpdateReplaces", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		c := newCoupon(t, s, o.ID, "SUMMER", 0)
		c.Code, c.Kind, c.Value, c.Active = "summer26", pricing.DiscountFixed, dec("25.00"), false
		c.ValidFrom, c.PropertyIDs, c.MaxRedemptions = day("2026-06-01"), nil, 10
		must(t, s.UpdateCoupon(t.Context(), c))
		if c.Code != "SUMMER26" {
			t.Errorf("code = %q, want SUMMER26", c.Code)
		}
		got, err := s.CouponByCode(t.Context(), o.ID, "Summer26")
		must(t, err)
		sameJSON(t, "coupon", got, c)
		_, err = s.CouponByCode(t.Context(), o.ID, "SUMMER")
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Coupon/UpdateUnknownNotFound", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		c := couponFixture(o.ID, "GHOST", 0)
		c.ID = 999
		wantCode(t, s.UpdateCoupon(t.Context(), c), booking.CodeNotFound)
	}},
	{"Coupon/UpdateToTakenCodeConflict", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		newCoupon(t, s, o.ID, "SUMMER", 0)
		c := newCoupon(t, s, o.ID, "WINTER", 0)
		c.Code = "summer"
		wantCode(t, s.UpdateCoupon(t.Context(), c), booking.CodeConflict)
	}},
	{"Coupon/RedemptionsCountHolders", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		c := newCoupon(t, s, w.org.ID, "SUMMER", 0)
		book := func(in, out string, expires time.Time, status booking.Status) {
			b := pendingFixture(w.prop, in, out)
			b.CouponID, b.CouponCode, b.ExpiresAt = c.ID, c.Code, expires
			create(t, s, b, t0)
			if status != booking.StatusPending {
				moveTo(t, s, b, status)
			}
		}
		book("2026-05-01", "2026-05-03", t0.Add(time.Hour), booking.StatusPending)   // holds
		book("2026-05-03", "2026-05-05", t0.Add(time.Minute), booking.StatusPending) // lapses at t0+1m
		book("2026-05-05", "2026-05-07", t0.Add(time.Hour), booking.StatusRequested) // holds
		book("2026-05-07", "2026-05-09", t0.Add(time.Hour), booking.StatusConfirmed) // holds
		book("2026-05-09", "2026-05-11", t0.Add(time.Hour), booking.StatusCancelled) // released
		book("2026-05-11", "2026-05-13", t0.Add(time.Hour), booking.StatusExpired)   // released
		other := pendingFixture(w.prop, "2026-05-13", "2026-05-15")                  // no coupon
		create(t, s, other, t0)
		for _, tt := range []struct {
			at   time.Time
			want int
		}{{t0, 4}, {t0.Add(time.Minute), 3}, {t0.Add(2 * time.Hour), 2}} {
			got, err := s.CouponRedemptions(t.Context(), c.ID, tt.at)
			must(t, err)
			if got != tt.want {
				t.Errorf("redemptions at %s = %d, want %d", tt.at.Format(time.TimeOnly), got, tt.want)
			}
		}
	}},
}
