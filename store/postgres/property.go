package postgres

import (
	"context"
	"strconv"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// lockProperty locks the row of a property (of orgID, unless orgID is 0)
// and the rows of the properties linked to it (package units), in the
// order of their IDs, until the transaction ends (staykit_lock_property,
// migration 0031), so that the writers that check a property's blocks and
// bookings, or a linked property's, before they write take turns. FOR NO
// KEY UPDATE leaves foreign key checks of rows referencing it (FOR KEY
// SHARE) free. Errors: CodeNotFound.
func lockProperty(ctx context.Context, q querier, orgID, propertyID int64) error {
	found, err := sqlflow.Value[bool](ctx, q, nil, `SELECT staykit_lock_property($1, $2)`, propertyID, orgID)
	if err == nil && !found {
		return rowmap.PropertyNotFound()
	}
	return err
}

// CreateProperty stores p with its blocks and sets its ID and its blocks'
// IDs. Errors: CodeInvalid when p.Validate refuses it, CodeNotFound
// (organisation).
func (db *DB) CreateProperty(ctx context.Context, p *booking.Property) error {
	if err := p.Validate(); err != nil {
		return err
	}
	blocks := append([]booking.Block(nil), p.Blocks...)
	units := booking.NewUnits(p.Units)
	id, err := sqlflow.Get(ctx, db.tx, "create property", func(q querier) (int64, error) {
		args, err := rowmap.PropertyArgs(codec{}, p)
		if err != nil {
			return 0, err
		}
		id, err := sqlflow.Value[int64](ctx, q, nil, `INSERT INTO properties (org_id, `+rowmap.PropertyDataColumns+`)
			VALUES (`+params(1, len(args)+1)+`) RETURNING id`, append([]any{p.OrgID}, args...)...)
		switch {
		case sqlState(err) == foreignKeyViolation:
			return 0, rowmap.OrganizationNotFound()
		case err != nil:
			return 0, err
		}
		if err := insertUnits(ctx, q, id, units); err != nil {
			return 0, err
		}
		return id, insertBlocks(ctx, q, id, nil, blocks)
	})
	if err != nil {
		return err
	}
	p.ID, p.Blocks, p.Units = id, blocks, units
	return nil
}

// insertUnits inserts a new property's units, numbered by position from
// 1, and sets their IDs.
func insertUnits(ctx context.Context, q querier, propertyID int64, units []booking.Unit) error {
	for i := range units {
		u := &units[i]
		u.PropertyID, u.Position = propertyID, i+1
		var err error
		if u.ID, err = sqlflow.Value[int64](ctx, q, nil, `INSERT INTO units (property_id, name, position)
			VALUES ($1, $2, $3) RETURNING id`, propertyID, u.Name, u.Position); err != nil {
			return err
		}
	}
	return nil
}

// withUnits fills in the units and links of props, read through q: those
// of one property (the only one) or of an organisation's.
func withUnits(ctx context.Context, q querier, props []booking.Property, orgID int64) error {
	var units []booking.Unit
	var links []rowmap.PropertyLink
	var err error
	if len(props) == 1 {
		units, err = sqlflow.All(ctx, q, rowmap.ScanUnit, `SELECT `+rowmap.UnitColumns+` FROM units
			WHERE property_id = $1 AND retired_at IS NULL ORDER BY position, id`, props[0].ID)
		if err == nil {
			links, err = sqlflow.All(ctx, q, rowmap.ScanPropertyLink, `SELECT whole_id, part_id FROM property_links
				WHERE part_id = $1 OR whole_id = $1`, props[0].ID)
		}
	} else {
		units, err = sqlflow.All(ctx, q, rowmap.ScanUnit, `SELECT u.id, u.property_id, u.name, u.position, u.retired_at, u.has_prices
			FROM units u JOIN properties p ON p.id = u.property_id
			WHERE p.org_id = $1 AND u.retired_at IS NULL ORDER BY u.property_id, u.position, u.id`, orgID)
		if err == nil {
			links, err = sqlflow.All(ctx, q, rowmap.ScanPropertyLink, `SELECT l.whole_id, l.part_id
				FROM property_links l JOIN properties p ON p.id = l.part_id WHERE p.org_id = $1`, orgID)
		}
	}
	if err != nil {
		return err
	}
	rowmap.WithUnits(props, units, links)
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
	blocks := append([]booking.Block(nil), p.Blocks...)
	err := db.tx(ctx, "update property", func(q querier) error {
		if err := updateProperty(ctx, q, p); err != nil {
			return err
		}
		old, err := blocksOf(ctx, q, p.ID)
		if err != nil {
			return err
		}
		if err := checkBlockUnits(ctx, q, p.ID, blocks...); err != nil {
			return err
		}
		if err := sqlflow.Exec(ctx, q, nil, `DELETE FROM blocks WHERE property_id = $1 AND feed_id IS NULL`, p.ID); err != nil {
			return err
		}
		return insertBlocks(ctx, q, p.ID, old, blocks)
	})
	if err != nil {
		return err
	}
	p.Blocks = blocks
	return nil
}

// updateProperty replaces the row of the property with p.ID of
// organisation p.OrgID. Errors: CodeNotFound.
func updateProperty(ctx context.Context, q querier, p *booking.Property) error {
	args, err := rowmap.PropertyArgs(codec{}, p)
	if err != nil {
		return err
	}
	n := len(args)
	return sqlflow.Exec(ctx, q, rowmap.PropertyNotFound(), `UPDATE properties SET `+assignments(rowmap.PropertyDataColumns, 1)+`
		WHERE id = $`+strconv.Itoa(n+1)+` AND org_id = $`+strconv.Itoa(n+2), append(args, p.ID, p.OrgID)...)
}

// Property finds a property of an organisation, blocks included. Errors:
// CodeNotFound, also when it belongs to another organisation.
func (db *DB) Property(ctx context.Context, orgID, propertyID int64) (*booking.Property, error) {
	return sqlflow.Get(ctx, db.readTx, "property", func(q querier) (*booking.Property, error) {
		p, err := sqlflow.One(ctx, q, rowmap.ScanProperty, rowmap.PropertyNotFound(),
			`SELECT `+rowmap.PropertyColumns+` FROM properties WHERE id = $1 AND org_id = $2`, propertyID, orgID)
		if err != nil {
			return nil, err
		}
		if p.Blocks, err = blocksOf(ctx, q, p.ID); err != nil {
			return nil, err
		}
		one := []booking.Property{*p}
		if err := withUnits(ctx, q, one, orgID); err != nil {
			return nil, err
		}
		return &one[0], nil
	})
}

// Properties lists an organisation's properties by ID, blocks, units and
// links included. Four queries, whatever the number of properties: the
// properties, then all their blocks, units and links.
func (db *DB) Properties(ctx context.Context, orgID int64) ([]booking.Property, error) {
	return sqlflow.Get(ctx, db.readTx, "properties", func(q querier) ([]booking.Property, error) {
		list, err := sqlflow.All(ctx, q, rowmap.ScanProperty,
			`SELECT `+rowmap.PropertyColumns+` FROM properties WHERE org_id = $1 ORDER BY id`, orgID)
		if err != nil || len(list) == 0 {
			return list, err
		}
		blocks, err := sqlflow.All(ctx, q, rowmap.ScanPropertyBlock, `SELECT property_id, `+rowmap.BlockColumns+` FROM blocks
			WHERE property_id IN (SELECT id FROM properties WHERE org_id = $1) AND feed_id IS NULL
			ORDER BY property_id, start_date, id`, orgID)
		if err != nil {
			return nil, err
		}
		byProperty := rowmap.ByProperty(blocks)
		for i := range list {
			list[i].Blocks = byProperty[list[i].ID]
		}
		return list, withUnits(ctx, q, list, orgID)
	})
}

// AddBlock adds an owner block to a property, on one of its active units
// or on every unit (b.UnitID 0), and sets b.ID. It locks the property
// with its linked properties, so no booking can be made on them between
// the check and the insert. Errors: CodeNotFound (property, unit);
// CodeInvalid when the block does not end after it starts;
// CodeUnavailable when it overlaps a booking holding dates at now on a
// unit it takes, or on a linked property.
func (db *DB) AddBlock(ctx context.Context, propertyID int64, b *booking.Block, now time.Time) error {
	if err := booking.CheckBlocks([]booking.Block{*b}); err != nil {
		return err
	}
	id, err := sqlflow.Get(ctx, db.tx, "add block", func(q querier) (int64, error) {
		if err := lockProperty(ctx, q, 0, propertyID); err != nil {
			return 0, err
		}
		if err := checkBlockUnits(ctx, q, propertyID, *b); err != nil {
			return 0, err
		}
		taken, err := bookingOverlaps(ctx, q, propertyID, b.UnitID, b.Range(), now, 0)
		if err == nil && !taken {
			taken, err = linkedOverlaps(ctx, q, propertyID, b.Range(), now, 0)
		}
		switch {
		case err != nil:
			return 0, err
		case taken:
			return 0, booking.Errorf(booking.CodeUnavailable, "A booking holds some of these dates.")
		}
		return insertBlock(ctx, q, propertyID, 0, *b)
	})
	if err != nil {
		return err
	}
	b.ID = id
	return nil
}

// checkBlockUnits reports CodeNotFound when a block names a unit that is
// no active unit of the property.
func checkBlockUnits(ctx context.Context, q querier, propertyID int64, blocks ...booking.Block) error {
	for _, b := range blocks {
		if b.UnitID == 0 {
			continue
		}
		found, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM units WHERE id = $1 AND property_id = $2 AND retired_at IS NULL`,
			b.UnitID, propertyID)
		switch {
		case err != nil:
			return err
		case !found:
			return rowmap.UnitNotFound()
		}
	}
	return nil
}

// RemoveBlock deletes a block of a property. Errors: CodeNotFound.
func (db *DB) RemoveBlock(ctx context.Context, propertyID, blockID int64) error {
	return db.run(ctx, "remove block", func(q querier) error {
		return sqlflow.Exec(ctx, q, booking.Errorf(booking.CodeNotFound, "Block not found."),
			`DELETE FROM blocks WHERE id = $1 AND property_id = $2 AND feed_id IS NULL`, blockID, propertyID)
	})
}

// insertBlocks inserts blocks on a property and sets their IDs: a block
// keeps its ID when it is one of old, the property's blocks before.
func insertBlocks(ctx context.Context, q querier, propertyID int64, old, blocks []booking.Block) error {
	mine := make(map[int64]bool, len(old))
	for _, b := range old {
		mine[b.ID] = true
	}
	for i := range blocks {
		keep := int64(0)
		if mine[blocks[i].ID] {
			keep = blocks[i].ID
		}
		var err error
		if blocks[i].ID, err = insertBlock(ctx, q, propertyID, keep, blocks[i]); err != nil {
			return err
		}
	}
	return nil
}

// insertBlock inserts b on a property, with id when it is not 0, and
// returns its id.
func insertBlock(ctx context.Context, q querier, propertyID, id int64, b booking.Block) (int64, error) {
	query := `INSERT INTO blocks (property_id, start_date, end_date, reason, unit_id)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`
	args := []any{propertyID, rowmap.Date(b.Start), rowmap.Date(b.End), b.Reason, rowmap.NullID(b.UnitID)}
	if id != 0 {
		query = `INSERT INTO blocks (property_id, start_date, end_date, reason, unit_id, id)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`
		args = append(args, id)
	}
	return sqlflow.Value[int64](ctx, q, nil, query, args...)
}

// blocksOf returns a property's blocks by start.
func blocksOf(ctx context.Context, q querier, propertyID int64) ([]booking.Block, error) {
	return sqlflow.All(ctx, q, rowmap.ScanBlock, `SELECT `+rowmap.BlockColumns+` FROM blocks
		WHERE property_id = $1 AND feed_id IS NULL ORDER BY start_date, id`, propertyID)
}
