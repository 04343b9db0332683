// Package plantsqlite is a plantstore.Store in a SQLite file, through
// modernc.org/sqlite (pure Go).
//
// It owns its schema: the plants table and the plantstore_migrations table
// that records its migrations, apart from any other schema in the file. It
// may therefore share a file with store/sqlite (each opens its own
// connections; busy_timeout makes one wait for the other's write lock) or
// have one of its own. A file whose plants table store/sqlite created, as it
// did before the plant store had its own persistence, is adopted as it is.
package plantsqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strings"
	"time"

	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/staykit/staykit/plantstore"
)

var _ plantstore.Store = (*DB)(nil)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// DB is a plant store in a SQLite file. It is safe for concurrent use.
type DB struct {
	db *sql.DB
}

// Open opens (creating it if needed) the SQLite file at path and brings the
// plant store's schema up to date. Path ":memory:" opens a private
// in-memory database that disappears on Close.
func Open(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("plantsqlite: open: empty path")
	}
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("plantsqlite: open %q: path must not contain '?'", path)
	}
	// busy_timeout first, so that the other pragmas wait for locks another
	// connection (the booking store's, say) holds; WAL lets readers and
	// the writer proceed together; transactions take the write lock at
	// BEGIN, so none fails half-way upgrading a read lock.
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	if path != ":memory:" {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("plantsqlite: open %q: %w", path, err)
	}
	if path == ":memory:" {
		// Each connection would be a database of its own.
		db.SetMaxOpenConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
	}
	s := &DB{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("plantsqlite: open %q: %w", path, err)
	}
	return s, nil
}

// Close closes the database.
func (s *DB) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("plantsqlite: close: %w", err)
	}
	return nil
}

// CreatePlant stores p. Errors: plantstore.ErrExists (wrapped) when p.ID is
// taken.
func (s *DB) CreatePlant(ctx context.Context, p plantstore.Plant) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO plants (id, name, tag) VALUES (?, ?, ?)`, p.ID, p.Name, p.Tag)
	switch {
	case isUniqueViolation(err):
		return fmt.Errorf("plantsqlite: create plant %d: %w", p.ID, plantstore.ErrExists)
	case err != nil:
		return fmt.Errorf("plantsqlite: create plant %d: %w", p.ID, err)
	}
	return nil
}

// Plant finds a plant by id; found is false when there is none.
func (s *DB) Plant(ctx context.Context, id int64) (p plantstore.Plant, found bool, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT id, name, tag FROM plants WHERE id = ?`, id).
		Scan(&p.ID, &p.Name, &p.Tag)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return plantstore.Plant{}, false, nil
	case err != nil:
		return plantstore.Plant{}, false, fmt.Errorf("plantsqlite: plant %d: %w", id, err)
	}
	return p, true, nil
}

// isUniqueViolation reports whether err is a UNIQUE or PRIMARY KEY violation.
func isUniqueViolation(err error) bool {
	var se *sqlitedrv.Error
	if !errors.As(err, &se) {
		return false
	}
	return se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}

// migrate applies, in name order, each embedded migration not yet recorded
// in plantstore_migrations, each in one transaction with its record.
func (s *DB) migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS plantstore_migrations (
		name       TEXT    PRIMARY KEY,
		applied_at INTEGER NOT NULL
	) STRICT`); err != nil {
		return fmt.Errorf("migrate: create plantstore_migrations: %w", err)
	}
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("migrate: list: %w", err)
	}
	sort.Strings(names)
	for _, file := range names {
		if err := s.apply(ctx, file); err != nil {
			return err
		}
	}
	return nil
}

// apply runs a migration file unless its name is recorded.
func (s *DB) apply(ctx context.Context, file string) error {
	name := path.Base(file)
	body, err := migrationFiles.ReadFile(file)
	if err != nil {
		return fmt.Errorf("migrate: read %s: %w", name, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %s: begin: %w", name, err)
	}
	defer func() { _ = tx.Rollback() }()
	var one int
	switch err := tx.QueryRowContext(ctx, `SELECT 1 FROM plantstore_migrations WHERE name = ?`, name).Scan(&one); {
	case err == nil:
		return nil
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("migrate: %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return fmt.Errorf("migrate: %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO plantstore_migrations (name, applied_at) VALUES (?, ?)`,
		name, time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("migrate: record %s: %w", name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: %s: commit: %w", name, err)
	}
	return nil
}
