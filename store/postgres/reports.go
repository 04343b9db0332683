package postgres

import (
	"context"
	"time"

	"github.com/staykit/staykit/reports"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ reports.Store = (*DB)(nil)

// LedgerEntriesMoved lists the entries of the organisation's bookings
// whose money moved in [from, to), with each booking's earlier entries.
func (db *DB) LedgerEntriesMoved(ctx context.Context, orgID int64, from, to time.Time) ([]reports.Entry, error) {
	return sqlflow.Get(ctx, db.run, "ledger entries moved", func(q querier) ([]reports.Entry, error) {
		return sqlflow.All(ctx, q, rowmap.ScanReportEntry, `SELECT `+rowmap.ReportEntryColumns+` FROM ledger_entries
			JOIN (SELECT id AS report_booking_id, property_id FROM bookings WHERE org_id = $1) b
				ON b.report_booking_id = ledger_entries.booking_id
			WHERE booking_id IN (SELECT m.booking_id FROM ledger_entries m JOIN bookings mb ON mb.id = m.booking_id
				WHERE mb.org_id = $1 AND m.updated_at >= $2 AND m.updated_at < $3)
			ORDER BY booking_id, id`, orgID, from, to)
	})
}
