package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// ApplyCalendar applies a host's calendar change in one write transaction:
// the dates' days merged with the change, the rate-plan overrides the
// change takes over removed, and closing refused over a booking.
func (db *DB) ApplyCalendar(ctx context.Context, orgID, propertyID int64, c booking.CalendarChange, now time.Time) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return db.inWriteTx(ctx, "apply calendar", func(tx *sql.Tx) error {
		p, err := rowmap.ScanProperty(codec{}, tx.QueryRowContext(ctx, `SELECT `+rowmap.PropertyColumns+` FROM properties WHERE id = ? AND org_id = ?`, propertyID, orgID))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return rowmap.PropertyNotFound()
		case err != nil:
			return fmt.Errorf("sqlite: apply calendar: %w", err)
		}
		if c.Closed != nil && *c.Closed {
			taken, err := bookingOverlaps(ctx, tx, propertyID, civil.Range{Start: c.From, End: c.To}, now, 0)
			if err != nil {
				return fmt.Errorf("sqlite: apply calendar: %w", err)
			}
			if taken {
				return booking.Errorf(booking.CodeUnavailable, "A booking holds some of these dates.")
			}
		}
		stored, err := calendarDaysIn(ctx, tx, propertyID, c.From, c.To)
		if err != nil {
			return fmt.Errorf("sqlite: apply calendar: %w", err)
		}
		days := c.Days(stored)
		if err := booking.CheckCalendarDays(days); err != nil {
			return err
		}
		if err := writeCalendarDays(ctx, tx, propertyID, days); err != nil {
			return err
		}
		if kept, dropped := c.OverridesWithout(p.Rates.Overrides); dropped {
			p.Rates.Overrides = kept
			rates, err := toJSON(p.Rates)
			if err != nil {
				return fmt.Errorf("sqlite: apply calendar: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE properties SET rates = ? WHERE id = ?`, rates, propertyID); err != nil {
				return fmt.Errorf("sqlite: apply calendar: %w", err)
			}
		}
		return nil
	})
}

// UpdatePropertyFields replaces a property's row, leaving its blocks.
func (db *DB) UpdatePropertyFields(ctx context.Context, p *booking.Property) error {
	if err := p.Validate(); err != nil {
		return err
	}
	args, err := rowmap.PropertyArgs(codec{}, p)
	if err != nil {
		return fmt.Errorf("sqlite: update property fields: %w", err)
	}
	return db.inWriteTx(ctx, "update property fields", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE properties SET name = ?, description = ?,
			photos = ?, city = ?, country = ?, max_guests = ?, bedrooms = ?, min_stay_nights = ?,
			max_stay_nights = ?, active = ?, rates = ?, fees = ?, tax = ?
			WHERE id = ? AND org_id = ?`, append(args, p.ID, p.OrgID)...)
		if err != nil {
			return fmt.Errorf("sqlite: update property fields: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("sqlite: update property fields: %w", err)
		} else if n == 0 {
			return rowmap.PropertyNotFound()
		}
		if p.Blocks, err = blocksOf(ctx, tx, p.ID); err != nil {
			return fmt.Errorf("sqlite: update property fields: %w", err)
		}
		return nil
	})
}

// BookingsPage lists the bookings q selects, newest first.
func (db *DB) BookingsPage(ctx context.Context, orgID int64, q booking.BookingQuery) ([]booking.Booking, error) {
	query := `SELECT ` + bookingColumns + ` FROM bookings WHERE org_id = ?`
	args := []any{orgID}
	if len(q.Statuses) > 0 {
		query += ` AND status IN (?` + strings.Repeat(`, ?`, len(q.Statuses)-1) + `)`
		for _, s := range q.Statuses {
			args = append(args, string(s))
		}
	}
	if q.PropertyID != 0 {
		query += ` AND property_id = ?`
		args = append(args, q.PropertyID)
	}
	if !q.From.IsZero() {
		query += ` AND check_out > ?`
		args = append(args, q.From.String())
	}
	if !q.To.IsZero() {
		query += ` AND check_in < ?`
		args = append(args, q.To.String())
	}
	if q.Before > 0 {
		query += ` AND id < ?`
		args = append(args, q.Before)
	}
	rows, err := db.read.QueryContext(ctx, query+` ORDER BY id DESC LIMIT ?`, append(args, q.PageSize())...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: bookings page: %w", err)
	}
	list, err := scanBookings(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlite: bookings page: %w", err)
	}
	return list, nil
}
