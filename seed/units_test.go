package seed_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/staykit/staykit/seed"
)

// TestLoadUnitsAndParts: a seed names a property's units and the parts a
// whole is made of (issue #27); they are stored, and the whole and its
// parts take each other's nights.
func TestLoadUnitsAndParts(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	doc := `{"organizations": [{"slug": "a", "name": "A", "properties": [
		{"name": "Studios", "max_guests": 2, "rates": {"base_rate": 70}, "units": ["S1", "S2", "S3"]},
		{"name": "Villa", "max_guests": 8, "rates": {"base_rate": 300}, "parts": ["Room 1", "Room 2"]},
		{"name": "Room 1", "max_guests": 2, "rates": {"base_rate": 90}},
		{"name": "Room 2", "max_guests": 2, "rates": {"base_rate": 90}}]}]}`
	if err := seed.Load(ctx, db, strings.NewReader(doc), now); err != nil {
		t.Fatal(err)
	}
	org, err := db.OrganizationBySlug(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	props, err := db.Properties(ctx, org.ID)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range props[0].Units {
		names = append(names, u.Name)
	}
	if !slices.Equal(names, []string{"S1", "S2", "S3"}) || len(props[1].Units) != 1 {
		t.Fatalf("units: %v, and %d for the villa", names, len(props[1].Units))
	}
	if !slices.Equal(props[1].Linked, []int64{props[2].ID, props[3].ID}) || !slices.Equal(props[2].Linked, []int64{props[1].ID}) {
		t.Fatalf("links: villa %v, room 1 %v", props[1].Linked, props[2].Linked)
	}
}

func TestLoadRefusesBadParts(t *testing.T) {
	doc := `{"organizations": [{"slug": "a", "name": "A", "properties": [
		{"name": "Villa", "max_guests": 8, "rates": {"base_rate": 300}, "units": ["1", "2"], "parts": ["Room", "Nowhere", "Villa"]},
		{"name": "Other", "max_guests": 8, "rates": {"base_rate": 300}, "parts": ["Room"]},
		{"name": "Room", "max_guests": 2, "rates": {"base_rate": 90}, "parts": ["Other"], "units": [" "]}]}]}`
	err := seed.Load(context.Background(), openDB(t), strings.NewReader(doc), now)
	var se *seed.Error
	if !errors.As(err, &se) {
		t.Fatalf("Load = %v, want a seed.Error", err)
	}
	for _, want := range []string{
		"organizations[0].properties[0].units: whole_has_one_unit",
		"organizations[0].properties[0].parts[1]: unknown_property",
		"organizations[0].properties[0].parts[2]: invalid",
		"organizations[0].properties[1].parts[0]: already_linked",
		"organizations[0].properties[1].parts: already_linked",
		"organizations[0].properties[2].parts: already_linked",
		"organizations[0].properties[2].units: required",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("problems lack %q:\n%v", want, err)
		}
	}
}
