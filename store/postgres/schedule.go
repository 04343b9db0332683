package postgres

import (
	"context"
	"errors"
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
			ok, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM properties WHERE id = $1 AND org_id = $2`, t.PropertyID, t.OrgID)
			if err != nil {
				return 0, err
			}
			if !ok {
				return 0, rowmap.PropertyOfOrgNotFound()
			}
		}
		if t.ID == 0 {
			return sqlflow.Value[int64](ctx, q, nil, `INSERT INTO message_templates (name, texts, trigger_when, days, hours,
				at_minute, event, active, property_id, created_at, updated_at, org_id)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`, append(args, t.OrgID)...)
		}
		return t.ID, sqlflow.Exec(ctx, q, rowmap.MessageTemplateNotFound(), `UPDATE message_templates SET name = $1, texts = $2,
			trigger_when = $3, days = $4, hours = $5, at_minute = $6, event = $7, active = $8, property_id = $9, created_at = $10,
			updated_at = $11 WHERE id = $12 AND org_id = $13`, append(args, t.ID, t.OrgID)...)
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
			FROM message_templates WHERE org_id = $1 ORDER BY id`, orgID)
	})
}

// MessageTemplate finds a template (schedule.Store).
func (db *DB) MessageTemplate(ctx context.Context, orgID, id int64) (*schedule.Template, error) {
	return sqlflow.Get(ctx, db.run, "message template", func(q querier) (*schedule.Template, error) {
		return sqlflow.One(ctx, q, rowmap.ScanMessageTemplate, rowmap.MessageTemplateNotFound(), `SELECT `+rowmap.MessageTemplateColumns+`
			FROM message_templates WHERE org_id = $1 AND id = $2`, orgID, id)
	})
}

// SetArrivalInfo saves a property's check-in instructions (schedule.Store).
func (db *DB) SetArrivalInfo(ctx context.Context, orgID int64, c *schedule.ArrivalInfo) error {
	return db.tx(ctx, "set check-in instructions", func(q querier) error {
		return sqlflow.Exec(ctx, q, rowmap.PropertyOfOrgNotFound(), `INSERT INTO property_checkin_instructions
			(property_id, instructions, door_code, days_before, at_minute, updated_at)
			SELECT id, $1, $2, $3, $4, $5 FROM properties WHERE id = $6 AND org_id = $7
			ON CONFLICT (property_id) DO UPDATE SET instructions = excluded.instructions, door_code = excluded.door_code,
			days_before = excluded.days_before, at_minute = excluded.at_minute, updated_at = excluded.updated_at`,
			c.Instructions, c.DoorCode, c.DaysBefore, c.At, instant(c.UpdatedAt), c.PropertyID, orgID)
	})
}

// ArrivalInfo returns a property's check-in instructions (schedule.Store).
func (db *DB) ArrivalInfo(ctx context.Context, orgID, propertyID int64) (*schedule.ArrivalInfo, error) {
	return sqlflow.Get(ctx, db.run, "check-in instructions", func(q querier) (*schedule.ArrivalInfo, error) {
		return sqlflow.One(ctx, q, rowmap.ScanArrivalInfo, rowmap.PropertyOfOrgNotFound(), `SELECT p.id,
			coalesce(c.instructions, ''), coalesce(c.door_code, ''), coalesce(c.days_before, $1), coalesce(c.at_minute, $2),
			c.updated_at
			FROM properties p LEFT JOIN property_checkin_instructions c ON c.property_id = p.id WHERE p.id = $3 AND p.org_id = $4`,
			schedule.DefaultArrivalInfo.DaysBefore, schedule.DefaultArrivalInfo.At, propertyID, orgID)
	})
}

// SetMessageSettings saves an organisation's settings (schedule.Store).
func (db *DB) SetMessageSettings(ctx context.Context, orgID int64, s schedule.Settings) error {
	return db.tx(ctx, "set message settings", func(q querier) error {
		err := sqlflow.Exec(ctx, q, nil, `INSERT INTO message_settings (org_id, review_request) VALUES ($1, $2)
			ON CONFLICT (org_id) DO UPDATE SET review_request = excluded.review_request`, orgID, s.ReviewRequest)
		if sqlState(err) == foreignKeyViolation {
			return booking.Errorf(booking.CodeNotFound, "This organisation does not exist.")
		}
		return err
	})
}

// MessageSettings returns an organisation's settings (schedule.Store).
func (db *DB) MessageSettings(ctx context.Context, orgID int64) (schedule.Settings, error) {
	return sqlflow.Get(ctx, db.run, "message settings", func(q querier) (schedule.Settings, error) {
		on, err := sqlflow.Value[bool](ctx, q, sqlflow.ErrNoRow, `SELECT review_request FROM message_settings WHERE org_id = $1`, orgID)
		if errors.Is(err, sqlflow.ErrNoRow) {
			return schedule.Settings{ReviewRequest: true}, nil
		}
		return schedule.Settings{ReviewRequest: on}, err
	})
}

// MessageBookings lists bookings by one of their dates (schedule.Store).
func (db *DB) MessageBookings(ctx context.Context, orgID int64, field schedule.DateField, from, to civil.Date) ([]booking.Booking, error) {
	var col string
	switch field {
	case schedule.FieldCheckIn, schedule.FieldCheckOut, schedule.FieldBalanceDue:
		col = string(field)
	default:
		return nil, booking.Errorf(booking.CodeInvalid, "Unknown booking date %q.", field)
	}
	return sqlflow.Get(ctx, db.run, "message bookings", func(q querier) ([]booking.Booking, error) {
		return sqlflow.All(ctx, q, rowmap.ScanBooking, `SELECT `+bookingColumns+` FROM bookings
			WHERE org_id = $1 AND `+col+` BETWEEN $2 AND $3 ORDER BY id`,
			orgID, codec{}.DayArg(from), codec{}.DayArg(to))
	})
}

// MessageEvents lists outbox events of some kinds (schedule.Store).
func (db *DB) MessageEvents(ctx context.Context, orgID int64, kinds []string, since time.Time) ([]outbox.Event, error) {
	return sqlflow.Get(ctx, db.run, "message events", func(q querier) ([]outbox.Event, error) {
		return sqlflow.All(ctx, q, rowmap.ScanEvent, `SELECT `+rowmap.EventColumns+` FROM outbox_events
			WHERE org_id = $1 AND created_at >= $2 AND kind = ANY($3) ORDER BY id`, orgID, since, kinds)
	})
}
