package sqlite

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// qHolds reads what takes property ?1's nights from ?2 on at ?3, for the
// read model (store/cache): blocks, and bookings holding dates with the
// expiry of the pending ones (NULL for the others), on their unit (NULL:
// every unit), and those of the linked properties, on every unit (0).
const qHolds = `WITH ` + linkedOf + `
	SELECT start_date, end_date, NULL, unit_id FROM blocks
		WHERE property_id = ?1 AND ?2 < end_date
	UNION ALL
	SELECT check_in, check_out, CASE WHEN status = 'pending' THEN expires_at END, unit_id FROM bookings
		WHERE property_id = ?1 AND ?2 < check_out AND (status IN ('requested', 'confirmed') OR (status = 'pending' AND expires_at > ?3))
	UNION ALL
	SELECT k.start_date, k.end_date, NULL, 0 FROM linked l CROSS JOIN blocks k ON k.property_id = l.id
		WHERE ?2 < k.end_date
	UNION ALL
	SELECT b.check_in, b.check_out, CASE WHEN b.status = 'pending' THEN b.expires_at END, 0
		FROM linked l CROSS JOIN bookings b ON b.property_id = l.id
		WHERE ?2 < b.check_out AND (b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > ?3))
	ORDER BY 1, 2`

// Holds returns the blocks and the bookings holding dates at now that take
// the property's nights from from on; see booking.ReadModelStore.
func (db *DB) Holds(ctx context.Context, propertyID int64, from civil.Date, now time.Time) ([]booking.Hold, error) {
	return sqlflow.Get(ctx, db.hotRun, "holds", func(q querier) ([]booking.Hold, error) {
		return sqlflow.All(ctx, q, rowmap.ScanHold, qHolds, propertyID, from.String(), now.UnixMilli())
	})
}

// qOrgHolds is qHolds of every property of organisation ?1. CROSS JOIN
// keeps SQLite's order: the organisation's properties (properties_org),
// then each one's blocks and bookings through their property's indexes,
// whatever the statistics say; then the holds of their linked properties.
const qOrgHolds = `WITH pl(prop, other) AS (SELECT part_id, whole_id FROM property_links
		UNION ALL SELECT whole_id, part_id FROM property_links)
	SELECT p.id, b.start_date, b.end_date, NULL, b.unit_id FROM properties p CROSS JOIN blocks b ON b.property_id = p.id
		WHERE p.org_id = ?1 AND ?2 < b.end_date
	UNION ALL
	SELECT p.id, b.check_in, b.check_out, CASE WHEN b.status = 'pending' THEN b.expires_at END, b.unit_id
		FROM properties p CROSS JOIN bookings b ON b.property_id = p.id
		WHERE p.org_id = ?1 AND ?2 < b.check_out AND ` + orgHoldsDates + `
	UNION ALL
	SELECT p.id, k.start_date, k.end_date, NULL, 0
		FROM properties p CROSS JOIN pl ON pl.prop = p.id CROSS JOIN blocks k ON k.property_id = pl.other
		WHERE p.org_id = ?1 AND ?2 < k.end_date
	UNION ALL
	SELECT p.id, b.check_in, b.check_out, CASE WHEN b.status = 'pending' THEN b.expires_at END, 0
		FROM properties p CROSS JOIN pl ON pl.prop = p.id CROSS JOIN bookings b ON b.property_id = pl.other
		WHERE p.org_id = ?1 AND ?2 < b.check_out AND ` + orgHoldsDates + `
	ORDER BY 1, 2, 3`

// orgHoldsDates is holdsDates of the bookings b, now being ?3.
const orgHoldsDates = `(b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > ?3))`

// OrgHolds returns the holds of every property of an organisation in one
// query; see booking.OrgHoldsStore.
func (db *DB) OrgHolds(ctx context.Context, orgID int64, from civil.Date, now time.Time) ([]booking.PropertyHold, error) {
	return sqlflow.Get(ctx, db.hotRun, "org holds", func(q querier) ([]booking.PropertyHold, error) {
		return sqlflow.All(ctx, q, rowmap.ScanPropertyHold, qOrgHolds, orgID, from.String(), now.UnixMilli())
	})
}

var _ booking.OrgHoldsStore = (*DB)(nil)
