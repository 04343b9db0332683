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
// the property's nights from from on, on their unit, and those of the
// properties linked to it, on every unit; see booking.ReadModelStore.
func (db *DB) Holds(ctx context.Context, propertyID int64, from civil.Date, now time.Time) ([]booking.Hold, error) {
	return sqlflow.Get(ctx, db.run, "holds", func(q querier) ([]booking.Hold, error) {
		return sqlflow.All(ctx, q, rowmap.ScanHold, `WITH `+linkedOf+`
			SELECT start_date, end_date, NULL::timestamptz, unit_id FROM blocks
				WHERE property_id = $1 AND $2 < end_date
			UNION ALL
			SELECT check_in, check_out, CASE WHEN status = 'pending' THEN expires_at END, unit_id FROM bookings
				WHERE property_id = $1 AND $2 < check_out AND `+holdsDates(3)+`
			UNION ALL
			SELECT k.start_date, k.end_date, NULL::timestamptz, 0 FROM linked l JOIN blocks k ON k.property_id = l.id
				WHERE $2 < k.end_date
			UNION ALL
			SELECT b.check_in, b.check_out, CASE WHEN b.status = 'pending' THEN b.expires_at END, 0
				FROM linked l JOIN bookings b ON b.property_id = l.id
				WHERE $2 < b.check_out AND (b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > $3))
			ORDER BY 1, 2`,
			propertyID, rowmap.Date(from), now)
	})
}

// OrgHolds returns the holds of every property of an organisation in one
// query; see booking.OrgHoldsStore.
func (db *DB) OrgHolds(ctx context.Context, orgID int64, from civil.Date, now time.Time) ([]booking.PropertyHold, error) {
	return sqlflow.Get(ctx, db.run, "org holds", func(q querier) ([]booking.PropertyHold, error) {
		return sqlflow.All(ctx, q, rowmap.ScanPropertyHold, `WITH pl(prop, other) AS (
				SELECT part_id, whole_id FROM property_links UNION ALL SELECT whole_id, part_id FROM property_links)
			SELECT p.id, b.start_date, b.end_date, NULL::timestamptz, b.unit_id FROM properties p JOIN blocks b ON b.property_id = p.id
				WHERE p.org_id = $1 AND $2 < b.end_date
			UNION ALL
			SELECT p.id, b.check_in, b.check_out, CASE WHEN b.status = 'pending' THEN b.expires_at END, b.unit_id
				FROM properties p JOIN bookings b ON b.property_id = p.id
				WHERE p.org_id = $1 AND $2 < b.check_out AND (b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > $3))
			UNION ALL
			SELECT p.id, k.start_date, k.end_date, NULL::timestamptz, 0
				FROM properties p JOIN pl ON pl.prop = p.id JOIN blocks k ON k.property_id = pl.other
				WHERE p.org_id = $1 AND $2 < k.end_date
			UNION ALL
			SELECT p.id, b.check_in, b.check_out, CASE WHEN b.status = 'pending' THEN b.expires_at END, 0
				FROM properties p JOIN pl ON pl.prop = p.id JOIN bookings b ON b.property_id = pl.other
				WHERE p.org_id = $1 AND $2 < b.check_out AND (b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > $3))
			ORDER BY 1, 2, 3`,
			orgID, rowmap.Date(from), now)
	})
}

var _ booking.OrgHoldsStore = (*DB)(nil)
