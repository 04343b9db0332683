package booking

import (
	"context"

	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/ledger"
)

// Notification kinds, one per lifecycle event a host may want to e-mail about.
const (
	NotifyConfirmed = "booking.confirmed"
	NotifyRequested = "booking.requested"
	NotifyExpired   = "booking.expired"
	NotifyDeclined  = "booking.declined"
	NotifyCancelled = "booking.cancelled"
	// NotifyRefunded: money went back to the guest (Notification.Entry
	// says how much), including refunds made from the provider's
	// dashboard.
	NotifyRefunded = "payment.refunded"
	// NotifyPaymentFailed: the provider refused a refund or release for
	// good (Notification.Entry); the host must act.
	NotifyPaymentFailed = "payment.failed"
	// NotifyDisputed: the guest disputed the charge with their bank.
	NotifyDisputed = "payment.disputed"
	// NotifyChangeRequested: a guest asks to change a confirmed booking's
	// dates or party and the host approves changes (package datechange):
	// the host is e-mailed to answer. NotifyChanged: a change applied, the
	// booking has its new stay (guest and host e-mailed).
	// NotifyChangeDeclined: the host declined a change, or it could not
	// apply (its dates taken meanwhile, its charge given back);
	// NotifyChangeExpired: a request lapsed unanswered, or the guest did
	// not complete its payment in time (guest e-mailed). Their events
	// carry the change (notify.ChangeData).
	NotifyChangeRequested = "booking.change_requested"
	NotifyChanged         = "booking.changed"
	NotifyChangeDeclined  = "booking.change_declined"
	NotifyChangeExpired   = "booking.change_expired"
	// NotifyCalendarConflict: an imported calendar event (Notification.
	// Conflict) overlaps a booking (Notification.Booking) held here; the
	// booking is kept and the event not applied, the host must act.
	NotifyCalendarConflict = "calendar.conflict"
)

// Notification tells a host that a booking changed.
type Notification struct {
	Kind         string
	Organization Organization
	Booking      Booking
	// Entry is the ledger entry of payment notifications.
	Entry *ledger.Entry
	// Conflict is the imported event of calendar notifications.
	Conflict *feed.Conflict
}

// Notifier is implemented by hosts to send e-mails or messages. It is called
// after the change is stored, once per change; an error is logged and does
// not undo the change. Implementations must not block for long.
type Notifier interface {
	Notify(ctx context.Context, n Notification) error
}

// NotifierFunc adapts a function to Notifier.
type NotifierFunc func(ctx context.Context, n Notification) error

// Notify calls f.
func (f NotifierFunc) Notify(ctx context.Context, n Notification) error { return f(ctx, n) }

type nopNotifier struct{}

func (nopNotifier) Notify(context.Context, Notification) error { return nil }
