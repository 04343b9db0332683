package sqlite

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// qHolds reads what takes a property's nights from a date on, for the read
// model (store/cache): blocks, and bookings holding dates at now with the
// expiry of the pending ones (NULL for the others).
const qHolds = `
	SELECT start_date, end_date, NULL FROM blocks
		WHERE property_id = ? AND ? < end_date
	UNION ALL
	SELECT check_in, check_out, CASE WHEN status = 'pending' THEN expires_at END FROM bookings
		WHERE property_id = ? AND ? < check_out AND ` + holdsDates + `
	ORDER BY 1, 2`

// Holds returns the blocks and the bookings holding dates at now that take
// the property's nights from from on; see booking.ReadModelStore.
func (db *DB) Holds(ctx context.Context, propertyID int64, from civil.Date, now time.Time) ([]booking.Hold, error) {
	return sqlflow.Get(ctx, db.hotRun, "holds", func(q querier) ([]booking.Hold, error) {
		return sqlflow.All(ctx, q, rowmap.ScanHold, qHolds, propertyID, from.String(), propertyID, from.String(), now.UnixMilli())
	})
}
