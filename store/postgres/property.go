package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// lockProperty locks the row of a property (of orgID, unless orgID is 0)
// until the transaction ends, so that the writers that check a property's
// blocks and bookings before they write take turns. FOR NO KEY UPDATE
// leaves foreign key checks of rows referencing it (FOR KEY SHARE) free.
// Errors: CodeNotFound.
func lockProperty(ctx context.Context, tx pgx.Tx, orgID, propertyID int64) error {
	query := `SELECT 1 FROM properties WHERE id = $1 FOR NO KEY UPDATE`
	args := []any{propertyID}
	if orgID != 0 {
		query = `SELECT 1 FROM properties WHERE id = $1 AND org_id = $2 FOR NO KEY UPDATE`
		args = append(args, orgID)
	}
	found, err := exists(ctx, tx, query, args...)
	if err != nil {
		return fmt.Errorf("lock property %d: %w", propertyID, err)
	}
	if !found {
		return rowmap.PropertyNotFound()
	}
	return nil
}

// CreateProperty stores p with its blocks and sets its ID and its blocks'
// IDs. Errors: CodeInvalid when p.Validate refuses it, CodeNotFound
// (organisation).
func (db *DB) CreateProperty(ctx context.Context, p *booking.Property) error {
	if err := p.Validate(); err != nil {
		return err
	}
	args, err := rowmap.PropertyArgs(codec{}, p)
	if err != nil {
		return fmt.Errorf("postgres: create property: %w", err)
	}
	blocks := append([]booking.Block(nil), p.Blocks...)
	var id int64
	err = db.inTx(ctx, "create property", func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO properties (org_id, `+rowmap.PropertyDataColumns+`)
			VALUES (`+params(1, len(args)+1)+`) RETURNING id`, append([]any{p.OrgID}, args...)...).Scan(&id)
		switch {
		case sqlState(err) == foreignKeyViolation:
			return rowmap.OrganizationNotFound()
		case err != nil:
			return fmt.Errorf("postgres: create property: %w", err)
		}
		for i := range blocks {
			if blocks[i].ID, err = insertBlock(ctx, tx, id, 0, blocks[i]); err != nil {
				return fmt.Errorf("postgres: create property: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	p.ID, p.Blocks = id, blocks
	return nil
}

// UpdateProperty replaces the property with p.ID of organisation p.OrgID,
// rates and blocks included: blocks keep their ID when they had one on this
// property, others get a new one. Errors: CodeInvalid when p.Validate
// refuses it, CodeNotFound.
func (db *DB) UpdateProperty(ctx context.Context, p *booking.Property) error {
	if err := p.Validate(); err != nil {
		return err
	}
	args, err := rowmap.PropertyArgs(codec{}, p)
	if err != nil {
		return fmt.Errorf("postgres: update property: %w", err)
	}
	blocks := append([]booking.Block(nil), p.Blocks...)
	err = db.inTx(ctx, "update property", func(tx pgx.Tx) error {
		n := len(args)
		tag, err := tx.Exec(ctx, `UPDATE properties SET `+assignments(rowmap.PropertyDataColumns, 1)+`
			WHERE id = $`+strconv.Itoa(n+1)+` AND org_id = $`+strconv.Itoa(n+2), append(args, p.ID, p.OrgID)...)
		if err != nil {
			return fmt.Errorf("postgres: update property: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return rowmap.PropertyNotFound()
		}
		old, err := blocksOf(ctx, tx, p.ID)
		if err != nil {
			return fmt.Errorf("postgres: update property: %w", err)
		}
		mine := make(map[int64]bool, len(old))
		for _, b := range old {
			mine[b.ID] = true
		}
		if _, err := tx.Exec(ctx, `DELETE FROM blocks WHERE property_id = $1 AND feed_id IS NULL`, p.ID); err != nil {
			return fmt.Errorf("postgres: update property: %w", err)
		}
		for i := range blocks {
			keep := int64(0)
			if mine[blocks[i].ID] {
				keep = blocks[i].ID
			}
			if blocks[i].ID, err = insertBlock(ctx, tx, p.ID, keep, blocks[i]); err != nil {
				return fmt.Errorf("postgres: update property: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	p.Blocks = blocks
	return nil
}

// Property finds a property of an organisation, blocks included. Errors:
// CodeNotFound, also when it belongs to another organisation.
func (db *DB) Property(ctx context.Context, orgID, propertyID int64) (*booking.Property, error) {
	var p *booking.Property
	err := db.inReadTx(ctx, "property", func(tx pgx.Tx) error {
		var err error
		p, err = rowmap.ScanProperty(codec{}, tx.QueryRow(ctx,
			`SELECT `+rowmap.PropertyColumns+` FROM properties WHERE id = $1 AND org_id = $2`, propertyID, orgID))
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return rowmap.PropertyNotFound()
		case err != nil:
			return fmt.Errorf("postgres: property %d: %w", propertyID, err)
		}
		if p.Blocks, err = blocksOf(ctx, tx, p.ID); err != nil {
			return fmt.Errorf("postgres: property %d: %w", propertyID, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Properties lists an organisation's properties by ID, blocks included.
// Two queries, whatever the number of properties: the properties, then all
// their blocks.
func (db *DB) Properties(ctx context.Context, orgID int64) ([]booking.Property, error) {
	var list []booking.Property
	err := db.inReadTx(ctx, "properties", func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx,
			`SELECT `+rowmap.PropertyColumns+` FROM properties WHERE org_id = $1 ORDER BY id`, orgID)
		if err != nil {
			return fmt.Errorf("postgres: properties: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			p, err := rowmap.ScanProperty(codec{}, rows)
			if err != nil {
				return fmt.Errorf("postgres: properties: %w", err)
			}
			list = append(list, *p)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("postgres: properties: %w", err)
		}
		rows.Close()
		if len(list) == 0 {
			return nil
		}
		blocks, err := blocksOfOrg(ctx, tx, orgID)
		if err != nil {
			return fmt.Errorf("postgres: properties: %w", err)
		}
		for i := range list {
			list[i].Blocks = blocks[list[i].ID]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// AddBlock adds an owner block to a property and sets b.ID. It locks the
// property, so no booking can be made on it between the check and the
// insert. Errors: CodeNotFound; CodeInvalid when the block does not end
// after it starts; CodeUnavailable when it overlaps a booking holding dates
// at now.
func (db *DB) AddBlock(ctx context.Context, propertyID int64, b *booking.Block, now time.Time) error {
	if err := booking.CheckBlocks([]booking.Block{*b}); err != nil {
		return err
	}
	var id int64
	err := db.inTx(ctx, "add block", func(tx pgx.Tx) error {
		if err := lockProperty(ctx, tx, 0, propertyID); err != nil {
			return err
		}
		taken, err := bookingOverlaps(ctx, tx, propertyID, b.Range(), now, 0)
		if err != nil {
			return fmt.Errorf("postgres: add block: %w", err)
		}
		if taken {
			return booking.Errorf(booking.CodeUnavailable, "A booking holds some of these dates.")
		}
		if id, err = insertBlock(ctx, tx, propertyID, 0, *b); err != nil {
			return fmt.Errorf("postgres: add block: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	b.ID = id
	return nil
}

// RemoveBlock deletes a block of a property. Errors: CodeNotFound.
func (db *DB) RemoveBlock(ctx context.Context, propertyID, blockID int64) error {
	tag, err := db.pool.Exec(ctx, `DELETE FROM blocks WHERE id = $1 AND property_id = $2 AND feed_id IS NULL`, blockID, propertyID)
	if err != nil {
		return fmt.Errorf("postgres: remove block: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return booking.Errorf(booking.CodeNotFound, "Block not found.")
	}
	return nil
}

// insertBlock inserts b on a property, with id when it is not 0, and
// returns its id.
func insertBlock(ctx context.Context, tx pgx.Tx, propertyID, id int64, b booking.Block) (int64, error) {
	query := `INSERT INTO blocks (property_id, start_date, end_date, reason)
		VALUES ($1, $2, $3, $4) RETURNING id`
	args := []any{propertyID, date(b.Start), date(b.End), b.Reason}
	if id != 0 {
		query = `INSERT INTO blocks (property_id, start_date, end_date, reason, id)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`
		args = append(args, id)
	}
	if err := tx.QueryRow(ctx, query, args...).Scan(&id); err != nil {
		return 0, fmt.Errorf("insert block %s–%s: %w", b.Start, b.End, err)
	}
	return id, nil
}

// blocksOf returns a property's blocks by start.
func blocksOf(ctx context.Context, q querier, propertyID int64) ([]booking.Block, error) {
	rows, err := q.Query(ctx, `SELECT id, start_date, end_date, reason FROM blocks
		WHERE property_id = $1 AND feed_id IS NULL ORDER BY start_date, id`, propertyID)
	if err != nil {
		return nil, fmt.Errorf("blocks: %w", err)
	}
	defer rows.Close()
	var list []booking.Block
	for rows.Next() {
		b, err := rowmap.ScanBlock(codec{}, rows)
		if err != nil {
			return nil, fmt.Errorf("blocks: %w", err)
		}
		list = append(list, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("blocks: %w", err)
	}
	return list, nil
}

// blocksOfOrg returns the blocks of an organisation's properties by
// property ID, each property's by start.
func blocksOfOrg(ctx context.Context, q querier, orgID int64) (map[int64][]booking.Block, error) {
	rows, err := q.Query(ctx, `SELECT property_id, id, start_date, end_date, reason FROM blocks
		WHERE property_id IN (SELECT id FROM properties WHERE org_id = $1) AND feed_id IS NULL
		ORDER BY property_id, start_date, id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("blocks: %w", err)
	}
	defer rows.Close()
	byProperty := map[int64][]booking.Block{}
	for rows.Next() {
		var propertyID int64
		b, err := rowmap.ScanBlock(codec{}, rows, &propertyID)
		if err != nil {
			return nil, fmt.Errorf("blocks: %w", err)
		}
		byProperty[propertyID] = append(byProperty[propertyID], b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("blocks: %w", err)
	}
	return byProperty, nil
}
