// Package pgtest gives tests a migrated PostgreSQL schema of their own
// from a pool: a test's schema is emptied when it ends (its rows deleted,
// its sequences restarted) and handed to the next test, instead of every
// test creating a schema, migrating it and dropping it — most of what a
// short store test cost (0.3 s of PostgreSQL's time per test).
//
// A package's tests share one Pool, closed by TestMain:
//
//	var pool pgtest.Pool
//
//	func TestMain(m *testing.M) { pgtest.Main(m, &pool) }
package pgtest

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/store/postgres"
)

// Pool hands out emptied, migrated schemas of the test database
// (testenv.PostgresURL). The zero Pool is ready to use.
type Pool struct {
	mu   sync.Mutex
	url  string
	free []string
	all  []string
	// empty are the tables a freshly migrated schema has no row in:
	// those a schema is emptied of (the others hold what the migrations
	// wrote, such as River's record of its own).
	empty []string
}

// Main runs a package's tests, then drops the schemas of pool.
func Main(m *testing.M, pool *Pool) {
	code := m.Run()
	if err := pool.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// Schema returns an empty, migrated schema for t alone, emptied and given
// back to the pool when t ends, after the cleanups registered later (the
// stores opened in it are closed by then). A failed test's schema is not
// reused: it is dropped, with what it holds, when the pool closes. It
// skips or fails t as testenv.PostgresURL does when PostgreSQL is absent.
func (p *Pool) Schema(t *testing.T) string {
	t.Helper()
	url := testenv.PostgresURL(t)
	schema, err := p.take(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			return
		}
		if err := p.give(schema); err != nil {
			t.Error(err)
		}
	})
	return schema
}

// Open opens a store on a schema of the pool (Schema), closed when t
// ends.
func (p *Pool) Open(t *testing.T, opts ...postgres.Option) *postgres.DB {
	t.Helper()
	return OpenIn(t, p.Schema(t), opts...)
}

// OpenIn opens a store on schema of the test database, closed when t
// ends (before the cleanups registered earlier, such as the schema's).
func OpenIn(t *testing.T, schema string, opts ...postgres.Option) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(t.Context(), testenv.PostgresURL(t), append([]postgres.Option{postgres.WithSchema(schema)}, opts...)...)
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

// Close drops every schema of the pool.
func (p *Pool) Close() error {
	p.mu.Lock()
	all, url := p.all, p.url
	p.all, p.free = nil, nil
	p.mu.Unlock()
	if err := testenv.DropPostgresSchemas(context.Background(), url, all...); err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	return nil
}

// take returns a free schema, or a new one migrated by opening a store
// on it once (the first tells which tables a fresh schema leaves empty).
func (p *Pool) take(ctx context.Context, url string) (string, error) {
	p.mu.Lock()
	p.url = url
	if n := len(p.free); n > 0 {
		s := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return s, nil
	}
	s := "staykit_pool_" + strings.ToLower(rand.Text()[:16])
	p.all = append(p.all, s)
	known := p.empty != nil
	p.mu.Unlock()
	db, err := postgres.Open(ctx, url, postgres.WithSchema(s))
	if err != nil {
		return "", fmt.Errorf("pgtest: migrate schema %s: %w", s, err)
	}
	if err := db.Close(); err != nil {
		return "", err
	}
	if !known {
		empty, err := emptyTables(ctx, url, s)
		if err != nil {
			return "", err
		}
		p.mu.Lock()
		p.empty = empty
		p.mu.Unlock()
	}
	return s, nil
}

// emptyTables lists the tables of schema s, freshly migrated, that hold
// no row.
func emptyTables(ctx context.Context, url, s string) ([]string, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`, s)
	if err != nil {
		return nil, fmt.Errorf("pgtest: list tables: %w", err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("pgtest: list tables: %w", err)
	}
	empty := []string{}
	for _, name := range tables {
		var held bool
		q := `SELECT EXISTS (SELECT 1 FROM ` + pgx.Identifier{s, name}.Sanitize() + `)`
		if err := conn.QueryRow(ctx, q).Scan(&held); err != nil {
			return nil, fmt.Errorf("pgtest: read table %s: %w", name, err)
		}
		if !held {
			empty = append(empty, name)
		}
	}
	return empty, nil
}

// give empties schema s and puts it back in the pool: a DELETE of each
// table, with the triggers of the foreign keys off so that the order does
// not matter, and its sequences restarted — for a test's few rows many
// times quicker than TRUNCATE, which it falls back on without the right
// to turn triggers off (not a superuser).
func (p *Pool) give(s string) error {
	ctx := context.Background()
	p.mu.Lock()
	url := p.url
	tables := make([]string, len(p.empty))
	for i, name := range p.empty {
		tables[i] = pgx.Identifier{s, name}.Sanitize()
	}
	p.mu.Unlock()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("pgtest: empty schema %s: %w", s, err)
	}
	defer conn.Close(ctx)
	var b strings.Builder
	b.WriteString("BEGIN; SET LOCAL session_replication_role = replica;")
	for _, table := range tables {
		b.WriteString(" DELETE FROM " + table + ";")
	}
	b.WriteString(" SELECT setval(c.oid, 1, false) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace" +
		" WHERE c.relkind = 'S' AND n.nspname = '" + strings.ReplaceAll(s, "'", "''") + "'; COMMIT;")
	if _, err := conn.Exec(ctx, b.String()); err != nil {
		if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
			return fmt.Errorf("pgtest: empty schema %s: %w", s, err)
		}
		if len(tables) > 0 {
			if _, err := conn.Exec(ctx, `TRUNCATE `+strings.Join(tables, ", ")+` RESTART IDENTITY CASCADE`); err != nil {
				return fmt.Errorf("pgtest: empty schema %s: %w", s, err)
			}
		}
	}
	p.mu.Lock()
	p.free = append(p.free, s)
	p.mu.Unlock()
	return nil
}
