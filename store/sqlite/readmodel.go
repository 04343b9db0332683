package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// qHolds reads what takes a property's nights from a date on, for the read
// model (store/cache): blocks, and bookings holding dates at now with the
// expiry of the pending ones.
const qHolds = `
	SELECT start_date, end_date, 0 FROM blocks
		WHERE property_id = ? AND ? < end_date
	UNION ALL
	SELECT check_in, check_out, CASE WHEN status = 'pending' THEN COALESCE(expires_at, 0) ELSE 0 END FROM bookings
		WHERE property_id = ? AND ? < check_out AND ` + holdsDates + `
	ORDER BY 1, 2`

// Holds returns the blocks and the bookings holding dates at now that take
// the property's nights from from on; see booking.ReadModelStore.
func (db *DB) Holds(ctx context.Context, propertyID int64, from civil.Date, now time.Time) ([]booking.Hold, error) {
	rows, err := db.reads().QueryContext(ctx, qHolds, propertyID, from.String(), propertyID, from.String(), now.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("sqlite: holds: %w", err)
	}
	defer rows.Close()
	var list []booking.Hold
	for rows.Next() {
		var start, end string
		var until int64
		if err := rows.Scan(&start, &end, &until); err != nil {
			return nil, fmt.Errorf("sqlite: holds: %w", err)
		}
		var h booking.Hold
		if h.Start, err = civil.Parse(start); err != nil {
			return nil, fmt.Errorf("sqlite: holds: %w", err)
		}
		if h.End, err = civil.Parse(end); err != nil {
			return nil, fmt.Errorf("sqlite: holds: %w", err)
		}
		if until != 0 {
			h.Until = time.UnixMilli(until).UTC()
		}
		list = append(list, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: holds: %w", err)
	}
	return list, nil
}
