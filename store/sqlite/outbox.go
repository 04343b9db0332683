package sqlite

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
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
			e.Key, e.Kind, e.OrgID, rowmap.NullID(e.BookingID), e.EntryID, e.NextAttemptAt.UnixMilli(), e.CreatedAt.UnixMilli(), string(e.Data))
		if isForeignKeyViolation(err) {
			return booking.Errorf(booking.CodeNotFound, "This organisation or booking does not exist.")
		}
		if err != nil {
			return err
		}
		stored, err := sqlflow.One(ctx, q, rowmap.ScanEvent, sqlflow.ErrNoRow,
			`SELECT `+rowmap.EventColumns+` FROM outbox_events WHERE key = ?`, e.Key)
		if err != nil {
			return err
		}
		*e = *stored
	}
	return enqueueWork(ctx, q, enqueue.EventWork(events)...)
}

// ClaimOutboxEvents leases due undispatched events in one write transaction.
func (db *DB) ClaimOutboxEvents(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Event, error) {
	return sqlflow.Get(ctx, db.tx, "claim outbox events", func(q querier) ([]outbox.Event, error) {
		out, err := sqlflow.All(ctx, q, rowmap.ScanEvent, `SELECT `+rowmap.EventColumns+` FROM outbox_events
			WHERE dispatched_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`, now.UnixMilli(), limit)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].NextAttemptAt = leaseUntil
			if err := sqlflow.Exec(ctx, q, nil, `UPDATE outbox_events SET next_attempt_at = ? WHERE id = ?`, leaseUntil.UnixMilli(), out[i].ID); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// DispatchOutboxEvent stores an event's deliveries and marks it dispatched.
func (db *DB) DispatchOutboxEvent(ctx context.Context, eventID int64, deliveries []outbox.Delivery, now time.Time) error {
	ds := outbox.PrepareDeliveries(deliveries, eventID, now)
	return db.tx(ctx, "dispatch outbox event", func(q querier) error {
		if err := sqlflow.Exec(ctx, q, outboxNotFound("event"),
			`UPDATE outbox_events SET dispatched_at = coalesce(dispatched_at, ?) WHERE id = ?`, now.UnixMilli(), eventID); err != nil {
			return err
		}
		for _, d := range ds {
			if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO outbox_deliveries (event_id, target, channel, recipient, endpoint_id,
				status, attempts, next_attempt_at, last_error, response_code, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id, target) DO NOTHING`,
				eventID, d.Target(), string(d.Channel), d.To, rowmap.NullID(d.EndpointID), string(d.Status), d.Attempts,
				d.NextAttemptAt.UnixMilli(), d.LastError, d.ResponseCode, d.CreatedAt.UnixMilli(), d.UpdatedAt.UnixMilli()); err != nil {
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
			`SELECT `+rowmap.EventColumns+` FROM outbox_events WHERE id = ?`, id)
	})
}

// ClaimOutboxDeliveries leases due pending deliveries in one write
// transaction.
func (db *DB) ClaimOutboxDeliveries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Delivery, error) {
	return sqlflow.Get(ctx, db.tx, "claim outbox deliveries", func(q querier) ([]outbox.Delivery, error) {
		out, err := sqlflow.All(ctx, q, rowmap.ScanDelivery, `SELECT `+rowmap.DeliveryColumns+` FROM outbox_deliveries
			WHERE status = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
			string(outbox.StatusPending), now.UnixMilli(), limit)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].NextAttemptAt = leaseUntil
			if err := sqlflow.Exec(ctx, q, nil, `UPDATE outbox_deliveries SET next_attempt_at = ? WHERE id = ?`, leaseUntil.UnixMilli(), out[i].ID); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// UpdateOutboxDelivery saves what an attempt changed.
func (db *DB) UpdateOutboxDelivery(ctx context.Context, d *outbox.Delivery) error {
	return db.tx(ctx, "update outbox delivery", func(q querier) error {
		return sqlflow.Exec(ctx, q, outboxNotFound("delivery"), `UPDATE outbox_deliveries SET status = ?, attempts = ?,
			next_attempt_at = ?, last_error = ?, response_code = ?, updated_at = ?, delivered_at = ? WHERE id = ?`,
			string(d.Status), d.Attempts, d.NextAttemptAt.UnixMilli(), d.LastError, d.ResponseCode,
			d.UpdatedAt.UnixMilli(), millis(d.DeliveredAt), d.ID)
	})
}

// OutboxDeliveries lists deliveries, newest first.
func (db *DB) OutboxDeliveries(ctx context.Context, eventID, endpointID, before int64, limit int) ([]outbox.Delivery, error) {
	where, args := []string{`1 = 1`}, []any{}
	if eventID != 0 {
		where, args = append(where, `event_id = ?`), append(args, eventID)
	}
	if endpointID != 0 {
		where, args = append(where, `endpoint_id = ?`), append(args, endpointID)
	}
	if before != 0 {
		where, args = append(where, `id < ?`), append(args, before)
	}
	if limit <= 0 {
		limit = -1
	}
	return sqlflow.Get(ctx, db.run, "outbox deliveries", func(q querier) ([]outbox.Delivery, error) {
		return sqlflow.All(ctx, q, rowmap.ScanDelivery, `SELECT `+rowmap.DeliveryColumns+` FROM outbox_deliveries WHERE `+
			strings.Join(where, ` AND `)+` ORDER BY id DESC LIMIT ?`, append(args, limit)...)
	})
}

// OutboxDelivery finds a delivery.
func (db *DB) OutboxDelivery(ctx context.Context, id int64) (*outbox.Delivery, error) {
	return sqlflow.Get(ctx, db.run, "outbox delivery", func(q querier) (*outbox.Delivery, error) {
		return sqlflow.One(ctx, q, rowmap.ScanDelivery, outboxNotFound("delivery"),
			`SELECT `+rowmap.DeliveryColumns+` FROM outbox_deliveries WHERE id = ?`, id)
	})
}

// RedeliverOutbox makes a delivery due again.
func (db *DB) RedeliverOutbox(ctx context.Context, deliveryID int64, now time.Time) error {
	return db.tx(ctx, "redeliver outbox delivery", func(q querier) error {
		if err := sqlflow.Exec(ctx, q, outboxNotFound("delivery"), `UPDATE outbox_deliveries SET status = ?, attempts = 0,
			next_attempt_at = ?, updated_at = ?, delivered_at = NULL WHERE id = ?`,
			string(outbox.StatusPending), now.UnixMilli(), now.UnixMilli(), deliveryID); err != nil {
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
		return db.tx(ctx, "update webhook endpoint", func(q querier) error {
			return sqlflow.Exec(ctx, q, outboxNotFound("endpoint"), `UPDATE webhook_endpoints SET url = ?, secret = ?,
				event_types = ?, active = ?, failures = ?, failing_since = ?, paused_at = ?, updated_at = ?
				WHERE id = ? AND org_id = ?`, e.URL, e.Secret, types, e.Active, e.Failures, millis(e.FailingSince),
				millis(e.PausedAt), e.UpdatedAt.UnixMilli(), e.ID, e.OrgID)
		})
	}
	id, err := sqlflow.Get(ctx, db.tx, "create webhook endpoint", func(q querier) (int64, error) {
		id, err := sqlflow.Value[int64](ctx, q, nil, `INSERT INTO webhook_endpoints (org_id, url, secret, event_types, active,
			failures, failing_since, paused_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			e.OrgID, e.URL, e.Secret, types, e.Active, e.Failures, millis(e.FailingSince), millis(e.PausedAt),
			e.CreatedAt.UnixMilli(), e.UpdatedAt.UnixMilli())
		if isForeignKeyViolation(err) {
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

// WebhookEndpoints lists an organisation's endpoints.
func (db *DB) WebhookEndpoints(ctx context.Context, orgID int64) ([]outbox.Endpoint, error) {
	return sqlflow.Get(ctx, db.run, "webhook endpoints", func(q querier) ([]outbox.Endpoint, error) {
		return sqlflow.All(ctx, q, rowmap.ScanEndpoint,
			`SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints WHERE org_id = ? ORDER BY id`, orgID)
	})
}

// WebhookEndpoint finds an endpoint.
func (db *DB) WebhookEndpoint(ctx context.Context, orgID, id int64) (*outbox.Endpoint, error) {
	return sqlflow.Get(ctx, db.run, "webhook endpoint", func(q querier) (*outbox.Endpoint, error) {
		return sqlflow.One(ctx, q, rowmap.ScanEndpoint, outboxNotFound("endpoint"), `SELECT `+rowmap.EndpointColumns+`
			FROM webhook_endpoints WHERE id = ? AND (? = 0 OR org_id = ?)`, id, orgID, orgID)
	})
}

// DeleteWebhookEndpoint removes an endpoint and its deliveries.
func (db *DB) DeleteWebhookEndpoint(ctx context.Context, orgID, id int64) error {
	return db.tx(ctx, "delete webhook endpoint", func(q querier) error {
		return sqlflow.Exec(ctx, q, outboxNotFound("endpoint"), `DELETE FROM webhook_endpoints WHERE id = ? AND org_id = ?`, id, orgID)
	})
}

// RecordWebhookAttempt counts an attempt in one write transaction, with
// the pause's event when it pauses the endpoint.
func (db *DB) RecordWebhookAttempt(ctx context.Context, endpointID int64, ok bool, now time.Time) (*outbox.Endpoint, bool, error) {
	var paused bool
	e, err := sqlflow.Get(ctx, db.tx, "record webhook attempt", func(q querier) (*outbox.Endpoint, error) {
		e, err := sqlflow.One(ctx, q, rowmap.ScanEndpoint, outboxNotFound("endpoint"),
			`SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints WHERE id = ?`, endpointID)
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
// forward and replays what failed meanwhile, in one write transaction.
func (db *DB) ResumeWebhookEndpoint(ctx context.Context, orgID, id int64, replay bool, now time.Time) (*outbox.Endpoint, int, error) {
	var replayed int64
	e, err := sqlflow.Get(ctx, db.tx, "resume webhook endpoint", func(q querier) (*outbox.Endpoint, error) {
		e, err := sqlflow.One(ctx, q, rowmap.ScanEndpoint, outboxNotFound("endpoint"), `SELECT `+rowmap.EndpointColumns+`
			FROM webhook_endpoints WHERE id = ? AND org_id = ?`, id, orgID)
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
		replayed, err = q.Exec(ctx, `UPDATE outbox_deliveries SET status = ?, attempts = 0, next_attempt_at = ?,
			updated_at = ?, delivered_at = NULL WHERE endpoint_id = ? AND (status = ? AND next_attempt_at > ?
				OR ? AND status = ? AND updated_at >= ?)`,
			string(outbox.StatusPending), now.UnixMilli(), now.UnixMilli(), id, string(outbox.StatusPending),
			now.Add(outbox.MaxLease).UnixMilli(), replayFailed, string(outbox.StatusFailed), since.UnixMilli())
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
	return sqlflow.Exec(ctx, q, nil, `UPDATE webhook_endpoints SET failures = ?, failing_since = ?, paused_at = ?,
		updated_at = ? WHERE id = ?`, e.Failures, millis(e.FailingSince), millis(e.PausedAt), now.UnixMilli(), e.ID)
}

// SetContactEmail sets or clears the host's address.
func (db *DB) SetContactEmail(ctx context.Context, orgID int64, email string) error {
	return db.tx(ctx, "set contact e-mail", func(q querier) error {
		query, args := `DELETE FROM organization_contacts WHERE org_id = ?`, []any{orgID}
		if email != "" {
			query, args = `INSERT INTO organization_contacts (org_id, email) VALUES (?, ?)
				ON CONFLICT (org_id) DO UPDATE SET email = excluded.email`, []any{orgID, email}
		}
		err := sqlflow.Exec(ctx, q, nil, query, args...)
		if isForeignKeyViolation(err) {
			return booking.Errorf(booking.CodeNotFound, "This organisation does not exist.")
		}
		return err
	})
}

// ContactEmail returns the host's address.
func (db *DB) ContactEmail(ctx context.Context, orgID int64) (string, error) {
	return sqlflow.Get(ctx, db.run, "contact e-mail", func(q querier) (string, error) {
		return sqlflow.Value[string](ctx, q, nil, `SELECT email FROM organization_contacts WHERE org_id = ?`, orgID)
	})
}

func outboxNotFound(what string) error {
	return booking.Errorf(booking.CodeNotFound, "This outbox %s does not exist.", what)
}

// SettleLedgerEntry saves a ledger entry, records the entries it owes
// again and its events in one write transaction.
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
