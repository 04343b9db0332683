package notify_test

import (
	"context"
	"errors"
	"testing"

	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/notify/notifytest"
	"github.com/staykit/staykit/outbox"
)

// mailers gives some organisations their own mailer, and fails for one.
type mailers struct {
	own    map[int64]notify.Mailer
	broken int64
}

func (m mailers) MailerFor(_ context.Context, orgID int64) (notify.Mailer, error) {
	if orgID == m.broken {
		return nil, errors.New("the stored SMTP password cannot be read")
	}
	return m.own[orgID], nil
}

// TestOrganisationMailers: the one rule — an organisation with its own
// mailer sends through it, any other through Worker.Mailer; an
// organisation whose own mailer cannot be made does not fall back to the
// server's: its e-mail fails and is retried.
func TestOrganisationMailers(t *testing.T) {
	e := newEnv(t)
	server, own := &notifytest.Mailer{}, &notifytest.Mailer{}
	e.worker.Mailer = server
	e.worker.Mailers = mailers{own: map[int64]notify.Mailer{e.orgs["demo"]: own}, broken: e.orgs["demo-request"]}
	e.bookAs(t, "demo", "fr", "own@example.com")
	e.bookAs(t, "demo-request", "en", "broken@example.com")
	e.process(t)
	to := func(m *notifytest.Mailer, addr string) int { return len(m.To(addr)) }
	if to(own, "own@example.com") == 0 || to(server, "own@example.com") != 0 {
		t.Errorf("demo's guest: %d e-mails through its own mailer, %d through the server's; want all through its own",
			to(own, "own@example.com"), to(server, "own@example.com"))
	}
	if n := to(server, "broken@example.com") + to(own, "broken@example.com"); n != 0 {
		t.Errorf("demo-request's own mailer is broken, yet %d e-mails left", n)
	}
	ds, err := e.store.OutboxDeliveries(t.Context(), 0, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	retried := 0
	for _, d := range ds {
		ev, err := e.store.OutboxEvent(t.Context(), d.EventID)
		if err != nil {
			t.Fatal(err)
		}
		if ev.OrgID == e.orgs["demo-request"] && d.Channel == outbox.ChannelMail && d.Status == outbox.StatusPending && d.Attempts == 1 {
			retried++
		}
	}
	if retried == 0 {
		t.Error("demo-request's e-mails are not pending a retry")
	}
}
