package postgres

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
// writes lock the rows of the properties concerned first, as checkouts
// do, so that they take turns with them on every replica.

var _ units.Store = (*DB)(nil)

// unitOfOrg reads a unit of one of orgID's properties. Errors:
// CodeNotFound.
func unitOfOrg(ctx context.Context, q querier, orgID, unitID int64) (*booking.Unit, error) {
	return sqlflow.One(ctx, q, rowmap.ScanUnit, rowmap.UnitNotFound(), `SELECT `+rowmap.UnitColumns+` FROM units
		WHERE id = $1 AND property_id IN (SELECT id FROM properties WHERE org_id = $2)`, unitID, orgID)
}

// Units lists a property's units, retired ones included (units.Store).
func (db *DB) Units(ctx context.Context, orgID, propertyID int64) ([]booking.Unit, error) {
	return sqlflow.Get(ctx, db.readTx, "units", func(q querier) ([]booking.Unit, error) {
		found, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM properties WHERE id = $1 AND org_id = $2`, propertyID, orgID)
		switch {
		case err != nil:
			return nil, err
		case !found:
			return nil, rowmap.PropertyNotFound()
		}
		return sqlflow.All(ctx, q, rowmap.ScanUnit, `SELECT `+rowmap.UnitColumns+` FROM units
			WHERE property_id = $1 ORDER BY position, id`, propertyID)
	})
}

// AddUnit adds a unit to a property after its others (units.Store), under
// the property's lock.
func (db *DB) AddUnit(ctx context.Context, orgID, propertyID int64, u *booking.Unit, now time.Time) error {
	name, err := units.PrepareUnit(u.Name)
	if err != nil {
		return err
	}
	added, err := sqlflow.Get(ctx, db.tx, "add unit", func(q querier) (*booking.Unit, error) {
		if err := lockProperty(ctx, q, orgID, propertyID); err != nil {
			return nil, err
		}
		whole, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM property_links WHERE whole_id = $1`, propertyID)
		switch {
		case err != nil:
			return nil, err
		case whole:
			return nil, units.Conflict(units.ReasonWhole, "A property let whole with its parts has one unit.")
		}
		n, err := sqlflow.Value[int](ctx, q, nil, `SELECT count(*) FROM units WHERE property_id = $1 AND retired_at IS NULL`, propertyID)
		switch {
		case err != nil:
			return nil, err
		case n >= booking.MaxUnits:
			return nil, &booking.Error{Code: booking.CodeInvalid, Message: "The property has as many units as it may have.",
				Fields: booking.FieldErrors{"units": {"too_many"}}}
		}
		return sqlflow.One(ctx, q, rowmap.ScanUnit, nil, `INSERT INTO units (property_id, name, position, created_at)
			SELECT $1, $2, coalesce(max(position), 0) + 1, $3 FROM units WHERE property_id = $1
			RETURNING `+rowmap.UnitColumns, propertyID, name, now)
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
		return sqlflow.One(ctx, q, rowmap.ScanUnit, rowmap.UnitNotFound(), `UPDATE units SET name = $1
			WHERE id = $2 AND property_id IN (SELECT id FROM properties WHERE org_id = $3)
			RETURNING `+rowmap.UnitColumns, name, unitID, orgID)
	})
}

// RetireUnit retires a unit that holds nothing ahead (units.Store), under
// its property's lock, so that no checkout gives it a stay meanwhile.
func (db *DB) RetireUnit(ctx context.Context, orgID, unitID int64, today civil.Date, now time.Time) (*booking.Unit, error) {
	return sqlflow.Get(ctx, db.tx, "retire unit", func(q querier) (*booking.Unit, error) {
		u, err := unitOfOrg(ctx, q, orgID, unitID)
		if err != nil {
			return nil, err
		}
		if err := lockProperty(ctx, q, orgID, u.PropertyID); err != nil {
			return nil, err
		}
		if u, err = unitOfOrg(ctx, q, orgID, unitID); err != nil {
			return nil, err
		}
		if !u.Active() {
			return nil, units.Conflict(units.ReasonRetired, "This unit is retired already.")
		}
		for _, c := range []struct {
			query, reason, message string
			args                   []any
		}{
			{`SELECT count(*) <= 1 FROM units WHERE property_id = $1 AND retired_at IS NULL`, units.ReasonLastUnit,
				"A property keeps one unit at least.", []any{u.PropertyID}},
			{`SELECT EXISTS (SELECT 1 FROM bookings WHERE unit_id = $1 AND check_out > $2 AND ` + holdsDates(3) + `)`, units.ReasonFutureStays,
				"This unit holds stays to come: move or cancel them first.", []any{u.ID, rowmap.Date(today), now}},
			{`SELECT EXISTS (SELECT 1 FROM blocks WHERE unit_id = $1 AND end_date > $2)`, units.ReasonFutureBlocks,
				"This unit has blocks to come: remove them first.", []any{u.ID, rowmap.Date(today)}},
			{`SELECT EXISTS (SELECT 1 FROM ical_feeds WHERE unit_id = $1)`, units.ReasonFeeds,
				"An imported calendar belongs to this unit: delete it first.", []any{u.ID}},
		} {
			refused, err := sqlflow.Value[bool](ctx, q, nil, c.query, c.args...)
			if err != nil {
				return nil, err
			}
			if refused {
				return nil, units.Conflict(c.reason, c.message)
			}
		}
		return sqlflow.One(ctx, q, rowmap.ScanUnit, rowmap.UnitNotFound(), `UPDATE units SET retired_at = $1
			WHERE id = $2 RETURNING `+rowmap.UnitColumns, now, unitID)
	})
}

// MoveBooking moves a booking holding its dates to another free unit of
// its property (units.Store): under the property's lock (then the
// booking's, the order of Transition), with the exclusion constraint as
// the last guard.
func (db *DB) MoveBooking(ctx context.Context, orgID, bookingID, unitID int64, g booking.DateGuard, now time.Time) (*booking.Booking, error) {
	return sqlflow.Get(ctx, db.tx, "move booking", func(q querier) (*booking.Booking, error) {
		propertyID, err := sqlflow.Value[int64](ctx, q, bookingNotFound(), `SELECT property_id FROM bookings
			WHERE id = $1 AND org_id = $2`, bookingID, orgID)
		if err != nil {
			return nil, err
		}
		if err := lockProperty(ctx, q, orgID, propertyID); err != nil {
			return nil, err
		}
		if _, err := lockBooking(ctx, q, bookingID); err != nil {
			return nil, err
		}
		b, err := findBooking(ctx, q, `id = $1`, bookingID)
		if err != nil {
			return nil, err
		}
		if !b.HoldsDates(now) {
			return nil, units.Conflict(units.ReasonNotHolding, "Only a booking holding its dates can move to another unit.")
		}
		if b.UnitID == unitID {
			return b, nil
		}
		found, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM units WHERE id = $1 AND property_id = $2 AND retired_at IS NULL`,
			unitID, b.PropertyID)
		switch {
		case err != nil:
			return nil, err
		case !found:
			return nil, rowmap.UnitNotFound()
		}
		guarded := g.Guarded(b.Range())
		chosen, err := sqlflow.Value[*int64](ctx, q, nil, `SELECT staykit_best_unit($1, $2, $3, $4, $5, $6, $7, $8, NULL)`,
			b.PropertyID, unitID, rowmap.Date(b.CheckIn), rowmap.Date(b.CheckOut), rowmap.Date(guarded.Start),
			rowmap.Date(guarded.End), now, b.ID)
		switch {
		case err != nil:
			return nil, err
		case chosen == nil:
			return nil, unavailable()
		}
		// A lapsed hold still claiming the unit's nights lets go of them.
		if err := releaseLapsed(ctx, q, b.PropertyID, b.Range(), now, b.ID); err != nil {
			return nil, err
		}
		err = sqlflow.Exec(ctx, q, nil, `UPDATE bookings SET unit_id = $1 WHERE id = $2`, unitID, b.ID)
		if sqlState(err) == exclusionViolation {
			return nil, unavailable()
		}
		if err != nil {
			return nil, err
		}
		b.UnitID = unitID
		return b, nil
	})
}

// Links lists an organisation's links (units.Store).
func (db *DB) Links(ctx context.Context, orgID int64) ([]units.Link, error) {
	return sqlflow.Get(ctx, db.run, "links", func(q querier) ([]units.Link, error) {
		return sqlflow.All(ctx, q, func(c rowmap.Codec, s rowmap.Scanner) (*units.Link, error) {
			var l units.Link
			return &l, rowmap.Scan(s, &l.WholeID, &l.PartID, c.Time(&l.CreatedAt))
		}, `SELECT l.whole_id, l.part_id, l.created_at FROM property_links l JOIN properties p ON p.id = l.whole_id
			WHERE p.org_id = $1 ORDER BY l.whole_id, l.part_id`, orgID)
	})
}

// Link declares part as a part of whole (units.Store): both properties'
// rows are locked, in the order of their IDs, before the checks, so that
// their checkouts wait for the link and find it.
func (db *DB) Link(ctx context.Context, orgID, wholeID, partID int64, today civil.Date, now time.Time) (*units.Link, error) {
	if err := units.PrepareLink(wholeID, partID); err != nil {
		return nil, err
	}
	return sqlflow.Get(ctx, db.tx, "link", func(q querier) (*units.Link, error) {
		n, err := sqlflow.Value[int](ctx, q, nil, `SELECT count(*) FROM (SELECT 1 FROM properties
			WHERE id IN ($1, $2) AND org_id = $3 ORDER BY id FOR NO KEY UPDATE) locked`, wholeID, partID, orgID)
		switch {
		case err != nil:
			return nil, err
		case n != 2:
			return nil, rowmap.PropertyNotFound()
		}
		for _, c := range []struct {
			query, reason, message string
			args                   []any
		}{
			{`SELECT EXISTS (SELECT 1 FROM property_links WHERE part_id IN ($1, $2) OR whole_id = $1)`, units.ReasonLinked,
				"A part belongs to one whole, and a whole is no part.", []any{partID, wholeID}},
			{`SELECT count(*) > 1 FROM units WHERE property_id = $1 AND retired_at IS NULL`, units.ReasonWhole,
				"A property let whole with its parts has one unit.", []any{wholeID}},
		} {
			refused, err := sqlflow.Value[bool](ctx, q, nil, c.query, c.args...)
			if err != nil {
				return nil, err
			}
			if refused {
				return nil, units.Conflict(c.reason, c.message)
			}
		}
		overlap, err := sqlflow.Exists(ctx, q, `WITH
			w(s, e) AS (SELECT start_date, end_date FROM blocks WHERE property_id = $1 AND end_date > $3
				UNION ALL SELECT check_in, check_out FROM bookings WHERE property_id = $1 AND check_out > $3 AND `+holdsDates(4)+`),
			p(s, e) AS (SELECT start_date, end_date FROM blocks WHERE property_id = $2 AND end_date > $3
				UNION ALL SELECT check_in, check_out FROM bookings WHERE property_id = $2 AND check_out > $3 AND `+holdsDates(4)+`)
			SELECT 1 FROM w JOIN p ON w.s < p.e AND p.s < w.e LIMIT 1`, wholeID, partID, rowmap.Date(today), now)
		switch {
		case err != nil:
			return nil, err
		case overlap:
			return nil, booking.Errorf(booking.CodeUnavailable, "The whole and its part hold the same nights: they cannot be linked.")
		}
		if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO property_links (part_id, whole_id, created_at) VALUES ($1, $2, $3)`,
			partID, wholeID, now); err != nil {
			return nil, err
		}
		return &units.Link{WholeID: wholeID, PartID: partID, CreatedAt: now}, nil
	})
}

// Unlink removes a link (units.Store), under both properties' locks.
func (db *DB) Unlink(ctx context.Context, orgID, wholeID, partID int64) error {
	return db.tx(ctx, "unlink", func(q querier) error {
		if _, err := q.Exec(ctx, `SELECT 1 FROM properties WHERE id IN ($1, $2) AND org_id = $3 ORDER BY id FOR NO KEY UPDATE`,
			wholeID, partID, orgID); err != nil {
			return err
		}
		return sqlflow.Exec(ctx, q, booking.Errorf(booking.CodeNotFound, "Link not found."), `DELETE FROM property_links
			WHERE whole_id = $1 AND part_id = $2 AND whole_id IN (SELECT id FROM properties WHERE org_id = $3)`,
			wholeID, partID, orgID)
	})
}

// SetUnitPrices sets or clears a unit's own nightly prices, and its
// has_prices flag with them, in one transaction (units.Store).
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
				err = sqlflow.Exec(ctx, q, nil, `DELETE FROM unit_prices WHERE unit_id = $1 AND day = $2`, unitID, rowmap.Date(d.Date))
			} else {
				err = sqlflow.Exec(ctx, q, nil, `INSERT INTO unit_prices (unit_id, day, price) VALUES ($1, $2, $3)
					ON CONFLICT (unit_id, day) DO UPDATE SET price = excluded.price`, unitID, rowmap.Date(d.Date), d.Price.String())
			}
			if err != nil {
				return nil, err
			}
		}
		return sqlflow.One(ctx, q, rowmap.ScanUnit, rowmap.UnitNotFound(), `UPDATE units
			SET has_prices = EXISTS (SELECT 1 FROM unit_prices WHERE unit_id = $1)
			WHERE id = $1 RETURNING `+rowmap.UnitColumns, unitID)
	})
}

// UnitPriceDays lists a unit's own prices of [from, to) (units.Store).
func (db *DB) UnitPriceDays(ctx context.Context, orgID, unitID int64, from, to civil.Date) ([]booking.UnitPrice, error) {
	return sqlflow.Get(ctx, db.readTx, "unit prices", func(q querier) ([]booking.UnitPrice, error) {
		if _, err := unitOfOrg(ctx, q, orgID, unitID); err != nil {
			return nil, err
		}
		return sqlflow.All(ctx, q, rowmap.ScanUnitPrice, `SELECT `+rowmap.UnitPriceColumns+` FROM unit_prices
			WHERE unit_id = $1 AND day >= $2 AND day < $3 ORDER BY day`, unitID, rowmap.Date(from), rowmap.Date(to))
	})
}

// UnitPrices lists the own prices of a property's units over [from, to),
// by date then unit (booking.UnitPriceReader).
func (db *DB) UnitPrices(ctx context.Context, propertyID int64, from, to civil.Date) ([]booking.UnitPrice, error) {
	return sqlflow.Get(ctx, db.run, "unit prices", func(q querier) ([]booking.UnitPrice, error) {
		return sqlflow.All(ctx, q, rowmap.ScanUnitPrice, `SELECT p.unit_id, p.day, p.price
			FROM units u JOIN unit_prices p ON p.unit_id = u.id
			WHERE u.property_id = $1 AND p.day >= $2 AND p.day < $3 ORDER BY p.day, p.unit_id`,
			propertyID, rowmap.Date(from), rowmap.Date(to))
	})
}
