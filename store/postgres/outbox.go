package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// RecordOutbox stores events whose key is new, in one transaction.
func (db *DB) RecordOutbox(ctx context.Context, events []outbox.Event, now time.Time) ([]outbox.Event, error) {
	events, err := booking.PrepareOutbox(events, 0, now)
	if err != nil {
		return nil, err
	}
	err = db.inTx(ctx, "record outbox", func(tx pgx.Tx) error { return recordOutbox(ctx, tx, events) })
	if err != nil {
		return nil, err
	}
	return events, nil
}

// recordOutbox inserts prepared events unless their key is recorded, and
// sets each to the stored row.
func recordOutbox(ctx context.Context, tx pgx.Tx, events []outbox.Event) error {
	for i := range events {
		e := &events[i]
		_, err := tx.Exec(ctx, `INSERT INTO outbox_events (key, kind, org_id, booking_id, entry_id, next_attempt_at, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (key) DO NOTHING`,
			e.Key, e.Kind, e.OrgID, nullID(e.BookingID), e.EntryID, e.NextAttemptAt, e.CreatedAt)
		if err != nil {
			if sqlState(err) == foreignKeyViolation {
				return booking.Errorf(booking.CodeNotFound, "This organisation or booking does not exist.")
			}
			return fmt.Errorf("postgres: record outbox event %q: %w", e.Key, err)
		}
		stored, err := scanEvent(tx.QueryRow(ctx, `SELECT `+rowmap.EventColumns+` FROM outbox_events WHERE key = $1`, e.Key))
		if err != nil {
			return fmt.Errorf("postgres: record outbox event %q: %w", e.Key, err)
		}
		*e = *stored
	}
	return nil
}

// ClaimOutboxEvents leases due undispatched events; SKIP LOCKED lets two
// replicas claim at once without taking the same event.
func (db *DB) ClaimOutboxEvents(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Event, error) {
	rows, err := db.pool.Query(ctx, `UPDATE outbox_events SET next_attempt_at = $2 WHERE id IN (
			SELECT id FROM outbox_events WHERE dispatched_at IS NULL AND next_attempt_at <= $1
			ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
		RETURNING `+rowmap.EventColumns, now, leaseUntil, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: claim outbox events: %w", err)
	}
	return collect(rows, scanEvent)
}

// DispatchOutboxEvent stores an event's deliveries and marks it dispatched.
func (db *DB) DispatchOutboxEvent(ctx context.Context, eventID int64, deliveries []outbox.Delivery, now time.Time) error {
	ds := booking.PrepareDeliveries(deliveries, eventID, now)
	return db.inTx(ctx, "dispatch outbox event", func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE outbox_events SET dispatched_at = coalesce(dispatched_at, $1) WHERE id = $2`, now, eventID)
		if err != nil {
			return fmt.Errorf("postgres: dispatch outbox event %d: %w", eventID, err)
		}
		if tag.RowsAffected() == 0 {
			return outboxNotFound("event")
		}
		for _, d := range ds {
			if _, err := tx.Exec(ctx, `INSERT INTO outbox_deliveries (event_id, target, channel, recipient, endpoint_id,
				status, attempts, next_attempt_at, last_error, response_code, created_at, updated_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (event_id, target) DO NOTHING`,
				eventID, d.Target(), string(d.Channel), d.To, nullID(d.EndpointID), string(d.Status), d.Attempts,
				d.NextAttemptAt, d.LastError, d.ResponseCode, d.CreatedAt, d.UpdatedAt); err != nil {
				return fmt.Errorf("postgres: add delivery of outbox event %d: %w", eventID, err)
			}
		}
		return nil
	})
}

// OutboxEvent finds an event.
func (db *DB) OutboxEvent(ctx context.Context, id int64) (*outbox.Event, error) {
	e, err := scanEvent(db.pool.QueryRow(ctx, `SELECT `+rowmap.EventColumns+` FROM outbox_events WHERE id = $1`, id))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, outboxNotFound("event")
	case err != nil:
		return nil, fmt.Errorf("postgres: outbox event %d: %w", id, err)
	}
	return e, nil
}

// ClaimOutboxDeliveries leases due pending deliveries, SKIP LOCKED as
// ClaimOutboxEvents.
func (db *DB) ClaimOutboxDeliveries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Delivery, error) {
	rows, err := db.pool.Query(ctx, `UPDATE outbox_deliveries SET next_attempt_at = $3 WHERE id IN (
			SELECT id FROM outbox_deliveries WHERE status = $1 AND next_attempt_at <= $2
			ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
		RETURNING `+rowmap.DeliveryColumns, string(outbox.StatusPending), now, leaseUntil, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: claim outbox deliveries: %w", err)
	}
	return collect(rows, scanDelivery)
}

// UpdateOutboxDelivery saves what an attempt changed.
func (db *DB) UpdateOutboxDelivery(ctx context.Context, d *outbox.Delivery) error {
	tag, err := db.pool.Exec(ctx, `UPDATE outbox_deliveries SET status = $1, attempts = $2, next_attempt_at = $3,
		last_error = $4, response_code = $5, updated_at = $6, delivered_at = $7 WHERE id = $8`,
		string(d.Status), d.Attempts, d.NextAttemptAt, d.LastError, d.ResponseCode, d.UpdatedAt, instant(d.DeliveredAt), d.ID)
	if err != nil {
		return fmt.Errorf("postgres: update outbox delivery %d: %w", d.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return outboxNotFound("delivery")
	}
	return nil
}

// OutboxDeliveries lists deliveries, newest first.
func (db *DB) OutboxDeliveries(ctx context.Context, eventID, endpointID int64, limit int) ([]outbox.Delivery, error) {
	if limit <= 0 {
		limit = 1 << 30
	}
	rows, err := db.pool.Query(ctx, `SELECT `+rowmap.DeliveryColumns+` FROM outbox_deliveries
		WHERE ($1 = 0 OR event_id = $1) AND ($2 = 0 OR endpoint_id = $2) ORDER BY id DESC LIMIT $3`, eventID, endpointID, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: outbox deliveries: %w", err)
	}
	return collect(rows, scanDelivery)
}

// RedeliverOutbox makes a delivery due again.
func (db *DB) RedeliverOutbox(ctx context.Context, deliveryID int64, now time.Time) error {
	tag, err := db.pool.Exec(ctx, `UPDATE outbox_deliveries SET status = $1, attempts = 0, next_attempt_at = $2,
		updated_at = $2, delivered_at = NULL WHERE id = $3`, string(outbox.StatusPending), now, deliveryID)
	if err != nil {
		return fmt.Errorf("postgres: redeliver outbox delivery %d: %w", deliveryID, err)
	}
	if tag.RowsAffected() == 0 {
		return outboxNotFound("delivery")
	}
	return nil
}

// SaveWebhookEndpoint creates or replaces an endpoint.
func (db *DB) SaveWebhookEndpoint(ctx context.Context, e *outbox.Endpoint) error {
	if err := booking.ValidateEndpoint(e); err != nil {
		return err
	}
	types := strings.Join(e.EventTypes, ",")
	if e.ID == 0 {
		err := db.pool.QueryRow(ctx, `INSERT INTO webhook_endpoints (org_id, url, secret, event_types, active, failures,
			failing_since, paused_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
			e.OrgID, e.URL, e.Secret, types, e.Active, e.Failures, instant(e.FailingSince), instant(e.PausedAt),
			e.CreatedAt, e.UpdatedAt).Scan(&e.ID)
		if sqlState(err) == foreignKeyViolation {
			return booking.Errorf(booking.CodeNotFound, "This organisation does not exist.")
		}
		if err != nil {
			return fmt.Errorf("postgres: create webhook endpoint: %w", err)
		}
		return nil
	}
	tag, err := db.pool.Exec(ctx, `UPDATE webhook_endpoints SET url = $1, secret = $2, event_types = $3, active = $4,
		failures = $5, failing_since = $6, paused_at = $7, updated_at = $8 WHERE id = $9 AND org_id = $10`,
		e.URL, e.Secret, types, e.Active, e.Failures, instant(e.FailingSince), instant(e.PausedAt), e.UpdatedAt, e.ID, e.OrgID)
	if err != nil {
		return fmt.Errorf("postgres: update webhook endpoint %d: %w", e.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return outboxNotFound("endpoint")
	}
	return nil
}

// RecordWebhookAttempt counts an attempt in one transaction, the
// endpoint's row locked, with the pause's event when it pauses the
// endpoint.
func (db *DB) RecordWebhookAttempt(ctx context.Context, endpointID int64, ok bool, now time.Time) (*outbox.Endpoint, bool, error) {
	var (
		e      *outbox.Endpoint
		paused bool
	)
	err := db.inTx(ctx, "record webhook attempt", func(tx pgx.Tx) error {
		var err error
		if e, err = scanEndpoint(tx.QueryRow(ctx, `SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints WHERE id = $1 FOR UPDATE`,
			endpointID)); errors.Is(err, pgx.ErrNoRows) {
			return outboxNotFound("endpoint")
		} else if err != nil {
			return fmt.Errorf("postgres: webhook endpoint %d: %w", endpointID, err)
		}
		paused = e.RecordAttempt(ok, now)
		if err := saveEndpointState(ctx, tx, e, now); err != nil {
			return err
		}
		if !paused {
			return nil
		}
		events, err := booking.PrepareOutbox([]outbox.Event{outbox.PausedEvent(*e)}, 0, now)
		if err != nil {
			return err
		}
		return recordOutbox(ctx, tx, events)
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
	var (
		e        *outbox.Endpoint
		replayed int
	)
	err := db.inTx(ctx, "resume webhook endpoint", func(tx pgx.Tx) error {
		var err error
		if e, err = scanEndpoint(tx.QueryRow(ctx, `SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints
			WHERE id = $1 AND org_id = $2 FOR UPDATE`, id, orgID)); errors.Is(err, pgx.ErrNoRows) {
			return outboxNotFound("endpoint")
		} else if err != nil {
			return fmt.Errorf("postgres: webhook endpoint %d: %w", id, err)
		}
		since := e.FailingSince
		if since.IsZero() {
			since = e.PausedAt
		}
		e.Resume()
		if err := saveEndpointState(ctx, tx, e, now); err != nil {
			return err
		}
		replayFailed := replay && !since.IsZero()
		tag, err := tx.Exec(ctx, `UPDATE outbox_deliveries SET status = $1, attempts = 0, next_attempt_at = $2,
			updated_at = $2, delivered_at = NULL WHERE endpoint_id = $3 AND (status = $1 AND next_attempt_at > $4
				OR $5 AND status = $6 AND updated_at >= $7)`,
			string(outbox.StatusPending), now, id, now.Add(outbox.MaxLease), replayFailed, string(outbox.StatusFailed), instant(since))
		if err != nil {
			return fmt.Errorf("postgres: replay deliveries of webhook endpoint %d: %w", id, err)
		}
		replayed = int(tag.RowsAffected())
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return e, replayed, nil
}

// saveEndpointState writes an endpoint's failures and pause.
func saveEndpointState(ctx context.Context, tx pgx.Tx, e *outbox.Endpoint, now time.Time) error {
	e.UpdatedAt = now
	if _, err := tx.Exec(ctx, `UPDATE webhook_endpoints SET failures = $1, failing_since = $2, paused_at = $3, updated_at = $4
		WHERE id = $5`, e.Failures, instant(e.FailingSince), instant(e.PausedAt), now, e.ID); err != nil {
		return fmt.Errorf("postgres: save webhook endpoint %d: %w", e.ID, err)
	}
	return nil
}

// WebhookEndpoints lists an organisation's endpoints.
func (db *DB) WebhookEndpoints(ctx context.Context, orgID int64) ([]outbox.Endpoint, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints WHERE org_id = $1 ORDER BY id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("postgres: webhook endpoints of organisation %d: %w", orgID, err)
	}
	return collect(rows, scanEndpoint)
}

// WebhookEndpoint finds an endpoint.
func (db *DB) WebhookEndpoint(ctx context.Context, orgID, id int64) (*outbox.Endpoint, error) {
	e, err := scanEndpoint(db.pool.QueryRow(ctx, `SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints
		WHERE id = $1 AND ($2 = 0 OR org_id = $2)`, id, orgID))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, outboxNotFound("endpoint")
	case err != nil:
		return nil, fmt.Errorf("postgres: webhook endpoint %d: %w", id, err)
	}
	return e, nil
}

// DeleteWebhookEndpoint removes an endpoint and its deliveries.
func (db *DB) DeleteWebhookEndpoint(ctx context.Context, orgID, id int64) error {
	tag, err := db.pool.Exec(ctx, `DELETE FROM webhook_endpoints WHERE id = $1 AND org_id = $2`, id, orgID)
	if err != nil {
		return fmt.Errorf("postgres: delete webhook endpoint %d: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return outboxNotFound("endpoint")
	}
	return nil
}

// SetContactEmail sets or clears the host's address.
func (db *DB) SetContactEmail(ctx context.Context, orgID int64, email string) error {
	var err error
	if email == "" {
		_, err = db.pool.Exec(ctx, `DELETE FROM organization_contacts WHERE org_id = $1`, orgID)
	} else {
		_, err = db.pool.Exec(ctx, `INSERT INTO organization_contacts (org_id, email) VALUES ($1, $2)
			ON CONFLICT (org_id) DO UPDATE SET email = excluded.email`, orgID, email)
	}
	if sqlState(err) == foreignKeyViolation {
		return booking.Errorf(booking.CodeNotFound, "This organisation does not exist.")
	}
	if err != nil {
		return fmt.Errorf("postgres: set contact e-mail of organisation %d: %w", orgID, err)
	}
	return nil
}

// ContactEmail returns the host's address.
func (db *DB) ContactEmail(ctx context.Context, orgID int64) (string, error) {
	var email string
	err := db.pool.QueryRow(ctx, `SELECT email FROM organization_contacts WHERE org_id = $1`, orgID).Scan(&email)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("postgres: contact e-mail of organisation %d: %w", orgID, err)
	}
	return email, nil
}

func outboxNotFound(what string) error {
	return booking.Errorf(booking.CodeNotFound, "This outbox %s does not exist.", what)
}

func scanEvent(row pgx.Row) (*outbox.Event, error) {
	return rowmap.ScanEvent(codec{}, row)
}

func scanDelivery(row pgx.Row) (*outbox.Delivery, error) {
	return rowmap.ScanDelivery(codec{}, row)
}

func scanEndpoint(row pgx.Row) (*outbox.Endpoint, error) {
	return rowmap.ScanEndpoint(codec{}, row)
}

// collect scans every row with scan.
func collect[T any](rows pgx.Rows, scan func(pgx.Row) (*T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: scan: %w", err)
		}
		out = append(out, *v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: rows: %w", err)
	}
	return out, nil
}

// SettleLedgerEntry saves a ledger entry and records events in one
// transaction.
func (db *DB) SettleLedgerEntry(ctx context.Context, e *ledger.Entry, events []outbox.Event, now time.Time) error {
	events, err := booking.PrepareOutbox(events, 0, now)
	if err != nil {
		return err
	}
	return db.inTx(ctx, "settle ledger entry", func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE ledger_entries SET status = $1, provider_id = $2, attempts = $3,
			next_attempt_at = $4, last_error = $5, updated_at = $6 WHERE id = $7`,
			string(e.Status), e.ProviderID, e.Attempts, e.NextAttemptAt, e.LastError, e.UpdatedAt, e.ID)
		if err != nil {
			return fmt.Errorf("postgres: settle ledger entry %d: %w", e.ID, err)
		}
		if tag.RowsAffected() == 0 {
			return ledgerNotFound()
		}
		return recordOutbox(ctx, tx, events)
	})
}
