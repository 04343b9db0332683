package postgres

import (
	"cmp"
	"context"
	"time"

	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/jobs/enqueue"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ eventfeed.Store = (*DB)(nil)

// scanFeedEntry reads EventColumns and acked_at.
func scanFeedEntry(c rowmap.Codec, s rowmap.Scanner) (*eventfeed.Entry, error) {
	var acked *time.Time
	ev, err := rowmap.ScanEvent(c, scanTail{s, &acked})
	if err != nil {
		return nil, err
	}
	e := &eventfeed.Entry{Event: *ev}
	if acked != nil {
		e.AckedAt = acked.UTC()
	}
	return e, nil
}

// scanTail is a Scanner that reads an extra trailing column into tail.
type scanTail struct {
	s    rowmap.Scanner
	tail any
}

func (t scanTail) Scan(dest ...any) error { return t.s.Scan(append(dest, t.tail)...) }

// feedLockTimeout bounds a feed read's wait for the transactions writing
// events.
const feedLockTimeout = "5s"

// FeedEvents lists an organisation's events after an id, in id order.
// Ids are taken before commit, so the read first waits for every
// transaction writing outbox_events to end (SHARE mode conflicts with
// their ROW EXCLUSIVE, which an INSERT takes before it draws its id), and
// keeps new ones out until it is done: every id below the ones it reads
// is committed or gone for good, and every id drawn later is larger.
func (db *DB) FeedEvents(ctx context.Context, orgID int64, after int64, limit int, unacked bool) ([]eventfeed.Entry, error) {
	return sqlflow.Get(ctx, db.tx, "feed events", func(q querier) ([]eventfeed.Entry, error) {
		if err := sqlflow.Exec(ctx, q, nil, `SET LOCAL lock_timeout = '`+feedLockTimeout+`'`); err != nil {
			return nil, err
		}
		if err := sqlflow.Exec(ctx, q, nil, `LOCK TABLE outbox_events IN SHARE MODE`); err != nil {
			return nil, err
		}
		return sqlflow.All(ctx, q, scanFeedEntry, `SELECT `+rowmap.EventColumns+`, acked_at FROM outbox_events
			WHERE org_id = $1 AND id > $2 AND kind <> ALL ($3::text[]) AND (NOT $4 OR acked_at IS NULL) ORDER BY id LIMIT $5`,
			orgID, after, outbox.InternalKinds(), unacked, limit)
	})
}

// AckFeedEvent acknowledges one event.
func (db *DB) AckFeedEvent(ctx context.Context, orgID, eventID int64, now time.Time) error {
	return db.run(ctx, "ack feed event", func(q querier) error {
		return sqlflow.Exec(ctx, q, outboxNotFound("event"), `UPDATE outbox_events SET acked_at = coalesce(acked_at, $1)
			WHERE id = $2 AND org_id = $3 AND kind <> ALL ($4::text[])`, now, eventID, orgID, outbox.InternalKinds())
	})
}

// AckFeedEventsUpTo acknowledges the events up to a position.
func (db *DB) AckFeedEventsUpTo(ctx context.Context, orgID int64, upTo int64, now time.Time) (int, error) {
	n, err := sqlflow.Get(ctx, db.run, "ack feed events", func(q querier) (int64, error) {
		return q.Exec(ctx, `UPDATE outbox_events SET acked_at = $1 WHERE org_id = $2
			AND id <= $3 AND acked_at IS NULL AND kind <> ALL ($4::text[])`, now, orgID, upTo, outbox.InternalKinds())
	})
	return int(n), err
}

// ReplayWebhookRange makes an endpoint's deliveries of a time range due
// again and enqueues their jobs.
func (db *DB) ReplayWebhookRange(ctx context.Context, orgID, endpointID int64, from, to, now time.Time) (int, error) {
	n, err := sqlflow.Get(ctx, db.tx, "replay webhook range", func(q querier) (int64, error) {
		ok, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM webhook_endpoints WHERE id = $1 AND org_id = $2`, endpointID, orgID)
		if err != nil || !ok {
			return 0, cmp.Or(err, outboxNotFound("endpoint"))
		}
		work, err := sqlflow.All(ctx, q, scanWork(enqueue.OutboxDelivery), `UPDATE outbox_deliveries
			SET status = $1, attempts = 0, next_attempt_at = $2, updated_at = $2, last_error = '', delivered_at = NULL
			WHERE endpoint_id = $3 AND NOT (status = $1 AND next_attempt_at < $4)
			AND event_id IN (SELECT id FROM outbox_events WHERE org_id = $5 AND created_at >= $6 AND created_at < $7)
			RETURNING id, coalesce(endpoint_id, 0), next_attempt_at`,
			string(outbox.StatusPending), now, endpointID, now.Add(outbox.MaxLease), orgID, from, to)
		if err != nil {
			return 0, err
		}
		return int64(len(work)), enqueueWork(ctx, q, work...)
	})
	return int(n), err
}
