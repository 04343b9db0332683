package sqlite

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/schedule"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ schedule.Store = (*DB)(nil)

// SaveMessageTemplate creates or replaces a template (schedule.Store).
func (db *DB) SaveMessageTemplate(ctx context.Context, t *schedule.Template) error {
	args, err := rowmap.MessageTemplateArgs(codec{}, t)
	if err != nil {
		return err
	}
	id, err := sqlflow.Get(ctx, db.tx, "save message template", func(q querier) (int64, error) {
		if t.PropertyID != 0 {
			ok, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM properties WHERE id = ? AND org_id = ?`, t.PropertyID, t.OrgID)
			if err != nil {
				return 0, err
			}
			if !ok {
				return 0, rowmap.PropertyOfOrgNotFound()
			}
		}
		if t.ID == 0 {
			return sqlflow.Value[int64](ctx, q, nil, `INSERT INTO message_templates (org_id, name, texts, trigger_when, days, hours,
				at_minute, event, active, property_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
				append([]any{t.OrgID}, args...)...)
		}
		return t.ID, sqlflow.Exec(ctx, q, rowmap.MessageTemplateNotFound(), `UPDATE message_templates SET name = ?, texts = ?,
			trigger_when = ?, days = ?, hours = ?, at_minute = ?, event = ?, active = ?, property_id = ?, created_at = ?, updated_at = ?
			WHERE id = ? AND org_id = ?`, append(args, t.ID, t.OrgID)...)
	})
	if err != nil {
		return err
	}
	t.ID = id
	return nil
}

// MessageTemplates lists an organisation's templates (schedule.Store).
func (db *DB) MessageTemplates(ctx context.Context, orgID int64) ([]schedule.Template, error) {
	return sqlflow.Get(ctx, db.run, "message templates", func(q querier) ([]schedule.Template, error) {
		return sqlflow.All(ctx, q, rowmap.ScanMessageTemplate, `SELECT `+rowmap.MessageTemplateColumns+`
			FROM message_templates WHERE org_id = ? ORDER BY id`, orgID)
	})
}

// MessageTemplate finds a template (schedule.Store).
func (db *DB) MessageTemplate(ctx context.Context, orgID, id int64) (*schedule.Template, error) {
	return sqlflow.Get(ctx, db.run, "message template", func(q querier) (*schedule.Template, error) {
		return sqlflow.One(ctx, q, rowmap.ScanMessageTemplate, rowmap.MessageTemplateNotFound(), `SELECT `+rowmap.MessageTemplateColumns+`
			FROM message_templates WHERE org_id = ? AND id = ?`, orgID, id)
	})
}

// SetArrivalInfo saves a property's check-in instructions (schedule.Store).
func (db *DB) SetArrivalInfo(ctx context.Context, orgID int64, c *schedule.ArrivalInfo) error {
	return db.tx(ctx, "set check-in instructions", func(q querier) error {
		return sqlflow.Exec(ctx, q, rowmap.PropertyOfOrgNotFound(), `INSERT INTO property_checkin_instructions
			(property_id, instructions, door_code, days_before, at_minute, updated_at)
			SELECT id, ?, ?, ?, ?, ? FROM properties WHERE id = ? AND org_id = ?
			ON CONFLICT (property_id) DO UPDATE SET instructions = excluded.instructions, door_code = excluded.door_code,
			days_before = excluded.days_before, at_minute = excluded.at_minute, updated_at = excluded.updated_at`,
			c.Instructions, c.DoorCode, c.DaysBefore, c.At, millis(c.UpdatedAt), c.PropertyID, orgID)
	})
}

// ArrivalInfo returns a property's check-in instructions (schedule.Store).
func (db *DB) ArrivalInfo(ctx context.Context, orgID, propertyID int64) (*schedule.ArrivalInfo, error) {
	return sqlflow.Get(ctx, db.run, "check-in instructions", func(q querier) (*schedule.ArrivalInfo, error) {
		return sqlflow.One(ctx, q, rowmap.ScanArrivalInfo, rowmap.PropertyOfOrgNotFound(), `SELECT p.id,
			coalesce(c.instructions, ''), coalesce(c.door_code, ''), coalesce(c.days_before, ?), coalesce(c.at_minute, ?),
			c.updated_at
			FROM properties p LEFT JOIN property_checkin_instructions c ON c.property_id = p.id WHERE p.id = ? AND p.org_id = ?`,
			schedule.DefaultArrivalInfo.DaysBefore, schedule.DefaultArrivalInfo.At, propertyID, orgID)
	})
}

// SetMessageSettings saves an organisation's settings (schedule.Store).
func (db *DB) SetMessageSettings(ctx context.Context, orgID int64, s schedule.Settings) error {
	return db.tx(ctx, "set message settings", func(q querier) error {
		err := sqlflow.Exec(ctx, q, nil, `INSERT INTO message_settings (org_id, review_request) VALUES (?, ?)
			ON CONFLICT (org_id) DO UPDATE SET review_request = excluded.review_request`, orgID, s.ReviewRequest)
		if isForeignKeyViolation(err) {
			return booking.Errorf(booking.CodeNotFound, "This organisation does not exist.")
		}
		return err
	})
}

// MessageSettings returns an organisation's settings (schedule.Store).
func (db *DB) MessageSettings(ctx context.Context, orgID int64) (schedule.Settings, error) {
	return sqlflow.Get(ctx, db.run, "message settings", func(q querier) (schedule.Settings, error) {
		on, err := sqlflow.Value[bool](ctx, q, sqlflow.ErrNoRow, `SELECT review_request FROM message_settings WHERE org_id = ?`, orgID)
		if errors.Is(err, sqlflow.ErrNoRow) {
			return schedule.Settings{ReviewRequest: true}, nil
		}
		return schedule.Settings{ReviewRequest: on}, err
	})
}

// MessageBookings lists bookings by one of their dates (schedule.Store).
func (db *DB) MessageBookings(ctx context.Context, orgID int64, field schedule.DateField, from, to civil.Date) ([]booking.Booking, error) {
	col, err := dateColumn(field)
	if err != nil {
		return nil, err
	}
	return sqlflow.Get(ctx, db.run, "message bookings", func(q querier) ([]booking.Booking, error) {
		return sqlflow.All(ctx, q, rowmap.ScanBooking, `SELECT `+bookingColumns+` FROM bookings
			WHERE property_id IN (SELECT id FROM properties WHERE org_id = ?) AND `+col+` BETWEEN ? AND ? ORDER BY id`,
			orgID, from.String(), to.String())
	})
}

// MessageEvents lists outbox events of some kinds (schedule.Store).
func (db *DB) MessageEvents(ctx context.Context, orgID int64, kinds []string, since time.Time) ([]outbox.Event, error) {
	if len(kinds) == 0 {
		return nil, nil
	}
	args := []any{orgID, since.UnixMilli()}
	for _, k := range kinds {
		args = append(args, k)
	}
	return sqlflow.Get(ctx, db.run, "message events", func(q querier) ([]outbox.Event, error) {
		return sqlflow.All(ctx, q, rowmap.ScanEvent, `SELECT `+rowmap.EventColumns+` FROM outbox_events
			WHERE org_id = ? AND created_at >= ? AND kind IN (?`+strings.Repeat(", ?", len(kinds)-1)+`) ORDER BY id`, args...)
	})
}

// dateColumn is the column of a booking date.
func dateColumn(f schedule.DateField) (string, error) {
	switch f {
	case schedule.FieldCheckIn, schedule.FieldCheckOut, schedule.FieldBalanceDue:
		return string(f), nil
	}
	return "", booking.Errorf(booking.CodeInvalid, "Unknown booking date %q.", f)
}
