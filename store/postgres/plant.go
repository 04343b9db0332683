package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/plantstore"
)

// CreatePlant stores p. Errors: plantstore.ErrExists (wrapped) when p.ID is
// taken.
func (db *DB) CreatePlant(ctx context.Context, p plantstore.Plant) error {
	_, err := db.pool.Exec(ctx, `INSERT INTO plants (id, name, tag) VALUES ($1, $2, $3)`, p.ID, p.Name, p.Tag)
	switch {
	case sqlState(err) == uniqueViolation:
		return fmt.Errorf("postgres: create plant %d: %w", p.ID, plantstore.ErrExists)
	case err != nil:
		return fmt.Errorf("postgres: create plant %d: %w", p.ID, err)
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
		return plantstore.Plant{}, false, fmt.Errorf("postgres: plant %d: %w", id, err)
	}
	return p, true, nil
}
