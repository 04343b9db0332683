package notify

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/outbox"
)

// ThreadSource renders the e-mail of a message of a booking's guest-host
// thread for its recipient (package conversation's Service): a guest's
// message (outbox.KindGuestMessage) goes to the organisation's contact
// address, a host's (outbox.KindHostMessage) to the guest. An error
// wrapping ErrWithdrawn (the message erased with its guest meanwhile)
// fails the delivery for good, unsent.
type ThreadSource interface {
	RenderThreadMessage(ctx context.Context, ev *outbox.Event, org *booking.Organization, b *booking.Booking, to Recipient) (Message, error)
}

// Recipient is who a thread's e-mail goes to.
type Recipient struct {
	// Host is true for the organisation's contact address, false for the
	// guest.
	Host bool
	// Locale is the recipient's language ("en", "fr"): the guest's, or
	// the organisation's default for the host.
	Locale string
	// Link is the page where the recipient reads and answers the thread:
	// the guest's booking page, or the booking in the host's dashboard
	// (Worker.HostBookingURL; "" without one).
	Link string
}

// threadMail is the e-mail of a message of a booking's thread to the
// delivery's recipient.
func (w *Worker) threadMail(ctx context.Context, ev *outbox.Event, d *outbox.Delivery, org *booking.Organization, b *booking.Booking) (Mail, error) {
	if w.Threads == nil {
		return Mail{}, fmt.Errorf("%w: no source of the guests' and hosts' messages", errPermanent)
	}
	r := Recipient{Host: d.To == outbox.ToHost}
	to := b.GuestEmail
	if r.Host {
		contact, err := w.Store.ContactEmail(ctx, org.ID)
		if err != nil {
			return Mail{}, err
		}
		to, r.Locale = contact, mailLocale(org.DefaultLocale)
		if w.HostBookingURL != nil {
			r.Link = w.HostBookingURL(org, b)
		}
	} else {
		r.Locale = mailLocale(b.Locale)
		if w.BookingURL != nil {
			r.Link = w.BookingURL(org, b)
		}
	}
	if to == "" {
		return Mail{}, fmt.Errorf("%w: no address", errPermanent)
	}
	msg, err := w.Threads.RenderThreadMessage(ctx, ev, org, b, r)
	if errors.Is(err, ErrWithdrawn) {
		return Mail{}, fmt.Errorf("%w: %w", errPermanent, err)
	}
	if err != nil {
		return Mail{}, fmt.Errorf("render thread message: %w", err)
	}
	return Mail{ID: MessageID(ev) + "." + d.To, Kind: ev.Kind, To: to, Subject: msg.Subject, Text: msg.Text,
		HTML: cmp.Or(msg.HTML, MessageHTML(msg.Text)), Private: append(guestPrivate(b), msg.Private...)}, nil
}

// threadKind reports whether kind is a message of a booking's thread.
func threadKind(kind string) bool {
	return kind == outbox.KindGuestMessage || kind == outbox.KindHostMessage
}
