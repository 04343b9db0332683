package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
)

// Catalog is what the Service reads of the organisations, properties and
// bookings: the database's booking store.
type Catalog interface {
	Organizations(ctx context.Context) ([]booking.Organization, error)
	Properties(ctx context.Context, orgID int64) ([]booking.Property, error)
	Property(ctx context.Context, orgID, propertyID int64) (*booking.Property, error)
	BookingByID(ctx context.Context, id int64) (*booking.Booking, error)
}

// Records keeps the host's audit log in units of work: the database's
// host.Store.
type Records interface {
	Atomically(ctx context.Context, fn func(ctx context.Context) error) error
	RecordAudit(ctx context.Context, e *host.AuditEntry) error
}

// Options configure a Service; Store, Catalog and Records are required.
type Options struct {
	Store   Store
	Catalog Catalog
	Records Records
	// BookingURL is the link to a booking's page, which previews show
	// (the notify.Worker gives its own when it sends); nil: "".
	BookingURL func(org *booking.Organization, b *booking.Booking) string
	// Clock defaults to the wall clock.
	Clock booking.Clock
}

// Service runs the scheduled messages: the host's templates, check-in
// instructions and settings, the periodic Queue, and the rendering of a
// message when package notify sends it. It is safe for concurrent use.
type Service struct {
	o Options
}

var _ notify.MessageSource = (*Service)(nil)

// New returns a Service; it panics without Store, Catalog or Records.
func New(o Options) *Service {
	if o.Store == nil || o.Catalog == nil || o.Records == nil {
		panic("schedule: New needs a Store, a Catalog and Records")
	}
	if o.Clock == nil {
		o.Clock = booking.SystemClock{}
	}
	return &Service{o: o}
}

// Templates lists the organisation's templates by ID.
func (s *Service) Templates(ctx context.Context, org *booking.Organization) ([]Template, error) {
	ts, err := s.o.Store.MessageTemplates(ctx, org.ID)
	if err != nil {
		return nil, fmt.Errorf("message templates of organisation %d: %w", org.ID, err)
	}
	return ts, nil
}

// Template returns one of the organisation's templates. Errors:
// booking.CodeNotFound.
func (s *Service) Template(ctx context.Context, org *booking.Organization, id int64) (*Template, error) {
	return s.o.Store.MessageTemplate(ctx, org.ID, id)
}

// Save validates t (Check) and creates it (ID 0) or replaces the
// organisation's template t.ID, audited as "message_template.create" or
// ".update" in the same unit of work (its name, trigger and state, never
// its texts). Errors: booking.CodeInvalid, booking.CodeNotFound (the
// template, or a property not the organisation's).
func (s *Service) Save(ctx context.Context, org *booking.Organization, t *Template, by host.Actor) error {
	if err := Check(t); err != nil {
		return err
	}
	t.OrgID = org.ID
	now := s.o.Clock.Now()
	return s.o.Records.Atomically(ctx, func(ctx context.Context) error {
		action := "message_template.create"
		var before json.RawMessage
		if t.ID != 0 {
			old, err := s.o.Store.MessageTemplate(ctx, org.ID, t.ID)
			if err != nil {
				return err
			}
			action, before, t.CreatedAt = "message_template.update", audited(old), old.CreatedAt
		} else {
			t.CreatedAt = now
		}
		t.UpdatedAt = now
		if err := s.o.Store.SaveMessageTemplate(ctx, t); err != nil {
			return fmt.Errorf("save message template: %w", err)
		}
		return s.o.Records.RecordAudit(ctx, &host.AuditEntry{OrgID: org.ID, Actor: by.String(), ActorName: by.Name,
			Action: action, Target: "message_template:" + strconv.FormatInt(t.ID, 10), Before: before, After: audited(t), At: now})
	})
}

// audited is what the audit log keeps of a template: not its texts.
func audited(t *Template) json.RawMessage {
	b, _ := json.Marshal(struct {
		Name       string  `json:"name"`
		Trigger    Trigger `json:"trigger"`
		Active     bool    `json:"active"`
		PropertyID int64   `json:"property_id,omitempty"`
	}{t.Name, t.Trigger, t.Active, t.PropertyID})
	return b
}

// Settings returns the organisation's settings of the built-in messages.
func (s *Service) Settings(ctx context.Context, org *booking.Organization) (Settings, error) {
	return s.o.Store.MessageSettings(ctx, org.ID)
}

// SetSettings saves them, audited as "message_settings.update".
func (s *Service) SetSettings(ctx context.Context, org *booking.Organization, set Settings, by host.Actor) error {
	return s.o.Records.Atomically(ctx, func(ctx context.Context) error {
		if err := s.o.Store.SetMessageSettings(ctx, org.ID, set); err != nil {
			return fmt.Errorf("save message settings: %w", err)
		}
		after, _ := json.Marshal(map[string]bool{"review_request": set.ReviewRequest})
		return s.o.Records.RecordAudit(ctx, &host.AuditEntry{OrgID: org.ID, Actor: by.String(), ActorName: by.Name,
			Action: "message_settings.update", Target: "organization:" + strconv.FormatInt(org.ID, 10), After: after, At: s.o.Clock.Now()})
	})
}

// ArrivalInfo returns a property's check-in instructions. Errors:
// booking.CodeNotFound.
func (s *Service) ArrivalInfo(ctx context.Context, org *booking.Organization, propertyID int64) (*ArrivalInfo, error) {
	return s.o.Store.ArrivalInfo(ctx, org.ID, propertyID)
}

// SetArrivalInfo validates and saves a property's check-in instructions,
// audited as "property.checkin" without them (whether they are set,
// when they are sent). Errors: booking.CodeInvalid, booking.CodeNotFound.
func (s *Service) SetArrivalInfo(ctx context.Context, org *booking.Organization, c *ArrivalInfo, by host.Actor) error {
	if err := CheckArrivalInfo(c); err != nil {
		return err
	}
	c.UpdatedAt = s.o.Clock.Now()
	return s.o.Records.Atomically(ctx, func(ctx context.Context) error {
		if err := s.o.Store.SetArrivalInfo(ctx, org.ID, c); err != nil {
			return err
		}
		after, _ := json.Marshal(map[string]any{"instructions": c.Instructions != "", "door_code": c.DoorCode != "",
			"days_before": c.DaysBefore, "at": c.At})
		return s.o.Records.RecordAudit(ctx, &host.AuditEntry{OrgID: org.ID, Actor: by.String(), ActorName: by.Name,
			Action: "property.checkin", Target: "property:" + strconv.FormatInt(c.PropertyID, 10), After: after, At: c.UpdatedAt})
	})
}

// Preview renders t, not saved, for one of the organisation's bookings in
// locale ("" : the guest's), as the guest would get it now. Errors:
// booking.CodeInvalid (Check), booking.CodeNotFound (the booking).
func (s *Service) Preview(ctx context.Context, org *booking.Organization, t *Template, bookingID int64, locale string) (notify.Message, error) {
	if err := Check(t); err != nil {
		return notify.Message{}, err
	}
	b, err := s.o.Catalog.BookingByID(ctx, bookingID)
	if err != nil || b.OrgID != org.ID {
		return notify.Message{}, &booking.Error{Code: booking.CodeNotFound, Message: "Booking not found.",
			Params: map[string]string{booking.ParamSubject: "booking"}}
	}
	if locale != "" {
		b.Locale = locale
	}
	link := ""
	if s.o.BookingURL != nil {
		link = s.o.BookingURL(org, b)
	}
	return s.render(ctx, org, b, t.Texts, link)
}

// Queue records the messages due now and not yet recorded, for every
// organisation: the host's active templates, the check-in instructions
// and the review requests whose time came in the last Window. Running it
// again, or on several replicas at once, records nothing twice (the
// events' keys). It returns how many messages it recorded or found
// recorded.
func (s *Service) Queue(ctx context.Context) (int, error) {
	orgs, err := s.o.Catalog.Organizations(ctx)
	if err != nil {
		return 0, fmt.Errorf("list organisations: %w", err)
	}
	now := s.o.Clock.Now()
	n := 0
	var errs []error
	for i := range orgs {
		events, err := s.due(ctx, &orgs[i], now)
		if err != nil {
			errs = append(errs, fmt.Errorf("messages of organisation %d: %w", orgs[i].ID, err))
		}
		if len(events) == 0 {
			continue
		}
		if _, err := s.o.Store.RecordOutbox(ctx, events, now); err != nil {
			errs = append(errs, fmt.Errorf("record messages of organisation %d: %w", orgs[i].ID, err))
			continue
		}
		n += len(events)
	}
	return n, errors.Join(errs...)
}

// due lists the messages of org due at now.
func (s *Service) due(ctx context.Context, org *booking.Organization, now time.Time) ([]outbox.Event, error) {
	loc := org.Location()
	var events []outbox.Event
	add := func(template string, b *booking.Booking, occurrence string) {
		events = append(events, outbox.Event{Key: Key(template, b.ID, occurrence), Kind: outbox.KindMessage,
			OrgID: org.ID, BookingID: b.ID})
	}
	// timed adds the bookings (of propertyID, 0: any) that ok keeps and
	// whose time by tr is within [lo, now].
	timed := func(template string, tr Trigger, lo time.Time, propertyID int64, ok func(*booking.Booking) bool) error {
		from, to := tr.anchors(lo, now, loc)
		bs, err := s.o.Store.MessageBookings(ctx, org.ID, tr.field(), from, to)
		if err != nil {
			return err
		}
		for i := range bs {
			b := &bs[i]
			anchor := tr.anchor(b)
			if (propertyID != 0 && b.PropertyID != propertyID) || anchor.IsZero() || !ok(b) {
				continue
			}
			if at := tr.Instant(anchor, loc); !at.Before(lo) && !at.After(now) {
				add(template, b, anchor.String())
			}
		}
		return nil
	}
	lo := now.Add(-Window)
	ts, err := s.o.Store.MessageTemplates(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if !t.Active {
			continue
		}
		from := lo
		if t.CreatedAt.After(from) {
			from = t.CreatedAt
		}
		id := strconv.FormatInt(t.ID, 10)
		if t.Trigger.When != OnEvent {
			if err := timed(id, t.Trigger, from, t.PropertyID, func(b *booking.Booking) bool { return sendable(&t, b) }); err != nil {
				return nil, err
			}
			continue
		}
		evs, err := s.o.Store.MessageEvents(ctx, org.ID, []string{t.Trigger.Event}, from)
		if err != nil {
			return nil, err
		}
		for _, ev := range evs {
			if ev.BookingID == 0 {
				continue
			}
			b, err := s.o.Catalog.BookingByID(ctx, ev.BookingID)
			if err != nil {
				return nil, fmt.Errorf("booking %d: %w", ev.BookingID, err)
			}
			if (t.PropertyID == 0 || b.PropertyID == t.PropertyID) && sendable(&t, b) {
				add(id, b, "evt"+strconv.FormatInt(ev.ID, 10))
			}
		}
	}
	set, err := s.o.Store.MessageSettings(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	if set.ReviewRequest {
		if err := timed(BuiltinReview, ReviewTrigger, lo, 0, confirmed); err != nil {
			return nil, err
		}
	}
	props, err := s.o.Catalog.Properties(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	for _, p := range props {
		c, err := s.o.Store.ArrivalInfo(ctx, org.ID, p.ID)
		if err != nil {
			return nil, err
		}
		if c.Set() {
			if err := timed(BuiltinCheckin, c.trigger(), lo, p.ID, PaidInFull); err != nil {
				return nil, err
			}
		}
	}
	return events, nil
}

// trigger is when the check-in instructions are sent.
func (c ArrivalInfo) trigger() Trigger {
	return Trigger{When: BeforeArrival, Days: c.DaysBefore, At: c.At}
}

// PaidInFull reports whether b may get its check-in instructions: a
// confirmed booking whose total is paid.
func PaidInFull(b *booking.Booking) bool {
	return b.Status == booking.StatusConfirmed && b.PaidAmount.GreaterThanOrEqual(b.TotalAmount)
}

func confirmed(b *booking.Booking) bool { return b.Status == booking.StatusConfirmed }

// sendable reports whether t may go to b: a time trigger to confirmed
// bookings only, the balance's due date while a balance is left, and a
// template showing the check-in instructions or door code only to a
// booking paid in full.
func sendable(t *Template, b *booking.Booking) bool {
	if t.Secret() && !PaidInFull(b) {
		return false
	}
	switch t.Trigger.When {
	case OnEvent:
		return true
	case BalanceDue:
		return confirmed(b) && b.PaidAmount.LessThan(b.TotalAmount)
	}
	return confirmed(b)
}

// RenderMessage is the text of a message event when package notify sends
// it, for the guest of b in their locale; link is the booking page. A
// message that may no longer go (its template disabled or removed, the
// booking cancelled, a balance unpaid for the check-in instructions, the
// review requests turned off) is notify.ErrWithdrawn.
func (s *Service) RenderMessage(ctx context.Context, ev *outbox.Event, org *booking.Organization, b *booking.Booking, link string) (notify.Message, error) {
	template, _, _, ok := ParseKey(ev)
	if !ok {
		return notify.Message{}, fmt.Errorf("%w: event %d is no message", notify.ErrWithdrawn, ev.ID)
	}
	withdrawn := func(why string) (notify.Message, error) {
		return notify.Message{}, fmt.Errorf("%w: %s", notify.ErrWithdrawn, why)
	}
	var texts map[string]Text
	switch template {
	case BuiltinReview:
		set, err := s.o.Store.MessageSettings(ctx, org.ID)
		if err != nil {
			return notify.Message{}, err
		}
		if !set.ReviewRequest || !confirmed(b) {
			return withdrawn("the review request is off or the booking is not confirmed")
		}
		texts = reviewTexts(link)
	case BuiltinCheckin:
		c, err := s.o.Store.ArrivalInfo(ctx, org.ID, b.PropertyID)
		if err != nil {
			return notify.Message{}, err
		}
		if !c.Set() || !PaidInFull(b) {
			return withdrawn("no check-in instructions, or the booking is not confirmed and paid in full")
		}
		texts = checkinTexts(c)
	default:
		id, err := strconv.ParseInt(template, 10, 64)
		if err != nil {
			return withdrawn("unknown template")
		}
		t, err := s.o.Store.MessageTemplate(ctx, org.ID, id)
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return withdrawn("the template was removed")
		}
		if err != nil {
			return notify.Message{}, err
		}
		if !t.Active || !sendable(t, b) {
			return withdrawn("the template is disabled or the booking may no longer get it")
		}
		texts = t.Texts
	}
	return s.render(ctx, org, b, texts, link)
}

// render fills in the placeholders of the texts in b's locale (else the
// organisation's, else any).
func (s *Service) render(ctx context.Context, org *booking.Organization, b *booking.Booking, texts map[string]Text, link string) (notify.Message, error) {
	locale := notify.MailLocale(b.Locale)
	x, ok := texts[locale]
	if !ok {
		locale = notify.MailLocale(org.DefaultLocale)
		x, ok = texts[locale]
	}
	if !ok {
		for _, l := range Locales {
			if x, ok = texts[l]; ok {
				locale = l
				break
			}
		}
	}
	msg := notify.Message{Locale: locale}
	values := map[string]string{PGuestName: b.GuestName, PCheckIn: notify.Date(b.CheckIn, locale),
		PCheckOut: notify.Date(b.CheckOut, locale), PBookingLink: link, PBalanceLink: link}
	if p, err := s.o.Catalog.Property(ctx, org.ID, b.PropertyID); err == nil {
		values[PProperty] = p.Name
	}
	if strings.Contains(x.Subject+x.Body, PInstructions) || strings.Contains(x.Subject+x.Body, PDoorCode) {
		c, err := s.o.Store.ArrivalInfo(ctx, org.ID, b.PropertyID)
		if err != nil {
			return notify.Message{}, err
		}
		values[PInstructions], values[PDoorCode] = c.Instructions, c.DoorCode
		msg.Private = append(msg.Private, c.DoorCode)
		for _, line := range strings.Split(c.Instructions, "\n") {
			if strings.TrimSpace(line) != "" {
				msg.Private = append(msg.Private, line)
			}
		}
	}
	fill := func(s string) string {
		return placeholder.ReplaceAllStringFunc(s, func(m string) string {
			return values[placeholder.FindStringSubmatch(m)[1]]
		})
	}
	msg.Subject, msg.Text = strings.Join(strings.Fields(fill(x.Subject)), " "), fill(x.Body)
	return msg, nil
}

// reviewTexts is the review request, with a link per star (the booking
// page's &rate=N chooses them).
func reviewTexts(link string) map[string]Text {
	stars := func(one, many string) string {
		var sb strings.Builder
		for n := 5; n >= 1; n-- {
			word := many
			if n == 1 {
				word = one
			}
			fmt.Fprintf(&sb, "%s %d %s : %s&rate=%d\n", strings.Repeat("★", n), n, word, link, n)
		}
		return sb.String()
	}
	return map[string]Text{
		"en": {Subject: "How was your stay at {{property}}?",
			Body: "Hello {{guest_name}},\n\nThank you for staying at {{property}} from {{check_in}} to {{check_out}}. " +
				"How was it? One click gives your rating, and you may add a few words on the page it opens:\n\n" + strings.ReplaceAll(stars("star", "stars"), " : ", ": ")},
		"fr": {Subject: "Comment s'est passé votre séjour à {{property}} ?",
			Body: "Bonjour {{guest_name}},\n\nMerci d'avoir séjourné à {{property}} du {{check_in}} au {{check_out}}. " +
				"Qu'en avez-vous pensé ? Un clic donne votre note, et vous pourrez ajouter quelques mots sur la page qui s'ouvre :\n\n" + stars("étoile", "étoiles")},
	}
}

// checkinTexts is the check-in instructions message.
func checkinTexts(c *ArrivalInfo) map[string]Text {
	code := func(label string) string {
		if c.DoorCode == "" {
			return ""
		}
		return "\n\n" + label + " {{door_code}}"
	}
	return map[string]Text{
		"en": {Subject: "Check-in instructions for {{property}}",
			Body: "Hello {{guest_name}},\n\nYour stay at {{property}} starts on {{check_in}}. Here is how to get in:\n\n{{checkin_instructions}}" +
				code("Door code:") + "\n\nYour booking: {{booking_link}}\n"},
		"fr": {Subject: "Instructions d'arrivée pour {{property}}",
			Body: "Bonjour {{guest_name}},\n\nVotre séjour à {{property}} commence le {{check_in}}. Voici comment entrer :\n\n{{checkin_instructions}}" +
				code("Code de la porte :") + "\n\nVotre réservation : {{booking_link}}\n"},
	}
}
