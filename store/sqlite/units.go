package sqlite

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
	"github.com/staykit/staykit/units"
)

// This file is units.Store: a property's units and linked listings. Its
// writes run in write transactions (BEGIN IMMEDIATE), so they take turns
// with checkouts and the other writers of the properties concerned.

var _ units.Store = (*DB)(nil)

// checkPropertyOfOrg reports CodeNotFound unless the property is orgID's.
func checkPropertyOfOrg(ctx context.Context, q querier, orgID, propertyID int64) error {
	found, err := sqlflow.Exists(ctx, q, qPropertyOfOrg, propertyID, orgID)
	if err == nil && !found {
		return rowmap.PropertyNotFound()
	}
	return err
}

// unitOfOrg reads a unit of one of orgID's properties. Errors:
// CodeNotFound.
func unitOfOrg(ctx context.Context, q querier, orgID, unitID int64) (*booking.Unit, error) {
	return sqlflow.One(ctx, q, rowmap.ScanUnit, rowmap.UnitNotFound(), `SELECT `+rowmap.UnitColumns+` FROM units
		WHERE id = ? AND property_id IN (SELECT id FROM properties WHERE org_id = ?)`, unitID, orgID)
}

// Units lists a property's units, retired ones included (units.Store).
func (db *DB) Units(ctx context.Context, orgID, propertyID int64) ([]booking.Unit, error) {
	return sqlflow.Get(ctx, db.readTx, "units", func(q querier) ([]booking.Unit, error) {
		if err := checkPropertyOfOrg(ctx, q, orgID, propertyID); err != nil {
			return nil, err
		}
		return sqlflow.All(ctx, q, rowmap.ScanUnit, `SELECT `+rowmap.UnitColumns+` FROM units
			WHERE property_id = ? ORDER BY position, id`, propertyID)
	})
}

// AddUnit adds a unit to a property after its others (units.Store).
func (db *DB) AddUnit(ctx context.Context, orgID, propertyID int64, u *booking.Unit, now time.Time) error {
	name, err := units.PrepareUnit(u.Name)
	if err != nil {
		return err
	}
	added, err := sqlflow.Get(ctx, db.tx, "add unit", func(q querier) (*booking.Unit, error) {
		if err := checkPropertyOfOrg(ctx, q, orgID, propertyID); err != nil {
			return nil, err
		}
		whole, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM property_links WHERE whole_id = ?`, propertyID)
		switch {
		case err != nil:
			return nil, err
		case whole:
			return nil, units.Conflict(units.ReasonWhole, "A property let whole with its parts has one unit.")
		}
		n, err := sqlflow.Value[int](ctx, q, nil, `SELECT count(*) FROM units WHERE property_id = ? AND retired_at IS NULL`, propertyID)
		switch {
		case err != nil:
			return nil, err
		case n >= booking.MaxUnits:
			return nil, &booking.Error{Code: booking.CodeInvalid, Message: "The property has as many units as it may have.",
				Fields: booking.FieldErrors{"units": {"too_many"}}}
		}
		return sqlflow.One(ctx, q, rowmap.ScanUnit, nil, `INSERT INTO units (property_id, name, position, created_at)
			SELECT ?, ?, coalesce(max(position), 0) + 1, ? FROM units WHERE property_id = ?
			RETURNING `+rowmap.UnitColumns, propertyID, name, now.UnixMilli(), propertyID)
	})
	if err != nil {
		return err
	}
	*u = *added
	return nil
}

// RenameUnit renames a unit (units.Store).
func (db *DB) RenameUnit(ctx context.Context, orgID, unitID int64, name string) (*booking.Unit, error) {
	name, err := units.PrepareUnit(name)
	if err != nil {
		return nil, err
	}
	return sqlflow.Get(ctx, db.tx, "rename unit", func(q querier) (*booking.Unit, error) {
		return sqlflow.One(ctx, q, rowmap.ScanUnit, rowmap.UnitNotFound(), `UPDATE units SET name = ?
			WHERE id = ? AND property_id IN (SELECT id FROM properties WHERE org_id = ?)
			RETURNING `+rowmap.UnitColumns, name, unitID, orgID)
	})
}

// RetireUnit retires a unit that holds nothing ahead (units.Store).
func (db *DB) RetireUnit(ctx context.Context, orgID, unitID int64, today civil.Date, now time.Time) (*booking.Unit, error) {
	return sqlflow.Get(ctx, db.tx, "retire unit", func(q querier) (*booking.Unit, error) {
		u, err := unitOfOrg(ctx, q, orgID, unitID)
		if err != nil {
			return nil, err
		}
		if err := retirable(ctx, q, u, today, now); err != nil {
			return nil, err
		}
		return sqlflow.One(ctx, q, rowmap.ScanUnit, rowmap.UnitNotFound(), `UPDATE units SET retired_at = ?
			WHERE id = ? RETURNING `+rowmap.UnitColumns, now.UnixMilli(), unitID)
	})
}

// retirable reports, through q, why u may not be retired at now (today in
// its organisation's zone): units.Store.RetireUnit's refusals.
func retirable(ctx context.Context, q querier, u *booking.Unit, today civil.Date, now time.Time) error {
	if !u.Active() {
		return units.Conflict(units.ReasonRetired, "This unit is retired already.")
	}
	for _, c := range []struct {
		query, reason, message string
		args                   []any
	}{
		{`SELECT count(*) <= 1 FROM units WHERE property_id = ? AND retired_at IS NULL`, units.ReasonLastUnit,
			"A property keeps one unit at least.", []any{u.PropertyID}},
		{`SELECT EXISTS (SELECT 1 FROM bookings WHERE unit_id = ? AND check_out > ? AND ` + holdsDates + `)`, units.ReasonFutureStays,
			"This unit holds stays to come: move or cancel them first.", []any{u.ID, today.String(), now.UnixMilli()}},
		{`SELECT EXISTS (SELECT 1 FROM blocks WHERE unit_id = ? AND end_date > ?)`, units.ReasonFutureBlocks,
			"This unit has blocks to come: remove them first.", []any{u.ID, today.String()}},
		{`SELECT EXISTS (SELECT 1 FROM ical_feeds WHERE unit_id = ?)`, units.ReasonFeeds,
			"An imported calendar belongs to this unit: delete it first.", []any{u.ID}},
	} {
		refused, err := sqlflow.Value[bool](ctx, q, nil, c.query, c.args...)
		if err != nil {
			return err
		}
		if refused {
			return units.Conflict(c.reason, c.message)
		}
	}
	return nil
}

// MoveBooking moves a booking holding its dates to another free unit of
// its property (units.Store), in one write transaction with the check.
func (db *DB) MoveBooking(ctx context.Context, orgID, bookingID, unitID int64, g booking.DateGuard, now time.Time) (*booking.Booking, error) {
	return sqlflow.Get(ctx, db.tx, "move booking", func(q querier) (*booking.Booking, error) {
		b, err := findBooking(ctx, q, `id = ? AND org_id = ?`, bookingID, orgID)
		if err != nil {
			return nil, err
		}
		if err := movable(b, now); err != nil {
			return nil, err
		}
		if b.UnitID == unitID {
			return b, nil
		}
		if _, ok, err := chooseUnit(ctx, q, b.PropertyID, unitID, b.Range(), g.Guarded(b.Range()), now, b.ID, nil); err != nil || !ok {
			return nil, unavailableIf(!ok, err)
		}
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE bookings SET unit_id = ? WHERE id = ?`, unitID, b.ID); err != nil {
			return nil, err
		}
		b.UnitID = unitID
		return b, nil
	})
}

// movable reports CodeConflict ReasonNotHolding unless b holds its dates
// at now: a booking that holds none has no unit to move.
func movable(b *booking.Booking, now time.Time) error {
	if !b.HoldsDates(now) {
		return units.Conflict(units.ReasonNotHolding, "Only a booking holding its dates can move to another unit.")
	}
	return nil
}

// Links lists an organisation's links (units.Store).
func (db *DB) Links(ctx context.Context, orgID int64) ([]units.Link, error) {
	return sqlflow.Get(ctx, db.run, "links", func(q querier) ([]units.Link, error) {
		return sqlflow.All(ctx, q, scanLink, `SELECT l.whole_id, l.part_id, l.created_at
			FROM property_links l JOIN properties p ON p.id = l.whole_id
			WHERE p.org_id = ? ORDER BY l.whole_id, l.part_id`, orgID)
	})
}

func scanLink(c rowmap.Codec, s rowmap.Scanner) (*units.Link, error) {
	var l units.Link
	return &l, rowmap.Scan(s, &l.WholeID, &l.PartID, c.Time(&l.CreatedAt))
}

// Link declares part as a part of whole (units.Store), in one write
// transaction with its checks.
func (db *DB) Link(ctx context.Context, orgID, wholeID, partID int64, today civil.Date, now time.Time) (*units.Link, error) {
	if err := units.PrepareLink(wholeID, partID); err != nil {
		return nil, err
	}
	return sqlflow.Get(ctx, db.tx, "link", func(q querier) (*units.Link, error) {
		for _, id := range []int64{wholeID, partID} {
			if err := checkPropertyOfOrg(ctx, q, orgID, id); err != nil {
				return nil, err
			}
		}
		if err := linkable(ctx, q, wholeID, partID, today, now); err != nil {
			return nil, err
		}
		if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO property_links (part_id, whole_id, created_at) VALUES (?, ?, ?)`,
			partID, wholeID, now.UnixMilli()); err != nil {
			return nil, err
		}
		return &units.Link{WholeID: wholeID, PartID: partID, CreatedAt: now}, nil
	})
}

// linkable reports, through q, why part may not become a part of whole at
// now (today in the organisation's zone): units.Store.Link's refusals.
func linkable(ctx context.Context, q querier, wholeID, partID int64, today civil.Date, now time.Time) error {
	for _, c := range []struct {
		query, reason, message string
		args                   []any
	}{
		{`SELECT EXISTS (SELECT 1 FROM property_links WHERE part_id IN (?, ?) OR whole_id = ?)`, units.ReasonLinked,
			"A part belongs to one whole, and a whole is no part.", []any{partID, wholeID, partID}},
		{`SELECT count(*) > 1 FROM units WHERE property_id = ? AND retired_at IS NULL`, units.ReasonWhole,
			"A property let whole with its parts has one unit.", []any{wholeID}},
	} {
		refused, err := sqlflow.Value[bool](ctx, q, nil, c.query, c.args...)
		if err != nil {
			return err
		}
		if refused {
			return units.Conflict(c.reason, c.message)
		}
	}
	overlap, err := sqlflow.Exists(ctx, q, `WITH
		w(s, e) AS (SELECT start_date, end_date FROM blocks WHERE property_id = ?1 AND end_date > ?3
			UNION ALL SELECT check_in, check_out FROM bookings WHERE property_id = ?1 AND check_out > ?3 AND `+holdsDatesAt4+`),
		p(s, e) AS (SELECT start_date, end_date FROM blocks WHERE property_id = ?2 AND end_date > ?3
			UNION ALL SELECT check_in, check_out FROM bookings WHERE property_id = ?2 AND check_out > ?3 AND `+holdsDatesAt4+`)
		SELECT 1 FROM w JOIN p ON w.s < p.e AND p.s < w.e LIMIT 1`, wholeID, partID, today.String(), now.UnixMilli())
	switch {
	case err != nil:
		return err
	case overlap:
		return booking.Errorf(booking.CodeUnavailable, "The whole and its part hold the same nights: they cannot be linked.")
	}
	return nil
}

// Unlink removes a link (units.Store).
func (db *DB) Unlink(ctx context.Context, orgID, wholeID, partID int64) error {
	return db.tx(ctx, "unlink", func(q querier) error {
		return sqlflow.Exec(ctx, q, booking.Errorf(booking.CodeNotFound, "Link not found."), `DELETE FROM property_links
			WHERE whole_id = ? AND part_id = ? AND whole_id IN (SELECT id FROM properties WHERE org_id = ?)`,
			wholeID, partID, orgID)
	})
}

// SetUnitPrices sets or clears a unit's own nightly prices, and its
// has_prices flag with them, in one write transaction (units.Store).
func (db *DB) SetUnitPrices(ctx context.Context, orgID, unitID int64, days []booking.UnitPriceDay) (*booking.Unit, error) {
	if err := booking.CheckUnitPriceDays(days); err != nil {
		return nil, err
	}
	return sqlflow.Get(ctx, db.tx, "set unit prices", func(q querier) (*booking.Unit, error) {
		if _, err := unitOfOrg(ctx, q, orgID, unitID); err != nil {
			return nil, err
		}
		for _, d := range days {
			var err error
			if d.Price == nil {
				err = sqlflow.Exec(ctx, q, nil, `DELETE FROM unit_prices WHERE unit_id = ? AND day = ?`, unitID, d.Date.String())
			} else {
				err = sqlflow.Exec(ctx, q, nil, `INSERT INTO unit_prices (unit_id, day, price) VALUES (?, ?, ?)
					ON CONFLICT (unit_id, day) DO UPDATE SET price = excluded.price`, unitID, d.Date.String(), d.Price.String())
			}
			if err != nil {
				return nil, err
			}
		}
		return sqlflow.One(ctx, q, rowmap.ScanUnit, rowmap.UnitNotFound(), `UPDATE units
			SET has_prices = EXISTS (SELECT 1 FROM unit_prices WHERE unit_id = ?1)
			WHERE id = ?1 RETURNING `+rowmap.UnitColumns, unitID)
	})
}

// UnitPriceDays lists a unit's own prices of [from, to) (units.Store).
func (db *DB) UnitPriceDays(ctx context.Context, orgID, unitID int64, from, to civil.Date) ([]booking.UnitPrice, error) {
	return sqlflow.Get(ctx, db.readTx, "unit prices", func(q querier) ([]booking.UnitPrice, error) {
		if _, err := unitOfOrg(ctx, q, orgID, unitID); err != nil {
			return nil, err
		}
		return sqlflow.All(ctx, q, rowmap.ScanUnitPrice, `SELECT `+rowmap.UnitPriceColumns+` FROM unit_prices
			WHERE unit_id = ? AND day >= ? AND day < ? ORDER BY day`, unitID, from.String(), to.String())
	})
}

// UnitPrices lists the own prices of a property's units over [from, to),
// by date then unit (booking.UnitPriceReader).
func (db *DB) UnitPrices(ctx context.Context, propertyID int64, from, to civil.Date) ([]booking.UnitPrice, error) {
	return sqlflow.Get(ctx, db.hotRun, "unit prices", func(q querier) ([]booking.UnitPrice, error) {
		return sqlflow.All(ctx, q, rowmap.ScanUnitPrice, `SELECT p.unit_id, p.day, p.price
			FROM units u JOIN unit_prices p ON p.unit_id = u.id
			WHERE u.property_id = ? AND p.day >= ? AND p.day < ? ORDER BY p.day, p.unit_id`, propertyID, from.String(), to.String())
	})
}
