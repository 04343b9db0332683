package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// Holds returns the blocks and the bookings holding dates at now that take
// the property's nights from from on; see booking.ReadModelStore.
func (db *DB) Holds(ctx context.Context, propertyID int64, from civil.Date, now time.Time) ([]booking.Hold, error) {
	rows, err := db.pool.Query(ctx, `
		SELECT start_date, end_date, NULL::timestamptz FROM blocks
			WHERE property_id = $1 AND $2 < end_date
		UNION ALL
		SELECT check_in, check_out, CASE WHEN status = 'pending' THEN expires_at END FROM bookings
			WHERE property_id = $1 AND $2 < check_out AND `+holdsDates(3)+`
		ORDER BY 1, 2`,
		propertyID, date(from), now)
	if err != nil {
		return nil, fmt.Errorf("postgres: holds: %w", err)
	}
	defer rows.Close()
	var list []booking.Hold
	for rows.Next() {
		var start, end pgtype.Date
		var until pgtype.Timestamptz
		if err := rows.Scan(&start, &end, &until); err != nil {
			return nil, fmt.Errorf("postgres: holds: %w", err)
		}
		h := booking.Hold{Range: civil.Range{Start: fromDate(start), End: fromDate(end)}}
		if until.Valid {
			h.Until = until.Time.UTC()
		}
		list = append(list, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: holds: %w", err)
	}
	return list, nil
}
