package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// CreateProperty stores p with its blocks and sets its ID and its blocks'
// IDs. Errors: CodeInvalid when p.Validate refuses it, CodeNotFound
// (organisation).
func (db *DB) CreateProperty(ctx context.Context, p *booking.Property) error {
	if err := p.Validate(); err != nil {
		return err
	}
	args, err := rowmap.PropertyArgs(codec{}, p)
	if err != nil {
		return fmt.Errorf("sqlite: create property: %w", err)
	}
	blocks := append([]booking.Block(nil), p.Blocks...)
	var id int64
	err = db.inWriteTx(ctx, "create property", func(tx *sql.Tx) error {
		found, err := exists(ctx, tx, `SELECT 1 FROM organizations WHERE id = ?`, p.OrgID)
		if err != nil {
			return fmt.Errorf("sqlite: create property: %w", err)
		}
		if !found {
			return rowmap.OrganizationNotFound()
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO properties (`+rowmap.PropertyColumns+`)
			VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			append([]any{p.OrgID}, args...)...).Scan(&id); err != nil {
			return fmt.Errorf("sqlite: create property: %w", err)
		}
		for i := range blocks {
			if blocks[i].ID, err = insertBlock(ctx, tx, id, 0, blocks[i]); err != nil {
				return fmt.Errorf("sqlite: create property: %w", err)
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
		return fmt.Errorf("sqlite: update property: %w", err)
	}
	blocks := append([]booking.Block(nil), p.Blocks...)
	err = db.inWriteTx(ctx, "update property", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE properties SET name = ?, description = ?,
			photos = ?, city = ?, country = ?, max_guests = ?, bedrooms = ?, min_stay_nights = ?,
			max_stay_nights = ?, active = ?, rates = ?, fees = ?, tax = ?
			WHERE id = ? AND org_id = ?`, append(args, p.ID, p.OrgID)...)
		if err != nil {
			return fmt.Errorf("sqlite: update property: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("sqlite: update property: %w", err)
		} else if n == 0 {
			return rowmap.PropertyNotFound()
		}
		old, err := blocksOf(ctx, tx, p.ID)
		if err != nil {
			return fmt.Errorf("sqlite: update property: %w", err)
		}
		mine := make(map[int64]bool, len(old))
		for _, b := range old {
			mine[b.ID] = true
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM blocks WHERE property_id = ? AND feed_id IS NULL`, p.ID); err != nil {
			return fmt.Errorf("sqlite: update property: %w", err)
		}
		for i := range blocks {
			keep := int64(0)
			if mine[blocks[i].ID] {
				keep = blocks[i].ID
			}
			if blocks[i].ID, err = insertBlock(ctx, tx, p.ID, keep, blocks[i]); err != nil {
				return fmt.Errorf("sqlite: update property: %w", err)
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
	err := db.inReadTx(ctx, "property", func(tx *sql.Tx) error {
		q := db.readsIn(tx)
		var err error
		p, err = rowmap.ScanProperty(codec{}, q.QueryRowContext(ctx, qProperty, propertyID, orgID))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return rowmap.PropertyNotFound()
		case err != nil:
			return fmt.Errorf("sqlite: property %d: %w", propertyID, err)
		}
		if p.Blocks, err = blocksOf(ctx, q, p.ID); err != nil {
			return fmt.Errorf("sqlite: property %d: %w", propertyID, err)
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
	err := db.inReadTx(ctx, "properties", func(tx *sql.Tx) error {
		q := db.readsIn(tx)
		rows, err := q.QueryContext(ctx, qProperties, orgID)
		if err != nil {
			return fmt.Errorf("sqlite: properties: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			p, err := rowmap.ScanProperty(codec{}, rows)
			if err != nil {
				return fmt.Errorf("sqlite: properties: %w", err)
			}
			list = append(list, *p)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("sqlite: properties: %w", err)
		}
		rows.Close()
		if len(list) == 0 {
			return nil
		}
		blocks, err := blocksOfOrg(ctx, q, orgID)
		if err != nil {
			return fmt.Errorf("sqlite: properties: %w", err)
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

// AddBlock adds an owner block to a property and sets b.ID. Errors:
// CodeNotFound; CodeInvalid when the block ends before it starts;
// CodeUnavailable when it overlaps a booking holding dates at now.
func (db *DB) AddBlock(ctx context.Context, propertyID int64, b *booking.Block, now time.Time) error {
	if err := booking.CheckBlocks([]booking.Block{*b}); err != nil {
		return err
	}
	var id int64
	err := db.inWriteTx(ctx, "add block", func(tx *sql.Tx) error {
		found, err := exists(ctx, tx, `SELECT 1 FROM properties WHERE id = ?`, propertyID)
		if err != nil {
			return fmt.Errorf("sqlite: add block: %w", err)
		}
		if !found {
			return rowmap.PropertyNotFound()
		}
		taken, err := bookingOverlaps(ctx, tx, propertyID, b.Range(), now, 0)
		if err != nil {
			return fmt.Errorf("sqlite: add block: %w", err)
		}
		if taken {
			return booking.Errorf(booking.CodeUnavailable, "A booking holds some of these dates.")
		}
		if id, err = insertBlock(ctx, tx, propertyID, 0, *b); err != nil {
			return fmt.Errorf("sqlite: add block: %w", err)
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
	return db.inWriteTx(ctx, "remove block", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM blocks WHERE id = ? AND property_id = ? AND feed_id IS NULL`, blockID, propertyID)
		if err != nil {
			return fmt.Errorf("sqlite: remove block: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("sqlite: remove block: %w", err)
		} else if n == 0 {
			return booking.Errorf(booking.CodeNotFound, "Block not found.")
		}
		return nil
	})
}

// insertBlock inserts b on a property, with id when it is not 0, and
// returns its id.
func insertBlock(ctx context.Context, tx *sql.Tx, propertyID, id int64, b booking.Block) (int64, error) {
	err := tx.QueryRowContext(ctx, `INSERT INTO blocks (id, property_id, start_date, end_date, reason)
		VALUES (?, ?, ?, ?, ?) RETURNING id`,
		nullID(id), propertyID, b.Start.String(), b.End.String(), b.Reason).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert block %s–%s: %w", b.Start, b.End, err)
	}
	return id, nil
}

// blocksOf returns a property's blocks by start.
func blocksOf(ctx context.Context, q querier, propertyID int64) ([]booking.Block, error) {
	rows, err := q.QueryContext(ctx, qBlocksOf, propertyID)
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
		list = append(list, *b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("blocks: %w", err)
	}
	return list, nil
}

// blocksOfOrg returns the blocks of an organisation's properties by
// property ID, each property's by start.
func blocksOfOrg(ctx context.Context, q querier, orgID int64) (map[int64][]booking.Block, error) {
	rows, err := q.QueryContext(ctx, qBlocksOfOrg, orgID)
	if err != nil {
		return nil, fmt.Errorf("blocks: %w", err)
	}
	defer rows.Close()
	byProperty := map[int64][]booking.Block{}
	for rows.Next() {
		b, err := rowmap.ScanPropertyBlock(codec{}, rows)
		if err != nil {
			return nil, fmt.Errorf("blocks: %w", err)
		}
		byProperty[b.PropertyID] = append(byProperty[b.PropertyID], b.Block)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("blocks: %w", err)
	}
	return byProperty, nil
}
