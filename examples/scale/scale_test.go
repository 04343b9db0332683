package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/internal/testenv"
)

// TestSmoke runs the command on the smallest datasets (its real sizes are
// for a person, not for CI): each route answers 200 and is printed.
func TestSmoke(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"-properties", "2", "-bookings", "12", "-time", "1ms", "-dir", t.TempDir()}, &out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{
		"2 properties, 12 bookings",
		"search, all free, whole list", "search, all free, by price, page of 20", "search, half held, page of 20",
		"properties list, page of 50", "availability, 12 months", "price, 7 nights",
		"host calendar, one property's year", "365 days",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestSmokePostgres is TestSmoke with -postgres: the datasets are built
// on PostgreSQL, each route answers, and the schema is dropped.
func TestSmokePostgres(t *testing.T) {
	url := testenv.PostgresURL(t)
	var out bytes.Buffer
	if err := run(t.Context(), []string{"-properties", "2", "-bookings", "12", "-time", "1ms", "-postgres", url}, &out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var left int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM pg_namespace WHERE nspname = $1`,
		fmt.Sprintf("scale_2_%d", os.Getpid())).Scan(&left); err != nil || left != 0 {
		t.Errorf("the dataset's schema is still there (%d, %v)", left, err)
	}
	for _, want := range []string{"2 properties, 12 bookings, PostgreSQL", "search, half held, page of 20", "host calendar, one property's year", "365 days"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-properties", "0"}, {"-properties", "ten"}, {"-time"}} {
		if err := run(t.Context(), args, io.Discard, io.Discard); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want errUsage", args, err)
		}
	}
}
