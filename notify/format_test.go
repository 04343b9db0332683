package notify_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
)

func TestAmount(t *testing.T) {
	tests := []struct {
		amount, currency, locale, want string
	}{
		{"3059", "EUR", "fr", "3\u202f059,00\u00a0€"},
		{"3059", "EUR", "en", "€3,059.00"},
		{"1234567.5", "EUR", "en", "€1,234,567.50"},
		{"999.99", "EUR", "fr", "999,99\u00a0€"},
		{"0", "GBP", "en", "£0.00"},
		{"1500", "JPY", "en", "1,500 JPY"},
		{"-12.5", "USD", "en", "$-12.50"},
	}
	for _, tt := range tests {
		if got := notify.Amount(dec(tt.amount), tt.currency, tt.locale); got != tt.want {
			t.Errorf("Amount(%s %s, %s) = %q, want %q", tt.amount, tt.currency, tt.locale, got, tt.want)
		}
	}
}

func TestDate(t *testing.T) {
	d := civil.MustParse("2026-08-15")
	for locale, want := range map[string]string{"fr": "15 août 2026", "en": "15 August 2026", "de": "15 August 2026"} {
		if got := notify.Date(d, locale); got != want {
			t.Errorf("Date(%s) = %q, want %q", locale, got, want)
		}
	}
}

func TestBackoffDoublesUpToTwoHours(t *testing.T) {
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute}
	for i, w := range want {
		if got := outbox.Backoff(i + 1); got != w {
			t.Errorf("Backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := outbox.Backoff(30); got != 2*time.Hour {
		t.Errorf("Backoff(30) = %v, want 2h", got)
	}
}

func TestTemplatesOverriddenFromDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "subject.tmpl"), []byte("[{{.Org.Slug}}] {{.Kind}}"), 0o600); err != nil {
		t.Fatal(err)
	}
	tpl, err := notify.LoadTemplates(dir)
	if err != nil {
		t.Fatal(err)
	}
	subject, text, html, err := tpl.Render(notify.MailData{Org: booking.Organization{Slug: "demo", Name: "Demo"}, Kind: "booking.confirmed",
		Headline: "Confirmed", Link: "https://x.example/?a=1&b=<2>"})
	if err != nil {
		t.Fatal(err)
	}
	if subject != "[demo] booking.confirmed" {
		t.Errorf("subject = %q, want the override's", subject)
	}
	if !strings.Contains(text, "Confirmed") || !strings.Contains(html, "<h1") {
		t.Errorf("bodies are not the defaults:\n%s\n%s", text, html)
	}
	if strings.Contains(html, "b=<2>") {
		t.Error("the HTML body does not escape what it shows")
	}
	if err := os.WriteFile(filepath.Join(dir, "body.html.tmpl"), []byte("{{.Nope"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := notify.LoadTemplates(dir); err == nil {
		t.Error("a broken override loads")
	}
}

// TestLogMailerHidesAddresses: the mails written to the log name no
// guest: neither their addresses, phone and message, nor their name or
// any word of it (issue #29: a log line cannot be erased).
func TestLogMailerHidesAddresses(t *testing.T) {
	e := newEnv(t)
	var logs bytes.Buffer
	e.worker.Mailer = notify.LogMailer{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	if err := e.store.SetContactEmail(context.Background(), e.orgs["demo"], "host@example.com"); err != nil {
		t.Fatal(err)
	}
	e.book(t, "demo", "en")
	if n := e.process(t); n != 2 {
		t.Fatalf("%d deliveries settled, want 2 (guest and host mails, logged)", n)
	}
	out := logs.String()
	if strings.Count(out, "mail not sent") != 2 || !strings.Contains(out, "Your booking is confirmed") {
		t.Errorf("log lacks the two mails:\n%s", out)
	}
	if !strings.Contains(out, "[private]") {
		t.Errorf("log masks nothing:\n%s", out)
	}
	for _, secret := range []string{"camille@example.com", "host@example.com", "+33612345678", "We arrive late", "Camille", "Martin"} {
		if strings.Contains(out, secret) {
			t.Errorf("log shows %s:\n%s", secret, out)
		}
	}
}

func TestPaymentFailuresMailTheHostOnly(t *testing.T) {
	if notify.GuestMailed(booking.NotifyPaymentFailed) || notify.GuestMailed(booking.NotifyDisputed) {
		t.Error("the guest is mailed about payment failures or disputes")
	}
	if !notify.HostMailed(booking.NotifyPaymentFailed) || !notify.HostMailed(booking.NotifyDisputed) || !notify.GuestMailed(booking.NotifyRefunded) {
		t.Error("the host is not mailed about payment failures or disputes, or the guest about refunds")
	}
	if notify.GuestMailed("no.such.kind") || notify.HostMailed("no.such.kind") {
		t.Error("an unknown kind is mailed")
	}
}

// TestEveryKindOfOtherIssuesIsMailed: the events that balances, security
// deposits and calendar sync added reach the host (and the guest where it
// concerns them), in both languages.
func TestEveryKindOfOtherIssuesIsMailed(t *testing.T) {
	for _, kind := range []string{booking.NotifyBalancePaid, booking.NotifyBalanceActionRequired, booking.NotifyDepositClaimed} {
		if !notify.GuestMailed(kind) || !notify.HostMailed(kind) {
			t.Errorf("%s: guest mailed %v, host mailed %v; want both", kind, notify.GuestMailed(kind), notify.HostMailed(kind))
		}
	}
	if notify.GuestMailed(booking.NotifyCalendarConflict) || !notify.HostMailed(booking.NotifyCalendarConflict) {
		t.Errorf("calendar conflict: want the host mailed, not the guest")
	}
}

// refusingMailer is an SMTP server that refuses every recipient, quoting
// the address and the start of the mail, as servers do; said is what it
// answered.
type refusingMailer struct{ said *[]string }

func (r refusingMailer) Send(_ context.Context, m notify.Mail) error {
	err := fmt.Errorf("smtp: send %s: 550 5.1.1 <%s>: Recipient address rejected (mail: %.120q)", m.ID, m.To, m.Text)
	*r.said = append(*r.said, err.Error())
	return err
}

// TestRefusedAddressNeitherLoggedNorKept: what a mail server answers
// quotes the guest's address (and here their name): the delivery log and
// the server's log keep the answer with them masked (issue #29: no log
// names a guest, and the delivery log outlives an erasure).
func TestRefusedAddressNeitherLoggedNorKept(t *testing.T) {
	e := newEnv(t)
	var logs bytes.Buffer
	var said []string
	e.worker.Mailer = refusingMailer{&said}
	e.worker.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e.book(t, "demo", "en")
	e.process(t)
	list, err := e.store.OutboxDeliveries(context.Background(), 0, 0, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, d := range list {
		if d.Channel != outbox.ChannelMail || d.To != outbox.ToGuest {
			continue
		}
		refused++
		if !strings.Contains(d.LastError, "550 5.1.1 <[private]>") {
			t.Errorf("delivery log %q, want the server's answer with the address masked", d.LastError)
		}
	}
	if refused == 0 {
		t.Fatalf("no mail to the guest was attempted: %+v", list)
	}
	if len(said) == 0 || !strings.Contains(said[0], "camille@example.com") || !strings.Contains(said[0], "Camille Martin") {
		t.Fatalf("the server's answers %q do not quote the guest: the test proves nothing", said)
	}
	if !strings.Contains(logs.String(), "Recipient address rejected") {
		t.Errorf("the log lacks the refusal:\n%s", logs.String())
	}
	for _, secret := range []string{"camille@example.com", "Camille", "Martin"} {
		for what, text := range map[string]string{"log": logs.String(), "delivery log": fmt.Sprint(list)} {
			if strings.Contains(text, secret) {
				t.Errorf("the %s holds %q:\n%s", what, secret, text)
			}
		}
	}
}
