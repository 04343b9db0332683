package sqlite

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// holdsDates is the SQL form of booking.Booking.HoldsDates, with one
// parameter, now in unix milliseconds: requested and confirmed bookings hold
// their dates, pending ones until they expire. An expired pending hold stops
// blocking at once, whether or not a sweeper has marked it expired.
const holdsDates = `(status IN ('requested', 'confirmed') OR (status = 'pending' AND expires_at > ?))`

// Stays are half-open [check_in, check_out): [a, b) and [c, d) overlap when
// a < d AND c < b, so a check-out day is free for the next check-in. Dates
// are 'YYYY-MM-DD' text, which orders like the dates.

// bookingOverlaps reports whether a booking of the property other than
// except holds dates at now overlapping r.
func bookingOverlaps(ctx context.Context, q querier, propertyID int64, r civil.Range, now time.Time, except int64) (bool, error) {
	return sqlflow.Exists(ctx, q, qBookingOverlaps, propertyID, r.End.String(), r.Start.String(), except, now.UnixMilli())
}

// blockOverlaps reports whether an owner block of the property overlaps r.
func blockOverlaps(ctx context.Context, q querier, propertyID int64, r civil.Range) (bool, error) {
	return sqlflow.Exists(ctx, q, qBlockOverlaps, propertyID, r.End.String(), r.Start.String())
}

// datesTaken reports whether r is unavailable on the property at now for a
// booking other than except.
func datesTaken(ctx context.Context, q querier, propertyID int64, r civil.Range, now time.Time, except int64) (bool, error) {
	if taken, err := blockOverlaps(ctx, q, propertyID, r); err != nil || taken {
		return taken, err
	}
	return bookingOverlaps(ctx, q, propertyID, r, now, except)
}

// unavailable is the error for dates that are taken.
func unavailable() error {
	return booking.Errorf(booking.CodeUnavailable, "These dates are not available.")
}

// unavailableIf is err, or unavailable when the dates are taken.
func unavailableIf(taken bool, err error) error {
	if err == nil && taken {
		return unavailable()
	}
	return err
}

// Occupied returns the ranges of the property's blocks and of its bookings
// holding dates at now that share a night with [from, to), by start. The
// ranges are whole, not clipped to [from, to).
func (db *DB) Occupied(ctx context.Context, propertyID int64, from, to civil.Date, now time.Time) ([]civil.Range, error) {
	return sqlflow.Get(ctx, db.hotRun, "occupied", func(q querier) ([]civil.Range, error) {
		return sqlflow.All(ctx, q, rowmap.ScanRange, qOccupied, propertyID, to.String(), from.String(),
			propertyID, to.String(), from.String(), now.UnixMilli())
	})
}
