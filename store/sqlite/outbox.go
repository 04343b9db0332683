package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

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
	err = db.inWriteTx(ctx, "record outbox", func(tx *sql.Tx) error { return recordOutbox(ctx, tx, events) })
	if err != nil {
		return nil, err
	}
	return events, nil
}

// recordOutbox inserts prepared events unless their key is recorded, and
// sets each to the stored row.
func recordOutbox(ctx context.Context, tx *sql.Tx, events []outbox.Event) error {
	for i := range events {
		e := &events[i]
		_, err := tx.ExecContext(ctx, `INSERT INTO outbox_events (key, kind, org_id, booking_id, entry_id, next_attempt_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
			e.Key, e.Kind, e.OrgID, nullID(e.BookingID), e.EntryID, e.NextAttemptAt.UnixMilli(), e.CreatedAt.UnixMilli())
		if err != nil {
			if isForeignKeyViolation(err) {
				return booking.Errorf(booking.CodeNotFound, "This organisation or booking does not exist.")
			}
			return fmt.Errorf("sqlite: record outbox event %q: %w", e.Key, err)
		}
		stored, err := scanEvent(tx.QueryRowContext(ctx, `SELECT `+rowmap.EventColumns+` FROM outbox_events WHERE key = ?`, e.Key))
		if err != nil {
			return fmt.Errorf("sqlite: record outbox event %q: %w", e.Key, err)
		}
		*e = *stored
	}
	return nil
}

// ClaimOutboxEvents leases due undispatched events in one write transaction.
func (db *DB) ClaimOutboxEvents(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Event, error) {
	var out []outbox.Event
	err := db.inWriteTx(ctx, "claim outbox events", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+rowmap.EventColumns+` FROM outbox_events
			WHERE dispatched_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`, now.UnixMilli(), limit)
		if err != nil {
			return fmt.Errorf("sqlite: claim outbox events: %w", err)
		}
		if out, err = collect(rows, scanEvent); err != nil {
			return err
		}
		for i := range out {
			out[i].NextAttemptAt = leaseUntil
			if _, err := tx.ExecContext(ctx, `UPDATE outbox_events SET next_attempt_at = ? WHERE id = ?`,
				leaseUntil.UnixMilli(), out[i].ID); err != nil {
				return fmt.Errorf("sqlite: claim outbox event %d: %w", out[i].ID, err)
			}
		}
		return nil
	})
	return out, err
}

// DispatchOutboxEvent stores an event's deliveries and marks it dispatched.
func (db *DB) DispatchOutboxEvent(ctx context.Context, eventID int64, deliveries []outbox.Delivery, now time.Time) error {
	ds := booking.PrepareDeliveries(deliveries, eventID, now)
	return db.inWriteTx(ctx, "dispatch outbox event", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE outbox_events SET dispatched_at = coalesce(dispatched_at, ?) WHERE id = ?`, now.UnixMilli(), eventID)
		if err != nil {
			return fmt.Errorf("sqlite: dispatch outbox event %d: %w", eventID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return outboxNotFound("event")
		}
		for _, d := range ds {
			if _, err := tx.ExecContext(ctx, `INSERT INTO outbox_deliveries (event_id, target, channel, recipient, endpoint_id,
				status, attempts, next_attempt_at, last_error, response_code, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id, target) DO NOTHING`,
				eventID, d.Target(), string(d.Channel), d.To, nullID(d.EndpointID), string(d.Status), d.Attempts,
				d.NextAttemptAt.UnixMilli(), d.LastError, d.ResponseCode, d.CreatedAt.UnixMilli(), d.UpdatedAt.UnixMilli()); err != nil {
				return fmt.Errorf("sqlite: add delivery of outbox event %d: %w", eventID, err)
			}
		}
		return nil
	})
}

// OutboxEvent finds an event.
func (db *DB) OutboxEvent(ctx context.Context, id int64) (*outbox.Event, error) {
	e, err := scanEvent(db.read.QueryRowContext(ctx, `SELECT `+rowmap.EventColumns+` FROM outbox_events WHERE id = ?`, id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, outboxNotFound("event")
	case err != nil:
		return nil, fmt.Errorf("sqlite: outbox event %d: %w", id, err)
	}
	return e, nil
}

// ClaimOutboxDeliveries leases due pending deliveries in one write
// transaction.
func (db *DB) ClaimOutboxDeliveries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Delivery, error) {
	var out []outbox.Delivery
	err := db.inWriteTx(ctx, "claim outbox deliveries", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+rowmap.DeliveryColumns+` FROM outbox_deliveries
			WHERE status = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
			string(outbox.StatusPending), now.UnixMilli(), limit)
		if err != nil {
			return fmt.Errorf("sqlite: claim outbox deliveries: %w", err)
		}
		if out, err = collect(rows, scanDelivery); err != nil {
			return err
		}
		for i := range out {
			out[i].NextAttemptAt = leaseUntil
			if _, err := tx.ExecContext(ctx, `UPDATE outbox_deliveries SET next_attempt_at = ? WHERE id = ?`,
				leaseUntil.UnixMilli(), out[i].ID); err != nil {
				return fmt.Errorf("sqlite: claim outbox delivery %d: %w", out[i].ID, err)
			}
		}
		return nil
	})
	return out, err
}

// UpdateOutboxDelivery saves what an attempt changed.
func (db *DB) UpdateOutboxDelivery(ctx context.Context, d *outbox.Delivery) error {
	return db.inWriteTx(ctx, "update outbox delivery", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE outbox_deliveries SET status = ?, attempts = ?, next_attempt_at = ?,
			last_error = ?, response_code = ?, updated_at = ?, delivered_at = ? WHERE id = ?`,
			string(d.Status), d.Attempts, d.NextAttemptAt.UnixMilli(), d.LastError, d.ResponseCode,
			d.UpdatedAt.UnixMilli(), millis(d.DeliveredAt), d.ID)
		if err != nil {
			return fmt.Errorf("sqlite: update outbox delivery %d: %w", d.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return outboxNotFound("delivery")
		}
		return nil
	})
}

// OutboxDeliveries lists deliveries, newest first.
func (db *DB) OutboxDeliveries(ctx context.Context, eventID, endpointID int64, limit int) ([]outbox.Delivery, error) {
	where, args := []string{`1 = 1`}, []any{}
	if eventID != 0 {
		where, args = append(where, `event_id = ?`), append(args, eventID)
	}
	if endpointID != 0 {
		where, args = append(where, `endpoint_id = ?`), append(args, endpointID)
	}
	if limit <= 0 {
		limit = -1
	}
	rows, err := db.read.QueryContext(ctx, `SELECT `+rowmap.DeliveryColumns+` FROM outbox_deliveries WHERE `+
		strings.Join(where, ` AND `)+` ORDER BY id DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: outbox deliveries: %w", err)
	}
	return collect(rows, scanDelivery)
}

// RedeliverOutbox makes a delivery due again.
func (db *DB) RedeliverOutbox(ctx context.Context, deliveryID int64, now time.Time) error {
	return db.inWriteTx(ctx, "redeliver outbox delivery", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE outbox_deliveries SET status = ?, attempts = 0, next_attempt_at = ?,
			updated_at = ?, delivered_at = NULL WHERE id = ?`, string(outbox.StatusPending), now.UnixMilli(), now.UnixMilli(), deliveryID)
		if err != nil {
			return fmt.Errorf("sqlite: redeliver outbox delivery %d: %w", deliveryID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return outboxNotFound("delivery")
		}
		return nil
	})
}

// SaveWebhookEndpoint creates or replaces an endpoint.
func (db *DB) SaveWebhookEndpoint(ctx context.Context, e *outbox.Endpoint) error {
	if err := booking.ValidateEndpoint(e); err != nil {
		return err
	}
	return db.inWriteTx(ctx, "save webhook endpoint", func(tx *sql.Tx) error {
		types := strings.Join(e.EventTypes, ",")
		if e.ID == 0 {
			err := tx.QueryRowContext(ctx, `INSERT INTO webhook_endpoints (org_id, url, secret, event_types, active, failures,
				failing_since, paused_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
				e.OrgID, e.URL, e.Secret, types, e.Active, e.Failures, millis(e.FailingSince), millis(e.PausedAt),
				e.CreatedAt.UnixMilli(), e.UpdatedAt.UnixMilli()).Scan(&e.ID)
			if isForeignKeyViolation(err) {
				return booking.Errorf(booking.CodeNotFound, "This organisation does not exist.")
			}
			if err != nil {
				return fmt.Errorf("sqlite: create webhook endpoint: %w", err)
			}
			return nil
		}
		res, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET url = ?, secret = ?, event_types = ?, active = ?,
			failures = ?, failing_since = ?, paused_at = ?, updated_at = ? WHERE id = ? AND org_id = ?`,
			e.URL, e.Secret, types, e.Active, e.Failures, millis(e.FailingSince), millis(e.PausedAt), e.UpdatedAt.UnixMilli(),
			e.ID, e.OrgID)
		if err != nil {
			return fmt.Errorf("sqlite: update webhook endpoint %d: %w", e.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return outboxNotFound("endpoint")
		}
		return nil
	})
}

// WebhookEndpoints lists an organisation's endpoints.
func (db *DB) WebhookEndpoints(ctx context.Context, orgID int64) ([]outbox.Endpoint, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints WHERE org_id = ? ORDER BY id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: webhook endpoints of organisation %d: %w", orgID, err)
	}
	return collect(rows, scanEndpoint)
}

// WebhookEndpoint finds an endpoint.
func (db *DB) WebhookEndpoint(ctx context.Context, orgID, id int64) (*outbox.Endpoint, error) {
	e, err := scanEndpoint(db.read.QueryRowContext(ctx, `SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints
		WHERE id = ? AND (? = 0 OR org_id = ?)`, id, orgID, orgID))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, outboxNotFound("endpoint")
	case err != nil:
		return nil, fmt.Errorf("sqlite: webhook endpoint %d: %w", id, err)
	}
	return e, nil
}

// DeleteWebhookEndpoint removes an endpoint and its deliveries.
func (db *DB) DeleteWebhookEndpoint(ctx context.Context, orgID, id int64) error {
	return db.inWriteTx(ctx, "delete webhook endpoint", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE id = ? AND org_id = ?`, id, orgID)
		if err != nil {
			return fmt.Errorf("sqlite: delete webhook endpoint %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return outboxNotFound("endpoint")
		}
		return nil
	})
}

// RecordWebhookAttempt counts an attempt in one write transaction, with
// the pause's event when it pauses the endpoint.
func (db *DB) RecordWebhookAttempt(ctx context.Context, endpointID int64, ok bool, now time.Time) (*outbox.Endpoint, bool, error) {
	var (
		e      *outbox.Endpoint
		paused bool
	)
	err := db.inWriteTx(ctx, "record webhook attempt", func(tx *sql.Tx) error {
		var err error
		if e, err = scanEndpoint(tx.QueryRowContext(ctx, `SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints WHERE id = ?`,
			endpointID)); errors.Is(err, sql.ErrNoRows) {
			return outboxNotFound("endpoint")
		} else if err != nil {
			return fmt.Errorf("sqlite: webhook endpoint %d: %w", endpointID, err)
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
// forward and replays what failed meanwhile, in one write transaction.
func (db *DB) ResumeWebhookEndpoint(ctx context.Context, orgID, id int64, replay bool, now time.Time) (*outbox.Endpoint, int, error) {
	var (
		e        *outbox.Endpoint
		replayed int
	)
	err := db.inWriteTx(ctx, "resume webhook endpoint", func(tx *sql.Tx) error {
		var err error
		if e, err = scanEndpoint(tx.QueryRowContext(ctx, `SELECT `+rowmap.EndpointColumns+` FROM webhook_endpoints
			WHERE id = ? AND org_id = ?`, id, orgID)); errors.Is(err, sql.ErrNoRows) {
			return outboxNotFound("endpoint")
		} else if err != nil {
			return fmt.Errorf("sqlite: webhook endpoint %d: %w", id, err)
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
		res, err := tx.ExecContext(ctx, `UPDATE outbox_deliveries SET status = ?, attempts = 0, next_attempt_at = ?,
			updated_at = ?, delivered_at = NULL WHERE endpoint_id = ? AND (status = ? AND next_attempt_at > ?
				OR ? AND status = ? AND updated_at >= ?)`,
			string(outbox.StatusPending), now.UnixMilli(), now.UnixMilli(), id, string(outbox.StatusPending),
			now.Add(outbox.MaxLease).UnixMilli(), replayFailed, string(outbox.StatusFailed), since.UnixMilli())
		if err != nil {
			return fmt.Errorf("sqlite: replay deliveries of webhook endpoint %d: %w", id, err)
		}
		n, _ := res.RowsAffected()
		replayed = int(n)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return e, replayed, nil
}

// saveEndpointState writes an endpoint's failures and pause.
func saveEndpointState(ctx context.Context, tx *sql.Tx, e *outbox.Endpoint, now time.Time) error {
	e.UpdatedAt = now
	if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failures = ?, failing_since = ?, paused_at = ?, updated_at = ?
		WHERE id = ?`, e.Failures, millis(e.FailingSince), millis(e.PausedAt), now.UnixMilli(), e.ID); err != nil {
		return fmt.Errorf("sqlite: save webhook endpoint %d: %w", e.ID, err)
	}
	return nil
}

// SetContactEmail sets or clears the host's address.
func (db *DB) SetContactEmail(ctx context.Context, orgID int64, email string) error {
	return db.inWriteTx(ctx, "set contact e-mail", func(tx *sql.Tx) error {
		var err error
		if email == "" {
			_, err = tx.ExecContext(ctx, `DELETE FROM organization_contacts WHERE org_id = ?`, orgID)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO organization_contacts (org_id, email) VALUES (?, ?)
				ON CONFLICT (org_id) DO UPDATE SET email = excluded.email`, orgID, email)
		}
		if isForeignKeyViolation(err) {
			return booking.Errorf(booking.CodeNotFound, "This organisation does not exist.")
		}
		if err != nil {
			return fmt.Errorf("sqlite: set contact e-mail of organisation %d: %w", orgID, err)
		}
		return nil
	})
}

// ContactEmail returns the host's address.
func (db *DB) ContactEmail(ctx context.Context, orgID int64) (string, error) {
	var email string
	err := db.read.QueryRowContext(ctx, `SELECT email FROM organization_contacts WHERE org_id = ?`, orgID).Scan(&email)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("sqlite: contact e-mail of organisation %d: %w", orgID, err)
	}
	return email, nil
}

func outboxNotFound(what string) error {
	return booking.Errorf(booking.CodeNotFound, "This outbox %s does not exist.", what)
}

func scanEvent(row rowScanner) (*outbox.Event, error) {
	return rowmap.ScanEvent(codec{}, row)
}

func scanDelivery(row rowScanner) (*outbox.Delivery, error) {
	return rowmap.ScanDelivery(codec{}, row)
}

func scanEndpoint(row rowScanner) (*outbox.Endpoint, error) {
	return rowmap.ScanEndpoint(codec{}, row)
}

// collect scans every row with scan.
func collect[T any](rows *sql.Rows, scan func(rowScanner) (*T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: scan: %w", err)
		}
		out = append(out, *v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: rows: %w", err)
	}
	return out, nil
}

// SettleLedgerEntry saves a ledger entry and records events in one write
// transaction.
func (db *DB) SettleLedgerEntry(ctx context.Context, e *ledger.Entry, events []outbox.Event, now time.Time) error {
	events, err := booking.PrepareOutbox(events, 0, now)
	if err != nil {
		return err
	}
	return db.inWriteTx(ctx, "settle ledger entry", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE ledger_entries SET status = ?, provider_id = ?, attempts = ?,
			next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ?`,
			string(e.Status), e.ProviderID, e.Attempts, e.NextAttemptAt.UnixMilli(), e.LastError, e.UpdatedAt.UnixMilli(), e.ID)
		if err != nil {
			return fmt.Errorf("sqlite: settle ledger entry %d: %w", e.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ledgerNotFound()
		}
		return recordOutbox(ctx, tx, events)
	})
}
