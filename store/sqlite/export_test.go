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
