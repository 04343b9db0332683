package postgres

import (
	"context"
	"strconv"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
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
	return db.tx(ctx, "apply calendar", func(q querier) error {
		if err := lockProperty(ctx, q, orgID, propertyID); err != nil {
			return err
		}
		p, err := sqlflow.One(ctx, q, rowmap.ScanProperty, sqlflow.ErrNoRow,
			`SELECT `+rowmap.PropertyColumns+` FROM properties WHERE id = $1`, propertyID)
		if err != nil {
			return err
		}
		if c.Closed != nil && *c.Closed {
			taken, err := bookingOverlaps(ctx, q, propertyID, civil.Range{Start: c.From, End: c.To}, now, 0)
			if err != nil {
				return err
			}
			if taken {
				return booking.Errorf(booking.CodeUnavailable, "A booking holds some of these dates.")
			}
		}
		stored, err := calendarDaysIn(ctx, q, propertyID, c.From, c.To)
		if err != nil {
			return err
		}
		days := c.Days(stored)
		if err := booking.CheckCalendarDays(days); err != nil {
			return err
		}
		if err := writeCalendarDays(ctx, q, propertyID, days); err != nil {
			return err
		}
		kept, dropped := c.OverridesWithout(p.Rates.Overrides)
		if !dropped {
			return nil
		}
		p.Rates.Overrides = kept
		rates, err := rowmap.JSONArg(codec{}, p.Rates)
		if err != nil {
			return err
		}
		return sqlflow.Exec(ctx, q, nil, `UPDATE properties SET rates = $2 WHERE id = $1`, propertyID, rates)
	})
}

// UpdatePropertyFields replaces a property's row, leaving its blocks.
func (db *DB) UpdatePropertyFields(ctx context.Context, p *booking.Property) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return db.tx(ctx, "update property fields", func(q querier) (err error) {
		if err := updateProperty(ctx, q, p); err != nil {
			return err
		}
		p.Blocks, err = blocksOf(ctx, q, p.ID)
		return err
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
		arg("check_out >", rowmap.Date(q.From))
	}
	if !q.To.IsZero() {
		arg("check_in <", rowmap.Date(q.To))
	}
	if q.Before > 0 {
		arg("id <", q.Before)
	}
	args = append(args, q.PageSize())
	return sqlflow.Get(ctx, db.run, "bookings page", func(qr querier) ([]booking.Booking, error) {
		return sqlflow.All(ctx, qr, rowmap.ScanBooking, query+` ORDER BY id DESC LIMIT $`+strconv.Itoa(len(args)), args...)
	})
}
