package seed_test

import (
	"context"
	"strings"
	"testing"

	"github.com/staykit/staykit/seed"
)

func TestLoadStoresContactEmail(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	doc := fmtBase(`{"slug": "b", "name": "B", "contact_email": " host@example.com "}`)
	if err := seed.Load(ctx, db, strings.NewReader(doc), now); err != nil {
		t.Fatal(err)
	}
	for slug, want := range map[string]string{"a": "", "b": "host@example.com"} {
		org, err := db.OrganizationBySlug(ctx, slug)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := db.ContactEmail(ctx, org.ID); err != nil || got != want {
			t.Errorf("contact of %s = %q, %v; want %q", slug, got, err, want)
		}
	}
}
