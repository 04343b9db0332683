package pgmigrate_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/staykit/staykit/internal/pgmigrate"
	"github.com/staykit/staykit/internal/testenv"
)

// newSchema returns the name of a schema of this test's own, dropped with
// everything in it when the test ends.
func newSchema(t *testing.T) string {
	t.Helper()
	return testenv.PostgresSchema(t, "pgmigrate_test_")
}

// open runs m in schema and returns the pool, closed when the test ends.
func open(t *testing.T, schema string, m pgmigrate.Migrations) (*pgxpool.Pool, error) {
	t.Helper()
	pool, err := pgmigrate.Open(t.Context(), testenv.PostgresURL(t), pgmigrate.Pool{Schema: schema, MaxConns: 2}, m)
	if err == nil {
		t.Cleanup(pool.Close)
	}
	return pool, err
}

// strings1 returns the first column of query's rows.
func strings1(t *testing.T, pool *pgxpool.Pool, query string) []string {
	t.Helper()
	rows, err := pool.Query(t.Context(), query)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestRecordsInTheCallersTable: migrations run in name order, each recorded
// once under its base name in the table the caller names, and a second Open
// applies nothing again.
func TestRecordsInTheCallersTable(t *testing.T) {
	schema := newSchema(t)
	m := pgmigrate.Migrations{
		Files: fstest.MapFS{
			"m/0002_b.sql": {Data: []byte(`INSERT INTO log VALUES ('b');`)},
			"m/0001_a.sql": {Data: []byte(`CREATE TABLE log (step text); INSERT INTO log VALUES ('a');`)},
			"m/notes.txt":  {Data: []byte(`not a migration`)},
		},
		Glob:    "m/*.sql",
		Table:   "my_migrations",
		LockKey: "staykit:pgmigrate-test",
	}
	for range 2 {
		pool, err := open(t, schema, m)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings1(t, pool, `SELECT name FROM my_migrations ORDER BY applied_at, name`), []string{"0001_a.sql", "0002_b.sql"}; !slices.Equal(got, want) {
			t.Errorf("recorded %v, want %v", got, want)
		}
		if got, want := strings1(t, pool, `SELECT step FROM log`), []string{"a", "b"}; !slices.Equal(got, want) {
			t.Errorf("log %v, want %v (each migration once, in name order)", got, want)
		}
		if got := strings1(t, pool, `SELECT tablename::text FROM pg_tables WHERE schemaname = '`+schema+`' ORDER BY 1`); !slices.Equal(got, []string{"log", "my_migrations"}) {
			t.Errorf("tables %v, want only log and my_migrations", got)
		}
	}
}

// TestFailedMigrationLeavesNoTrace: a migration that fails is rolled back
// with its record, those before it stay, and the next Open retries it.
func TestFailedMigrationLeavesNoTrace(t *testing.T) {
	schema := newSchema(t)
	files := fstest.MapFS{
		"m/0001_a.sql": {Data: []byte(`CREATE TABLE a (x int);`)},
		"m/0002_b.sql": {Data: []byte(`CREATE TABLE b (x int); SELECT * FROM missing;`)},
	}
	m := pgmigrate.Migrations{Files: files, Glob: "m/*.sql", Table: "schema_migrations", LockKey: "staykit:pgmigrate-test"}
	if _, err := open(t, schema, m); err == nil || !strings.Contains(err.Error(), "0002_b.sql") {
		t.Fatalf("open with a failing migration: %v, want an error naming 0002_b.sql", err)
	}
	files["m/0002_b.sql"] = &fstest.MapFile{Data: []byte(`CREATE TABLE b (x int);`)}
	pool, err := open(t, schema, m)
	if err != nil {
		t.Fatalf("open after the fix: %v", err)
	}
	if got, want := strings1(t, pool, `SELECT name FROM schema_migrations ORDER BY name`), []string{"0001_a.sql", "0002_b.sql"}; !slices.Equal(got, want) {
		t.Errorf("recorded %v, want %v", got, want)
	}
}

func TestRefusesIncompleteMigrations(t *testing.T) {
	for _, m := range []pgmigrate.Migrations{
		{Glob: "m/*.sql", Table: "t"},
		{Files: fstest.MapFS{}, Table: "t"},
		{Files: fstest.MapFS{}, Glob: "m/*.sql"},
	} {
		if err := pgmigrate.Run(t.Context(), nil, "", m); err == nil {
			t.Errorf("Run(%+v) accepted an incomplete Migrations", m)
		}
	}
}
