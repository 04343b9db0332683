package sqlite

import (
	"context"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// SetCalendarDays replaces the settings of each date given, in one
// transaction; an empty day deletes its row.
func (db *DB) SetCalendarDays(ctx context.Context, propertyID int64, days []booking.CalendarDay) error {
	if err := booking.CheckCalendarDays(days); err != nil {
		return err
	}
	return db.tx(ctx, "set calendar days", func(q querier) error {
		found, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM properties WHERE id = ?`, propertyID)
		switch {
		case err != nil:
			return err
		case !found:
			return rowmap.PropertyNotFound()
		}
		return writeCalendarDays(ctx, q, propertyID, days)
	})
}

// CalendarDays lists the settings of [from, to), by date.
func (db *DB) CalendarDays(ctx context.Context, propertyID int64, from, to civil.Date) ([]booking.CalendarDay, error) {
	return sqlflow.Get(ctx, db.hotRun, "calendar days", func(q querier) ([]booking.CalendarDay, error) {
		return calendarDaysIn(ctx, q, propertyID, from, to)
	})
}

// calendarDaysIn reads the settings of [from, to) through q.
func calendarDaysIn(ctx context.Context, q querier, propertyID int64, from, to civil.Date) ([]booking.CalendarDay, error) {
	return sqlflow.All(ctx, q, rowmap.ScanCalendarDay, qCalendarDays, propertyID, from.String(), to.String())
}

// writeCalendarDays stores days in q (a write transaction); an empty day
// deletes its row.
func writeCalendarDays(ctx context.Context, q querier, propertyID int64, days []booking.CalendarDay) error {
	for _, d := range days {
		if d.IsEmpty() {
			if err := sqlflow.Exec(ctx, q, nil, `DELETE FROM calendar_days WHERE property_id = ? AND day = ?`,
				propertyID, d.Date.String()); err != nil {
				return err
			}
			continue
		}
		var price any
		if d.Price != nil {
			price = d.Price.String()
		}
		if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO calendar_days (property_id, `+rowmap.CalendarDayColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (property_id, day) DO UPDATE SET price = excluded.price, closed = excluded.closed,
			min_stay_nights = excluded.min_stay_nights, max_stay_nights = excluded.max_stay_nights,
			closed_to_arrival = excluded.closed_to_arrival, closed_to_departure = excluded.closed_to_departure`,
			propertyID, d.Date.String(), price, d.Closed, rowmap.NullInt(d.MinStayNights), rowmap.NullInt(d.MaxStayNights),
			d.ClosedToArrival, d.ClosedToDeparture); err != nil {
			return err
		}
	}
	return nil
}

var _ booking.OrgCalendarStore = (*DB)(nil)

// OrgCalendarDays returns the per-day settings of every property of an
// organisation over [from, to) in one query; see booking.OrgCalendarStore.
// CROSS JOIN keeps SQLite's order: the organisation's properties, then
// each one's days by its primary key.
func (db *DB) OrgCalendarDays(ctx context.Context, orgID int64, from, to civil.Date) ([]booking.PropertyCalendarDay, error) {
	return sqlflow.Get(ctx, db.hotRun, "org calendar days", func(q querier) ([]booking.PropertyCalendarDay, error) {
		return sqlflow.All(ctx, q, rowmap.ScanPropertyCalendarDay, `SELECT d.property_id, `+orgCalendarDayColumns+`
			FROM properties p CROSS JOIN calendar_days d ON d.property_id = p.id
			WHERE p.org_id = ? AND d.day >= ? AND d.day < ? ORDER BY 1, 2`, orgID, from.String(), to.String())
	})
}

// orgCalendarDayColumns are rowmap.CalendarDayColumns of calendar_days d.
const orgCalendarDayColumns = `d.day, d.price, d.closed, d.min_stay_nights, d.max_stay_nights,
	d.closed_to_arrival, d.closed_to_departure`
