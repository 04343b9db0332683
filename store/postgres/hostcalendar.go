package postgres

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// ApplyCalendar applies a host's calendar change in one transaction, the
// property row locked as by AddBlock so that it takes turns with
// checkouts: the dates' days merged with the change, the rate-plan
// overrides the change takes over removed, and closing refused over a
// booking.
func (db *DB) ApplyCalendar(ctx context.Context, orgID, propertyID int64, c booking.CalendarChange, now time.Time) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return db.inTx(ctx, "apply calendar", func(tx pgx.Tx) error {
		if err := lockProperty(ctx, tx, orgID, propertyID); err != nil {
			return err
		}
		p, err := rowmap.ScanProperty(codec{}, tx.QueryRow(ctx, `SELECT `+rowmap.PropertyColumns+` FROM properties WHERE id = $1`, propertyID))
		if err != nil {
			return fmt.Errorf("postgres: apply calendar: %w", err)
		}
		if c.Closed != nil && *c.Closed {
			taken, err := bookingOverlaps(ctx, tx, propertyID, civil.Range{Start: c.From, End: c.To}, now, 0)
			if err != nil {
				return fmt.Errorf("postgres: apply calendar: %w", err)
			}
			if taken {
				return booking.Errorf(booking.CodeUnavailable, "A booking holds some of these dates.")
			}
		}
		stored, err := calendarDaysIn(ctx, tx, propertyID, c.From, c.To)
		if err != nil {
			return fmt.Errorf("postgres: apply calendar: %w", err)
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
				return fmt.Errorf("postgres: apply calendar: %w", err)
			}
			if _, err := tx.Exec(ctx, `UPDATE properties SET rates = $2 WHERE id = $1`, propertyID, rates); err != nil {
				return fmt.Errorf("postgres: apply calendar: %w", err)
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
		return fmt.Errorf("postgres: update property fields: %w", err)
	}
	return db.inTx(ctx, "update property fields", func(tx pgx.Tx) error {
		n := len(args)
		tag, err := tx.Exec(ctx, `UPDATE properties SET `+assignments(rowmap.PropertyDataColumns, 1)+`
			WHERE id = $`+strconv.Itoa(n+1)+` AND org_id = $`+strconv.Itoa(n+2), append(args, p.ID, p.OrgID)...)
		if err != nil {
			return fmt.Errorf("postgres: update property fields: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return rowmap.PropertyNotFound()
		}
		if p.Blocks, err = blocksOf(ctx, tx, p.ID); err != nil {
			return fmt.Errorf("postgres: update property fields: %w", err)
		}
		return nil
	})
}

// BookingsPage lists the bookings q selects, newest first.
func (db *DB) BookingsPage(ctx context.Context, orgID int64, q booking.BookingQuery) ([]booking.Booking, error) {
	query := `SELECT ` + bookingColumns + ` FROM bookings WHERE org_id = $1`
	args := []any{orgID}
	arg := func(cond string, v any) {
		args = append(args, v)
		query += ` AND ` + cond + ` $` + strconv.Itoa(len(args))
	}
	if len(q.Statuses) > 0 {
		args = append(args, statusNames(q.Statuses))
		query += ` AND status = ANY($` + strconv.Itoa(len(args)) + `)`
	}
	if q.PropertyID != 0 {
		arg("property_id =", q.PropertyID)
	}
	if !q.From.IsZero() {
		arg("check_out >", date(q.From))
	}
	if !q.To.IsZero() {
		arg("check_in <", date(q.To))
	}
	if q.Before > 0 {
		arg("id <", q.Before)
	}
	args = append(args, q.PageSize())
	rows, err := db.pool.Query(ctx, query+` ORDER BY id DESC LIMIT $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: bookings page: %w", err)
	}
	list, err := scanBookings(rows)
	if err != nil {
		return nil, fmt.Errorf("postgres: bookings page: %w", err)
	}
	return list, nil
}
