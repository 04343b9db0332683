package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/staykit/staykit/store/internal/rowmap"
)

// The hot queries — those of the public API's reads and of checkout — run
// through statements prepared once at Open: SQLite then parses each once
// per connection instead of once per call, which cost a quarter of a read's
// CPU (issue #17). A query is matched by its text, so call sites use these
// constants, and run them through hotRun, hotTx or readTx (db.go).
const (
	qOrganizationBySlug = `SELECT ` + rowmap.OrganizationColumns + ` FROM organizations WHERE slug = ?`
	qOrganizationByID   = `SELECT ` + rowmap.OrganizationColumns + ` FROM organizations WHERE id = ?`
	qProperty           = `SELECT ` + rowmap.PropertyColumns + ` FROM properties WHERE id = ? AND org_id = ?`
	qProperties         = `SELECT ` + rowmap.PropertyColumns + ` FROM properties WHERE org_id = ? ORDER BY id`
	qPropertyOfOrg      = `SELECT 1 FROM properties WHERE id = ? AND org_id = ?`
	qBlocksOf           = `SELECT ` + rowmap.BlockColumns + ` FROM blocks
		WHERE property_id = ? AND feed_id IS NULL ORDER BY start_date, id`
	// qBlocksOfOrg is every block of an organisation's properties, in
	// one query rather than one per property.
	qBlocksOfOrg = `SELECT property_id, ` + rowmap.BlockColumns + ` FROM blocks
		WHERE property_id IN (SELECT id FROM properties WHERE org_id = ?) AND feed_id IS NULL
		ORDER BY property_id, start_date, id`
	// qActiveUnits are a property's active units; qActiveUnit is the one
	// asked for (?2) when it is one of them. Two statements, not one with
	// (?2 = 0 OR id = ?2), which SQLite planned again at every step.
	qActiveUnits = `SELECT ` + rowmap.UnitColumns + ` FROM units
		WHERE property_id = ?1 AND retired_at IS NULL ORDER BY position, id`
	qActiveUnit = `SELECT ` + rowmap.UnitColumns + ` FROM units
		WHERE property_id = ?1 AND retired_at IS NULL AND id = ?2`
	// qUnitsOfOrg are the active units of an organisation's properties.
	qUnitsOfOrg = `SELECT u.id, u.property_id, u.name, u.position, u.retired_at, u.has_prices
		FROM properties p CROSS JOIN units u ON u.property_id = p.id
		WHERE p.org_id = ? AND u.retired_at IS NULL ORDER BY u.property_id, u.position, u.id`
	// qLinksOf are the links of a property, as whole or as part.
	qLinksOf = `SELECT whole_id, part_id FROM property_links WHERE part_id = ?1
		UNION ALL SELECT whole_id, part_id FROM property_links WHERE whole_id = ?1`
	// qLinksOfOrg are the links of an organisation's properties.
	qLinksOfOrg = `SELECT l.whole_id, l.part_id FROM properties p CROSS JOIN property_links l ON l.part_id = p.id
		WHERE p.org_id = ? ORDER BY l.whole_id, l.part_id`
	// linkedOf is the properties linked to ?1 (its whole, or its parts),
	// as a common table expression.
	linkedOf = `linked(id) AS (SELECT whole_id FROM property_links WHERE part_id = ?1
		UNION ALL SELECT part_id FROM property_links WHERE whole_id = ?1)`
	// qOccupied is what takes the nights [?3, ?2) of property ?1 at ?4:
	// its blocks and bookings holding dates, on their unit (NULL: every
	// unit), and those of its linked properties, on every unit (0).
	qOccupied = `WITH ` + linkedOf + `
		SELECT start_date, end_date, NULL, unit_id FROM blocks
			WHERE property_id = ?1 AND start_date < ?2 AND ?3 < end_date
		UNION ALL
		SELECT check_in, check_out, CASE WHEN status = 'pending' THEN expires_at END, unit_id FROM bookings
			WHERE property_id = ?1 AND check_in < ?2 AND ?3 < check_out AND ` + holdsDatesAt4 + `
		UNION ALL
		SELECT k.start_date, k.end_date, NULL, 0 FROM linked l CROSS JOIN blocks k ON k.property_id = l.id
			WHERE k.start_date < ?2 AND ?3 < k.end_date
		UNION ALL
		SELECT b.check_in, b.check_out, CASE WHEN b.status = 'pending' THEN b.expires_at END, 0
			FROM linked l CROSS JOIN bookings b ON b.property_id = l.id
			WHERE b.check_in < ?2 AND ?3 < b.check_out AND ` + orgHoldsDatesAt4 + `
		ORDER BY 1, 2`
	// qBookingOverlaps: a booking of property ?1 other than ?4 holding
	// dates at ?5 overlaps [?3, ?2), on unit ?6 (0: on any unit).
	qBookingOverlaps = `SELECT 1 FROM bookings
		WHERE property_id = ?1 AND check_in < ?2 AND ?3 < check_out AND id <> ?4 AND ` + holdsDatesAt5 + `
		AND (?6 = 0 OR unit_id = ?6) LIMIT 1`
	// qLinkedBookingOverlaps: a booking of a property linked to ?1, other
	// than ?4, holding dates at ?5 overlaps [?3, ?2).
	qLinkedBookingOverlaps = `WITH ` + linkedOf + `
		SELECT 1 FROM linked l CROSS JOIN bookings b ON b.property_id = l.id
		WHERE b.check_in < ?2 AND ?3 < b.check_out AND b.id <> ?4 AND ` + orgHoldsDatesAt5 + ` LIMIT 1`
	// qWholeBlocked: a block of the whole property ?1 (no unit) overlaps
	// [?3, ?2). qHasLinks: property ?1 is linked (a whole or a part).
	// qLinkedTaken: a block or a booking (other than ?4) holding dates at
	// ?5 of a property linked to ?1 overlaps [?3, ?2). wholeTaken runs the
	// last only for a linked property: the first two are planned once,
	// where one statement of the three was planned again at every step
	// (its bound dates reached the CTE's subqueries), a fifth of a
	// checkout's CPU.
	qWholeBlocked = `SELECT 1 FROM blocks
		WHERE property_id = ?1 AND unit_id IS NULL AND start_date < ?2 AND ?3 < end_date LIMIT 1`
	qHasLinks = `SELECT 1 FROM property_links WHERE part_id = ?1
		UNION ALL SELECT 1 FROM property_links WHERE whole_id = ?1 LIMIT 1`
	qLinkedTaken = `WITH ` + linkedOf + `
		SELECT 1 WHERE EXISTS (SELECT 1 FROM linked l CROSS JOIN blocks k ON k.property_id = l.id
				WHERE k.start_date < ?2 AND ?3 < k.end_date)
			OR EXISTS (SELECT 1 FROM linked l CROSS JOIN bookings b ON b.property_id = l.id
				WHERE b.check_in < ?2 AND ?3 < b.check_out AND b.id <> ?4 AND ` + orgHoldsDatesAt5 + `)`
	// qUnitHolds are the holds of property ?1's units over [?3, ?2) at ?5
	// (bookings other than ?4, blocks of one unit), for the best fit.
	qUnitHolds = `
		SELECT check_in, check_out, NULL, unit_id FROM bookings
			WHERE property_id = ?1 AND check_in < ?2 AND ?3 < check_out AND id <> ?4 AND ` + holdsDatesAt5 + `
		UNION ALL
		SELECT start_date, end_date, NULL, unit_id FROM blocks
			WHERE property_id = ?1 AND unit_id IS NOT NULL AND start_date < ?2 AND ?3 < end_date`
	qBookingByToken = `SELECT ` + bookingColumns + ` FROM bookings WHERE ` + whereToken
	whereToken      = `org_id = ? AND token = ?`
	qInsertBooking  = `INSERT INTO bookings (` + bookingColumns + `)
		VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING id`
	qSetPaymentIntent = `UPDATE bookings SET payment_intent_id = ?, client_secret = ? WHERE id = ?`
	qCouponByCode     = `SELECT ` + rowmap.CouponColumns + ` FROM coupons WHERE org_id = ? AND code = ?`
	qCouponHolders    = `SELECT count(*) FROM bookings WHERE coupon_id = ? AND ` + holdsDates
	qFindKey          = `SELECT ` + rowmap.IdempotencyColumns + `
		FROM idempotency_keys WHERE org_id = ? AND scope = ? AND key = ? AND created_at >= ?`
	qForgetStaleKey = `DELETE FROM idempotency_keys
		WHERE org_id = ? AND scope = ? AND key = ? AND created_at < ?`
	qInsertKey = `INSERT INTO idempotency_keys (` + rowmap.IdempotencyColumns + `) VALUES (?, ?, ?, ?, ?, ?)`
	// Per-day calendars, settings and terms: read by every quote,
	// availability and checkout since issues #12 and #16.
	qCalendarDays = `SELECT ` + rowmap.CalendarDayColumns + ` FROM calendar_days
		WHERE property_id = ? AND day >= ? AND day < ? ORDER BY day`
	qSettings = `SELECT data FROM booking_settings WHERE org_id = ? AND property_id = ?`
	qTerms    = `SELECT version, data FROM booking_terms WHERE booking_id = ?`
	// qInsertTerms stores a new booking's terms in CreateBooking.
	qInsertTerms = `INSERT INTO booking_terms (booking_id, version, data) VALUES (?, 1, ?)`
	// qClosedOfStay is what CreateBooking needs of the calendar days of a
	// stay: which dates have one, and whether it closes the night.
	qClosedOfStay = `SELECT day, closed FROM calendar_days WHERE property_id = ? AND day >= ? AND day < ?`
	// qInsertBookingAccount records a new booking's payment account in
	// CreateBooking.
	qInsertBookingAccount = `INSERT INTO booking_payment_accounts (booking_id, account_id) VALUES (?, ?)`
)

// hotReads are prepared on the read pool.
func hotReads() []string {
	return []string{qOrganizationBySlug, qOrganizationByID, qProperty, qProperties, qBlocksOf,
		qBlocksOfOrg, qOccupied, qBookingByToken, qCouponByCode, qCouponHolders, qFindKey, qHolds,
		qCalendarDays, qSettings, qTerms, qActiveUnits, qActiveUnit, qUnitsOfOrg, qLinksOf, qLinksOfOrg}
}

// hotWrites are prepared on the write pool: checkout's transaction.
func hotWrites() []string {
	return []string{qPropertyOfOrg, qWholeBlocked, qHasLinks, qLinkedTaken, qActiveUnits, qActiveUnit, qUnitHolds, qInsertBooking,
		qSetPaymentIntent, qCouponHolders, qFindKey, qForgetStaleKey, qInsertKey, qInsertTerms,
		qClosedOfStay, qInsertBookingAccount}
}

// prepared is a set of statements prepared on one pool.
type prepared struct {
	stmts map[string]*sql.Stmt
	// misses counts hot-path queries run unprepared: a query whose text
	// is not in the set. Tests expect none.
	misses atomic.Int64
}

// prepare prepares queries on pool; database/sql prepares each again on
// the pool's other connections the first time it runs there.
func prepare(ctx context.Context, pool *sql.DB, queries ...[]string) (*prepared, error) {
	p := &prepared{stmts: map[string]*sql.Stmt{}}
	for _, list := range queries {
		for _, q := range list {
			if p.stmts[q] != nil {
				continue
			}
			st, err := pool.PrepareContext(ctx, q)
			if err != nil {
				p.close()
				return nil, fmt.Errorf("prepare %.60q: %w", q, err)
			}
			p.stmts[q] = st
		}
	}
	return p, nil
}

// close closes the statements.
func (p *prepared) close() error {
	var errs []error
	for _, st := range p.stmts {
		errs = append(errs, st.Close())
	}
	return errors.Join(errs...)
}

// on returns a querier running p's statements on q, which is p's pool or,
// when tx is not nil, tx, a transaction of that pool. Other queries run
// unprepared on q and count as misses.
func (p *prepared) on(q stdQuerier, tx *sql.Tx) stdQuerier {
	return stmtQuerier{p: p, q: q, tx: tx}
}

// stmtQuerier is a querier that looks each query up in a prepared set.
type stmtQuerier struct {
	p  *prepared
	q  stdQuerier
	tx *sql.Tx
}

// stmt returns the prepared statement of query, bound to the transaction
// if there is one, or nil.
func (s stmtQuerier) stmt(ctx context.Context, query string) *sql.Stmt {
	st := s.p.stmts[query]
	if st == nil {
		s.p.misses.Add(1)
		return nil
	}
	if s.tx != nil {
		// Reuses the statement already prepared on the transaction's
		// connection; closed with the transaction.
		return s.tx.StmtContext(ctx, st)
	}
	return st
}

func (s stmtQuerier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := s.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return s.q.ExecContext(ctx, query, args...)
}

func (s stmtQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := s.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return s.q.QueryContext(ctx, query, args...)
}
