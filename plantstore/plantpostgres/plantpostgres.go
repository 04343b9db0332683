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

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/staykit/staykit/internal/pgmigrate"
	"github.com/staykit/staykit/plantstore"
)

var _ plantstore.Store = (*DB)(nil)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations returns the plant store's migrations, recorded in
// plantstore_migrations. Every step takes the advisory lock of
// "staykit:plantstore:migrate", so that replicas starting together apply
// each migration once. Neither the table nor the key may change: existing
// databases and running replicas rely on them.
func migrations() pgmigrate.Migrations {
	return pgmigrate.Migrations{
		Files:   migrationFiles,
		Glob:    "migrations/*.sql",
		Table:   "plantstore_migrations",
		LockKey: "staykit:plantstore:migrate",
	}
}

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
	pool, err := pgmigrate.Open(ctx, url, pgmigrate.Pool{Schema: cfg.schema}, migrations())
	if err != nil {
		return nil, fmt.Errorf("plantpostgres: open: %w", err)
	}
	return &DB{pool: pool}, nil
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
