package plantsqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/staykit/staykit/plantstore"
	"github.com/staykit/staykit/plantstore/plantsqlite"
	"github.com/staykit/staykit/plantstore/planttest"
	"github.com/staykit/staykit/store/sqlite"
)

// open opens the plant store at path, closed when the test ends.
func open(t *testing.T, path string) *plantsqlite.DB {
	t.Helper()
	db, err := plantsqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

func TestStore(t *testing.T) {
	t.Run("Memory", func(t *testing.T) {
		planttest.Run(t, func(t *testing.T) plantstore.Store { return open(t, ":memory:") })
	})
	t.Run("File", func(t *testing.T) {
		planttest.Run(t, func(t *testing.T) plantstore.Store {
			return open(t, filepath.Join(t.TempDir(), "plants.db"))
		})
	})
}

func TestPlantsSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plants.db")
	db, err := plantsqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	want := plantstore.Plant{ID: 3, Name: "Fern", Tag: "shade"}
	if err := db.CreatePlant(t.Context(), want); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	got, found, err := open(t, path).Plant(t.Context(), 3)
	if err != nil || !found || got != want {
		t.Errorf("after reopen Plant(3) = %+v, %v, %v; want %+v, true, nil", got, found, err, want)
	}
}

// TestAdoptsBookingStorePlantsTable opens a file laid out as store/sqlite
// laid it out when it kept plants (its 0001_init.sql created the table): the
// plant store keeps those plants and records its own migration.
func TestAdoptsBookingStorePlantsTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "staykit.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT`,
		`INSERT INTO schema_migrations VALUES ('0001_init.sql', 1)`,
		`CREATE TABLE plants (id INTEGER PRIMARY KEY, name TEXT NOT NULL, tag TEXT NOT NULL DEFAULT '') STRICT`,
		`INSERT INTO plants (id, name, tag) VALUES (7, 'Monstera', 'tropical')`,
	} {
		if _, err := raw.ExecContext(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()

	db := open(t, path)
	got, found, err := db.Plant(t.Context(), 7)
	want := plantstore.Plant{ID: 7, Name: "Monstera", Tag: "tropical"}
	if err != nil || !found || got != want {
		t.Errorf("adopted Plant(7) = %+v, %v, %v; want %+v, true, nil", got, found, err, want)
	}
	if err := db.CreatePlant(t.Context(), plantstore.Plant{ID: 8, Name: "Fern"}); err != nil {
		t.Errorf("create in the adopted table: %v", err)
	}
	if err := db.CreatePlant(t.Context(), plantstore.Plant{ID: 7, Name: "Other"}); !errors.Is(err, plantstore.ErrExists) {
		t.Errorf("create of an adopted id: %v, want ErrExists", err)
	}
	if n := count(t, path, `SELECT count(*) FROM plantstore_migrations WHERE name = '0001_plants.sql'`); n != 1 {
		t.Errorf("plantstore_migrations has %d records of 0001_plants.sql, want 1", n)
	}
}

// TestSharesFileWithBookingStore opens the plant store and the booking store
// on one file, as examples/server does: each keeps its own tables.
func TestSharesFileWithBookingStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "staykit.db")
	plants := open(t, path)
	bookings, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer bookings.Close()
	if err := plants.CreatePlant(t.Context(), plantstore.Plant{ID: 1, Name: "Fern"}); err != nil {
		t.Fatal(err)
	}
	if _, found, err := plants.Plant(t.Context(), 1); err != nil || !found {
		t.Errorf("Plant(1) = found %v, err %v", found, err)
	}
	if _, err := bookings.Organizations(t.Context()); err != nil {
		t.Errorf("booking store on the shared file: %v", err)
	}
	if n := count(t, path, `SELECT count(*) FROM schema_migrations WHERE name LIKE '%plant%'`); n != 0 {
		t.Errorf("the booking store's schema_migrations records %d plant migrations, want 0", n)
	}
}

// count runs a counting query on the file at path.
func count(t *testing.T, path, query string) int {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var n int
	if err := raw.QueryRowContext(context.Background(), query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}
