// Package notifytest has a fake for tests of code that sends e-mail
// through a notify.Mailer.
package notifytest

import (
	"context"
	"sync"

	"github.com/staykit/staykit/notify"
)

// Mailer records the e-mails sent through it, in order. It is safe for
// concurrent use; its zero value is ready.
type Mailer struct {
	mu   sync.Mutex
	sent []notify.Mail
}

// Send records mail and succeeds.
func (m *Mailer) Send(_ context.Context, mail notify.Mail) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, mail)
	return nil
}

// Sent returns the e-mails sent so far that keep selects (all when keep
// is nil), in order.
func (m *Mailer) Sent(keep func(notify.Mail) bool) []notify.Mail {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []notify.Mail
	for _, mail := range m.sent {
		if keep == nil || keep(mail) {
			out = append(out, mail)
		}
	}
	return out
}

// To returns the e-mails sent to addr.
func (m *Mailer) To(addr string) []notify.Mail {
	return m.Sent(func(mail notify.Mail) bool { return mail.To == addr })
}

// OfKind returns the e-mails of an event kind.
func (m *Mailer) OfKind(kind string) []notify.Mail {
	return m.Sent(func(mail notify.Mail) bool { return mail.Kind == kind })
}
