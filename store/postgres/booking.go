package postgres

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// The booking row mapping is shared (rowmap); these names stay for the
// files of this package that use them.
const bookingColumns = rowmap.BookingColumns

var bookingDataColumns = rowmap.BookingDataColumns

func bookingArgs(b *booking.Booking) ([]any, error) { return rowmap.BookingArgs(codec{}, b) }

func bookingNotFound() error { return rowmap.BookingNotFound() }

// findBooking returns the booking a query selects. Errors: CodeNotFound.
func findBooking(ctx context.Context, q querier, where string, args ...any) (*booking.Booking, error) {
	return sqlflow.One(ctx, q, rowmap.ScanBooking, bookingNotFound(), `SELECT `+bookingColumns+` FROM bookings WHERE `+where, args...)
}

// BookingByToken finds a booking of an organisation. Errors: CodeNotFound,
// also for another organisation's token.
func (db *DB) BookingByToken(ctx context.Context, orgID int64, token string) (*booking.Booking, error) {
	return sqlflow.Get(ctx, db.run, "booking by token", func(q querier) (*booking.Booking, error) {
		return findBooking(ctx, q, `org_id = $1 AND token = $2`, orgID, token)
	})
}

// BookingByID finds a booking. Errors: CodeNotFound.
func (db *DB) BookingByID(ctx context.Context, id int64) (*booking.Booking, error) {
	return sqlflow.Get(ctx, db.run, "booking", func(q querier) (*booking.Booking, error) {
		return findBooking(ctx, q, `id = $1`, id)
	})
}

// BookingByIntent finds the booking paid by an intent. Errors:
// CodeNotFound.
func (db *DB) BookingByIntent(ctx context.Context, intentID string) (*booking.Booking, error) {
	if intentID == "" {
		return nil, bookingNotFound()
	}
	return sqlflow.Get(ctx, db.run, "booking by intent", func(q querier) (*booking.Booking, error) {
		return findBooking(ctx, q, `payment_intent_id = $1 ORDER BY id LIMIT 1`, intentID)
	})
}

// Bookings lists an organisation's bookings, newest first (by creation
// time, then ID), optionally only those with one of statuses.
func (db *DB) Bookings(ctx context.Context, orgID int64, statuses ...booking.Status) ([]booking.Booking, error) {
	query := `SELECT ` + bookingColumns + ` FROM bookings WHERE org_id = $1`
	args := []any{orgID}
	if len(statuses) > 0 {
		query += ` AND status = ANY($2)`
		args = append(args, statusNames(statuses))
	}
	return sqlflow.Get(ctx, db.run, "bookings", func(q querier) ([]booking.Booking, error) {
		return sqlflow.All(ctx, q, rowmap.ScanBooking, query+` ORDER BY created_at DESC, id DESC`, args...)
	})
}

// BookingsArriving lists an organisation's bookings in status arriving on
// day. It goes through the organisation's properties so that each lookup
// is a seek in bookings_property_status (property_id, status, check_in).
func (db *DB) BookingsArriving(ctx context.Context, orgID int64, day civil.Date, status booking.Status) ([]booking.Booking, error) {
	return sqlflow.Get(ctx, db.run, "bookings arriving", func(q querier) ([]booking.Booking, error) {
		return sqlflow.All(ctx, q, rowmap.ScanBooking, `SELECT `+bookingColumns+` FROM bookings
			WHERE property_id IN (SELECT id FROM properties WHERE org_id = $1) AND status = $2 AND check_in = $3
			ORDER BY id`, orgID, string(status), rowmap.Date(day))
	})
}

// statusNames returns statuses as strings, for a text[] parameter.
func statusNames(statuses []booking.Status) []string {
	names := make([]string, len(statuses))
	for i, s := range statuses {
		names[i] = string(s)
	}
	return names
}

// LapsedHolds returns pending and requested bookings whose ExpiresAt is at
// or before now, oldest expiry first, at most limit (all when limit <= 0).
func (db *DB) LapsedHolds(ctx context.Context, now time.Time, limit int) ([]booking.Booking, error) {
	var n any // NULL: LIMIT ALL
	if limit > 0 {
		n = limit
	}
	return sqlflow.Get(ctx, db.run, "lapsed holds", func(q querier) ([]booking.Booking, error) {
		return sqlflow.All(ctx, q, rowmap.ScanBooking, `SELECT `+bookingColumns+` FROM bookings
			WHERE status IN ('pending', 'requested') AND expires_at <= $1
			ORDER BY expires_at, id LIMIT $2::bigint`, now, n)
	})
}

// SetPaymentIntent records the payment intent of a booking and its client
// secret. Errors: CodeNotFound.
func (db *DB) SetPaymentIntent(ctx context.Context, id int64, intentID, clientSecret string) error {
	return db.run(ctx, "set payment intent", func(q querier) error {
		return sqlflow.Exec(ctx, q, bookingNotFound(), `UPDATE bookings SET payment_intent_id = $1, client_secret = $2
			WHERE id = $3`, rowmap.NullString(intentID), clientSecret, id)
	})
}
