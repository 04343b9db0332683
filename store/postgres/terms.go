package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/booking"
)

// SaveSettings replaces the settings of an organisation or property.
func (db *DB) SaveSettings(ctx context.Context, s booking.Settings) error {
	data, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("postgres: encode settings: %w", err)
	}
	return db.inTx(ctx, "save settings", func(tx pgx.Tx) error {
		q, args := `SELECT 1 FROM organizations WHERE id = $1`, []any{s.OrgID}
		if s.PropertyID != 0 {
			q, args = `SELECT 1 FROM properties WHERE id = $1 AND org_id = $2`, []any{s.PropertyID, s.OrgID}
		}
		ok, err := exists(ctx, tx, q, args...)
		if err != nil {
			return fmt.Errorf("postgres: save settings: %w", err)
		}
		if !ok {
			return booking.Errorf(booking.CodeNotFound, "This organisation or property does not exist.")
		}
		_, err = tx.Exec(ctx, `INSERT INTO booking_settings (org_id, property_id, data) VALUES ($1, $2, $3)
			ON CONFLICT (org_id, property_id) DO UPDATE SET data = excluded.data`, s.OrgID, s.PropertyID, string(data))
		if err != nil {
			return fmt.Errorf("postgres: save settings: %w", err)
		}
		return nil
	})
}

// Settings finds saved settings.
func (db *DB) Settings(ctx context.Context, orgID, propertyID int64) (*booking.Settings, error) {
	var data string
	err := db.pool.QueryRow(ctx, `SELECT data FROM booking_settings WHERE org_id = $1 AND property_id = $2`, orgID, propertyID).Scan(&data)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "No settings saved.")
	case err != nil:
		return nil, fmt.Errorf("postgres: settings of %d/%d: %w", orgID, propertyID, err)
	}
	s := &booking.Settings{}
	if err := json.Unmarshal([]byte(data), s); err != nil {
		return nil, fmt.Errorf("postgres: decode settings of %d/%d: %w", orgID, propertyID, err)
	}
	s.OrgID, s.PropertyID = orgID, propertyID
	return s, nil
}

// SaveTerms stores a booking's terms if t.Version is current.
func (db *DB) SaveTerms(ctx context.Context, t *booking.Terms) error {
	data, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("postgres: encode terms: %w", err)
	}
	q, args := `INSERT INTO booking_terms (booking_id, version, data) VALUES ($1, 1, $2) ON CONFLICT (booking_id) DO NOTHING`,
		[]any{t.BookingID, string(data)}
	if t.Version != 0 {
		q, args = `UPDATE booking_terms SET version = version + 1, data = $1 WHERE booking_id = $2 AND version = $3`,
			[]any{string(data), t.BookingID, t.Version}
	}
	tag, err := db.pool.Exec(ctx, q, args...)
	switch {
	case sqlState(err) == foreignKeyViolation:
		return booking.Errorf(booking.CodeNotFound, "This booking does not exist.")
	case err != nil:
		return fmt.Errorf("postgres: save terms of booking %d: %w", t.BookingID, err)
	case tag.RowsAffected() == 0:
		return booking.Errorf(booking.CodeConflict, "The terms of this booking changed meanwhile.")
	}
	t.Version++
	return nil
}

// Terms finds a booking's terms.
func (db *DB) Terms(ctx context.Context, bookingID int64) (*booking.Terms, error) {
	var data string
	var version int
	err := db.pool.QueryRow(ctx, `SELECT version, data FROM booking_terms WHERE booking_id = $1`, bookingID).Scan(&version, &data)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "This booking has no terms.")
	case err != nil:
		return nil, fmt.Errorf("postgres: terms of booking %d: %w", bookingID, err)
	}
	t := &booking.Terms{}
	if err := json.Unmarshal([]byte(data), t); err != nil {
		return nil, fmt.Errorf("postgres: decode terms of booking %d: %w", bookingID, err)
	}
	t.BookingID, t.Version = bookingID, version
	return t, nil
}
