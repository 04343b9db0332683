package sqlite

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// ApplyCalendar applies a host's calendar change in one write transaction:
// the dates' days merged with the change, the rate-plan overrides the
// change takes over removed, and closing refused over a booking.
func (db *DB) ApplyCalendar(ctx context.Context, orgID, propertyID int64, c booking.CalendarChange, now time.Time) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return db.tx(ctx, "apply calendar", func(q querier) error {
		p, err := sqlflow.One(ctx, q, rowmap.ScanProperty, rowmap.PropertyNotFound(),
			`SELECT `+rowmap.PropertyColumns+` FROM properties WHERE id = ? AND org_id = ?`, propertyID, orgID)
		if err != nil {
			return err
		}
		if c.Closed != nil && *c.Closed {
			taken, err := bookingOverlaps(ctx, q, propertyID, 0, civil.Range{Start: c.From, End: c.To}, now, 0)
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
		return sqlflow.Exec(ctx, q, nil, `UPDATE properties SET rates = ? WHERE id = ?`, rates, propertyID)
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

// BookingsPage lists the bookings q selects, newest first, without their
// quotes unless q.WithQuote (booking.HostCalendarStore).
func (db *DB) BookingsPage(ctx context.Context, orgID int64, q booking.BookingQuery) ([]booking.Booking, error) {
	query, args := bookingsPageQuery(orgID, q)
	scan := rowmap.ScanListedBooking
	if q.WithQuote {
		scan = rowmap.ScanBooking
	}
	return sqlflow.Get(ctx, db.run, "bookings page", func(qr querier) ([]booking.Booking, error) {
		return sqlflow.All(ctx, qr, scan, query, args...)
	})
}

// bookingsPageQuery is the query of BookingsPage and its arguments. Its
// plan must not depend on the statistics ANALYZE gathers (issue #31): given
// ORDER BY id DESC LIMIT, SQLite otherwise walks an organisation's whole
// history down bookings_org_id whenever it guesses that the filter keeps
// many rows. So each query names the index (INDEXED BY) that matches it:
//   - a property's window (the host calendar): the property's bookings
//     ending after From, bookings_property_checkout, sorted afterwards;
//   - statuses: one branch per status down bookings_org_status, each at
//     most a page, merged;
//   - a property: bookings_property_id;
//   - otherwise: bookings_org_id.
//
// The other filters apply to the rows the index yields.
func bookingsPageQuery(orgID int64, q booking.BookingQuery) (string, []any) {
	limit := q.PageSize()
	filter := func(index string, status booking.Status) (string, []any) {
		cols := rowmap.BookingListColumns
		if q.WithQuote {
			cols = rowmap.BookingColumns
		}
		query := `SELECT ` + cols + ` FROM bookings INDEXED BY ` + index + ` WHERE org_id = ?`
		args := []any{orgID}
		if status != "" {
			query += ` AND status = ?`
			args = append(args, string(status))
		} else if len(q.Statuses) > 0 {
			query += ` AND status IN (` + placeholders(len(q.Statuses)) + `)`
			args = append(args, statusArgs(q.Statuses)...)
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
		return query + ` ORDER BY id DESC LIMIT ?`, append(args, limit)
	}
	switch {
	case q.PropertyID != 0 && !q.From.IsZero():
		return filter("bookings_property_checkout", "")
	case len(q.Statuses) > 0:
		var branches []string
		var args []any
		for _, st := range slices.Compact(slices.Sorted(slices.Values(q.Statuses))) {
			b, a := filter("bookings_org_status", st)
			branches = append(branches, `SELECT * FROM (`+b+`)`)
			args = append(args, a...)
		}
		return strings.Join(branches, ` UNION ALL `) + ` ORDER BY id DESC LIMIT ?`, append(args, limit)
	case q.PropertyID != 0:
		return filter("bookings_property_id", "")
	default:
		return filter("bookings_org_id", "")
	}
}
