package notify

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
	"github.com/wneessen/go-mail"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/pricing"
)

//go:embed templates/*.tmpl
var defaultTemplates embed.FS

// Mail is one rendered e-mail.
type Mail struct {
	// ID is the delivery's idempotency id, also the Message-ID's left part.
	ID      string
	Kind    string
	To      string
	Subject string
	HTML    string
	Text    string
	// Private are the guest's name, contact and words the mail carries
	// (the host's copy) and the secrets it holds: a LogMailer masks them.
	Private []string
}

// mask replaces each of private found in s with "[private]", the longest
// first (a message naming the guest is masked whole).
func mask(s string, private []string) string {
	private = slices.Clone(private)
	slices.SortStableFunc(private, func(a, b string) int { return len(b) - len(a) })
	for _, p := range private {
		if p != "" {
			s = strings.ReplaceAll(s, p, "[private]")
		}
	}
	return s
}

// maskedError is an error whose text has a guest's details masked; it
// wraps the error it masks (errors.Is and As see through it).
type maskedError struct {
	text string
	err  error
}

func (e *maskedError) Error() string { return e.text }
func (e *maskedError) Unwrap() error { return e.err }

// masked is err with private masked in its text (err itself when none of
// them is in it).
func masked(err error, private []string) error {
	if text := mask(err.Error(), private); text != err.Error() {
		return &maskedError{text: text, err: err}
	}
	return err
}

// guestPrivate is what a mail may carry of b's guest, which a LogMailer
// masks: their message, e-mail address, phone number and name, and each
// word of their name of three letters or more (a template may name them
// by their first name). No log line ever names a guest (issue #29: an
// erased guest appears in no log, and a log line cannot be taken back).
func guestPrivate(b *booking.Booking) []string {
	out := []string{b.Message, b.GuestEmail, b.GuestPhone, b.GuestName}
	for _, w := range strings.Fields(b.GuestName) {
		if utf8.RuneCountInString(w) >= 3 {
			out = append(out, w)
		}
	}
	return out
}

// Mailer sends e-mails.
type Mailer interface {
	Send(ctx context.Context, m Mail) error
}

// Templates renders e-mails from the embedded defaults, each of which a
// file of the same name in an override directory replaces: subject.tmpl,
// body.txt.tmpl (text/template) and body.html.tmpl (html/template).
type Templates struct {
	subject, text *template.Template
	html          *htmltemplate.Template
}

// LoadTemplates parses the templates, dir's first ("" for the defaults
// only). Errors: a template that does not parse.
func LoadTemplates(dir string) (*Templates, error) {
	read := func(name string) (string, error) {
		if dir != "" {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err == nil {
				return string(b), nil
			}
			if !os.IsNotExist(err) {
				return "", fmt.Errorf("read template %s: %w", name, err)
			}
		}
		b, err := defaultTemplates.ReadFile("templates/" + name)
		return string(b), err
	}
	var t Templates
	src, err := read("subject.tmpl")
	if err == nil {
		t.subject, err = template.New("subject").Parse(src)
	}
	if err == nil {
		src, err = read("body.txt.tmpl")
	}
	if err == nil {
		t.text, err = template.New("text").Parse(src)
	}
	if err == nil {
		src, err = read("body.html.tmpl")
	}
	if err == nil {
		t.html, err = htmltemplate.New("html").Parse(src)
	}
	if err != nil {
		return nil, fmt.Errorf("mail templates: %w", err)
	}
	return &t, nil
}

// MailData is what the templates see.
type MailData struct {
	Org      booking.Organization
	Booking  booking.Booking
	Kind     string
	Locale   string
	ForHost  bool
	Property string
	Headline string
	Intro    string
	CheckIn  string
	CheckOut string
	Nights   int
	Total    string
	Paid     string
	// Refund is the amount of a refund event, "" otherwise.
	Refund string
	// Change is the change of dates of a change event (booking.NotifyChange*),
	// nil otherwise.
	Change *ChangeMail
	Link   string
	Color  string
	// L holds the labels in Locale.
	L labels
}

// NewMailData is what the templates see of the e-mail of an event of kind
// about b, for the guest or the host (forHost), in locale (a locale
// staykit has no texts in is English). Link and Refund are the caller's
// to set.
func NewMailData(org *booking.Organization, b *booking.Booking, property, kind, locale string, forHost bool) MailData {
	locale = mailLocale(locale)
	h := headlines[locale][kind]
	headline, name := h[0], b.GuestName
	if forHost {
		headline, name = h[1], org.Name
	}
	color := org.Branding["primary_color"]
	if color == "" {
		color = "#0f766e"
	}
	return MailData{Org: *org, Booking: *b, Kind: kind, Locale: locale, ForHost: forHost, Property: property,
		Headline: headline, Intro: fmt.Sprintf(intros[locale], name),
		CheckIn: Date(b.CheckIn, locale), CheckOut: Date(b.CheckOut, locale), Nights: b.Nights(),
		Total: Amount(b.TotalAmount, b.Currency, locale), Paid: Amount(b.PaidAmount, b.Currency, locale),
		Color: color, L: labelsByLocale[locale]}
}

// MailKinds are the kinds of event that send an e-mail about a booking,
// in a stable order.
func MailKinds() []string {
	kinds := make([]string, 0, len(headlines["en"]))
	for k := range headlines["en"] {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}

// MailLocales are the locales staykit has e-mail texts in.
func MailLocales() []string { return []string{"en", "fr"} }

// Render renders the e-mail of an event for the guest or the host.
func (t *Templates) Render(d MailData) (subject, text, html string, err error) {
	var s, x, h bytes.Buffer
	if err = t.subject.Execute(&s, d); err == nil {
		if err = t.text.Execute(&x, d); err == nil {
			err = t.html.Execute(&h, d)
		}
	}
	if err != nil {
		return "", "", "", fmt.Errorf("render %s mail: %w", d.Kind, err)
	}
	return strings.TrimSpace(s.String()), x.String(), h.String(), nil
}

type labels struct {
	Property, Dates, Nights, Guests, Total, Paid, Refund, Guest, Link string
	// Contact, Message and HostLink label the host's copy: the guest's
	// e-mail and phone, their message, the link to the dashboard.
	Contact, Message, HostLink string
}

var labelsByLocale = map[string]labels{
	"fr": {"Logement", "Dates", "nuits", "Voyageurs", "Total", "Payé", "Remboursé", "Voyageur", "Voir la réservation",
		"Contact", "Message du voyageur", "Ouvrir dans le tableau de bord"},
	"en": {"Property", "Dates", "nights", "Guests", "Total", "Paid", "Refunded", "Guest", "View the booking",
		"Contact", "The guest's message", "Open in the dashboard"},
}

// headlines per locale and kind: {guest headline, host headline}.
var headlines = map[string]map[string][2]string{
	"fr": {
		booking.NotifyRequested:     {"Votre demande de réservation est envoyée", "Nouvelle demande de réservation"},
		booking.NotifyConfirmed:     {"Votre réservation est confirmée", "Nouvelle réservation confirmée"},
		booking.NotifyDeclined:      {"Votre demande de réservation n'a pas été acceptée", "Demande refusée"},
		booking.NotifyExpired:       {"Votre réservation a expiré", "Réservation expirée"},
		booking.NotifyCancelled:     {"Votre réservation est annulée", "Réservation annulée"},
		booking.NotifyRefunded:      {"Vous avez été remboursé", "Remboursement effectué"},
		booking.NotifyPaymentFailed: {"", "Un paiement a échoué : action requise"},
		booking.NotifyDisputed:      {"", "Un paiement est contesté"},
		booking.NotifyReminder:      {"Votre séjour approche", "Arrivée prochaine"},
		booking.NotifyBalancePaid:   {"Le solde de votre séjour est réglé", "Solde encaissé"},
		booking.NotifyBalanceActionRequired: {"Confirmez le paiement du solde de votre séjour",
			"Solde : le voyageur doit confirmer le paiement"},
		booking.NotifyDepositClaimed:   {"Une partie de votre caution a été retenue", "Caution retenue"},
		booking.NotifyCalendarConflict: {"", "Conflit de calendrier : un canal a réservé des dates déjà prises ici"},
		booking.NotifyChangeRequested:  {"", "Un changement de dates attend votre réponse"},
		booking.NotifyChanged:          {"Vos nouvelles dates sont confirmées", "Réservation modifiée par le voyageur"},
		booking.NotifyChangeDeclined:   {"Votre demande de changement n'a pas abouti", ""},
		booking.NotifyChangeExpired:    {"Votre demande de changement a expiré", ""},
	},
	"en": {
		booking.NotifyRequested:     {"Your booking request is sent", "New booking request"},
		booking.NotifyConfirmed:     {"Your booking is confirmed", "New confirmed booking"},
		booking.NotifyDeclined:      {"Your booking request was declined", "Request declined"},
		booking.NotifyExpired:       {"Your booking expired", "Booking expired"},
		booking.NotifyCancelled:     {"Your booking is cancelled", "Booking cancelled"},
		booking.NotifyRefunded:      {"You have been refunded", "Refund made"},
		booking.NotifyPaymentFailed: {"", "A payment failed: action required"},
		booking.NotifyDisputed:      {"", "A payment is disputed"},
		booking.NotifyReminder:      {"Your stay is coming up", "Upcoming arrival"},
		booking.NotifyBalancePaid:   {"The balance of your stay is paid", "Balance collected"},
		booking.NotifyBalanceActionRequired: {"Please confirm the payment of your balance",
			"Balance: the guest must confirm the payment"},
		booking.NotifyDepositClaimed:   {"Part of your security deposit was kept", "Security deposit claimed"},
		booking.NotifyCalendarConflict: {"", "Calendar conflict: a channel booked dates already taken here"},
		booking.NotifyChangeRequested:  {"", "A change of dates awaits your answer"},
		booking.NotifyChanged:          {"Your new dates are confirmed", "Booking changed by the guest"},
		booking.NotifyChangeDeclined:   {"Your change request did not go through", ""},
		booking.NotifyChangeExpired:    {"Your change request has expired", ""},
	},
}

var intros = map[string]string{
	"fr": "Bonjour %s,",
	"en": "Hello %s,",
}

// MailLocale is l when staykit has e-mail texts in it, else "en".
func MailLocale(l string) string { return mailLocale(l) }

// mailLocale is the booking's locale when staykit has its texts, else en.
func mailLocale(l string) string {
	if _, ok := labelsByLocale[l]; ok {
		return l
	}
	return "en"
}

// GuestMailed reports whether the guest gets an e-mail for kind (payment
// failures and disputes are the host's business).
func GuestMailed(kind string) bool {
	h, ok := headlines["en"][kind]
	return ok && h[0] != ""
}

// HostMailed reports whether the host gets an e-mail for kind: the
// booking events but a change's closing (declined or expired, the guest's
// business: the host declined it or let it lapse), and a webhook endpoint
// paused (outbox.KindEndpointPaused).
func HostMailed(kind string) bool {
	h, ok := headlines["en"][kind]
	return ok && h[1] != "" || kind == outbox.KindEndpointPaused
}

// Amount formats money for a locale: "1 234,50 €" in French, "€1,234.50"
// in English.
func Amount(v decimal.Decimal, currency, locale string) string {
	s := v.StringFixed(pricing.MinorUnits(currency))
	intPart, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(intPart, "-")
	intPart = strings.TrimPrefix(intPart, "-")
	sep, dec := ",", "."
	if locale == "fr" {
		sep, dec = "\u202f", ","
	}
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(r)
	}
	num := b.String()
	if frac != "" {
		num += dec + frac
	}
	if neg {
		num = "-" + num
	}
	sym := map[string]string{"EUR": "€", "USD": "$", "GBP": "£"}[currency]
	if sym == "" {
		return num + " " + currency
	}
	if locale == "fr" {
		return num + "\u00a0" + sym
	}
	return sym + num
}

var months = map[string][12]string{
	"fr": {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
	"en": {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
}

// Date formats a civil date for a locale: "15 août 2026", "15 August 2026".
func Date(d civil.Date, locale string) string {
	y, m, day := d.Year, d.Month, d.Day
	return fmt.Sprintf("%d %s %d", day, months[mailLocale(locale)][m-1], y)
}

// LogMailer writes e-mails to the log instead of sending them: the kind
// and id at info, the rendered mail (without its address, the guest's
// name, contact and message masked) at debug.
type LogMailer struct{ Logger *slog.Logger }

// Send logs m.
func (l LogMailer) Send(ctx context.Context, m Mail) error {
	l.Logger.InfoContext(ctx, "mail not sent: no SMTP server configured", "mail_id", m.ID, "kind", m.Kind)
	text, subject := mask(m.Text, m.Private), mask(m.Subject, m.Private)
	l.Logger.DebugContext(ctx, "mail", "mail_id", m.ID, "subject", subject, "text", text)
	return nil
}

// SMTPConfig is how to reach the SMTP server.
type SMTPConfig struct {
	Host string
	Port int
	// TLS is "starttls" (the default: required), "tls" (implicit TLS, port
	// 465) or "none" (plain, for a local relay or a test sink).
	TLS      string
	Username string
	Password string
	From     string
}

// SMTPMailer sends e-mails with github.com/wneessen/go-mail.
type SMTPMailer struct {
	cfg SMTPConfig
}

// NewSMTPMailer checks cfg and returns a mailer.
func NewSMTPMailer(cfg SMTPConfig) (*SMTPMailer, error) {
	if cfg.Host == "" || cfg.From == "" {
		return nil, fmt.Errorf("smtp: a host and a sender address are needed")
	}
	switch cfg.TLS {
	case "", "starttls", "tls", "none":
	default:
		return nil, fmt.Errorf("smtp: TLS mode %q is not starttls, tls or none", cfg.TLS)
	}
	return &SMTPMailer{cfg: cfg}, nil
}

// Send sends one e-mail in its own connection.
func (s *SMTPMailer) Send(ctx context.Context, m Mail) error {
	msg := mail.NewMsg()
	if err := msg.From(s.cfg.From); err != nil {
		return fmt.Errorf("smtp: sender: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("%w: smtp: recipient: %w", errPermanent, err)
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(m.ID + "@staykit")
	msg.SetGenHeader("X-Staykit-Event", m.Kind)
	msg.SetBodyString(mail.TypeTextPlain, m.Text)
	msg.AddAlternativeString(mail.TypeTextHTML, m.HTML)
	opts := []mail.Option{mail.WithTimeout(20 * time.Second)}
	if s.cfg.Port != 0 {
		opts = append(opts, mail.WithPort(s.cfg.Port))
	}
	switch s.cfg.TLS {
	case "tls":
		opts = append(opts, mail.WithSSL())
	case "none":
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	}
	if s.cfg.Username != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover), mail.WithUsername(s.cfg.Username), mail.WithPassword(s.cfg.Password))
	}
	c, err := mail.NewClient(s.cfg.Host, opts...)
	if err != nil {
		return fmt.Errorf("smtp: client: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp: send %s: %w", m.ID, err)
	}
	return nil
}
