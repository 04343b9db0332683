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

// holdsDates is the SQL form of booking.Booking.HoldsDates, with now as
// parameter $n: requested and confirmed bookings hold their dates, pending
// ones until they expire. An expired pending hold stops blocking at once,
// whether or not a sweeper has marked it expired. It reads status and
// expires_at, never the blocking column, which may lag behind.
func holdsDates(n int) string {
	return `(status IN ('requested', 'confirmed') OR (status = 'pending' AND expires_at > $` + strconv.Itoa(n) + `))`
}

// Stays are half-open [check_in, check_out): [a, b) and [c, d) overlap when
// a < d AND c < b, so a check-out day is free for the next check-in.

// bookingOverlaps reports whether a booking of the property other than
// except holds dates at now overlapping r.
func bookingOverlaps(ctx context.Context, q querier, propertyID int64, r civil.Range, now time.Time, except int64) (bool, error) {
	return sqlflow.Exists(ctx, q, `SELECT 1 FROM bookings
		WHERE property_id = $1 AND check_in < $2 AND $3 < check_out AND id <> $4 AND `+holdsDates(5)+`
		LIMIT 1`, propertyID, rowmap.Date(r.End), rowmap.Date(r.Start), except, now)
}

// blockOverlaps reports whether an owner block of the property overlaps r.
func blockOverlaps(ctx context.Context, q querier, propertyID int64, r civil.Range) (bool, error) {
	return sqlflow.Exists(ctx, q, `SELECT 1 FROM blocks
		WHERE property_id = $1 AND start_date < $2 AND $3 < end_date LIMIT 1`,
		propertyID, rowmap.Date(r.End), rowmap.Date(r.Start))
}

// datesTaken reports whether r is unavailable on the property at now for a
// booking other than except.
func datesTaken(ctx context.Context, q querier, propertyID int64, r civil.Range, now time.Time, except int64) (bool, error) {
	if taken, err := blockOverlaps(ctx, q, propertyID, r); err != nil || taken {
		return taken, err
	}
	return bookingOverlaps(ctx, q, propertyID, r, now, except)
}

// releaseLapsed takes away the claim (blocking) of the pending holds of a
// property, other than except, that overlap r and have lapsed at now, so
// that the exclusion constraint lets a new holder have their nights. Their
// status stays pending: the sweeper expires them (cancelling their payment
// intent) as usual. See migrations/0001_init.sql.
func releaseLapsed(ctx context.Context, q querier, propertyID int64, r civil.Range, now time.Time, except int64) error {
	return sqlflow.Exec(ctx, q, nil, `UPDATE bookings SET blocking = false
		WHERE property_id = $1 AND blocking AND status = 'pending'
		AND (expires_at IS NULL OR expires_at <= $2)
		AND stay && daterange($3::date, $4::date, '[)') AND id <> $5`,
		propertyID, now, rowmap.Date(r.Start), rowmap.Date(r.End), except)
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
	return sqlflow.Get(ctx, db.run, "occupied", func(q querier) ([]civil.Range, error) {
		return sqlflow.All(ctx, q, rowmap.ScanRange, `
			SELECT start_date, end_date FROM blocks
				WHERE property_id = $1 AND start_date < $2 AND $3 < end_date
			UNION ALL
			SELECT check_in, check_out FROM bookings
				WHERE property_id = $1 AND check_in < $2 AND $3 < check_out AND `+holdsDates(4)+`
			ORDER BY 1, 2`,
			propertyID, rowmap.Date(to), rowmap.Date(from), now)
	})
}
