// Package schedule sends the host's scheduled messages to guests (issue
// #28): templates an organisation writes (a subject and a body per locale,
// with placeholders), each sent on a trigger — a number of days and hours
// before arrival or after departure at a local time of day, on the
// balance's due date, or when a booking event happens (confirmed, balance
// action required, cancelled) — and two built-in messages: the check-in
// instructions of a property (with its door code), sent only to confirmed
// guests who paid in full, and the review request after departure, with
// one-click star links to the booking page.
//
// Times are computed in the organisation's time zone from civil dates and
// a local time of day, so "2 days before arrival at 10:00" is 10:00 on the
// wall clock of the house, summer or winter time.
//
// Every message is an outbox event (outbox.KindMessage) whose key names
// the template, the booking and the occurrence (the anchor date, or the
// event): recording it twice stores it once, in the same transaction as
// the event itself, so a periodic run repeated, two replicas, or a
// process killed between recording and sending never send a message
// twice to the guest. Package notify delivers the event (at least once,
// with its retries) and asks the Service for its text at send time
// (Service.RenderMessage), in the guest's locale.
package schedule

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/outbox"
)

// When is what a trigger is anchored on.
type When string

// Triggers.
const (
	// BeforeArrival: Days and Hours before the check-in date at At.
	BeforeArrival When = "before_arrival"
	// AfterDeparture: Days and Hours after the check-out date at At.
	AfterDeparture When = "after_departure"
	// BalanceDue: Days and Hours before the balance's due date at At,
	// while a balance is left to pay.
	BalanceDue When = "balance_due"
	// OnEvent: when a booking event of kind Event is recorded.
	OnEvent When = "event"
)

// Events a template may be sent on (Trigger.Event).
var Events = []string{booking.NotifyConfirmed, booking.NotifyBalanceActionRequired, booking.NotifyCancelled}

// Locales a template is written in.
var Locales = []string{"en", "fr"}

// Limits of a template.
const (
	MaxName    = 200
	MaxSubject = 200
	MaxBody    = 10000
	MaxDays    = 365
	MaxHours   = 72
	// MaxInstructions is the longest check-in instructions and door code.
	MaxInstructions = 5000
	MaxDoorCode     = 100
)

// Window is how late a message may still be queued after its time: a
// template created or enabled later does not reach the stays whose time
// passed more than Window before, and a server stopped for longer than
// Window skips what fell due meanwhile.
const Window = 24 * time.Hour

// Trigger says when a template is sent.
type Trigger struct {
	When When `json:"when"`
	// Days and Hours are the distance from the anchor date at At.
	Days  int `json:"days"`
	Hours int `json:"hours"`
	// At is the local time of day, in minutes after midnight (600:
	// 10:00).
	At int `json:"at"`
	// Event is the booking event of OnEvent (one of Events).
	Event string `json:"event,omitempty"`
}

// Text is a template's subject and body in one locale.
type Text struct {
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

// Template is a message an organisation sends to its guests.
type Template struct {
	ID    int64
	OrgID int64
	Name  string
	// Texts by locale ("fr", "en"); at least one.
	Texts   map[string]Text
	Trigger Trigger
	Active  bool
	// PropertyID, when not 0, sends it for that property's bookings only.
	PropertyID int64
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// ArrivalInfo is a property's check-in instructions and door code, what
// a guest needs to get in (not to be confused with package checkin, the
// guest's online check-in): sent only to a confirmed guest who paid in
// full, DaysBefore days before arrival at At (local time); never shown by
// the public API nor logged.
type ArrivalInfo struct {
	PropertyID   int64
	Instructions string
	DoorCode     string
	DaysBefore   int
	// At is the local time of day, in minutes after midnight.
	At        int
	UpdatedAt time.Time
}

// DefaultArrivalInfo is when check-in instructions are sent unless the host
// says otherwise: the day before arrival at 10:00.
var DefaultArrivalInfo = ArrivalInfo{DaysBefore: 1, At: 10 * 60}

// Set reports whether the property has check-in instructions to send.
func (c ArrivalInfo) Set() bool { return c.Instructions != "" || c.DoorCode != "" }

// Settings are an organisation's switches of the built-in messages.
type Settings struct {
	// ReviewRequest: a review request is sent after departure (the
	// default).
	ReviewRequest bool
}

// DateField names the date of a booking a store selects on.
type DateField string

// Dates of a booking.
const (
	FieldCheckIn    DateField = "check_in"
	FieldCheckOut   DateField = "check_out"
	FieldBalanceDue DateField = "balance_due_date"
)

// Store keeps templates, check-in instructions and settings, and finds
// what the scheduler looks at; store/sqlite and store/postgres implement
// it, store/storetest checks it.
type Store interface {
	// SaveMessageTemplate creates t (ID 0; ID set) or replaces the
	// organisation's template t.ID. Errors: booking.CodeNotFound (the
	// template, or PropertyID not one of the organisation's properties).
	SaveMessageTemplate(ctx context.Context, t *Template) error
	// MessageTemplates lists an organisation's templates by ID.
	MessageTemplates(ctx context.Context, orgID int64) ([]Template, error)
	// MessageTemplate finds one of an organisation's templates. Errors:
	// booking.CodeNotFound.
	MessageTemplate(ctx context.Context, orgID, id int64) (*Template, error)
	// SetArrivalInfo saves a property's check-in instructions. Errors:
	// booking.CodeNotFound (not a property of orgID).
	SetArrivalInfo(ctx context.Context, orgID int64, c *ArrivalInfo) error
	// ArrivalInfo returns a property's check-in instructions; a property
	// without any gets a zero ArrivalInfo (with its PropertyID). Errors:
	// booking.CodeNotFound (not a property of orgID).
	ArrivalInfo(ctx context.Context, orgID, propertyID int64) (*ArrivalInfo, error)
	// SetMessageSettings saves an organisation's settings.
	SetMessageSettings(ctx context.Context, orgID int64, s Settings) error
	// MessageSettings returns an organisation's settings; the defaults
	// (ReviewRequest on) when it never saved any.
	MessageSettings(ctx context.Context, orgID int64) (Settings, error)
	// MessageBookings lists an organisation's bookings, any status, whose
	// date field is within [from, to], by ID.
	MessageBookings(ctx context.Context, orgID int64, field DateField, from, to civil.Date) ([]booking.Booking, error)
	// MessageEvents lists an organisation's outbox events of the kinds
	// created at or after since, by ID.
	MessageEvents(ctx context.Context, orgID int64, kinds []string, since time.Time) ([]outbox.Event, error)
	// RecordOutbox is outbox.Store's: an event whose key is recorded
	// already is not stored again.
	RecordOutbox(ctx context.Context, events []outbox.Event, now time.Time) ([]outbox.Event, error)
}

// Placeholders a template's subject and body may hold, as {{name}}.
const (
	PGuestName    = "guest_name"
	PCheckIn      = "check_in"
	PCheckOut     = "check_out"
	PProperty     = "property"
	PInstructions = "checkin_instructions"
	PDoorCode     = "door_code"
	PBalanceLink  = "balance_link"
	PBookingLink  = "booking_link"
)

// Placeholders are the names a template may use, in a stable order.
var Placeholders = []string{PGuestName, PCheckIn, PCheckOut, PProperty, PInstructions, PDoorCode, PBalanceLink, PBookingLink}

// ReasonUnknownPlaceholder is the field error of a placeholder staykit
// does not know.
const ReasonUnknownPlaceholder = "unknown_placeholder"

var placeholder = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)

// known reports whether name is one of Placeholders.
func known(name string) bool {
	for _, p := range Placeholders {
		if p == name {
			return true
		}
	}
	return false
}

// unknownPlaceholders lists the placeholders of s staykit does not know.
func unknownPlaceholders(s string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		if !known(m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// Secret reports whether the texts use the check-in instructions or the
// door code: such a message goes only to confirmed guests who paid in
// full.
func (t Template) Secret() bool {
	for _, x := range t.Texts {
		for _, s := range []string{x.Subject, x.Body} {
			for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
				if m[1] == PInstructions || m[1] == PDoorCode {
					return true
				}
			}
		}
	}
	return false
}

// Check validates a template, trimming its name and texts; a template
// with an unknown placeholder is refused with the field error
// ReasonUnknownPlaceholder on the subject or body that holds it (field
// "texts.fr.body"...) and a message naming it. Errors: booking.CodeInvalid.
func Check(t *Template) error {
	f := booking.FieldErrors{}
	var unknown []string
	t.Name = strings.TrimSpace(t.Name)
	switch n := utf8.RuneCountInString(t.Name); {
	case n == 0:
		f.Add("name", "required")
	case n > MaxName:
		f.Add("name", "too_long")
	}
	if len(t.Texts) == 0 {
		f.Add("texts", "required")
	}
	for loc, x := range t.Texts {
		if !isLocale(loc) {
			f.Add("texts", "unknown_locale")
			continue
		}
		x.Subject, x.Body = strings.TrimSpace(x.Subject), strings.TrimSpace(strings.ReplaceAll(x.Body, "\r\n", "\n"))
		t.Texts[loc] = x
		for _, p := range []struct {
			field, s string
			max      int
		}{{"subject", x.Subject, MaxSubject}, {"body", x.Body, MaxBody}} {
			name := "texts." + loc + "." + p.field
			switch n := utf8.RuneCountInString(p.s); {
			case n == 0:
				f.Add(name, "required")
			case n > p.max:
				f.Add(name, "too_long")
			case p.field == "subject" && strings.ContainsAny(p.s, "\r\n"):
				f.Add(name, booking.ReasonInvalidCharacters)
			}
			if u := unknownPlaceholders(p.s); len(u) > 0 {
				f.Add(name, ReasonUnknownPlaceholder)
				unknown = append(unknown, u...)
			}
		}
	}
	tr := &t.Trigger
	switch tr.When {
	case BeforeArrival, AfterDeparture, BalanceDue:
		tr.Event = ""
		if tr.Days < 0 || tr.Days > MaxDays {
			f.Add("trigger.days", "out_of_range")
		}
		if tr.Hours < 0 || tr.Hours > MaxHours {
			f.Add("trigger.hours", "out_of_range")
		}
		if tr.At < 0 || tr.At >= 24*60 {
			f.Add("trigger.at", "out_of_range")
		}
	case OnEvent:
		tr.Days, tr.Hours, tr.At = 0, 0, 0
		ok := false
		for _, e := range Events {
			ok = ok || e == tr.Event
		}
		if !ok {
			f.Add("trigger.event", "unknown_event")
		}
	default:
		f.Add("trigger.when", "unknown_trigger")
	}
	if t.PropertyID < 0 {
		f.Add("property_id", "out_of_range")
	}
	err := f.Err()
	if err != nil && len(unknown) > 0 {
		err.(*booking.Error).Message = fmt.Sprintf("Unknown placeholder {{%s}}: use one of {{%s}}.",
			unknown[0], strings.Join(Placeholders, "}}, {{"))
	}
	return err
}

// CheckArrivalInfo validates check-in instructions. Errors: booking.CodeInvalid.
func CheckArrivalInfo(c *ArrivalInfo) error {
	f := booking.FieldErrors{}
	c.Instructions = strings.TrimSpace(strings.ReplaceAll(c.Instructions, "\r\n", "\n"))
	c.DoorCode = strings.TrimSpace(c.DoorCode)
	if utf8.RuneCountInString(c.Instructions) > MaxInstructions {
		f.Add("checkin_instructions", "too_long")
	}
	switch {
	case utf8.RuneCountInString(c.DoorCode) > MaxDoorCode:
		f.Add("door_code", "too_long")
	case strings.ContainsAny(c.DoorCode, "\r\n"):
		f.Add("door_code", booking.ReasonInvalidCharacters)
	}
	if c.DaysBefore < 0 || c.DaysBefore > 30 {
		f.Add("days_before", "out_of_range")
	}
	if c.At < 0 || c.At >= 24*60 {
		f.Add("at", "out_of_range")
	}
	return f.Err()
}

func isLocale(l string) bool { return l == "fr" || l == "en" }

// Instant is when a time trigger fires for a booking whose anchor date
// (check-in, check-out or balance due date) is anchor: At on the day Days
// away from it, in loc, then Hours away (before arrival and the balance
// due date: earlier; after departure: later). A local time that does not
// exist (the spring-forward gap) is taken as time.Date does, an hour
// later.
func (tr Trigger) Instant(anchor civil.Date, loc *time.Location) time.Time {
	sign := -1
	if tr.When == AfterDeparture {
		sign = 1
	}
	d := anchor.AddDays(sign * tr.Days)
	t := time.Date(d.Year, time.Month(d.Month), d.Day, tr.At/60, tr.At%60, 0, 0, loc)
	return t.Add(time.Duration(sign*tr.Hours) * time.Hour)
}

// anchors is the range of anchor dates whose Instant may fall within
// [lo, hi] in loc.
func (tr Trigger) anchors(lo, hi time.Time, loc *time.Location) (civil.Date, civil.Date) {
	sign := -1
	if tr.When == AfterDeparture {
		sign = 1
	}
	slack := tr.Hours/24 + 2
	return civil.Today(lo, loc).AddDays(-sign*tr.Days - slack), civil.Today(hi, loc).AddDays(-sign*tr.Days + slack)
}

// field is the booking date a time trigger is anchored on.
func (tr Trigger) field() DateField {
	switch tr.When {
	case AfterDeparture:
		return FieldCheckOut
	case BalanceDue:
		return FieldBalanceDue
	}
	return FieldCheckIn
}

// anchor is the date of b a time trigger is anchored on.
func (tr Trigger) anchor(b *booking.Booking) civil.Date {
	switch tr.When {
	case AfterDeparture:
		return b.CheckOut
	case BalanceDue:
		return b.BalanceDueDate
	}
	return b.CheckIn
}

// Built-in messages (Key's template part).
const (
	// BuiltinCheckin sends a property's check-in instructions.
	BuiltinCheckin = "checkin"
	// BuiltinReview asks for a review after departure.
	BuiltinReview = "review"
)

// ReviewTrigger is when the review request is sent: the day after
// departure at 10:00.
var ReviewTrigger = Trigger{When: AfterDeparture, Days: 1, At: 10 * 60}

// Key is the outbox key of a message: the template (its ID, or a
// built-in's name), the booking and the occurrence (the anchor date, or
// the event's ID).
func Key(template string, bookingID int64, occurrence string) string {
	return fmt.Sprintf("%s:%s:%d:%s", outbox.KindMessage, template, bookingID, occurrence)
}

// ParseKey returns the parts of a message's Key; ok is false for another
// event.
func ParseKey(ev *outbox.Event) (template string, bookingID int64, occurrence string, ok bool) {
	rest, found := strings.CutPrefix(ev.Key, outbox.KindMessage+":")
	if !found || ev.Kind != outbox.KindMessage {
		return "", 0, "", false
	}
	parts := strings.SplitN(rest, ":", 3)
	if len(parts) != 3 {
		return "", 0, "", false
	}
	id, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return "", 0, "", false
	}
	return parts[0], id, parts[2], true
}

// MarshalTexts is how stores keep a template's texts.
func MarshalTexts(texts map[string]Text) (string, error) {
	b, err := json.Marshal(texts)
	if err != nil {
		return "", fmt.Errorf("message texts: %w", err)
	}
	return string(b), nil
}

// UnmarshalTexts reads what MarshalTexts wrote.
func UnmarshalTexts(s string) (map[string]Text, error) {
	texts := map[string]Text{}
	if err := json.Unmarshal([]byte(s), &texts); err != nil {
		return nil, fmt.Errorf("message texts: %w", err)
	}
	return texts, nil
}
