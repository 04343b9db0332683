package postgres

import (
	"context"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/jobs/enqueue"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// RecordOutbox stores events whose key is new, in one transaction.
func (db *DB) RecordOutbox(ctx context.Context, events []outbox.Event, now time.Time) ([]outbox.Event, error) {
	events, err := outbox.PrepareEvents(events, 0, now)
	if err != nil {
		return nil, booking.Invalid(err)
	}
	if err := db.tx(ctx, "record outbox", func(q querier) error { return recordOutbox(ctx, q, events) }); err != nil {
		return nil, err
	}
	return events, nil
}

// recordOutbox inserts prepared events unless their key is recorded, and
// sets each to the stored row.
func recordOutbox(ctx context.Context, q querier, events []outbox.Event) error {
	for i := range events {
		e := &events[i]
		err := sqlflow.Exec(ctx, q, nil, `INSERT INTO outbox_events (key, kind, org_id, booking_id, entry_id, next_attempt_at, created_at, data)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (key) DO NOTHING`,
			e.Key, e.Kind, e.OrgID, rowmap.NullID(e.BookingID), e.EntryID, e.NextAttemptAt, e.CreatedAt, string(e.Data))
		if sqlState(err) == foreignKeyViolation {
			return booking.Errorf(booking.CodeNotFound, "This organisation or booking does not exist.")
		}
		if err != nil {
			return err
		}
		stored, err := sqlflow.One(ctx, q, rowmap.ScanEvent, sqlflow.ErrNoRow,
			`SELECT `+rowmap.EventColumns+` FROM outbox_events WHERE key = $1`, e.Key)
		if err != nil {
			return err
		}
		*e = *stored
	}
	return enqueueWork(ctx, q, enqueue.EventWork(events)...)
}

// ClaimOutboxEvents leases due undispatched events; SKIP LOCKED lets two
// replicas claim at once without taking the same event.
func (db *DB) ClaimOutboxEvents(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Event, error) {
	return sqlflow.Get(ctx, db.run, "claim outbox events", func(q querier) ([]outbox.Event, error) {
		return sqlflow.All(ctx, q, rowmap.ScanEvent, `UPDATE outbox_events SET next_attempt_at = $2 WHERE id IN (
				SELECT id FROM outbox_events WHERE dispatched_at IS NULL AND next_attempt_at <= $1
				ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
			RETURNING `+rowmap.EventColumns, now, leaseUntil, limit)
	})
}

// DispatchOutboxEvent stores an event's deliveries and marks it dispatched.
func (db *DB) DispatchOutboxEvent(ctx context.Context, eventID int64, deliveries []outbox.Delivery, now time.Time) error {
	ds := outbox.PrepareDeliveries(deliveries, eventID, now)
	return db.tx(ctx, "dispatch outbox event", func(q querier) error {
		if err := sqlflow.Exec(ctx, q, outboxNotFound("event"),
			`UPDATE outbox_events SET dispatched_at = coalesce(dispatched_at, $1) WHERE id = $2`, now, eventID); err != nil {
			return err
		}
		for _, d := range ds {
			if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO outbox_deliveries (event_id, target, channel, recipient, endpoint_id,
				status, attempts, next_attempt_at, last_error, response_code, created_at, updated_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (event_id, target) DO NOTHING`,
				eventID, d.Target(), string(d.Channel), d.To, rowmap.NullID(d.EndpointID), string(d.Status), d.Attempts,
				d.NextAttemptAt, d.LastError, d.ResponseCode, d.CreatedAt, d.UpdatedAt); err != nil {
				return err
			}
		}
		work, err := deliveryWork(ctx, q, eventID, 0)
		if err != nil {
			return err
		}
		return enqueueWork(ctx, q, work...)
	})
}

// OutboxEvent finds an event.
func (db *DB) OutboxEvent(ctx context.Context, id int64) (*outbox.Event, error) {
	return sqlflow.Get(ctx, db.run, "outbox event", func(q querier) (*outbox.Event, error) {
		return sqlflow.One(ctx, q, rowmap.ScanEvent, outboxNotFound("event"),
			`SELECT `+rowmap.EventColumns+` FROM outbox_events WHERE id = $1`, id)
	})
}

// ClaimOutboxDeliveries leases due pending deliveries, SKIP LOCKED as
// ClaimOutboxEvents.
func (db *DB) ClaimOutboxDeliveries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Delivery, error) {
	return sqlflow.Get(ctx, db.run, "claim outbox deliveries", func(q querier) ([]outbox.Delivery, error) {
		return sqlflow.All(ctx, q, rowmap.ScanDelivery, `UPDATE outbox_deliveries SET next_attempt_at = $3 WHERE id IN (
				SELECT id FROM outbox_deliveries WHERE status = $1 AND next_attempt_at <= $2
				ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
			RETURNING `+rowmap.DeliveryColumns, string(outbox.StatusPending), now, leaseUntil, limit)
	})
}

// UpdateOutboxDelivery saves what an attempt changed.
func (db *DB) UpdateOutboxDelivery(ctx context.Context, d *outbox.Delivery) error {
	return db.run(ctx, "update outbox delivery", func(q querier) error {
		return sqlflow.Exec(ctx, q, outboxNotFound("delivery"), `UPDATE outbox_deliveries SET status = $1, attempts = $2,
			next_attempt_at = $3, last_error = $4, response_code = $5, updated_at = $6, delivered_at = $7 WHERE id = $8`,
			string(d.Status), d.Attempts, d.NextAttemptAt, d.LastError, d.ResponseCode, d.UpdatedAt, instant(d.DeliveredAt), d.ID)
	})
}

// OutboxDeliveries lists deliveries, newest first.
func (db *DB) OutboxDeliveries(ctx context.Context, eventID, endpointID, before int64, limit int) ([]outbox.Delivery, error) {
	if limit <= 0 {
		limit = 1 << 30
	}
	return sqlflow.Get(ctx, db.run, "outbox deliveries", func(q querier) ([]outbox.Delivery, error) {
		return sqlflow.All(ctx, q, rowmap.ScanDelivery, `SELECT `+rowmap.DeliveryColumns+` FROM outbox_deliveries
			WHERE ($1 = 0 OR event_id = $1) AND ($2 = 0 OR endpoint_id = $2) AND ($3 = 0 OR id < $3) ORDER BY id DESC LIMIT $4`,
			eventID, endpointID, before, limit)
	})
}

// OutboxDelivery finds a delivery.
func (db *DB) OutboxDelivery(ctx context.Context, id int64) (*outbox.Delivery, error) {
	return sqlflow.Get(ctx, db.run, "outbox delivery", func(q querier) (*outbox.Delivery, error) {
		return sqlflow.One(ctx, q, rowmap.ScanDelivery, outboxNotFound("delivery"),
			`SELECT `+rowmap.DeliveryColumns+` FROM outbox_deliveries WHERE id = $1`, id)
	})
}

// RedeliverOutbox makes a delivery due again.
func (db *DB) RedeliverOutbox(ctx context.Context, deliveryID int64, now time.Time) error {
	return db.tx(ctx, "redeliver outbox delivery", func(q querier) error {
		if err := sqlflow.Exec(ctx, q, outboxNotFound("delivery"), `UPDATE outbox_deliveries SET status = $1, attempts = 0,
			next_attempt_at = $2, updated_at = $2, delivered_at = NULL WHERE id = $3`,
			string(outbox.StatusPending), now, deliveryID); err != nil {
			return err
		}
		work, err := deliveryWork(ctx, q, 0, deliveryID)
		if err != nil {
			return err
		}
		return enqueueWork(ctx, q, work...)
	})
}

// SaveWebhookEndpoint creates or replaces an endpoint.
func (db *DB) SaveWebhookEndpoint(ctx context.Context, e *outbox.Endpoint) error {
	if err := outbox.ValidateEndpoint(e); err != nil {
		return booking.Invalid(err)
	}
	types := strings.Join(e.EventTypes, ",")
	if e.ID != 0 {
		return db.run(ctx, "update webhook endpoint", func(q querier) error {
			return sqlflow.Exec(ctx, q, outboxNotFound("endpoint"), `UPDATE webhook_endpoints SET url = $1, secret = $2,
				event_types = $3, active = $4, failures = $5, failing_since = $6, paused_at = $7, updated_at = $8
				WHERE id = $9 AND org_id = $10`, e.URL, e.Secret, types, e.Active, e.Failures, instant(e.FailingSince),
				instant(e.PausedAt), e.UpdatedAt, e.ID, e.OrgID)
		})
	}
	id, err := sqlflow.Get(ctx, db.run, "create webhook endpoint", func(q querier) (int64, error) {
		id, err := sqlflow.Value[int64](ctx, q, nil, `INSERT INTO webhook_endpoints (org_id, url, secret, event_types, active,
			failures, failing_since, paused_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
			RETURNING id`, e.OrgID, e.URL, e.Secret, types, e.Active, e.Failures, instant(e.FailingSince),
			instant(e.PausedAt), e.CreatedAt, e.UpdatedAt)
		if sqlState(err) == foreignKeyViolation {
			return 0, booking.Errorf(booking.CodeNotFound, "This organisation does not exist.")
		}
		return id, err
	})
	if err != nil {
		return err
	}
	e.ID = id
	return nil
}

// RecordWebhookAttempt counts an attempt in one transaction, the
// endpoint's row locked, with the pause's event when it pauses the
// endpoint.
func (db *DB) RecordWebhookAttempt(ctx context.Context, endpointID int64, ok bool, now time.Time) (*outbox.Endpoint, bool, error) {
	var paused bool
	e, err := sqlflow.Get(ctx, db.tx, "record webhook attempt", func(q querier) (*outbox.Endpoint, error) {
		e, err := sqlflow.One(ctx, q, rowmap.ScanEndpoint, outboxNotFound("endpoint"),
			`SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints WHERE id = $1 FOR UPDATE`, endpointID)
		if err != nil {
			return nil, err
		}
		paused = e.RecordAttempt(ok, now)
		if err := saveEndpointState(ctx, q, e, now); err != nil || !paused {
			return e, err
		}
		events, err := outbox.PrepareEvents([]outbox.Event{outbox.PausedEvent(*e)}, 0, now)
		if err != nil {
			return nil, booking.Invalid(err)
		}
		return e, recordOutbox(ctx, q, events)
	})
	if err != nil {
		return nil, false, err
	}
	return e, paused, nil
}

// ResumeWebhookEndpoint clears a pause, brings its waiting deliveries
// forward and replays what failed meanwhile, in one transaction, the
// endpoint's row locked.
func (db *DB) ResumeWebhookEndpoint(ctx context.Context, orgID, id int64, replay bool, now time.Time) (*outbox.Endpoint, int, error) {
	var replayed int64
	e, err := sqlflow.Get(ctx, db.tx, "resume webhook endpoint", func(q querier) (*outbox.Endpoint, error) {
		e, err := sqlflow.One(ctx, q, rowmap.ScanEndpoint, outboxNotFound("endpoint"), `SELECT `+rowmap.EndpointColumns+`
			FROM webhook_endpoints WHERE id = $1 AND org_id = $2 FOR UPDATE`, id, orgID)
		if err != nil {
			return nil, err
		}
		since := e.FailingSince
		if since.IsZero() {
			since = e.PausedAt
		}
		e.Resume()
		if err := saveEndpointState(ctx, q, e, now); err != nil {
			return nil, err
		}
		replayFailed := replay && !since.IsZero()
		replayed, err = q.Exec(ctx, `UPDATE outbox_deliveries SET status = $1, attempts = 0, next_attempt_at = $2,
			updated_at = $2, delivered_at = NULL WHERE endpoint_id = $3 AND (status = $1 AND next_attempt_at > $4
				OR $5 AND status = $6 AND updated_at >= $7)`,
			string(outbox.StatusPending), now, id, now.Add(outbox.MaxLease), replayFailed, string(outbox.StatusFailed), instant(since))
		return e, err
	})
	if err != nil {
		return nil, 0, err
	}
	return e, int(replayed), nil
}

// saveEndpointState writes an endpoint's failures and pause.
func saveEndpointState(ctx context.Context, q querier, e *outbox.Endpoint, now time.Time) error {
	e.UpdatedAt = now
	return sqlflow.Exec(ctx, q, nil, `UPDATE webhook_endpoints SET failures = $1, failing_since = $2, paused_at = $3,
		updated_at = $4 WHERE id = $5`, e.Failures, instant(e.FailingSince), instant(e.PausedAt), now, e.ID)
}

// WebhookEndpoints lists an organisation's endpoints.
func (db *DB) WebhookEndpoints(ctx context.Context, orgID int64) ([]outbox.Endpoint, error) {
	return sqlflow.Get(ctx, db.run, "webhook endpoints", func(q querier) ([]outbox.Endpoint, error) {
		return sqlflow.All(ctx, q, rowmap.ScanEndpoint,
			`SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints WHERE org_id = $1 ORDER BY id`, orgID)
	})
}

// WebhookEndpoint finds an endpoint.
func (db *DB) WebhookEndpoint(ctx context.Context, orgID, id int64) (*outbox.Endpoint, error) {
	return sqlflow.Get(ctx, db.run, "webhook endpoint", func(q querier) (*outbox.Endpoint, error) {
		return sqlflow.One(ctx, q, rowmap.ScanEndpoint, outboxNotFound("endpoint"), `SELECT `+rowmap.EndpointColumns+`
			FROM webhook_endpoints WHERE id = $1 AND ($2 = 0 OR org_id = $2)`, id, orgID)
	})
}

// DeleteWebhookEndpoint removes an endpoint and its deliveries.
func (db *DB) DeleteWebhookEndpoint(ctx context.Context, orgID, id int64) error {
	return db.run(ctx, "delete webhook endpoint", func(q querier) error {
		return sqlflow.Exec(ctx, q, outboxNotFound("endpoint"), `DELETE FROM webhook_endpoints WHERE id = $1 AND org_id = $2`, id, orgID)
	})
}

// SetContactEmail sets or clears the host's address.
func (db *DB) SetContactEmail(ctx context.Context, orgID int64, email string) error {
	return db.run(ctx, "set contact e-mail", func(q querier) error {
		query, args := `DELETE FROM organization_contacts WHERE org_id = $1`, []any{orgID}
		if email != "" {
			query, args = `INSERT INTO organization_contacts (org_id, email) VALUES ($1, $2)
				ON CONFLICT (org_id) DO UPDATE SET email = excluded.email`, []any{orgID, email}
		}
		err := sqlflow.Exec(ctx, q, nil, query, args...)
		if sqlState(err) == foreignKeyViolation {
			return booking.Errorf(booking.CodeNotFound, "This organisation does not exist.")
		}
		return err
	})
}

// ContactEmail returns the host's address.
func (db *DB) ContactEmail(ctx context.Context, orgID int64) (string, error) {
	return sqlflow.Get(ctx, db.run, "contact e-mail", func(q querier) (string, error) {
		return sqlflow.Value[string](ctx, q, nil, `SELECT email FROM organization_contacts WHERE org_id = $1`, orgID)
	})
}

func outboxNotFound(what string) error {
	return booking.Errorf(booking.CodeNotFound, "This outbox %s does not exist.", what)
}

// SettleLedgerEntry saves a ledger entry, records the entries it owes
// again and its events in one transaction.
func (db *DB) SettleLedgerEntry(ctx context.Context, e *ledger.Entry, owed []ledger.Entry, events []outbox.Event, now time.Time) error {
	owed, err := booking.PrepareLedger(owed, 0, now)
	if err != nil {
		return err
	}
	events, err = outbox.PrepareEvents(events, 0, now)
	if err != nil {
		return booking.Invalid(err)
	}
	return db.tx(ctx, "settle ledger entry", func(q querier) error {
		if err := updateLedgerEntry(ctx, q, e); err != nil {
			return err
		}
		if err := recordLedger(ctx, q, owed); err != nil {
			return err
		}
		return recordOutbox(ctx, q, events)
	})
}
