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
