// Package sqlitetest opens SQLite stores for tests without paying for the
// migrations each time.
//
// Migrating a new database file is the slowest step of a test that opens
// a store (seconds under the race detector, where opening a migrated file
// takes tens of milliseconds). The schema is therefore migrated once per
// test binary, into a file whose bytes are kept, and each test gets its
// own copy: the same database sqlite.Open would have created, reopened.
// An in-memory database starts from the same bytes (Image,
// sqlite.WithImage).
package sqlitetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/staykit/staykit/store/sqlite"
)

// migrated holds the bytes of a freshly migrated, closed database file.
// It is computed once per test binary and never changes afterwards.
var migrated = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "staykit-sqlitetest-")
	if err != nil {
		return nil, fmt.Errorf("sqlitetest: template directory: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "staykit.db")
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		return nil, fmt.Errorf("sqlitetest: migrate template: %w", err)
	}
	// Closing the last connection checkpoints the write-ahead log into
	// the main file and removes it, so the file alone is the database.
	if err := db.Close(); err != nil {
		return nil, fmt.Errorf("sqlitetest: close template: %w", err)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return nil, fmt.Errorf("sqlitetest: template kept its write-ahead log after close")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sqlitetest: read template: %w", err)
	}
	return b, nil
})

// Path returns the path of a new database file in t's temporary
// directory, already migrated to the current schema.
func Path(t testing.TB) string {
	t.Helper()
	b := Image(t)
	path := filepath.Join(t.TempDir(), "staykit.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatalf("sqlitetest: write database: %v", err)
	}
	return path
}

// Image returns the bytes of a migrated database file, for
// sqlite.WithImage.
func Image(t testing.TB) []byte {
	t.Helper()
	b, err := migrated()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Open opens a new migrated database (see Path) with opts; it is closed
// when t ends.
func Open(t testing.TB, opts ...sqlite.Option) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(t.Context(), Path(t), opts...)
	if err != nil {
		t.Fatalf("sqlitetest: open: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}
