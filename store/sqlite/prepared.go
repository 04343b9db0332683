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
	qBlocksOf           = `SELECT id, start_date, end_date, reason FROM blocks
		WHERE property_id = ? AND feed_id IS NULL ORDER BY start_date, id`
	// qBlocksOfOrg is every block of an organisation's properties, in
	// one query rather than one per property.
	qBlocksOfOrg = `SELECT property_id, id, start_date, end_date, reason FROM blocks
		WHERE property_id IN (SELECT id FROM properties WHERE org_id = ?) AND feed_id IS NULL
		ORDER BY property_id, start_date, id`
	qOccupied = `
		SELECT start_date, end_date FROM blocks
			WHERE property_id = ? AND start_date < ? AND ? < end_date
		UNION ALL
		SELECT check_in, check_out FROM bookings
			WHERE property_id = ? AND check_in < ? AND ? < check_out AND ` + holdsDates + `
		ORDER BY 1, 2`
	qBookingOverlaps = `SELECT 1 FROM bookings
		WHERE property_id = ? AND check_in < ? AND ? < check_out AND id <> ? AND ` + holdsDates + `
		LIMIT 1`
	qBlockOverlaps = `SELECT 1 FROM blocks
		WHERE property_id = ? AND start_date < ? AND ? < end_date LIMIT 1`
	qBookingByToken = `SELECT ` + bookingColumns + ` FROM bookings WHERE ` + whereToken
	whereToken      = `org_id = ? AND token = ?`
	qInsertBooking  = `INSERT INTO bookings (` + bookingColumns + `)
		VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
		qCalendarDays, qSettings, qTerms}
}

// hotWrites are prepared on the write pool: checkout's transaction.
func hotWrites() []string {
	return []string{qPropertyOfOrg, qBookingOverlaps, qBlockOverlaps, qInsertBooking,
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
