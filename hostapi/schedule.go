package hostapi

import (
	"fmt"
	"net/http"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/schedule"
)

// ReasonMessages is the booking.ParamReason of the CodeNotConfigured of
// the scheduled messages' routes on a handler without Options.Messages.
const ReasonMessages = "messages"

// scheduleRoutes are the scheduled messages (package schedule).
func (h *handler) scheduleRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/message-templates", h.listMessageTemplates},
		{http.MethodPost, "/message-templates", h.saveMessageTemplate(false)},
		{http.MethodGet, "/message-templates/{id}", h.getMessageTemplate},
		{http.MethodPut, "/message-templates/{id}", h.saveMessageTemplate(true)},
		{http.MethodPost, "/message-preview", h.previewMessageTemplate},
		{http.MethodGet, "/settings/messages", h.getMessageSettings},
		{http.MethodPut, "/settings/messages", h.putMessageSettings},
		{http.MethodGet, "/properties/{id}/checkin-instructions", h.getArrivalInfo},
		{http.MethodPut, "/properties/{id}/checkin-instructions", h.putArrivalInfo},
	}
}

func (h *handler) scheduleService() (*schedule.Service, error) {
	if h.messages == nil {
		return nil, &booking.Error{Code: booking.CodeNotConfigured, Message: "Scheduled messages are not configured on this server.",
			Params: map[string]string{booking.ParamReason: ReasonMessages}}
	}
	return h.messages, nil
}

// triggerView is when a template is sent; at is "HH:MM", local time.
type triggerView struct {
	When  string  `json:"when"`
	Days  int     `json:"days"`
	Hours int     `json:"hours"`
	At    string  `json:"at"`
	Event *string `json:"event"`
}

// messageTemplateInput is the body of POST and PUT /message-templates.
type messageTemplateInput struct {
	Name       string                   `json:"name"`
	Texts      map[string]schedule.Text `json:"texts"`
	Trigger    triggerView              `json:"trigger"`
	Active     *bool                    `json:"active"`
	PropertyID *int64                   `json:"property_id"`
}

// messageTemplateView is a template as the host sees it.
type messageTemplateView struct {
	ID         int64                    `json:"id"`
	Name       string                   `json:"name"`
	Texts      map[string]schedule.Text `json:"texts"`
	Trigger    triggerView              `json:"trigger"`
	Active     bool                     `json:"active"`
	PropertyID *int64                   `json:"property_id"`
	CreatedAt  time.Time                `json:"created_at"`
	UpdatedAt  time.Time                `json:"updated_at"`
}

func clockTime(minutes int) string { return fmt.Sprintf("%02d:%02d", minutes/60, minutes%60) }

// parseClock reads "HH:MM" ("" is 00:00); ok is false for anything else.
func parseClock(s string) (int, bool) {
	if s == "" {
		return 0, true
	}
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != 5 {
		return 0, false
	}
	return t.Hour()*60 + t.Minute(), true
}

func newMessageTemplateView(t *schedule.Template) messageTemplateView {
	v := messageTemplateView{ID: t.ID, Name: t.Name, Texts: t.Texts, Active: t.Active, CreatedAt: t.CreatedAt.UTC(),
		UpdatedAt: t.UpdatedAt.UTC(), Trigger: triggerView{When: string(t.Trigger.When), Days: t.Trigger.Days,
			Hours: t.Trigger.Hours, At: clockTime(t.Trigger.At)}}
	if t.Trigger.Event != "" {
		e := t.Trigger.Event
		v.Trigger.Event = &e
	}
	if t.PropertyID != 0 {
		id := t.PropertyID
		v.PropertyID = &id
	}
	return v
}

// template is the input as a Template (not checked yet but the time of
// day: schedule.Check does the rest).
func (in messageTemplateInput) template() (*schedule.Template, error) {
	at, ok := parseClock(in.Trigger.At)
	switch {
	case !ok:
		return nil, invalid("trigger.at", "invalid_time")
	case in.Trigger.At == "" && in.Trigger.When != string(schedule.OnEvent):
		return nil, invalid("trigger.at", "required")
	}
	t := &schedule.Template{Name: in.Name, Texts: in.Texts, Active: in.Active == nil || *in.Active,
		Trigger: schedule.Trigger{When: schedule.When(in.Trigger.When), Days: in.Trigger.Days, Hours: in.Trigger.Hours, At: at}}
	if t.Texts == nil {
		t.Texts = map[string]schedule.Text{}
	}
	if in.Trigger.Event != nil {
		t.Trigger.Event = *in.Trigger.Event
	}
	if in.PropertyID != nil {
		t.PropertyID = *in.PropertyID
	}
	return t, nil
}

// GET /message-templates
func (h *handler) listMessageTemplates(r *http.Request, c *call) (int, any, error) {
	s, err := h.scheduleService()
	if err != nil {
		return 0, nil, err
	}
	ts, err := s.Templates(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	items := make([]messageTemplateView, len(ts))
	for i := range ts {
		items[i] = newMessageTemplateView(&ts[i])
	}
	return http.StatusOK, newList(items, 0), nil
}

// GET /message-templates/{id}
func (h *handler) getMessageTemplate(r *http.Request, c *call) (int, any, error) {
	s, err := h.scheduleService()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "message_template")
	if err != nil {
		return 0, nil, err
	}
	t, err := s.Template(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newMessageTemplateView(t), nil
}

// POST /message-templates and PUT /message-templates/{id}
func (h *handler) saveMessageTemplate(replace bool) op {
	return func(r *http.Request, c *call) (int, any, error) {
		s, err := h.scheduleService()
		if err != nil {
			return 0, nil, err
		}
		var id int64
		if replace {
			if id, err = pathID(r, "id", "message_template"); err != nil {
				return 0, nil, err
			}
		}
		var in messageTemplateInput
		if err := decode(c.body, &in); err != nil {
			return 0, nil, err
		}
		t, err := in.template()
		if err != nil {
			return 0, nil, err
		}
		t.ID = id
		if err := s.Save(r.Context(), c.org, t, c.actor); err != nil {
			return 0, nil, err
		}
		status := http.StatusCreated
		if replace {
			status = http.StatusOK
		}
		return status, newMessageTemplateView(t), nil
	}
}

// messagePreviewInput is the body of POST /message-preview.
type messagePreviewInput struct {
	Template  messageTemplateInput `json:"template"`
	BookingID int64                `json:"booking_id"`
	Locale    string               `json:"locale"`
}

// messagePreviewView is a template rendered for a booking.
type messagePreviewView struct {
	BookingID int64  `json:"booking_id"`
	Locale    string `json:"locale"`
	Subject   string `json:"subject"`
	Text      string `json:"text"`
	HTML      string `json:"html"`
}

// guestBooking: a preview shows the booking's guest (aboutBooking).
func (v messagePreviewView) guestBooking() int64 { return v.BookingID }

// POST /message-preview
func (h *handler) previewMessageTemplate(r *http.Request, c *call) (int, any, error) {
	s, err := h.scheduleService()
	if err != nil {
		return 0, nil, err
	}
	var in messagePreviewInput
	if err := decode(c.body, &in); err != nil {
		return 0, nil, err
	}
	switch in.Locale {
	case "", "en", "fr":
	default:
		return 0, nil, invalid("locale", "invalid_choice")
	}
	if in.BookingID <= 0 {
		return 0, nil, invalid("booking_id", "required")
	}
	t, err := in.Template.template()
	if err != nil {
		return 0, nil, err
	}
	m, err := s.Preview(r.Context(), c.org, t, in.BookingID, in.Locale)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, messagePreviewView{BookingID: in.BookingID, Locale: m.Locale, Subject: m.Subject, Text: m.Text,
		HTML: notify.MessageHTML(m.Text)}, nil
}

// messageSettingsView is the built-in messages' switches.
type messageSettingsView struct {
	ReviewRequest *bool `json:"review_request"`
}

// GET /settings/messages
func (h *handler) getMessageSettings(r *http.Request, c *call) (int, any, error) {
	s, err := h.scheduleService()
	if err != nil {
		return 0, nil, err
	}
	set, err := s.Settings(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, messageSettingsView{ReviewRequest: &set.ReviewRequest}, nil
}

// PUT /settings/messages
func (h *handler) putMessageSettings(r *http.Request, c *call) (int, any, error) {
	s, err := h.scheduleService()
	if err != nil {
		return 0, nil, err
	}
	var in messageSettingsView
	if err := decode(c.body, &in); err != nil {
		return 0, nil, err
	}
	if in.ReviewRequest == nil {
		return 0, nil, invalid("review_request", "required")
	}
	set := schedule.Settings{ReviewRequest: *in.ReviewRequest}
	if err := s.SetSettings(r.Context(), c.org, set, c.actor); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, messageSettingsView{ReviewRequest: &set.ReviewRequest}, nil
}

// arrivalInfoView is a property's check-in instructions: host API only.
type arrivalInfoView struct {
	PropertyID   int64      `json:"property_id"`
	Instructions string     `json:"checkin_instructions"`
	DoorCode     string     `json:"door_code"`
	DaysBefore   int        `json:"days_before"`
	At           string     `json:"at"`
	UpdatedAt    *time.Time `json:"updated_at"`
}

func newArrivalInfoView(x *schedule.ArrivalInfo) arrivalInfoView {
	v := arrivalInfoView{PropertyID: x.PropertyID, Instructions: x.Instructions, DoorCode: x.DoorCode, DaysBefore: x.DaysBefore,
		At: clockTime(x.At)}
	if !x.UpdatedAt.IsZero() {
		at := x.UpdatedAt.UTC()
		v.UpdatedAt = &at
	}
	return v
}

// arrivalInfoInput is the body of PUT /properties/{id}/checkin.
type arrivalInfoInput struct {
	Instructions string `json:"checkin_instructions"`
	DoorCode     string `json:"door_code"`
	DaysBefore   *int   `json:"days_before"`
	At           string `json:"at"`
}

// GET /properties/{id}/checkin
func (h *handler) getArrivalInfo(r *http.Request, c *call) (int, any, error) {
	s, err := h.scheduleService()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	x, err := s.ArrivalInfo(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newArrivalInfoView(x), nil
}

// PUT /properties/{id}/checkin
func (h *handler) putArrivalInfo(r *http.Request, c *call) (int, any, error) {
	s, err := h.scheduleService()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	var in arrivalInfoInput
	if err := decode(c.body, &in); err != nil {
		return 0, nil, err
	}
	x := &schedule.ArrivalInfo{PropertyID: id, Instructions: in.Instructions, DoorCode: in.DoorCode,
		DaysBefore: schedule.DefaultArrivalInfo.DaysBefore, At: schedule.DefaultArrivalInfo.At}
	if in.DaysBefore != nil {
		x.DaysBefore = *in.DaysBefore
	}
	if in.At != "" {
		at, ok := parseClock(in.At)
		if !ok {
			return 0, nil, invalid("at", "invalid_time")
		}
		x.At = at
	}
	if err := s.SetArrivalInfo(r.Context(), c.org, x, c.actor); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newArrivalInfoView(x), nil
}
