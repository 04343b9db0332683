package postgres

import (
	"context"
	"slices"
	"strconv"
	"strings"
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

// bookingsPageQuery is the query of BookingsPage and its arguments. Given
// ORDER BY id DESC LIMIT, the planner may walk an organisation's whole
// history down bookings_org_id when its statistics make it guess that the
// filter keeps many rows (issue #31), so the queries leave it no such
// choice:
//   - a property's window (the host calendar) is selected in a
//     MATERIALIZED CTE, without order, limit or organisation, so that
//     only the property's indexes (bookings_property_checkout) serve it,
//     then sorted: it reads the property's bookings ending after From;
//   - statuses: one branch per status, each at most a page (down
//     bookings_org_status, or the primary key when the planner finds the
//     status common), merged;
//   - a property: bookings_property_id matches filter and order;
//   - otherwise: bookings_org_id does.
//
// The lists' choice between those indexes and a walk down the primary
// key still follows the statistics; the calendar's does not.
func bookingsPageQuery(orgID int64, q booking.BookingQuery) (string, []any) {
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return `$` + strconv.Itoa(len(args))
	}
	where := func(status booking.Status) string {
		// The window's rows come from the property's indexes alone;
		// org_id is checked on them after the CTE, else the planner may
		// AND them with bookings_org_id: the whole organisation.
		w := `TRUE`
		if q.PropertyID == 0 || q.From.IsZero() {
			w = `org_id = ` + arg(orgID)
		}
		if status != "" {
			w += ` AND status = ` + arg(string(status))
		} else if len(q.Statuses) > 0 {
			w += ` AND status = ANY(` + arg(statusNames(q.Statuses)) + `)`
		}
		if q.PropertyID != 0 {
			w += ` AND property_id = ` + arg(q.PropertyID)
		}
		if !q.From.IsZero() {
			w += ` AND check_out > ` + arg(rowmap.Date(q.From))
		}
		if !q.To.IsZero() {
			w += ` AND check_in < ` + arg(rowmap.Date(q.To))
		}
		if q.Before > 0 {
			w += ` AND id < ` + arg(q.Before)
		}
		return w
	}
	cols := rowmap.BookingListColumns
	if q.WithQuote {
		cols = rowmap.BookingColumns
	}
	switch {
	case q.PropertyID != 0 && !q.From.IsZero():
		query := `WITH w AS MATERIALIZED (SELECT ` + cols + ` FROM bookings WHERE ` + where("") + `)
			SELECT ` + cols + ` FROM w WHERE org_id = ` + arg(orgID) + ` ORDER BY id DESC LIMIT ` + arg(q.PageSize())
		return query, args
	case len(q.Statuses) > 0:
		var branches []string
		for _, st := range slices.Compact(slices.Sorted(slices.Values(q.Statuses))) {
			branches = append(branches, `(SELECT `+cols+` FROM bookings WHERE `+where(st)+
				` ORDER BY id DESC LIMIT `+arg(q.PageSize())+`)`)
		}
		return `SELECT ` + cols + ` FROM (` + strings.Join(branches, ` UNION ALL `) + `) b
			ORDER BY id DESC LIMIT ` + arg(q.PageSize()), args
	default:
		return `SELECT ` + cols + ` FROM bookings WHERE ` + where("") + ` ORDER BY id DESC LIMIT ` + arg(q.PageSize()), args
	}
}
