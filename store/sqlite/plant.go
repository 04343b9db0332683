package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/staykit/staykit/plantstore"
)

// CreatePlant stores p. Errors: plantstore.ErrExists (wrapped) when p.ID is
// taken.
func (db *DB) CreatePlant(ctx context.Context, p plantstore.Plant) error {
	return db.inWriteTx(ctx, "create plant", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO plants (id, name, tag) VALUES (?, ?, ?)`, p.ID, p.Name, p.Tag)
		switch {
		case isUniqueViolation(err):
			return fmt.Errorf("sqlite: create plant %d: %w", p.ID, plantstore.ErrExists)
		case err != nil:
			return fmt.Errorf("sqlite: create plant %d: %w", p.ID, err)
		}
		return nil
	})
}

// Plant finds a plant by id; found is false when there is none.
func (db *DB) Plant(ctx context.Context, id int64) (p plantstore.Plant, found bool, err error) {
	err = db.read.QueryRowContext(ctx, `SELECT id, name, tag FROM plants WHERE id = ?`, id).
		Scan(&p.ID, &p.Name, &p.Tag)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return plantstore.Plant{}, false, nil
	case err != nil:
		return plantstore.Plant{}, false, fmt.Errorf("sqlite: plant %d: %w", id, err)
	}
	return p, true, nil
}
