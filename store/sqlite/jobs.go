package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/staykit/staykit/jobs/enqueue"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// SetJobHook makes the store hand the work it records (ledger entries to
// send, outbox events and deliveries) to h, in the transaction that
// records it (package jobs installs it). Nil removes the hook; without
// one, jobs' safety-net sweep finds the work (DueWork).
func (db *DB) SetJobHook(h enqueue.SQLHook) {
	db.jobs.Set(h)
}

// JobPool is the pool the job engine (River, through its SQLite driver)
// runs on: the store's one write connection, so that River's claims queue
// behind the store's writes instead of failing with SQLITE_BUSY, and jobs
// inserted by the hook commit with the change that needs them.
func (db *DB) JobPool() *sql.DB { return db.write }

// migrateJobs creates or updates River's tables (river_job and its
// companions) with River's own migrator.
func (db *DB) migrateJobs(ctx context.Context) error {
	m, err := rivermigrate.New(riversqlite.New(db.write), nil)
	if err != nil {
		return fmt.Errorf("migrate jobs: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("migrate jobs: %w", err)
	}
	return nil
}

// enqueueWork hands work to the hook when q is a write transaction of a
// store that has one; otherwise it does nothing.
func enqueueWork(ctx context.Context, q querier, work ...enqueue.Work) error {
	t, ok := q.(txConn)
	if !ok || t.hook == nil || len(work) == 0 {
		return nil
	}
	return t.hook.EnqueueSQLTx(ctx, t.tx, work)
}

// deliveryWork lists the pending deliveries of an event, or one delivery
// (id not 0), as work.
func deliveryWork(ctx context.Context, q querier, eventID, id int64) ([]enqueue.Work, error) {
	return sqlflow.All(ctx, q, scanWork(enqueue.OutboxDelivery), `SELECT id, coalesce(endpoint_id, 0), next_attempt_at
		FROM outbox_deliveries WHERE (event_id = ? OR id = ?) AND status = ?`, eventID, id, string(outbox.StatusPending))
}

// scanWork reads rows of (id, parent, due at in milliseconds) as work of
// kind.
func scanWork(kind enqueue.Kind) sqlflow.Scan[enqueue.Work] {
	return func(_ rowmap.Codec, s rowmap.Scanner) (*enqueue.Work, error) {
		w := enqueue.Work{Kind: kind}
		var at int64
		if err := s.Scan(&w.ID, &w.Parent, &at); err != nil {
			return nil, err
		}
		w.At = time.UnixMilli(at).UTC()
		return &w, nil
	}
}

// DueWork lists, up to limit of each kind, the rows due at now that a job
// must carry out: pending ledger entries, undispatched outbox events,
// pending deliveries and active feeds. jobs' safety-net sweep enqueues
// them; a row that has its job already is skipped there (unique jobs).
func (db *DB) DueWork(ctx context.Context, now time.Time, limit int) ([]enqueue.Work, error) {
	return sqlflow.Get(ctx, db.run, "due work", func(q querier) ([]enqueue.Work, error) {
		var out []enqueue.Work
		for _, c := range []struct {
			kind  enqueue.Kind
			query string
			args  []any
		}{
			{enqueue.LedgerEntry, `SELECT id, booking_id, next_attempt_at FROM ledger_entries
				WHERE status = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
				[]any{string(ledger.StatusPending), now.UnixMilli(), limit}},
			{enqueue.OutboxEvent, `SELECT id, org_id, next_attempt_at FROM outbox_events
				WHERE dispatched_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
				[]any{now.UnixMilli(), limit}},
			{enqueue.OutboxDelivery, `SELECT id, coalesce(endpoint_id, 0), next_attempt_at FROM outbox_deliveries
				WHERE status = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
				[]any{string(outbox.StatusPending), now.UnixMilli(), limit}},
			{enqueue.Feed, `SELECT id, org_id, next_poll_at FROM ical_feeds
				WHERE active = 1 AND next_poll_at <= ? ORDER BY next_poll_at, id LIMIT ?`,
				[]any{now.UnixMilli(), limit}},
		} {
			work, err := sqlflow.All(ctx, q, scanWork(c.kind), c.query, c.args...)
			if err != nil {
				return nil, err
			}
			out = append(out, work...)
		}
		return out, nil
	})
}
