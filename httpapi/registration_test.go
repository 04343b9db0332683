package httpapi_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

// TestPropertyRegistrationNumber: the public property carries the
// registration number a host entered (issue #29), in the list, the search
// and the property itself, and leaves the field out when there is none;
// each answer is checked against the OpenAPI document (do).
func TestPropertyRegistrationNumber(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	org, err := e.Store.OrganizationBySlug(ctx, "villa")
	if err != nil {
		t.Fatal(err)
	}
	p := booking.Property{OrgID: org.ID, Name: "Registered", Country: "FR", MaxGuests: 2, Active: true,
		Rates: pricing.RatePlan{BaseRate: dec("90")}, RegistrationNumber: "75056123456AB"}
	if err := e.Store.CreateProperty(ctx, &p); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, path string
	}{
		{"List", "/api/v1/book/villa/properties"},
		{"Search", "/api/v1/book/villa/properties?check_in=2026-06-15&check_out=2026-06-18&guests_count=2"},
		{"Page", "/api/v1/book/villa/properties?limit=100"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(call{method: "GET", path: tt.path})
			if r.Status != 200 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			var body struct {
				Data []map[string]any `json:"data"`
			}
			if err := json.Unmarshal(r.Body, &body); err != nil {
				t.Fatal(err)
			}
			seen := false
			for _, d := range body.Data {
				number, has := d["registration_number"]
				if d["id"] == float64(p.ID) {
					seen = true
					if number != "75056123456AB" {
						t.Errorf("registered property: registration_number = %v", number)
					}
				} else if has {
					t.Errorf("property %v without a number shows registration_number %v", d["id"], number)
				}
			}
			if !seen {
				t.Errorf("property %s not listed: %s", strconv.FormatInt(p.ID, 10), r.Body)
			}
		})
	}
}
