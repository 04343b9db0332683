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

// OrgHolds returns the holds of every property of an organisation in one
// query; see booking.OrgHoldsStore.
func (db *DB) OrgHolds(ctx context.Context, orgID int64, from civil.Date, now time.Time) ([]booking.PropertyHold, error) {
	return sqlflow.Get(ctx, db.run, "org holds", func(q querier) ([]booking.PropertyHold, error) {
		return sqlflow.All(ctx, q, rowmap.ScanPropertyHold, `
			SELECT p.id, b.start_date, b.end_date, NULL::timestamptz FROM properties p JOIN blocks b ON b.property_id = p.id
				WHERE p.org_id = $1 AND $2 < b.end_date
			UNION ALL
			SELECT p.id, b.check_in, b.check_out, CASE WHEN b.status = 'pending' THEN b.expires_at END
				FROM properties p JOIN bookings b ON b.property_id = p.id
				WHERE p.org_id = $1 AND $2 < b.check_out AND (b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > $3))
			ORDER BY 1, 2, 3`,
			orgID, rowmap.Date(from), now)
	})
}

var _ booking.OrgHoldsStore = (*DB)(nil)
