package rowmap

import (
	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/schedule"
)

// MessageTemplateColumns are the columns of message_templates, in the
// order ScanMessageTemplate reads them.
const MessageTemplateColumns = `id, org_id, name, texts, trigger_when, days, hours, at_minute, event, active,
	coalesce(property_id, 0), created_at, updated_at`

// ScanMessageTemplate reads a row of MessageTemplateColumns.
func ScanMessageTemplate(c Codec, s Scanner) (*schedule.Template, error) {
	var t schedule.Template
	var texts string
	if err := Scan(s, &t.ID, &t.OrgID, &t.Name, &texts, (*string)(&t.Trigger.When), &t.Trigger.Days, &t.Trigger.Hours,
		&t.Trigger.At, &t.Trigger.Event, &t.Active, &t.PropertyID, c.Time(&t.CreatedAt), c.Time(&t.UpdatedAt)); err != nil {
		return nil, err
	}
	var err error
	if t.Texts, err = schedule.UnmarshalTexts(texts); err != nil {
		return nil, err
	}
	return &t, nil
}

// MessageTemplateArgs are t's values for name, texts, trigger_when, days,
// hours, at_minute, event, active, property_id, created_at, updated_at.
func MessageTemplateArgs(c Codec, t *schedule.Template) ([]any, error) {
	texts, err := schedule.MarshalTexts(t.Texts)
	if err != nil {
		return nil, err
	}
	return []any{t.Name, texts, string(t.Trigger.When), t.Trigger.Days, t.Trigger.Hours, t.Trigger.At, t.Trigger.Event,
		t.Active, NullID(t.PropertyID), c.InstantArg(t.CreatedAt), c.InstantArg(t.UpdatedAt)}, nil
}

// ArrivalInfoColumns are the columns of property_checkin_instructions, in the order
// ScanArrivalInfo reads them.
const ArrivalInfoColumns = `property_id, instructions, door_code, days_before, at_minute, updated_at`

// ScanArrivalInfo reads a row of ArrivalInfoColumns.
func ScanArrivalInfo(c Codec, s Scanner) (*schedule.ArrivalInfo, error) {
	var x schedule.ArrivalInfo
	if err := Scan(s, &x.PropertyID, &x.Instructions, &x.DoorCode, &x.DaysBefore, &x.At, c.Instant(&x.UpdatedAt)); err != nil {
		return nil, err
	}
	return &x, nil
}

// MessageTemplateNotFound is the error of a template that is not there.
func MessageTemplateNotFound() error {
	return &booking.Error{Code: booking.CodeNotFound, Message: "Message template not found.",
		Params: map[string]string{booking.ParamSubject: "message_template"}}
}

// PropertyOfOrgNotFound is the error of a property that is not the
// organisation's.
func PropertyOfOrgNotFound() error {
	return &booking.Error{Code: booking.CodeNotFound, Message: "Property not found.",
		Params: map[string]string{booking.ParamSubject: "property"}}
}
