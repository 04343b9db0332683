package booking

import "context"

// Notification kinds, one per lifecycle event a host may want to e-mail about.
const (
	NotifyConfirmed = "booking.confirmed"
	NotifyRequested = "booking.requested"
	NotifyExpired   = "booking.expired"
	NotifyDeclined  = "booking.declined"
	NotifyCancelled = "booking.cancelled"
)

// Notification tells a host that a booking changed.
type Notification struct {
	Kind         string
	Organization Organization
	Booking      Booking
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
