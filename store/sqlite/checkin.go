package sqlite

import (
	"context"
	"time"

	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ checkin.Store = (*DB)(nil)

// SaveCheckin stores a booking's check-in, replacing it (checkin.Store).
func (db *DB) SaveCheckin(ctx context.Context, r *checkin.Record) error {
	guests, err := rowmap.JSONArg(codec{}, r.Guests)
	if err != nil {
		return err
	}
	return db.tx(ctx, "save check-in", func(q querier) error {
		_, err := sqlflow.Value[int64](ctx, q, bookingNotFound(), `INSERT INTO booking_checkins
			(booking_id, country, guests, updated_by, updated_at, submitted_at)
			SELECT id, ?, ?, ?, ?, ? FROM bookings WHERE id = ?
			ON CONFLICT (booking_id) DO UPDATE SET country = excluded.country, guests = excluded.guests,
			updated_by = excluded.updated_by, updated_at = excluded.updated_at, submitted_at = excluded.submitted_at
			RETURNING booking_id`,
			r.Country, guests, r.UpdatedBy, millis(r.UpdatedAt), millis(r.SubmittedAt), r.BookingID)
		return err
	})
}

// Checkin returns a booking's check-in (checkin.Store).
func (db *DB) Checkin(ctx context.Context, bookingID int64) (*checkin.Record, error) {
	return sqlflow.Get(ctx, db.run, "check-in", func(q querier) (*checkin.Record, error) {
		return sqlflow.One(ctx, q, rowmap.ScanCheckin, rowmap.CheckinNotFound(), `SELECT `+rowmap.CheckinColumns+`
			FROM booking_checkins WHERE booking_id = ?`, bookingID)
	})
}

// ArrivalCheckins lists the check-ins of a property's arrivals on a day
// (checkin.Store).
func (db *DB) ArrivalCheckins(ctx context.Context, propertyID int64, day civil.Date) ([]checkin.Record, error) {
	return sqlflow.Get(ctx, db.run, "arrival check-ins", func(q querier) ([]checkin.Record, error) {
		return sqlflow.All(ctx, q, rowmap.ScanCheckin, `SELECT `+rowmap.QualifiedCheckinColumns+`
			FROM booking_checkins c JOIN bookings b ON b.id = c.booking_id
			WHERE b.property_id = ? AND b.check_in = ? ORDER BY c.booking_id`, propertyID, day.String())
	})
}

// MarkCheckinsSubmitted sets when the check-ins were submitted
// (checkin.Store).
func (db *DB) MarkCheckinsSubmitted(ctx context.Context, bookingIDs []int64, at time.Time) error {
	return db.tx(ctx, "mark check-ins submitted", func(q querier) error {
		for _, id := range bookingIDs {
			if err := sqlflow.Exec(ctx, q, nil, `UPDATE booking_checkins SET submitted_at = ? WHERE booking_id = ?`,
				millis(at), id); err != nil {
				return err
			}
		}
		return nil
	})
}

// DeleteCheckins deletes the check-ins past their keeping (checkin.Store).
func (db *DB) DeleteCheckins(ctx context.Context, c checkin.Cutoff) ([]checkin.Deleted, error) {
	cond, args, ok := rowmap.CheckinCountries(c, 1, func(int) string { return "?" })
	if !ok {
		return nil, nil
	}
	where := `c.booking_id = b.id AND b.check_out <= ?`
	if cond != "" {
		where += ` AND c.` + cond
	}
	args = append([]any{c.DepartedBy.String()}, args...)
	var out []checkin.Deleted
	err := db.tx(ctx, "delete check-ins", func(q querier) error {
		var err error
		out, err = sqlflow.All(ctx, q, rowmap.ScanDeletedCheckin, `SELECT c.booking_id, b.org_id, c.country
			FROM booking_checkins c, bookings b WHERE `+where+` ORDER BY c.booking_id`, args...)
		if err != nil {
			return err
		}
		for _, d := range out {
			if err := sqlflow.Exec(ctx, q, nil, `DELETE FROM booking_checkins WHERE booking_id = ?`, d.BookingID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
