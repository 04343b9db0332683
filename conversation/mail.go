package conversation

import (
	"bytes"
	"context"
	"fmt"
	htmltemplate "html/template"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/privacy"
)

// Anchor is the fragment of the booking page's link that opens it at the
// thread.
const Anchor = "#messages"

// RenderThreadMessage is the e-mail of the message of ev, a guest's to the
// host or a host's to the guest, in the recipient's language, with the
// link to the page where they answer: replies by e-mail reach no one, and
// the e-mail says so. A message deleted meanwhile (its guest erased), or
// a host's message to a guest erased since, is notify.ErrWithdrawn.
func (s *Service) RenderThreadMessage(ctx context.Context, ev *outbox.Event, org *booking.Organization, b *booking.Booking, to notify.Recipient) (notify.Message, error) {
	id, ok := MessageOf(ev)
	if !ok {
		return notify.Message{}, fmt.Errorf("%w: event %d is no message of a thread", notify.ErrWithdrawn, ev.ID)
	}
	m, err := s.store.Message(ctx, id)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		return notify.Message{}, fmt.Errorf("%w: message %d was deleted", notify.ErrWithdrawn, id)
	case err != nil:
		return notify.Message{}, fmt.Errorf("message %d: %w", id, err)
	case m.BookingID != b.ID:
		return notify.Message{}, fmt.Errorf("%w: message %d is not of booking %d", notify.ErrWithdrawn, id, b.ID)
	case privacy.Erased(*b):
		return notify.Message{}, fmt.Errorf("%w: the guest of booking %d was erased", notify.ErrWithdrawn, b.ID)
	}
	property := ""
	if p, err := s.catalog.Property(ctx, org.ID, b.PropertyID); err == nil {
		property = p.Name
	}
	return Render(m, org, b, property, to)
}

// mailText is an e-mail's words in one language; %[1]s is the guest's
// name, %[2]s the organisation's, %[3]s the property's, %[4]s and %[5]s
// the stay's dates.
type mailText struct {
	subject, greeting, intro, link, noLink, note string
}

var mailTexts = map[string]map[bool]mailText{
	"en": {
		true: {subject: "Message from %[1]s — %[3]s, %[4]s to %[5]s",
			intro:  "%[1]s wrote to you about their booking at %[3]s (%[4]s to %[5]s):",
			link:   "Answer from the booking in your dashboard, where the guest reads it:",
			noLink: "Answer from the booking in your dashboard, where the guest reads it.",
			note:   "A reply to this e-mail does not reach the guest."},
		false: {subject: "%[2]s wrote to you about your stay at %[3]s",
			greeting: "Hello %[1]s,",
			intro:    "%[2]s wrote to you about your booking at %[3]s (%[4]s to %[5]s):",
			link:     "Read and answer on your booking's page:",
			noLink:   "Read and answer on your booking's page.",
			note:     "A reply to this e-mail does not reach %[2]s: please answer on the page."},
	},
	"fr": {
		true: {subject: "Message de %[1]s — %[3]s, du %[4]s au %[5]s",
			intro:  "%[1]s vous a écrit au sujet de sa réservation à %[3]s (du %[4]s au %[5]s) :",
			link:   "Répondez depuis la réservation dans votre tableau de bord, où le voyageur vous lit :",
			noLink: "Répondez depuis la réservation dans votre tableau de bord, où le voyageur vous lit.",
			note:   "Une réponse à cet e-mail ne parvient pas au voyageur."},
		false: {subject: "%[2]s vous a écrit au sujet de votre séjour à %[3]s",
			greeting: "Bonjour %[1]s,",
			intro:    "%[2]s vous a écrit au sujet de votre réservation à %[3]s (du %[4]s au %[5]s) :",
			link:     "Lisez et répondez sur la page de votre réservation :",
			noLink:   "Lisez et répondez sur la page de votre réservation.",
			note:     "Une réponse à cet e-mail ne parvient pas à %[2]s : répondez sur la page."},
	},
}

// Render is the e-mail of m for its recipient: the subject and text, and
// the HTML with m's words escaped. The guest's link opens the booking page
// at the thread (Anchor). m's text is Private: a LogMailer masks it.
func Render(m *Message, org *booking.Organization, b *booking.Booking, property string, to notify.Recipient) (notify.Message, error) {
	locale := notify.MailLocale(to.Locale)
	x := mailTexts[locale][to.Host]
	args := []any{oneLine(b.GuestName), oneLine(org.Name), oneLine(property),
		notify.Date(b.CheckIn, locale), notify.Date(b.CheckOut, locale)}
	f := func(format string) string {
		if !strings.Contains(format, "%") {
			return format // no verb: Sprintf would note the arguments left over
		}
		return fmt.Sprintf(format, args...)
	}
	link := to.Link
	if link != "" && !to.Host {
		link += Anchor
	}
	v := htmlView{Intro: f(x.intro), Body: m.Body, Link: link, Note: f(x.note)}
	var text strings.Builder
	if x.greeting != "" {
		v.Greeting = f(x.greeting)
		text.WriteString(v.Greeting + "\n\n")
	}
	text.WriteString(v.Intro + "\n\n" + m.Body + "\n\n")
	if link != "" {
		v.LinkText = f(x.link)
		text.WriteString(v.LinkText + " " + link + "\n\n")
	} else {
		v.LinkText = f(x.noLink)
		text.WriteString(v.LinkText + "\n\n")
	}
	text.WriteString(v.Note + "\n")
	var html bytes.Buffer
	if err := mailHTML.Execute(&html, v); err != nil {
		return notify.Message{}, fmt.Errorf("message e-mail: %w", err)
	}
	return notify.Message{Subject: f(x.subject), Text: text.String(), HTML: html.String(), Locale: locale,
		Private: []string{m.Body}}, nil
}

// oneLine is s on one line, for a subject.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

type htmlView struct {
	Greeting, Intro, Body, LinkText, Link, Note string
}

// mailHTML escapes every value (html/template): a message is text, never
// markup.
var mailHTML = htmltemplate.Must(htmltemplate.New("message").Parse(`<!DOCTYPE html>
<html><body style="font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #1f2933; line-height: 1.5">
{{if .Greeting}}<p>{{.Greeting}}</p>
{{end}}<p>{{.Intro}}</p>
<blockquote style="margin: 0 0 1em; padding: .5em 1em; border-left: 3px solid #0f766e; background: #f7f8fa; white-space: pre-wrap">{{.Body}}</blockquote>
{{if .Link}}<p>{{.LinkText}}<br><a href="{{.Link}}" style="color: #0f766e">{{.Link}}</a></p>
{{else}}<p>{{.LinkText}}</p>
{{end}}<p style="color: #616e7c; font-size: 13px">{{.Note}}</p>
</body></html>
`))
