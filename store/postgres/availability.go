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
// expires_at, never the blocking column, which may lag behind. Its first
// term is the predicate of the index bookings_holds (migration 0044), so
// that a query of a property's (or unit's) stays overlapping a range
// (stay && range) looks them up there.
func holdsDates(n int) string {
	return `(status IN ('pending', 'requested', 'confirmed') AND (status <> 'pending' OR expires_at > $` + strconv.Itoa(n) + `))`
}

// Stays are half-open [check_in, check_out): [a, b) and [c, d) overlap when
// a < d AND c < b, so a check-out day is free for the next check-in; the
// queries of holds write it stay && daterange(c, d, '[)'), which
// bookings_holds answers per property or unit.

// bookingOverlaps reports whether a booking of the property other than
// except holds dates at now overlapping r: on the unit unitID, or on any
// unit when unitID is 0.
func bookingOverlaps(ctx context.Context, q querier, propertyID, unitID int64, r civil.Range, now time.Time, except int64) (bool, error) {
	return sqlflow.Exists(ctx, q, `SELECT 1 FROM bookings
		WHERE property_id = $1 AND ($6 = 0 OR unit_id = $6) AND stay && daterange($3, $2, '[)') AND id <> $4
		AND `+holdsDates(5)+` LIMIT 1`, propertyID, rowmap.Date(r.End), rowmap.Date(r.Start), except, now, unitID)
}

// linkedOf is the properties linked to $1 (its whole, or its parts), as a
// common table expression.
const linkedOf = `linked(id) AS (SELECT whole_id FROM property_links WHERE part_id = $1
	UNION ALL SELECT part_id FROM property_links WHERE whole_id = $1)`

// linkedOverlaps reports whether a booking holding dates at now (other
// than except) of a property linked to propertyID overlaps r: what a
// block of the property must not take.
func linkedOverlaps(ctx context.Context, q querier, propertyID int64, r civil.Range, now time.Time, except int64) (bool, error) {
	return sqlflow.Exists(ctx, q, `WITH `+linkedOf+`
		SELECT 1 FROM linked l JOIN bookings b ON b.property_id = l.id
		WHERE b.stay && daterange($3, $2, '[)') AND b.id <> $4
		AND `+holdsDates(5)+` LIMIT 1`,
		propertyID, rowmap.Date(r.End), rowmap.Date(r.Start), except, now)
}

// claimUnit returns the unit a stay of the property can hold at now, in q
// (a transaction holding the property's lock, lockProperty), as
// staykit_create_booking decides: nothing of the whole property overlaps
// guarded (staykit_whole_taken), and a unit is free for it
// (staykit_best_unit: want when not 0, else the best fit; among allowed
// when not nil, booking.DateGuard.Units). ok is false when the stay
// cannot hold one.
func claimUnit(ctx context.Context, q querier, propertyID, want int64, stay, guarded civil.Range, now time.Time, except int64, allowed []int64) (unit int64, ok bool, err error) {
	type claim struct {
		whole bool
		unit  int64
	}
	c, err := sqlflow.One(ctx, q, func(rc rowmap.Codec, s rowmap.Scanner) (*claim, error) {
		var c claim
		return &c, rowmap.Scan(s, &c.whole, rc.NullInt64(&c.unit))
	}, nil, `SELECT staykit_whole_taken($1, $5, $6, $7, $8), staykit_best_unit($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		propertyID, want, rowmap.Date(stay.Start), rowmap.Date(stay.End), rowmap.Date(guarded.Start),
		rowmap.Date(guarded.End), now, except, allowed)
	if err != nil {
		return 0, false, err
	}
	return c.unit, !c.whole && c.unit != 0, nil
}

// releaseLapsed takes away the claim (blocking) of the pending holds of a
// property, other than except, that overlap r and have lapsed at now, so
// that the exclusion constraint lets a new holder have their nights. Their
// status stays pending: the sweeper expires them (cancelling their payment
// intent) as usual. See migrations/0001_init.sql.
func releaseLapsed(ctx context.Context, q querier, propertyID int64, r civil.Range, now time.Time, except int64) error {
	return sqlflow.Exec(ctx, q, nil, `UPDATE bookings SET blocking = false
		WHERE property_id = $1 AND blocking AND status = 'pending' AND (expires_at IS NULL OR expires_at <= $2)
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

// Occupied returns the holds of the property's blocks and of its bookings
// holding dates at now that share a night with [from, to), and those of
// the properties linked to it (on every unit), by start. The ranges are
// whole, not clipped to [from, to).
func (db *DB) Occupied(ctx context.Context, propertyID int64, from, to civil.Date, now time.Time) ([]booking.Hold, error) {
	return sqlflow.Get(ctx, db.run, "occupied", func(q querier) ([]booking.Hold, error) {
		return sqlflow.All(ctx, q, rowmap.ScanHold, `WITH `+linkedOf+`
			SELECT start_date, end_date, NULL::timestamptz, unit_id FROM blocks
				WHERE property_id = $1 AND start_date < $2 AND $3 < end_date
			UNION ALL
			SELECT check_in, check_out, CASE WHEN status = 'pending' THEN expires_at END, unit_id FROM bookings
				WHERE property_id = $1 AND check_in < $2 AND $3 < check_out AND `+holdsDates(4)+`
			UNION ALL
			SELECT k.start_date, k.end_date, NULL::timestamptz, 0 FROM linked l JOIN blocks k ON k.property_id = l.id
				WHERE k.start_date < $2 AND $3 < k.end_date
			UNION ALL
			SELECT b.check_in, b.check_out, CASE WHEN b.status = 'pending' THEN b.expires_at END, 0
				FROM linked l JOIN bookings b ON b.property_id = l.id
				WHERE b.check_in < $2 AND $3 < b.check_out
				AND (b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > $4))
			ORDER BY 1, 2`,
			propertyID, rowmap.Date(to), rowmap.Date(from), now)
	})
}
