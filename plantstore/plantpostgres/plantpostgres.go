// Package plantpostgres is a plantstore.Store in a PostgreSQL database,
// through pgx and its connection pool.
//
// It owns its schema: the plants table and the plantstore_migrations table
// that records its migrations, apart from store/postgres's. It may share a
// database (and schema) with store/postgres or have one of its own. A
// database whose plants table store/postgres created, as it did before the
// plant store had its own persistence, is adopted as it is.
package plantpostgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/staykit/staykit/plantstore"
)

var _ plantstore.Store = (*DB)(nil)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrateLock is the key of the transaction-level advisory lock each
// migration step takes, so that replicas starting together apply each
// migration once.
const migrateLock = `SELECT pg_advisory_xact_lock(hashtextextended('staykit:plantstore:migrate', 0))`

// uniqueViolation is the SQLSTATE of a duplicate key.
const uniqueViolation = "23505"

// DB is a plant store on PostgreSQL. It is safe for concurrent use, also by
// several processes on the same database.
type DB struct {
	pool *pgxpool.Pool
}

// config holds what Options set.
type config struct {
	schema string
}

// Option configures Open.
type Option func(*config)

// WithSchema keeps the plant store's tables in schema name, created if
// missing (search_path "name, public"). Without it they go to the first
// schema of the server's search_path, usually public.
func WithSchema(name string) Option {
	return func(c *config) { c.schema = name }
}

// Open connects to the database at url (as pgx accepts it) and brings the
// plant store's schema up to date.
func Open(ctx context.Context, url string, opts ...Option) (*DB, error) {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	pcfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("plantpostgres: open: %w", err)
	}
	if cfg.schema != "" {
		pcfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{cfg.schema}.Sanitize() + ", public"
	}
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("plantpostgres: open: %w", err)
	}
	db := &DB{pool: pool}
	if err := db.migrate(ctx, cfg.schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("plantpostgres: open: %w", err)
	}
	return db, nil
}

// Close closes the pool's connections. It never fails; it returns an error
// to match other stores.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// CreatePlant stores p. Errors: plantstore.ErrExists (wrapped) when p.ID is
// taken.
func (db *DB) CreatePlant(ctx context.Context, p plantstore.Plant) error {
	_, err := db.pool.Exec(ctx, `INSERT INTO plants (id, name, tag) VALUES ($1, $2, $3)`, p.ID, p.Name, p.Tag)
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe) && pe.Code == uniqueViolation:
		return fmt.Errorf("plantpostgres: create plant %d: %w", p.ID, plantstore.ErrExists)
	case err != nil:
		return fmt.Errorf("plantpostgres: create plant %d: %w", p.ID, err)
	}
	return nil
}

// Plant finds a plant by id; found is false when there is none.
func (db *DB) Plant(ctx context.Context, id int64) (p plantstore.Plant, found bool, err error) {
	err = db.pool.QueryRow(ctx, `SELECT id, name, tag FROM plants WHERE id = $1`, id).
		Scan(&p.ID, &p.Name, &p.Tag)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return plantstore.Plant{}, false, nil
	case err != nil:
		return plantstore.Plant{}, false, fmt.Errorf("plantpostgres: plant %d: %w", id, err)
	}
	return p, true, nil
}

// migrate creates schema (when not "") and plantstore_migrations, then
// applies, in name order, each embedded migration not yet recorded there,
// each in one transaction with its record.
func (db *DB) migrate(ctx context.Context, schema string) error {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if schema != "" {
			if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{schema}.Sanitize()); err != nil {
				return fmt.Errorf("migrate: create schema %q: %w", schema, err)
			}
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS plantstore_migrations (
			name       text        PRIMARY KEY,
			applied_at timestamptz NOT NULL
		)`); err != nil {
			return fmt.Errorf("migrate: create plantstore_migrations: %w", err)
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
	for _, file := range names {
		name := path.Base(file)
		body, err := migrationFiles.ReadFile(file)
		if err != nil {
			return fmt.Errorf("migrate: read %s: %w", name, err)
		}
		err = db.inTx(ctx, func(tx pgx.Tx) error {
			var one int
			switch err := tx.QueryRow(ctx, `SELECT 1 FROM plantstore_migrations WHERE name = $1`, name).Scan(&one); {
			case err == nil:
				return nil
			case !errors.Is(err, pgx.ErrNoRows):
				return err
			}
			// Without arguments pgx uses the simple protocol, which runs
			// the file's several statements.
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO plantstore_migrations (name, applied_at) VALUES ($1, $2)`, name, time.Now())
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate: %s: %w", name, err)
		}
	}
	return nil
}

// inTx runs fn in a transaction holding the migration lock, committed when
// fn returns nil and rolled back otherwise.
func (db *DB) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if _, err := tx.Exec(ctx, migrateLock); err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
