package plantpostgres_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/plantstore"
	"github.com/staykit/staykit/plantstore/plantpostgres"
	"github.com/staykit/staykit/plantstore/planttest"
	"github.com/staykit/staykit/store/postgres"
)

// newSchema returns the name of a schema of this test's own, dropped with
// everything in it when the test ends.
func newSchema(t *testing.T) string {
	t.Helper()
	return testenv.PostgresSchema(t, "plantstore_test_")
}

// openIn opens the plant store in schema, closed when the test ends.
func openIn(t *testing.T, schema string) *plantpostgres.DB {
	t.Helper()
	db, err := plantpostgres.Open(t.Context(), testenv.PostgresURL(t), plantpostgres.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// exec runs statements in schema.
func exec(t *testing.T, schema string, stmts ...string) {
	t.Helper()
	cfg, err := pgx.ParseConfig(testenv.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["search_path"] = pgx.Identifier{schema}.Sanitize()
	conn, err := pgx.ConnectConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, s := range stmts {
		if _, err := conn.Exec(t.Context(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func TestStore(t *testing.T) {
	planttest.Run(t, func(t *testing.T) plantstore.Store { return openIn(t, newSchema(t)) })
}

func TestPlantsSurviveReopen(t *testing.T) {
	schema := newSchema(t)
	db, err := plantpostgres.Open(t.Context(), testenv.PostgresURL(t), plantpostgres.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	want := plantstore.Plant{ID: 3, Name: "Fern", Tag: "shade"}
	if err := db.CreatePlant(t.Context(), want); err != nil {
		t.Fatal(err)
	}
	db.Close()
	got, found, err := openIn(t, schema).Plant(t.Context(), 3)
	if err != nil || !found || got != want {
		t.Errorf("after reopen Plant(3) = %+v, %v, %v; want %+v, true, nil", got, found, err, want)
	}
}

// TestAdoptsBookingStorePlantsTable opens a schema laid out as
// store/postgres laid it out when it kept plants: the plant store keeps
// those plants.
func TestAdoptsBookingStorePlantsTable(t *testing.T) {
	schema := newSchema(t)
	exec(t, "public", `CREATE SCHEMA `+pgx.Identifier{schema}.Sanitize())
	exec(t, schema,
		`CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL)`,
		`INSERT INTO schema_migrations VALUES ('0001_init.sql', now())`,
		`CREATE TABLE plants (id bigint PRIMARY KEY, name text NOT NULL, tag text NOT NULL DEFAULT '')`,
		`INSERT INTO plants (id, name, tag) VALUES (7, 'Monstera', 'tropical')`)

	db := openIn(t, schema)
	want := plantstore.Plant{ID: 7, Name: "Monstera", Tag: "tropical"}
	if got, found, err := db.Plant(t.Context(), 7); err != nil || !found || got != want {
		t.Errorf("adopted Plant(7) = %+v, %v, %v; want %+v, true, nil", got, found, err, want)
	}
	if err := db.CreatePlant(t.Context(), plantstore.Plant{ID: 7, Name: "Other"}); !errors.Is(err, plantstore.ErrExists) {
		t.Errorf("create of an adopted id: %v, want ErrExists", err)
	}
	if err := db.CreatePlant(t.Context(), plantstore.Plant{ID: 8, Name: "Fern"}); err != nil {
		t.Errorf("create in the adopted table: %v", err)
	}
}

// TestSharesSchemaWithBookingStore opens the plant store and the booking
// store in one schema, as examples/server does with -postgres.
func TestSharesSchemaWithBookingStore(t *testing.T) {
	schema := newSchema(t)
	plants := openIn(t, schema)
	bookings, err := postgres.Open(t.Context(), testenv.PostgresURL(t), postgres.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	defer bookings.Close()
	if err := plants.CreatePlant(t.Context(), plantstore.Plant{ID: 1, Name: "Fern"}); err != nil {
		t.Fatal(err)
	}
	if _, err := bookings.Organizations(t.Context()); err != nil {
		t.Errorf("booking store in the shared schema: %v", err)
	}
}
