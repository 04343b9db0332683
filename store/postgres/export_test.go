package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/staykit/staykit/booking"
)

// ExplainBookingsPageForTest returns the plan of BookingsPage's query
// (EXPLAIN), one node a line.
func ExplainBookingsPageForTest(ctx context.Context, db *DB, orgID int64, q booking.BookingQuery) (string, error) {
	query, args := bookingsPageQuery(orgID, q)
	rows, err := db.pool.Query(ctx, `EXPLAIN `+query, args...)
	if err != nil {
		return "", fmt.Errorf("explain: %w", err)
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return "", fmt.Errorf("explain: %w", err)
		}
		plan.WriteString(line + "\n")
	}
	return plan.String(), rows.Err()
}
