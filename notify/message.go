package notify

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/outbox"
)

// MessageSource renders the guest's e-mail of an outbox.KindMessage event
// when it is sent (package schedule's Service), in the guest's locale;
// link is the booking's page. An error wrapping ErrWithdrawn fails the
// delivery for good, unsent.
type MessageSource interface {
	RenderMessage(ctx context.Context, ev *outbox.Event, org *booking.Organization, b *booking.Booking, link string) (Message, error)
}

// Message is a rendered scheduled message.
type Message struct {
	Subject string
	// Text is the plain-text body.
	Text string
	// Locale is the language it is written in ("en", "fr").
	Locale string
	// HTML is the HTML body; "" makes it the text as HTML (MessageHTML).
	HTML string
	// Private are the secrets it carries (a door code, check-in
	// instructions, a guest's words), which a LogMailer masks.
	Private []string
}

// ErrWithdrawn is a message that may no longer be sent (its template
// disabled, the booking cancelled...): its delivery fails without an
// attempt nor a retry.
var ErrWithdrawn = errors.New("message withdrawn")

// message is the guest's e-mail of a scheduled message: the source's
// subject and text, and the text as HTML.
func (w *Worker) message(ctx context.Context, ev *outbox.Event, org *booking.Organization, b *booking.Booking) (Mail, error) {
	if w.Messages == nil {
		return Mail{}, fmt.Errorf("%w: no source of scheduled messages", errPermanent)
	}
	if b.GuestEmail == "" {
		return Mail{}, fmt.Errorf("%w: no address", errPermanent)
	}
	link := ""
	if w.BookingURL != nil {
		link = w.BookingURL(org, b)
	}
	msg, err := w.Messages.RenderMessage(ctx, ev, org, b, link)
	if errors.Is(err, ErrWithdrawn) {
		return Mail{}, fmt.Errorf("%w: %w", errPermanent, err)
	}
	if err != nil {
		return Mail{}, fmt.Errorf("render message: %w", err)
	}
	return Mail{ID: MessageID(ev) + "." + outbox.ToGuest, Kind: ev.Kind, To: b.GuestEmail, Subject: msg.Subject, Text: msg.Text,
		HTML: cmp.Or(msg.HTML, MessageHTML(msg.Text)), Private: append(guestPrivate(b), msg.Private...)}, nil
}

// MessageHTML is a plain-text message as HTML: escaped, its paragraphs
// kept.
func MessageHTML(text string) string {
	var sb strings.Builder
	sb.WriteString("<!DOCTYPE html><html><body>")
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		sb.WriteString("<p>")
		sb.WriteString(strings.ReplaceAll(html.EscapeString(p), "\n", "<br>"))
		sb.WriteString("</p>")
	}
	sb.WriteString("</body></html>")
	return sb.String()
}
