package seed_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/seed"
)

// TestLoadRegistrationNumbers: the demo seed gives its properties outside
// the first organisation valid French registration numbers, stored in
// their compact form; a number of the wrong format is refused with its
// path.
func TestLoadRegistrationNumbers(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	if err := seed.LoadFile(ctx, db, "../examples/server/demo-seed.json", time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	org, err := db.OrganizationBySlug(ctx, "demo-deposit")
	if err != nil {
		t.Fatal(err)
	}
	props, err := db.Properties(ctx, org.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range props {
		got[p.Name] = p.RegistrationNumber
	}
	if got["Chalet des Cimes"] != "74056104582CM" || got["Gîte du Lac"] != "74010201937LA" {
		t.Errorf("registration numbers %v", got)
	}
	const bad = `{"organizations": [{"slug": "mas", "name": "Mas", "public_engine_enabled": true,
	  "properties": [{"name": "Mas", "max_guests": 6, "country": "FR", "registration_number": "123", "rates": {"base_rate": 160}}]}]}`
	err = seed.Load(ctx, openDB(t), strings.NewReader(bad), time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC))
	if err == nil || !strings.Contains(err.Error(), "properties[0].registration_number") || !strings.Contains(err.Error(), "invalid_format") {
		t.Errorf("bad number: %v", err)
	}
}
