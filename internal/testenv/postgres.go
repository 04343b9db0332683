package testenv

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// PostgresSchema returns the name of a fresh schema for t alone, prefix
// followed by random letters, dropped with everything in it when t ends
// (after the cleanups registered later, such as closing a store opened in
// it). The schema itself is not created: the stores create theirs. It skips
// or fails t as PostgresURL does when PostgreSQL is absent.
func PostgresSchema(t testing.TB, prefix string) string {
	t.Helper()
	url := PostgresURL(t)
	name := prefix + strings.ToLower(rand.Text()[:16])
	t.Cleanup(func() {
		if err := DropPostgresSchemas(context.Background(), url, name); err != nil {
			t.Error(err)
		}
	})
	return name
}

// DropPostgresSchemas drops the schemas named, with everything in them,
// from the database at url; those that are not there are no error.
func DropPostgresSchemas(ctx context.Context, url string, names ...string) error {
	if len(names) == 0 {
		return nil
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("drop schemas %v: %w", names, err)
	}
	defer conn.Close(ctx)
	var errs []error
	for _, name := range names {
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{name}.Sanitize()+` CASCADE`); err != nil {
			errs = append(errs, fmt.Errorf("drop schema %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}
