package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

// TestUnitsOverHTTP: a property with three units (issue #27) lists
// "units": 3, sells three stays of a night and refuses the fourth with
// unavailable, and its calendar counts the units left for each night; a
// property without units shows "units": 1. Every response is checked
// against the OpenAPI document (do).
func TestUnitsOverHTTP(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	org, err := e.Service.Organization(ctx, "villa")
	if err != nil {
		t.Fatal(err)
	}
	p := &booking.Property{OrgID: org.ID, Name: "Studios", MaxGuests: 2, Active: true,
		Rates: pricing.RatePlan{BaseRate: dec("70")},
		Units: []booking.Unit{{Name: "Studio 1"}, {Name: "Studio 2"}, {Name: "Studio 3"}}}
	if err := e.Store.CreateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	const villa = "/api/v1/book/villa"

	r := e.do(call{method: "GET", path: villa + "/properties"})
	if r.Status != 200 {
		t.Fatalf("properties: %d %s", r.Status, r.Body)
	}
	var listed []struct {
		ID    int64 `json:"id"`
		Units int   `json:"units"`
	}
	r.data(t, &listed)
	units := map[int64]int{}
	for _, l := range listed {
		units[l.ID] = l.Units
	}
	if units[p.ID] != 3 || units[e.Props["soleil"]] != 1 {
		t.Fatalf("units listed %v, want 3 for the studios and 1 for soleil", units)
	}

	for i := range 4 {
		r := e.do(call{method: "POST", path: villa + "/checkout", body: checkoutBody(p.ID, "2026-06-10", "2026-06-12")})
		want := 201
		if i == 3 {
			want = 422
		}
		if r.Status != want || (want == 422 && r.Env.Code != booking.CodeUnavailable) {
			t.Fatalf("checkout %d: %d %s, want %d", i+1, r.Status, r.Body, want)
		}
	}
	r = e.do(call{method: "POST", path: villa + "/checkout", body: checkoutBody(p.ID, "2026-06-12", "2026-06-14")})
	if r.Status != 201 {
		t.Fatalf("checkout next to the full nights: %d %s", r.Status, r.Body)
	}
	r = e.do(call{method: "GET", path: fmt.Sprintf("%s/properties/%d/availability?months=1&from=2026-06", villa, p.ID)})
	if r.Status != 200 {
		t.Fatalf("availability: %d %s", r.Status, r.Body)
	}
	for _, want := range []string{
		`{"date":"2026-06-09","available":true,"units_available":3,`,
		`{"date":"2026-06-10","available":false,"units_available":0,`,
		`{"date":"2026-06-11","available":false,"units_available":0,`,
		`{"date":"2026-06-12","available":true,"units_available":2,`,
		`{"date":"2026-06-14","available":true,"units_available":3,`,
	} {
		if !strings.Contains(string(r.Body), want) {
			t.Errorf("availability lacks %s", want)
		}
	}
	r = e.do(call{method: "GET", path: fmt.Sprintf("%s/properties/%d/price?check_in=2026-06-11&check_out=2026-06-13&guests_count=2", villa, p.ID)})
	if r.Status != 422 || r.Env.Code != booking.CodeUnavailable {
		t.Fatalf("price over a full night: %d %s, want 422 unavailable", r.Status, r.Body)
	}
}
