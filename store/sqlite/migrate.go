package sqlite

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"time"

	"github.com/staykit/staykit/store/internal/sqlflow"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrate applies, in name order, each embedded migration not yet recorded
// in schema_migrations. Each runs in its own transaction together with its
// record, so a failed migration leaves no trace and the next Open retries it.
func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name       TEXT    PRIMARY KEY,
		applied_at INTEGER NOT NULL
	) STRICT`); err != nil {
		return fmt.Errorf("migrate: create schema_migrations: %w", err)
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
	return db.tx(ctx, "migrate "+name, func(q querier) error {
		done, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM schema_migrations WHERE name = ?`, name)
		if err != nil || done {
			return err
		}
		if err := sqlflow.Exec(ctx, q, nil, string(body)); err != nil {
			return err
		}
		return sqlflow.Exec(ctx, q, nil, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`,
			name, time.Now().UnixMilli())
	})
}
