package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/staykit/staykit/booking"
)

// PragmaForTest returns the value of a pragma on a connection of the write
// pool (write) or of the read pool.
func PragmaForTest(ctx context.Context, db *DB, write bool, name string) (string, error) {
	pool := db.read
	if write {
		pool = db.write
	}
	var v string
	if err := pool.QueryRowContext(ctx, "PRAGMA "+name).Scan(&v); err != nil {
		return "", fmt.Errorf("pragma %s: %w", name, err)
	}
	return v, nil
}

// UnpreparedForTest counts the hot-path queries that ran unprepared
// because their text is not among the prepared statements.
func UnpreparedForTest(db *DB) int64 {
	n := db.writeStmts.misses.Load()
	if db.readStmts != db.writeStmts {
		n += db.readStmts.misses.Load()
	}
	return n
}

// FillHistoryForTest inserts perProperty confirmed stays of three nights,
// back to back from start on, for each property of the organisation
// of the booking template (whose quote they copy), newest dates with the
// highest IDs: years of history in one statement.
func FillHistoryForTest(ctx context.Context, db *DB, template int64, perProperty int, start string) error {
	_, err := db.write.ExecContext(ctx, `
		WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
		INSERT INTO bookings (org_id, property_id, token, status, check_in, check_out, guests,
			currency, payment_mode, total_amount, charge_amount, paid_amount, balance_amount,
			quote, created_at, updated_at)
		SELECT t.org_id, p.id, 'h-' || p.id || '-' || n.i, 'confirmed',
			date(?2, '+' || (3 * n.i) || ' days'), date(?2, '+' || (3 * n.i + 3) || ' days'), t.guests,
			t.currency, t.payment_mode, t.total_amount, t.charge_amount, t.paid_amount, t.balance_amount,
			t.quote, t.created_at, t.updated_at
		FROM n, bookings t JOIN properties p ON p.org_id = t.org_id
		WHERE t.id = ?3 ORDER BY n.i, p.id`, perProperty, start, template)
	if err != nil {
		return fmt.Errorf("fill history: %w", err)
	}
	if _, err := db.write.ExecContext(ctx, `ANALYZE`); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	return nil
}

// ExplainBookingsPageForTest returns the plan of BookingsPage's query
// (EXPLAIN QUERY PLAN), one step a line.
func ExplainBookingsPageForTest(ctx context.Context, db *DB, orgID int64, q booking.BookingQuery) (string, error) {
	query, args := bookingsPageQuery(orgID, q)
	rows, err := db.read.QueryContext(ctx, `EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		return "", fmt.Errorf("explain: %w", err)
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			return "", fmt.Errorf("explain: %w", err)
		}
		plan.WriteString(detail + "\n")
	}
	return plan.String(), rows.Err()
}
