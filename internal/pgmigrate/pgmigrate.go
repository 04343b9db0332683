// Package pgmigrate opens a pgx pool and brings a PostgreSQL schema up to
// date from migrations embedded in the binary. store/postgres and
// plantstore/plantpostgres share it; each keeps its own migrations, its own
// record table and its own advisory lock key.
package pgmigrate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Migrations says which migrations to apply and where to record them.
type Migrations struct {
	// Files holds the migration files; Glob (such as "migrations/*.sql")
	// selects them in it. They are applied in the order of their base
	// names, each recorded under its base name.
	Files fs.FS
	Glob  string
	// Table is the name of the table that records applied migrations,
	// created if missing, with columns name (text, primary key) and
	// applied_at (timestamptz).
	Table string
	// LockKey, when not "", is hashed (hashtextextended(key, 0)) into the
	// key of a transaction-level advisory lock every migration step takes,
	// so that replicas starting together apply each migration once, one
	// after the other. A key stands for the whole database, not a schema:
	// CREATE EXTENSION and CREATE SCHEMA are not safe to race either.
	LockKey string
}

// Pool is what Open needs to build a pool.
type Pool struct {
	// Schema, when not "", is created if missing and put first on every
	// connection's search_path ("schema, public": public for extensions
	// such as btree_gist).
	Schema string
	// MaxConns, when positive, sizes the pool; otherwise pgx's default
	// applies (max(4, number of CPUs), unless the URL sets pool_max_conns).
	MaxConns int
}

// Open connects to the database at url (a postgres:// URL or a key=value
// connection string, as pgx accepts; the PG* environment variables fill in
// what it leaves out) and applies m in p.Schema. The pool is closed again
// when migrating fails.
func Open(ctx context.Context, url string, p Pool, m Migrations) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse config: %w", err)
	}
	if p.Schema != "" {
		cfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{p.Schema}.Sanitize() + ", public"
	}
	if p.MaxConns > 0 {
		cfg.MaxConns = int32(min(p.MaxConns, math.MaxInt32))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	if err := Run(ctx, pool, p.Schema, m); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// Run creates schema (when not "") and m.Table, then applies, in name
// order, each migration of m not yet recorded in m.Table. Each migration
// runs in its own transaction together with its record, so a failed
// migration leaves no trace and the next Run retries it. The pool's
// search_path must already put schema first.
func Run(ctx context.Context, pool *pgxpool.Pool, schema string, m Migrations) error {
	if m.Files == nil || m.Glob == "" || m.Table == "" {
		return errors.New("migrate: Files, Glob and Table are required")
	}
	table := pgx.Identifier{m.Table}.Sanitize()
	err := inTx(ctx, pool, m.LockKey, func(tx pgx.Tx) error {
		if schema != "" {
			if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{schema}.Sanitize()); err != nil {
				return fmt.Errorf("migrate: create schema %q: %w", schema, err)
			}
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+table+` (
			name       text        PRIMARY KEY,
			applied_at timestamptz NOT NULL
		)`); err != nil {
			return fmt.Errorf("migrate: create %s: %w", m.Table, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	files, err := fs.Glob(m.Files, m.Glob)
	if err != nil {
		return fmt.Errorf("migrate: list: %w", err)
	}
	sort.Slice(files, func(i, j int) bool { return path.Base(files[i]) < path.Base(files[j]) })
	for _, file := range files {
		if err := apply(ctx, pool, m, table, file); err != nil {
			return err
		}
	}
	return nil
}

// apply runs a migration file unless its name is recorded.
func apply(ctx context.Context, pool *pgxpool.Pool, m Migrations, table, file string) error {
	name := path.Base(file)
	body, err := fs.ReadFile(m.Files, file)
	if err != nil {
		return fmt.Errorf("migrate: read %s: %w", name, err)
	}
	return inTx(ctx, pool, m.LockKey, func(tx pgx.Tx) error {
		var one int
		switch err := tx.QueryRow(ctx, `SELECT 1 FROM `+table+` WHERE name = $1`, name).Scan(&one); {
		case err == nil:
			return nil
		case !errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("migrate: %s: %w", name, err)
		}
		// Without arguments pgx uses the simple protocol, which runs the
		// file's several statements.
		if _, err := tx.Exec(ctx, string(body)); err != nil {
			return fmt.Errorf("migrate: %s: %w", name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO `+table+` (name, applied_at) VALUES ($1, $2)`, name, time.Now()); err != nil {
			return fmt.Errorf("migrate: record %s: %w", name, err)
		}
		return nil
	})
}

// inTx runs fn in a transaction that first takes the advisory lock of
// lockKey (none when ""), committed when fn returns nil and rolled back
// otherwise.
func inTx(ctx context.Context, pool *pgxpool.Pool, lockKey string, fn func(tx pgx.Tx) error) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("migrate: begin: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if lockKey != "" {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, lockKey); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
	}
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}
