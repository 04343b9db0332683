package booking_test

import (
	"encoding/json"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// TestOrgServiceAnswersAsTheSlugMethods: the handle got by id answers as
// the slug-based methods do, without looking the organisation up again.
func TestOrgServiceAnswersAsTheSlugMethods(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	bySlug, err := e.svc.Organization(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.svc.OrgByID(ctx, bySlug.ID)
	if err != nil {
		t.Fatal(err)
	}
	if o.Organization().Slug != "demo" {
		t.Fatalf("OrgByID(%d) is %q, want demo", bySlug.ID, o.Organization().Slug)
	}
	same := func(what string, got, want any) {
		t.Helper()
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s: handle %s, slug %s", what, g, w)
		}
	}
	cfg, err := o.Config(ctx)
	want, werr := e.svc.Config(ctx, "demo")
	if err != nil || werr != nil {
		t.Fatal(err, werr)
	}
	same("config", cfg, want)
	ls, _ := o.Properties(ctx)
	wantLs, _ := e.svc.Properties(ctx, "demo")
	same("properties", ls, wantLs)
	r := booking.CalendarRequest{From: civil.MustParse("2026-06-01"), Months: 2}
	cal, _ := o.Availability(ctx, e.property["demo"], r)
	wantCal, _ := e.svc.Availability(ctx, "demo", e.property["demo"], r)
	same("availability", cal, wantCal)
	st := booking.QuoteRequest{Stay: booking.Stay{CheckIn: civil.MustParse("2026-06-10"), CheckOut: civil.MustParse("2026-06-13"), Guests: 2}, CouponCode: "WELCOME10"}
	q, err := o.Quote(ctx, e.property["demo"], st)
	wantQ, _ := e.svc.Quote(ctx, "demo", e.property["demo"], st)
	if err != nil {
		t.Fatal(err)
	}
	same("quote", q, wantQ)

	// Another organisation's property is not found through the handle.
	if _, err := o.Quote(ctx, e.property["demo-deposit"], st); booking.ErrorCode(err) != booking.CodeNotFound {
		t.Errorf("quote of another organisation's property: %v, want not_found", err)
	}
}

// TestOrgByIDDisabledOrUnknown: OrgByID, like the slug lookup, does not
// serve an organisation whose public engine is off, nor an unknown id.
func TestOrgByIDDisabledOrUnknown(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	org, err := e.store.OrganizationBySlug(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	org.PublicEngineEnabled = false
	if err := e.store.UpdateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{org.ID, 999} {
		if _, err := e.svc.OrgByID(ctx, id); booking.ErrorCode(err) != booking.CodeNotFound {
			t.Errorf("OrgByID(%d): %v, want not_found", id, err)
		}
	}
}
