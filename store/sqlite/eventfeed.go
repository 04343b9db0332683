package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/jobs/enqueue"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ eventfeed.Store = (*DB)(nil)

// internalKinds is outbox.InternalKinds as a JSON array, which queries
// read with json_each.
func internalKinds() string {
	b, _ := json.Marshal(outbox.InternalKinds()) // strings: never fails
	return string(b)
}

// scanFeedEntry reads EventColumns and acked_at.
func scanFeedEntry(c rowmap.Codec, s rowmap.Scanner) (*eventfeed.Entry, error) {
	var acked sql.NullInt64
	ev, err := rowmap.ScanEvent(c, scanTail{s, &acked})
	if err != nil {
		return nil, err
	}
	return &eventfeed.Entry{Event: *ev, AckedAt: fromMillis(acked)}, nil
}

// scanTail is a Scanner that reads extra trailing columns into tail.
type scanTail struct {
	s    rowmap.Scanner
	tail any
}

func (t scanTail) Scan(dest ...any) error { return t.s.Scan(append(dest, t.tail)...) }

// FeedEvents lists an organisation's events after an id: in id order,
// which is commit order here (one writer at a time).
func (db *DB) FeedEvents(ctx context.Context, orgID int64, after int64, limit int, unacked bool) ([]eventfeed.Entry, error) {
	return sqlflow.Get(ctx, db.run, "feed events", func(q querier) ([]eventfeed.Entry, error) {
		return sqlflow.All(ctx, q, scanFeedEntry, `SELECT `+rowmap.EventColumns+`, acked_at FROM outbox_events
			WHERE org_id = ? AND id > ? AND kind NOT IN (SELECT value FROM json_each(?)) AND (NOT ? OR acked_at IS NULL)
			ORDER BY id LIMIT ?`,
			orgID, after, internalKinds(), unacked, limit)
	})
}

// AckFeedEvent acknowledges one event.
func (db *DB) AckFeedEvent(ctx context.Context, orgID, eventID int64, now time.Time) error {
	return db.tx(ctx, "ack feed event", func(q querier) error {
		return sqlflow.Exec(ctx, q, outboxNotFound("event"), `UPDATE outbox_events SET acked_at = coalesce(acked_at, ?)
			WHERE id = ? AND org_id = ? AND kind NOT IN (SELECT value FROM json_each(?))`, now.UnixMilli(), eventID, orgID, internalKinds())
	})
}

// AckFeedEventsUpTo acknowledges the events up to a position.
func (db *DB) AckFeedEventsUpTo(ctx context.Context, orgID int64, upTo int64, now time.Time) (int, error) {
	n, err := sqlflow.Get(ctx, db.tx, "ack feed events", func(q querier) (int64, error) {
		return q.Exec(ctx, `UPDATE outbox_events SET acked_at = ? WHERE org_id = ? AND id <= ? AND acked_at IS NULL
			AND kind NOT IN (SELECT value FROM json_each(?))`, now.UnixMilli(), orgID, upTo, internalKinds())
	})
	return int(n), err
}

// ReplayWebhookRange makes an endpoint's deliveries of a time range due
// again and enqueues their jobs.
func (db *DB) ReplayWebhookRange(ctx context.Context, orgID, endpointID int64, from, to, now time.Time) (int, error) {
	n, err := sqlflow.Get(ctx, db.tx, "replay webhook range", func(q querier) (int64, error) {
		ok, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM webhook_endpoints WHERE id = ? AND org_id = ?`, endpointID, orgID)
		if err != nil || !ok {
			return 0, cmp.Or(err, outboxNotFound("endpoint"))
		}
		n, err := q.Exec(ctx, `UPDATE outbox_deliveries SET status = ?, attempts = 0, next_attempt_at = ?, updated_at = ?,
			last_error = '', delivered_at = NULL
			WHERE endpoint_id = ? AND NOT (status = ? AND next_attempt_at < ?)
			AND event_id IN (SELECT id FROM outbox_events WHERE org_id = ? AND created_at >= ? AND created_at < ?)`,
			string(outbox.StatusPending), now.UnixMilli(), now.UnixMilli(), endpointID, string(outbox.StatusPending),
			now.Add(outbox.MaxLease).UnixMilli(), orgID, from.UnixMilli(), to.UnixMilli())
		if err != nil || n == 0 {
			return n, err
		}
		work, err := sqlflow.All(ctx, q, scanWork(enqueue.OutboxDelivery), `SELECT id, coalesce(endpoint_id, 0), next_attempt_at
			FROM outbox_deliveries WHERE endpoint_id = ? AND status = ? AND next_attempt_at = ? AND updated_at = ?`,
			endpointID, string(outbox.StatusPending), now.UnixMilli(), now.UnixMilli())
		if err != nil {
			return 0, err
		}
		return n, enqueueWork(ctx, q, work...)
	})
	return int(n), err
}
