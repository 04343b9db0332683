package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
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
func (db *DB) SetJobHook(h enqueue.PgxHook) {
	db.jobs.Set(h)
}

// JobPool is the pool the job engine (River, through its pgx driver) runs
// on: the store's, so River's tables live beside the store's (in its
// schema, through search_path).
func (db *DB) JobPool() *pgxpool.Pool { return db.pool.Pool }

// migrateJobs creates or updates River's tables (river_job and its
// companions) with River's own migrator, each version in its own
// transaction (some add enum values, which PostgreSQL refuses to use in
// the transaction that adds them), while a connection holds the store's
// migration lock, so replicas opening together migrate once.
func (db *DB) migrateJobs(ctx context.Context) error {
	m, err := rivermigrate.New(riverpgxv5.New(db.pool.Pool), nil)
	if err != nil {
		return fmt.Errorf("migrate jobs: %w", err)
	}
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate jobs: %w", err)
	}
	defer conn.Release()
	key := migrations().LockKey
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtextextended($1, 0))`, key); err != nil {
		return fmt.Errorf("migrate jobs: lock: %w", err)
	}
	defer func() {
		_, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, key)
	}()
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
	return t.hook.EnqueuePgxTx(ctx, t.tx, work)
}

// deliveryWork lists the pending deliveries of an event, or one delivery
// (id not 0), as work.
func deliveryWork(ctx context.Context, q querier, eventID, id int64) ([]enqueue.Work, error) {
	return sqlflow.All(ctx, q, scanWork(enqueue.OutboxDelivery), `SELECT id, coalesce(endpoint_id, 0), next_attempt_at
		FROM outbox_deliveries WHERE (event_id = $1 OR id = $2) AND status = $3`, eventID, id, string(outbox.StatusPending))
}

// scanWork reads rows of (id, parent, due at) as work of kind.
func scanWork(kind enqueue.Kind) sqlflow.Scan[enqueue.Work] {
	return func(_ rowmap.Codec, s rowmap.Scanner) (*enqueue.Work, error) {
		w := enqueue.Work{Kind: kind}
		if err := s.Scan(&w.ID, &w.Parent, &w.At); err != nil {
			return nil, err
		}
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
				WHERE status = $1 AND next_attempt_at <= $2 ORDER BY next_attempt_at, id LIMIT $3`,
				[]any{string(ledger.StatusPending), now, limit}},
			{enqueue.OutboxEvent, `SELECT id, org_id, next_attempt_at FROM outbox_events
				WHERE dispatched_at IS NULL AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT $2`,
				[]any{now, limit}},
			{enqueue.OutboxDelivery, `SELECT id, coalesce(endpoint_id, 0), next_attempt_at FROM outbox_deliveries
				WHERE status = $1 AND next_attempt_at <= $2 ORDER BY next_attempt_at, id LIMIT $3`,
				[]any{string(outbox.StatusPending), now, limit}},
			{enqueue.Feed, `SELECT id, org_id, next_poll_at FROM ical_feeds
				WHERE active AND next_poll_at <= $1 ORDER BY next_poll_at, id LIMIT $2`,
				[]any{now, limit}},
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
