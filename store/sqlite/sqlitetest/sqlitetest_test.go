package sqlitetest_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// migrations lists the applied migrations of the database at path.
func migrations(t *testing.T, path string) []string {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.Query(`SELECT name FROM schema_migrations ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

// The copy holds the schema a new sqlite.Open creates, and copies are
// independent databases.
func TestCopyIsAFreshlyMigratedDatabase(t *testing.T) {
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	db, err := sqlite.Open(context.Background(), fresh)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	want := migrations(t, fresh)
	if len(want) == 0 {
		t.Fatal("a fresh database has no migrations")
	}

	a, b := sqlitetest.Path(t), sqlitetest.Path(t)
	if a == b {
		t.Fatalf("two calls gave the same path %s", a)
	}
	got := migrations(t, a)
	if !slices.Equal(got, want) {
		t.Fatalf("copy has migrations %v, want %v", got, want)
	}

	first, err := sqlite.Open(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	org := &booking.Organization{Slug: "villa", Name: "Villa"}
	*org = org.WithDefaults()
	if err := first.CreateOrganization(context.Background(), org); err != nil {
		t.Fatal(err)
	}
	second, err := sqlite.Open(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if _, err := second.OrganizationBySlug(context.Background(), "villa"); booking.ErrorCode(err) != booking.CodeNotFound {
		t.Fatalf("the other copy finds the organisation: err = %v", err)
	}
	if _, err := first.OrganizationBySlug(context.Background(), "villa"); err != nil {
		t.Fatalf("the copy lost its organisation: %v", err)
	}
}

// An in-memory database started from the image has the schema and its
// data stays its own.
func TestInMemoryFromImage(t *testing.T) {
	ctx := context.Background()
	open := func() *sqlite.DB {
		db, err := sqlite.Open(ctx, ":memory:", sqlite.WithImage(sqlitetest.Image(t)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	first, second := open(), open()
	org := &booking.Organization{Slug: "villa", Name: "Villa"}
	*org = org.WithDefaults()
	if err := first.CreateOrganization(ctx, org); err != nil {
		t.Fatalf("create organisation in memory: %v", err)
	}
	if _, err := first.OrganizationBySlug(ctx, "villa"); err != nil {
		t.Fatalf("in-memory copy lost its organisation: %v", err)
	}
	if _, err := second.OrganizationBySlug(ctx, "villa"); booking.ErrorCode(err) != booking.CodeNotFound {
		t.Fatalf("another in-memory copy finds the organisation: err = %v", err)
	}
	if _, err := sqlite.Open(ctx, ":memory:", sqlite.WithImage([]byte("not a database"))); err == nil {
		t.Fatal("Open accepted an image that is not a database")
	}
}
