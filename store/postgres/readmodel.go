package postgres

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// Holds returns the blocks and the bookings holding dates at now that take
// the property's nights from from on; see booking.ReadModelStore.
func (db *DB) Holds(ctx context.Context, propertyID int64, from civil.Date, now time.Time) ([]booking.Hold, error) {
	return sqlflow.Get(ctx, db.run, "holds", func(q querier) ([]booking.Hold, error) {
		return sqlflow.All(ctx, q, rowmap.ScanHold, `
			SELECT start_date, end_date, NULL::timestamptz FROM blocks
				WHERE property_id = $1 AND $2 < end_date
			UNION ALL
			SELECT check_in, check_out, CASE WHEN status = 'pending' THEN expires_at END FROM bookings
				WHERE property_id = $1 AND $2 < check_out AND `+holdsDates(3)+`
			ORDER BY 1, 2`,
			propertyID, rowmap.Date(from), now)
	})
}
