package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrateLock is the key of the transaction-level advisory lock every
// migration step takes, so that replicas starting together apply each
// migration once, one after the other. It is one key for the whole
// database, not one per schema: CREATE EXTENSION and CREATE SCHEMA are not
// safe to race either.
const migrateLock = `SELECT pg_advisory_xact_lock(hashtextextended('staykit:migrate', 0))`

// migrate creates schema (when not "") and the schema_migrations table, then
// applies, in name order, each embedded migration not yet recorded there.
// Each migration runs in its own transaction together with its record, so
// a failed migration leaves no trace and the next Open retries it.
func (db *DB) migrate(ctx context.Context, schema string) error {
	err := db.inTx(ctx, "migrate", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, migrateLock); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
		if schema != "" {
			if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{schema}.Sanitize()); err != nil {
				return fmt.Errorf("migrate: create schema %q: %w", schema, err)
			}
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			name       text        PRIMARY KEY,
			applied_at timestamptz NOT NULL
		)`); err != nil {
			return fmt.Errorf("migrate: create schema_migrations: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("migrate: list: %w", err)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := db.applyMigration(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

// applyMigration runs a migration file unless its name is recorded.
func (db *DB) applyMigration(ctx context.Context, file string) error {
	name := path.Base(file)
	body, err := migrationFiles.ReadFile(file)
	if err != nil {
		return fmt.Errorf("migrate: read %s: %w", name, err)
	}
	return db.inTx(ctx, "migrate "+name, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, migrateLock); err != nil {
			return fmt.Errorf("migrate: %s: lock: %w", name, err)
		}
		done, err := exists(ctx, tx, `SELECT 1 FROM schema_migrations WHERE name = $1`, name)
		if err != nil {
			return fmt.Errorf("migrate: %s: %w", name, err)
		}
		if done {
			return nil
		}
		// Without arguments pgx uses the simple protocol, which runs the
		// file's several statements.
		if _, err := tx.Exec(ctx, string(body)); err != nil {
			return fmt.Errorf("migrate: %s: %w", name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)`,
			name, time.Now()); err != nil {
			return fmt.Errorf("migrate: record %s: %w", name, err)
		}
		return nil
	})
}
