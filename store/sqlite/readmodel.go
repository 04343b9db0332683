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

// qOrgHolds is qHolds of every property of an organisation. CROSS JOIN
// keeps SQLite's order: the organisation's properties (properties_org),
// then each one's blocks and bookings through their property's indexes,
// whatever the statistics say.
const qOrgHolds = `
	SELECT p.id, b.start_date, b.end_date, NULL FROM properties p CROSS JOIN blocks b ON b.property_id = p.id
		WHERE p.org_id = ? AND ? < b.end_date
	UNION ALL
	SELECT p.id, b.check_in, b.check_out, CASE WHEN b.status = 'pending' THEN b.expires_at END
		FROM properties p CROSS JOIN bookings b ON b.property_id = p.id
		WHERE p.org_id = ? AND ? < b.check_out AND ` + orgHoldsDates + `
	ORDER BY 1, 2, 3`

// orgHoldsDates is holdsDates of the bookings b.
const orgHoldsDates = `(b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > ?))`

// OrgHolds returns the holds of every property of an organisation in one
// query; see booking.OrgHoldsStore.
func (db *DB) OrgHolds(ctx context.Context, orgID int64, from civil.Date, now time.Time) ([]booking.PropertyHold, error) {
	return sqlflow.Get(ctx, db.hotRun, "org holds", func(q querier) ([]booking.PropertyHold, error) {
		return sqlflow.All(ctx, q, rowmap.ScanPropertyHold, qOrgHolds, orgID, from.String(), orgID, from.String(), now.UnixMilli())
	})
}

var _ booking.OrgHoldsStore = (*DB)(nil)
