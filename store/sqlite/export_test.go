package sqlite

import (
	"context"
	"fmt"
)

// PragmaForTest returns the value of a pragma on a connection of the write
// pool (write) or of the read pool.
func PragmaForTest(ctx context.Context, db *DB, write bool, name string) (string, error) {
	pool := db.read
	if write {
		pool = db.write
	}
	var v string
	if err := pool.QueryRowContext(ctx, "PRAGMA "+name).Scan(&v); err != nil {
		return "", fmt.Errorf("pragma %s: %w", name, err)
	}
	return v, nil
}

// UnpreparedForTest counts the hot-path queries that ran unprepared
// because their text is not among the prepared statements.
func UnpreparedForTest(db *DB) int64 {
	n := db.writeStmts.misses.Load()
	if db.readStmts != db.writeStmts {
		n += db.readStmts.misses.Load()
	}
	return n
}
