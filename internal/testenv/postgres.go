package testenv

import (
	"context"
	"crypto/rand"
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
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Errorf("drop schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{name}.Sanitize()+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", name, err)
		}
	})
	return name
}
