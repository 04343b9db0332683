package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/staykit/staykit/booking"
)

// SaveSettings replaces the settings of an organisation or property.
func (db *DB) SaveSettings(ctx context.Context, s booking.Settings) error {
	data, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("sqlite: encode settings: %w", err)
	}
	return db.inWriteTx(ctx, "save settings", func(tx *sql.Tx) error {
		var n int
		q, args := `SELECT count(*) FROM organizations WHERE id = ?`, []any{s.OrgID}
		if s.PropertyID != 0 {
			q, args = `SELECT count(*) FROM properties WHERE id = ? AND org_id = ?`, []any{s.PropertyID, s.OrgID}
		}
		if err := tx.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
			return fmt.Errorf("sqlite: save settings: %w", err)
		}
		if n == 0 {
			return booking.Errorf(booking.CodeNotFound, "This organisation or property does not exist.")
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO booking_settings (org_id, property_id, data) VALUES (?, ?, ?)
			ON CONFLICT (org_id, property_id) DO UPDATE SET data = excluded.data`, s.OrgID, s.PropertyID, string(data))
		if err != nil {
			return fmt.Errorf("sqlite: save settings: %w", err)
		}
		return nil
	})
}

// Settings finds saved settings.
func (db *DB) Settings(ctx context.Context, orgID, propertyID int64) (*booking.Settings, error) {
	var data string
	err := db.reads().QueryRowContext(ctx, qSettings, orgID, propertyID).Scan(&data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "No settings saved.")
	case err != nil:
		return nil, fmt.Errorf("sqlite: settings of %d/%d: %w", orgID, propertyID, err)
	}
	s := &booking.Settings{}
	if err := json.Unmarshal([]byte(data), s); err != nil {
		return nil, fmt.Errorf("sqlite: decode settings of %d/%d: %w", orgID, propertyID, err)
	}
	s.OrgID, s.PropertyID = orgID, propertyID
	return s, nil
}

// SaveTerms stores a booking's terms if t.Version is current.
func (db *DB) SaveTerms(ctx context.Context, t *booking.Terms) error {
	data, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("sqlite: encode terms: %w", err)
	}
	err = db.inWriteTx(ctx, "save terms", func(tx *sql.Tx) error {
		var res sql.Result
		var err error
		if t.Version == 0 {
			res, err = tx.ExecContext(ctx, `INSERT INTO booking_terms (booking_id, version, data) VALUES (?, 1, ?)
				ON CONFLICT (booking_id) DO NOTHING`, t.BookingID, string(data))
		} else {
			res, err = tx.ExecContext(ctx, `UPDATE booking_terms SET version = version + 1, data = ?
				WHERE booking_id = ? AND version = ?`, string(data), t.BookingID, t.Version)
		}
		if err != nil {
			if isForeignKeyViolation(err) {
				return booking.Errorf(booking.CodeNotFound, "This booking does not exist.")
			}
			return fmt.Errorf("sqlite: save terms of booking %d: %w", t.BookingID, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return booking.Errorf(booking.CodeConflict, "The terms of this booking changed meanwhile.")
		}
		return nil
	})
	if err == nil {
		t.Version++
	}
	return err
}

// Terms finds a booking's terms.
func (db *DB) Terms(ctx context.Context, bookingID int64) (*booking.Terms, error) {
	var data string
	var version int
	err := db.reads().QueryRowContext(ctx, qTerms, bookingID).Scan(&version, &data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "This booking has no terms.")
	case err != nil:
		return nil, fmt.Errorf("sqlite: terms of booking %d: %w", bookingID, err)
	}
	t := &booking.Terms{}
	if err := json.Unmarshal([]byte(data), t); err != nil {
		return nil, fmt.Errorf("sqlite: decode terms of booking %d: %w", bookingID, err)
	}
	t.BookingID, t.Version = bookingID, version
	return t, nil
}
