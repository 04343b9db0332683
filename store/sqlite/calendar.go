package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// SetCalendarDays replaces the settings of each date given, in one
// transaction; an empty day deletes its row.
func (db *DB) SetCalendarDays(ctx context.Context, propertyID int64, days []booking.CalendarDay) error {
	if err := booking.CheckCalendarDays(days); err != nil {
		return err
	}
	return db.inWriteTx(ctx, "set calendar days", func(tx *sql.Tx) error {
		found, err := exists(ctx, tx, `SELECT 1 FROM properties WHERE id = ?`, propertyID)
		if err != nil {
			return fmt.Errorf("sqlite: set calendar days: %w", err)
		}
		if !found {
			return rowmap.PropertyNotFound()
		}
		return writeCalendarDays(ctx, tx, propertyID, days)
	})
}

// CalendarDays lists the settings of [from, to), by date.
func (db *DB) CalendarDays(ctx context.Context, propertyID int64, from, to civil.Date) ([]booking.CalendarDay, error) {
	return calendarDaysIn(ctx, db.reads(), propertyID, from, to)
}

// calendarDaysIn reads the settings of [from, to) through q.
func calendarDaysIn(ctx context.Context, q querier, propertyID int64, from, to civil.Date) ([]booking.CalendarDay, error) {
	rows, err := q.QueryContext(ctx, qCalendarDays, propertyID, from.String(), to.String())
	if err != nil {
		return nil, fmt.Errorf("sqlite: calendar days: %w", err)
	}
	defer rows.Close()
	var list []booking.CalendarDay
	for rows.Next() {
		var (
			d                booking.CalendarDay
			day              string
			price            sql.NullString
			minStay, maxStay sql.NullInt64
		)
		if err := rows.Scan(&day, &price, &d.Closed, &minStay, &maxStay, &d.ClosedToArrival, &d.ClosedToDeparture); err != nil {
			return nil, fmt.Errorf("sqlite: calendar days: %w", err)
		}
		if d.Date, err = civil.Parse(day); err != nil {
			return nil, fmt.Errorf("sqlite: calendar day %q: %w", day, err)
		}
		if price.Valid {
			p, err := decimal.NewFromString(price.String)
			if err != nil {
				return nil, fmt.Errorf("sqlite: calendar day %s price: %w", day, err)
			}
			d.Price = &p
		}
		d.MinStayNights, d.MaxStayNights = intPtr(minStay), intPtr(maxStay)
		list = append(list, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: calendar days: %w", err)
	}
	return list, nil
}

// writeCalendarDays stores days in q (a write transaction); an empty day
// deletes its row.
func writeCalendarDays(ctx context.Context, q querier, propertyID int64, days []booking.CalendarDay) error {
	for _, d := range days {
		if d.IsEmpty() {
			if _, err := q.ExecContext(ctx, `DELETE FROM calendar_days WHERE property_id = ? AND day = ?`, propertyID, d.Date.String()); err != nil {
				return fmt.Errorf("sqlite: clear calendar day %s: %w", d.Date, err)
			}
			continue
		}
		var price any
		if d.Price != nil {
			price = d.Price.String()
		}
		_, err := q.ExecContext(ctx, `INSERT INTO calendar_days (property_id, day, price, closed, min_stay_nights,
			max_stay_nights, closed_to_arrival, closed_to_departure) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (property_id, day) DO UPDATE SET price = excluded.price, closed = excluded.closed,
			min_stay_nights = excluded.min_stay_nights, max_stay_nights = excluded.max_stay_nights,
			closed_to_arrival = excluded.closed_to_arrival, closed_to_departure = excluded.closed_to_departure`,
			propertyID, d.Date.String(), price, d.Closed, nullInt(d.MinStayNights), nullInt(d.MaxStayNights),
			d.ClosedToArrival, d.ClosedToDeparture)
		if err != nil {
			return fmt.Errorf("sqlite: set calendar day %s: %w", d.Date, err)
		}
	}
	return nil
}
