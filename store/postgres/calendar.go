package postgres

import (
	"context"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// SetCalendarDays replaces the settings of each date given, in one
// transaction; an empty day deletes its row. The property's row is locked
// first, as by CreateBooking and ApplyCalendar, so that closing nights and
// a checkout over them take turns.
func (db *DB) SetCalendarDays(ctx context.Context, propertyID int64, days []booking.CalendarDay) error {
	if err := booking.CheckCalendarDays(days); err != nil {
		return err
	}
	return db.tx(ctx, "set calendar days", func(q querier) error {
		if err := lockProperty(ctx, q, 0, propertyID); err != nil {
			return err
		}
		return writeCalendarDays(ctx, q, propertyID, days)
	})
}

// CalendarDays lists the settings of [from, to), by date.
func (db *DB) CalendarDays(ctx context.Context, propertyID int64, from, to civil.Date) ([]booking.CalendarDay, error) {
	return sqlflow.Get(ctx, db.run, "calendar days", func(q querier) ([]booking.CalendarDay, error) {
		return calendarDaysIn(ctx, q, propertyID, from, to)
	})
}

// calendarDaysIn reads the settings of [from, to) through q.
func calendarDaysIn(ctx context.Context, q querier, propertyID int64, from, to civil.Date) ([]booking.CalendarDay, error) {
	return sqlflow.All(ctx, q, rowmap.ScanCalendarDay, `SELECT `+rowmap.CalendarDayColumns+` FROM calendar_days
		WHERE property_id = $1 AND day >= $2 AND day < $3 ORDER BY day`, propertyID, rowmap.Date(from), rowmap.Date(to))
}

// writeCalendarDays stores days in q (a transaction); an empty day
// deletes its row.
func writeCalendarDays(ctx context.Context, q querier, propertyID int64, days []booking.CalendarDay) error {
	for _, d := range days {
		if d.IsEmpty() {
			if err := sqlflow.Exec(ctx, q, nil, `DELETE FROM calendar_days WHERE property_id = $1 AND day = $2`,
				propertyID, rowmap.Date(d.Date)); err != nil {
				return err
			}
			continue
		}
		var price any
		if d.Price != nil {
			price = d.Price.String()
		}
		if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO calendar_days (property_id, `+rowmap.CalendarDayColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (property_id, day) DO UPDATE SET price = excluded.price, closed = excluded.closed,
			min_stay_nights = excluded.min_stay_nights, max_stay_nights = excluded.max_stay_nights,
			closed_to_arrival = excluded.closed_to_arrival, closed_to_departure = excluded.closed_to_departure`,
			propertyID, rowmap.Date(d.Date), price, d.Closed, rowmap.NullInt(d.MinStayNights), rowmap.NullInt(d.MaxStayNights),
			d.ClosedToArrival, d.ClosedToDeparture); err != nil {
			return err
		}
	}
	return nil
}

var _ booking.OrgCalendarStore = (*DB)(nil)

// OrgCalendarDays returns the per-day settings of every property of an
// organisation over [from, to) in one query; see booking.OrgCalendarStore.
func (db *DB) OrgCalendarDays(ctx context.Context, orgID int64, from, to civil.Date) ([]booking.PropertyCalendarDay, error) {
	return sqlflow.Get(ctx, db.run, "org calendar days", func(q querier) ([]booking.PropertyCalendarDay, error) {
		return sqlflow.All(ctx, q, rowmap.ScanPropertyCalendarDay, `SELECT d.property_id, d.day, d.price, d.closed,
				d.min_stay_nights, d.max_stay_nights, d.closed_to_arrival, d.closed_to_departure
			FROM properties p JOIN calendar_days d ON d.property_id = p.id
			WHERE p.org_id = $1 AND d.day >= $2 AND d.day < $3 ORDER BY 1, 2`, orgID, rowmap.Date(from), rowmap.Date(to))
	})
}
