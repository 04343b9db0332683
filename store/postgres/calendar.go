package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// SetCalendarDays replaces the settings of each date given, in one
// transaction; an empty day deletes its row. The property's row is locked
// first, as by CreateBooking and ApplyCalendar, so that closing nights and
// a checkout over them take turns.
func (db *DB) SetCalendarDays(ctx context.Context, propertyID int64, days []booking.CalendarDay) error {
	if err := booking.CheckCalendarDays(days); err != nil {
		return err
	}
	return db.inTx(ctx, "set calendar days", func(tx pgx.Tx) error {
		if err := lockProperty(ctx, tx, 0, propertyID); err != nil {
			return err
		}
		return writeCalendarDays(ctx, tx, propertyID, days)
	})
}

// CalendarDays lists the settings of [from, to), by date.
func (db *DB) CalendarDays(ctx context.Context, propertyID int64, from, to civil.Date) ([]booking.CalendarDay, error) {
	return calendarDaysIn(ctx, db.pool, propertyID, from, to)
}

// calendarDaysIn reads the settings of [from, to) through q.
func calendarDaysIn(ctx context.Context, q querier, propertyID int64, from, to civil.Date) ([]booking.CalendarDay, error) {
	rows, err := q.Query(ctx, `SELECT day, price, closed, min_stay_nights, max_stay_nights,
		closed_to_arrival, closed_to_departure FROM calendar_days
		WHERE property_id = $1 AND day >= $2 AND day < $3 ORDER BY day`, propertyID, date(from), date(to))
	if err != nil {
		return nil, fmt.Errorf("postgres: calendar days: %w", err)
	}
	defer rows.Close()
	var list []booking.CalendarDay
	for rows.Next() {
		var (
			d                booking.CalendarDay
			day              pgtype.Date
			price            pgtype.Text
			minStay, maxStay pgtype.Int8
		)
		if err := rows.Scan(&day, &price, &d.Closed, &minStay, &maxStay, &d.ClosedToArrival, &d.ClosedToDeparture); err != nil {
			return nil, fmt.Errorf("postgres: calendar days: %w", err)
		}
		d.Date = fromDate(day)
		if price.Valid {
			p, err := decimal.NewFromString(price.String)
			if err != nil {
				return nil, fmt.Errorf("postgres: calendar day %s price: %w", d.Date, err)
			}
			d.Price = &p
		}
		d.MinStayNights, d.MaxStayNights = intPtr(minStay), intPtr(maxStay)
		list = append(list, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: calendar days: %w", err)
	}
	return list, nil
}

// writeCalendarDays stores days in q (a transaction); an empty day
// deletes its row.
func writeCalendarDays(ctx context.Context, q querier, propertyID int64, days []booking.CalendarDay) error {
	for _, d := range days {
		if d.IsEmpty() {
			if _, err := q.Exec(ctx, `DELETE FROM calendar_days WHERE property_id = $1 AND day = $2`, propertyID, date(d.Date)); err != nil {
				return fmt.Errorf("postgres: clear calendar day %s: %w", d.Date, err)
			}
			continue
		}
		var price any
		if d.Price != nil {
			price = d.Price.String()
		}
		_, err := q.Exec(ctx, `INSERT INTO calendar_days (property_id, day, price, closed, min_stay_nights,
			max_stay_nights, closed_to_arrival, closed_to_departure) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (property_id, day) DO UPDATE SET price = excluded.price, closed = excluded.closed,
			min_stay_nights = excluded.min_stay_nights, max_stay_nights = excluded.max_stay_nights,
			closed_to_arrival = excluded.closed_to_arrival, closed_to_departure = excluded.closed_to_departure`,
			propertyID, date(d.Date), price, d.Closed, nullInt(d.MinStayNights), nullInt(d.MaxStayNights),
			d.ClosedToArrival, d.ClosedToDeparture)
		if err != nil {
			return fmt.Errorf("postgres: set calendar day %s: %w", d.Date, err)
		}
	}
	return nil
}
