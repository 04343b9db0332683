package host

import (
	"context"
	"fmt"
	"net/mail"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/mailsettings"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/privacy"
)

// Reasons of the host's mail use cases' errors (booking.ParamReason).
const (
	// ReasonSecretsKey: the server has no secrets key, so SMTP settings
	// cannot be stored (CodeNotConfigured).
	ReasonSecretsKey = "secrets_key"
	// ReasonNoGuestMail: the booking has no e-mail to its guest to send
	// again (CodeConflict).
	ReasonNoGuestMail = "no_guest_mail"
	// ReasonGuestErased: the booking's guest was erased (CodeConflict).
	ReasonGuestErased = "guest_erased"
)

// MailOptions configure the host's mail use cases (Service.Mail).
type MailOptions struct {
	// Key seals the SMTP passwords (mailsettings.ParseKey); nil: the SMTP
	// settings use cases answer CodeNotConfigured and nothing is stored.
	Key *mailsettings.Key
	// Templates render the previews: the ones the outbox worker uses
	// (nil: the embedded defaults).
	Templates *notify.Templates
	// BookingURL and HostBookingURL are the links the previews carry, as
	// notify.Worker's; nil: none.
	BookingURL, HostBookingURL func(org *booking.Organization, b *booking.Booking) string
}

// Mail are the host's mail use cases: the organisation's own SMTP server
// (package mailsettings), the previews of the e-mails, and sending a
// booking's e-mail to the guest again.
type Mail struct {
	s *Service
	o MailOptions
}

// Mail returns the mail use cases over s.
func (s *Service) Mail(o MailOptions) *Mail {
	if o.Templates == nil {
		t, err := notify.LoadTemplates("")
		if err != nil {
			panic(err) // the embedded templates parse: notify's tests prove it
		}
		o.Templates = t
	}
	return &Mail{s: s, o: o}
}

func errNoSecretsKey() error {
	return &booking.Error{Code: booking.CodeNotConfigured,
		Message: "The server has no secrets key (-secrets-key): SMTP settings cannot be stored.",
		Params:  map[string]string{booking.ParamReason: ReasonSecretsKey}}
}

// SMTP returns org's SMTP settings, nil when it has none (its e-mails
// leave through the server's mailer). Errors: CodeNotConfigured.
func (m *Mail) SMTP(ctx context.Context, org *booking.Organization) (*mailsettings.Settings, error) {
	if m.o.Key == nil {
		return nil, errNoSecretsKey()
	}
	st, err := m.s.mail.SMTPSettings(ctx, org.ID)
	if booking.ErrorCode(err) == booking.CodeNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("smtp settings: %w", err)
	}
	return st, nil
}

// smtpAudit is what the audit log keeps of SMTP settings: never the
// password, only whether one is set.
type smtpAudit struct {
	Host        string `json:"host"`
	Port        int    `json:"port"`
	TLS         string `json:"tls"`
	Username    string `json:"username"`
	From        string `json:"from"`
	PasswordSet bool   `json:"password_set"`
	// Password is "changed" when the change set or removed it.
	Password string `json:"password,omitempty"`
}

func auditOfSMTP(st *mailsettings.Settings) *smtpAudit {
	if st == nil {
		return nil
	}
	return &smtpAudit{Host: st.Host, Port: st.Port, TLS: st.TLS, Username: st.Username, From: st.From, PasswordSet: st.PasswordSet()}
}

// SaveSMTP sets org's SMTP settings, its password sealed (in.Password nil
// keeps the stored one), audited as "settings.smtp" (the password as
// "changed", never in clear). Errors: CodeNotConfigured, CodeInvalid.
func (m *Mail) SaveSMTP(ctx context.Context, org *booking.Organization, in mailsettings.Input, by Actor) (*mailsettings.Settings, error) {
	before, err := m.SMTP(ctx, org)
	if err != nil {
		return nil, err
	}
	in, err = mailsettings.Check(in)
	if err != nil {
		return nil, err
	}
	st := &mailsettings.Settings{OrgID: org.ID, Host: in.Host, Port: in.Port, TLS: in.TLS, Username: in.Username,
		From: in.From, UpdatedAt: m.s.clock.Now()}
	switch {
	case in.Password == nil && before != nil:
		st.SealedPassword = before.SealedPassword
	case in.Password != nil && *in.Password != "":
		st.SealedPassword = m.o.Key.Seal(org.ID, *in.Password)
	}
	after := auditOfSMTP(st)
	if in.Password != nil && (*in.Password != "" || before != nil && before.PasswordSet()) {
		after.Password = "changed"
	}
	err = m.s.atomically(ctx, func(ctx context.Context) error {
		if err := m.s.mail.SaveSMTPSettings(ctx, st); err != nil {
			return notFoundAs(err, "organization", "save smtp settings")
		}
		return m.s.audit(ctx, org, by, "settings.smtp", target("organization", org.ID), auditOfSMTP(before), after)
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// DeleteSMTP removes org's SMTP settings: its e-mails leave through the
// server's mailer again. Audited as "settings.smtp_delete". Errors:
// CodeNotConfigured.
func (m *Mail) DeleteSMTP(ctx context.Context, org *booking.Organization, by Actor) error {
	before, err := m.SMTP(ctx, org)
	if err != nil || before == nil {
		return err
	}
	return m.s.atomically(ctx, func(ctx context.Context) error {
		if err := m.s.mail.DeleteSMTPSettings(ctx, org.ID); err != nil {
			return fmt.Errorf("delete smtp settings: %w", err)
		}
		return m.s.audit(ctx, org, by, "settings.smtp_delete", target("organization", org.ID), auditOfSMTP(before), nil)
	})
}

// TestSMTP sends a test e-mail through org's saved SMTP settings, now, to
// to ("" : the organisation's contact address), and tells what became of
// it. Errors: CodeNotConfigured, CodeInvalid (field "to": required when
// there is no contact address, invalid_email; field "host": required when
// org has no SMTP settings).
func (m *Mail) TestSMTP(ctx context.Context, org *booking.Organization, to, locale string) (*mailsettings.TestResult, error) {
	st, err := m.SMTP(ctx, org)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, &booking.Error{Code: booking.CodeInvalid, Message: "Save the SMTP settings before testing them.",
			Fields: booking.FieldErrors{"host": {"required"}}}
	}
	if to == "" {
		if to, err = m.s.ContactEmail(ctx, org); err != nil {
			return nil, err
		}
	}
	if a, err := mail.ParseAddress(to); to == "" || err != nil || a.Address != to {
		reason := "invalid_email"
		if to == "" {
			reason = "required"
		}
		return nil, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.", Fields: booking.FieldErrors{"to": {reason}}}
	}
	cfg, err := mailsettings.Config(m.o.Key, st)
	if err != nil {
		reason, msg := mailsettings.Explain(err, cfg)
		return &mailsettings.TestResult{To: to, Reason: reason, Message: msg}, nil
	}
	subject, text := "staykit: test e-mail", "This test e-mail shows that "+org.Name+"'s SMTP settings work."
	if locale == "fr" {
		subject, text = "staykit : e-mail de test", "Cet e-mail de test montre que les réglages SMTP de "+org.Name+" fonctionnent."
	}
	res := mailsettings.SendTest(ctx, cfg, to, subject, text)
	m.s.log.InfoContext(ctx, "smtp test e-mail", "org_id", org.ID, "ok", res.OK, "reason", res.Reason)
	return &res, nil
}

// MailPreview is an e-mail rendered, not sent.
type MailPreview struct {
	Kind, Locale, To    string
	Subject, Text, HTML string
	BookingID           int64
	Sample              bool
}

// PreviewMail renders the e-mail of an event of kind (notify.MailKinds)
// for the guest or the host (to: outbox.ToGuest, the default, or
// outbox.ToHost) in locale ("" : the organisation's), about one of org's
// bookings (bookingID 0: a sample booking). Nothing is sent. Errors:
// CodeInvalid (fields "kind", "locale", "to"), CodeNotFound.
func (m *Mail) PreviewMail(ctx context.Context, org *booking.Organization, kind, locale, to string, bookingID int64) (*MailPreview, error) {
	if locale == "" {
		locale = org.DefaultLocale
	}
	if to == "" {
		to = outbox.ToGuest
	}
	f := booking.FieldErrors{}
	if !slices.Contains(notify.MailKinds(), kind) {
		f["kind"] = []string{"invalid_kind"}
	} else if to == outbox.ToGuest && !notify.GuestMailed(kind) {
		f["kind"] = []string{"not_mailed_to_guest"}
	}
	if !slices.Contains(notify.MailLocales(), locale) {
		f["locale"] = []string{"invalid_locale"}
	}
	if to != outbox.ToGuest && to != outbox.ToHost {
		f["to"] = []string{"invalid_recipient"}
	}
	if len(f) > 0 {
		return nil, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.", Fields: f}
	}
	var b *booking.Booking
	p := &MailPreview{Kind: kind, Locale: locale, To: to, BookingID: bookingID}
	if bookingID != 0 {
		var err error
		if b, err = m.s.booking(ctx, org, bookingID); err != nil {
			return nil, err
		}
	} else {
		p.Sample, b = true, sampleBooking(org, locale, m.s.clock)
	}
	property := ""
	if pr, err := m.s.store.Property(ctx, org.ID, b.PropertyID); err == nil {
		property = pr.Name
	} else if list, err := m.s.Properties(ctx, org); err == nil && len(list) > 0 && p.Sample {
		property = list[0].Name
	}
	d := notify.NewMailData(org, b, property, kind, locale, to == outbox.ToHost)
	if kind == booking.NotifyRefunded {
		d.Refund = notify.Amount(b.PaidAmount, b.Currency, locale)
	}
	switch {
	case to == outbox.ToHost && m.o.HostBookingURL != nil:
		d.Link = m.o.HostBookingURL(org, b)
	case m.o.BookingURL != nil:
		d.Link = m.o.BookingURL(org, b)
	}
	var err error
	if p.Subject, p.Text, p.HTML, err = m.o.Templates.Render(d); err != nil {
		return nil, fmt.Errorf("preview: %w", err)
	}
	return p, nil
}

// sampleBooking is the booking of a preview without one: three nights a
// month ahead, for two.
func sampleBooking(org *booking.Organization, locale string, clock booking.Clock) *booking.Booking {
	in := civil.Today(clock.Now(), org.Location()).AddDays(30)
	cur := org.Currency
	if cur == "" {
		cur = "EUR"
	}
	name, email := "Jane Smith", "jane.smith@example.com"
	if locale == "fr" {
		name, email = "Marie Martin", "marie.martin@example.com"
	}
	return &booking.Booking{OrgID: org.ID, Token: "sample", Status: booking.StatusConfirmed, CheckIn: in, CheckOut: in.AddDays(3),
		Guests: 2, GuestName: name, GuestEmail: email, Locale: locale, Currency: cur,
		TotalAmount: decimal.NewFromInt(450), PaidAmount: decimal.NewFromInt(450)}
}

// ResendEmail sends the guest the e-mail of the booking's latest event
// that mailed them (the confirmation, say) again, through the outbox:
// that delivery is pending and due now, its attempts reset. Audited as
// "booking.resend_email". Errors: CodeNotFound, CodeConflict (reason
// ReasonNoGuestMail, ReasonGuestErased).
func (m *Mail) ResendEmail(ctx context.Context, org *booking.Organization, bookingID int64, by Actor) (*DeliveryEntry, error) {
	b, err := m.s.booking(ctx, org, bookingID)
	if err != nil {
		return nil, err
	}
	if privacy.Erased(*b) {
		return nil, &booking.Error{Code: booking.CodeConflict, Message: "The guest's data was erased: there is no address to send to.",
			Params: map[string]string{booking.ParamReason: ReasonGuestErased}}
	}
	d, err := m.s.mail.LatestGuestMail(ctx, bookingID)
	if booking.ErrorCode(err) == booking.CodeNotFound {
		return nil, &booking.Error{Code: booking.CodeConflict, Message: "This booking has sent no e-mail to its guest yet.",
			Params: map[string]string{booking.ParamReason: ReasonNoGuestMail}}
	}
	if err != nil {
		return nil, fmt.Errorf("latest guest mail of booking %d: %w", bookingID, err)
	}
	ev, err := m.s.store.OutboxEvent(ctx, d.EventID)
	if err != nil {
		return nil, fmt.Errorf("event %d of delivery %d: %w", d.EventID, d.ID, err)
	}
	now := m.s.clock.Now()
	err = m.s.atomically(ctx, func(ctx context.Context) error {
		if err := m.s.store.RedeliverOutbox(ctx, d.ID, now); err != nil {
			return fmt.Errorf("resend delivery %d: %w", d.ID, err)
		}
		before := map[string]any{"delivery_id": d.ID, "event_type": ev.Kind, "status": d.Status, "attempts": d.Attempts}
		after := map[string]any{"delivery_id": d.ID, "event_type": ev.Kind, "status": outbox.StatusPending, "attempts": 0}
		return m.s.audit(ctx, org, by, "booking.resend_email", target("booking", bookingID), before, after)
	})
	if err != nil {
		return nil, err
	}
	d.Status, d.Attempts, d.NextAttemptAt, d.UpdatedAt, d.DeliveredAt, d.LastError = outbox.StatusPending, 0, now, now, time.Time{}, ""
	return &DeliveryEntry{Delivery: *d, EventType: ev.Kind}, nil
}
