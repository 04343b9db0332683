package sqlite

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// SaveSettings replaces the settings of an organisation or property.
func (db *DB) SaveSettings(ctx context.Context, s booking.Settings) error {
	return db.tx(ctx, "save settings", func(q querier) error {
		data, err := json.Marshal(s)
		if err != nil {
			return fmt.Errorf("encode settings: %w", err)
		}
		query, args := `SELECT 1 FROM organizations WHERE id = ?`, []any{s.OrgID}
		if s.PropertyID != 0 {
			query, args = `SELECT 1 FROM properties WHERE id = ? AND org_id = ?`, []any{s.PropertyID, s.OrgID}
		}
		ok, err := sqlflow.Exists(ctx, q, query, args...)
		switch {
		case err != nil:
			return err
		case !ok:
			return booking.Errorf(booking.CodeNotFound, "This organisation or property does not exist.")
		}
		return sqlflow.Exec(ctx, q, nil, `INSERT INTO booking_settings (org_id, property_id, data) VALUES (?, ?, ?)
			ON CONFLICT (org_id, property_id) DO UPDATE SET data = excluded.data`, s.OrgID, s.PropertyID, string(data))
	})
}

// Settings finds saved settings.
func (db *DB) Settings(ctx context.Context, orgID, propertyID int64) (*booking.Settings, error) {
	return sqlflow.Get(ctx, db.hotRun, "settings", func(q querier) (*booking.Settings, error) {
		s, err := sqlflow.One(ctx, q, rowmap.ScanSettings, booking.Errorf(booking.CodeNotFound, "No settings saved."),
			qSettings, orgID, propertyID)
		if err != nil {
			return nil, err
		}
		s.OrgID, s.PropertyID = orgID, propertyID
		return s, nil
	})
}

// SaveTerms stores a booking's terms if t.Version is current.
func (db *DB) SaveTerms(ctx context.Context, t *booking.Terms) error {
	err := db.tx(ctx, "save terms", func(q querier) error {
		data, err := json.Marshal(t)
		if err != nil {
			return fmt.Errorf("encode terms: %w", err)
		}
		query, args := `INSERT INTO booking_terms (booking_id, version, data) VALUES (?, 1, ?) ON CONFLICT (booking_id) DO NOTHING`,
			[]any{t.BookingID, string(data)}
		if t.Version != 0 {
			query, args = `UPDATE booking_terms SET version = version + 1, data = ? WHERE booking_id = ? AND version = ?`,
				[]any{string(data), t.BookingID, t.Version}
		}
		err = sqlflow.Exec(ctx, q, booking.Errorf(booking.CodeConflict, "The terms of this booking changed meanwhile."), query, args...)
		if isForeignKeyViolation(err) {
			return booking.Errorf(booking.CodeNotFound, "This booking does not exist.")
		}
		return err
	})
	if err != nil {
		return err
	}
	t.Version++
	return nil
}

// Terms finds a booking's terms.
func (db *DB) Terms(ctx context.Context, bookingID int64) (*booking.Terms, error) {
	return sqlflow.Get(ctx, db.hotRun, "terms", func(q querier) (*booking.Terms, error) {
		t, err := sqlflow.One(ctx, q, rowmap.ScanTerms, booking.Errorf(booking.CodeNotFound, "This booking has no terms."),
			qTerms, bookingID)
		if err != nil {
			return nil, err
		}
		t.BookingID = bookingID
		return t, nil
	})
}
