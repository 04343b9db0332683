package sqlite_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite"
)

// An embedder opens the store on a file (created and migrated on first
// use) and, on first start, loads its catalogue from a seed file.
func ExampleOpen() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "staykit-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	db, err := sqlite.Open(ctx, filepath.Join(dir, "staykit.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	const catalogue = `{"organizations": [{"slug": "lac", "name": "Gîtes du Lac",
	  "payment_mode": "full", "currency": "EUR", "timezone": "Europe/Paris", "public_engine_enabled": true,
	  "properties": [{"name": "Gîte du Lac", "max_guests": 4, "rates": {"base_rate": 110}}]}]}`
	if err := seed.Load(ctx, db, strings.NewReader(catalogue), time.Now()); err != nil {
		log.Fatal(err)
	}
	orgs, err := db.Organizations(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, o := range orgs {
		fmt.Println(o.Slug, o.Name, o.Currency)
	}
	// Output: lac Gîtes du Lac EUR
}
