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

// The booking row mapping is shared (rowmap); these names stay for the
// files of this package that use them.
const bookingColumns = rowmap.BookingColumns

func bookingArgs(b *booking.Booking) ([]any, error) { return rowmap.BookingArgs(codec{}, b) }

func scanBooking(s scanner) (*booking.Booking, error) { return rowmap.ScanBooking(codec{}, s) }

func bookingNotFound() error { return rowmap.BookingNotFound() }

// scanBookings reads every row of rows.
func scanBookings(rows *sql.Rows) ([]booking.Booking, error) {
	defer rows.Close()
	var list []booking.Booking
	for rows.Next() {
		b, err := scanBooking(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *b)
	}
	return list, rows.Err()
}

// findBooking returns the booking a query selects.
func findBooking(ctx context.Context, q querier, where string, args ...any) (*booking.Booking, error) {
	b, err := scanBooking(q.QueryRowContext(ctx, `SELECT `+bookingColumns+` FROM bookings WHERE `+where, args...))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, bookingNotFound()
	case err != nil:
		return nil, fmt.Errorf("sqlite: booking: %w", err)
	}
	return b, nil
}

// BookingByToken finds a booking of an organisation. Errors: CodeNotFound,
// also for another organisation's token.
func (db *DB) BookingByToken(ctx context.Context, orgID int64, token string) (*booking.Booking, error) {
	return findBooking(ctx, db.reads(), whereToken, orgID, token)
}

// BookingByID finds a booking. Errors: CodeNotFound.
func (db *DB) BookingByID(ctx context.Context, id int64) (*booking.Booking, error) {
	return findBooking(ctx, db.read, `id = ?`, id)
}

// BookingByIntent finds the booking paid by an intent. Errors:
// CodeNotFound.
func (db *DB) BookingByIntent(ctx context.Context, intentID string) (*booking.Booking, error) {
	if intentID == "" {
		return nil, bookingNotFound()
	}
	return findBooking(ctx, db.read, `payment_intent_id = ? ORDER BY id LIMIT 1`, intentID)
}

// Bookings lists an organisation's bookings, newest first (by creation
// time, then ID), optionally only those with one of statuses.
func (db *DB) Bookings(ctx context.Context, orgID int64, statuses ...booking.Status) ([]booking.Booking, error) {
	query := `SELECT ` + bookingColumns + ` FROM bookings WHERE org_id = ?`
	args := []any{orgID}
	if len(statuses) > 0 {
		query += ` AND status IN (?` + strings.Repeat(`, ?`, len(statuses)-1) + `)`
		for _, s := range statuses {
			args = append(args, string(s))
		}
	}
	rows, err := db.read.QueryContext(ctx, query+` ORDER BY created_at DESC, id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: bookings: %w", err)
	}
	list, err := scanBookings(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlite: bookings: %w", err)
	}
	return list, nil
}

// BookingsArriving lists an organisation's bookings in status arriving on
// day. It goes through the organisation's properties so that each lookup
// is a seek in bookings_property_status (property_id, status, check_in).
func (db *DB) BookingsArriving(ctx context.Context, orgID int64, day civil.Date, status booking.Status) ([]booking.Booking, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+bookingColumns+` FROM bookings
		WHERE property_id IN (SELECT id FROM properties WHERE org_id = ?) AND status = ? AND check_in = ?
		ORDER BY id`, orgID, string(status), day.String())
	if err != nil {
		return nil, fmt.Errorf("sqlite: bookings arriving %s: %w", day, err)
	}
	list, err := scanBookings(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlite: bookings arriving %s: %w", day, err)
	}
	return list, nil
}

// LapsedHolds returns pending and requested bookings whose ExpiresAt is at
// or before now, oldest expiry first, at most limit (all when limit <= 0).
func (db *DB) LapsedHolds(ctx context.Context, now time.Time, limit int) ([]booking.Booking, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := db.read.QueryContext(ctx, `SELECT `+bookingColumns+` FROM bookings
		WHERE status IN ('pending', 'requested') AND expires_at <= ?
		ORDER BY expires_at, id LIMIT ?`, now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: lapsed holds: %w", err)
	}
	list, err := scanBookings(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlite: lapsed holds: %w", err)
	}
	return list, nil
}

// SetPaymentIntent records the payment intent of a booking and its client
// secret. Errors: CodeNotFound.
func (db *DB) SetPaymentIntent(ctx context.Context, id int64, intentID, clientSecret string) error {
	return db.inWriteTx(ctx, "set payment intent", func(tx *sql.Tx) error {
		res, err := db.writesIn(tx).ExecContext(ctx, qSetPaymentIntent, nullString(intentID), clientSecret, id)
		if err != nil {
			return fmt.Errorf("sqlite: set payment intent: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("sqlite: set payment intent: %w", err)
		} else if n == 0 {
			return bookingNotFound()
		}
		return nil
	})
}
