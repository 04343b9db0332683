package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbound"
)

// outboxConfig is how the server delivers its messages (package notify).
type outboxConfig struct {
	smtp notify.SMTPConfig // Host empty: e-mails go to the log
	// templates is a directory whose files override the e-mail templates.
	templates string
	// every is how often the outbox is delivered.
	every time.Duration
	// reminderDays: pre-arrival reminders this many days before check-in
	// (0: none).
	reminderDays int
	// allowPrivateWebhooks lets endpoints be plain http on loopback or
	// private addresses (a receiver on the same machine, tests).
	allowPrivateWebhooks bool
	// outboundAllow are the host:port targets feeds and webhooks may reach
	// although loopback or private (-outbound-allow), over http or https.
	outboundAllow []string
	allowList     string
}

// feedPolicy is where calendar feeds may be fetched from.
func (c outboxConfig) feedPolicy() outbound.Policy {
	return outbound.Policy{Allow: c.outboundAllow}
}

// webhookPolicy is where webhook endpoints may be.
func (c outboxConfig) webhookPolicy() outbound.Policy {
	return outbound.Policy{Allow: c.outboundAllow, AllowPrivate: c.allowPrivateWebhooks}
}

const (
	defaultOutboxEvery  = 10 * time.Second
	defaultReminderDays = 3
)

// addOutboxFlags declares the outbox's flags on fs.
func addOutboxFlags(fs *flag.FlagSet, c *outboxConfig) {
	fs.StringVar(&c.smtp.Host, "smtp-host", "", "SMTP server `host` for e-mails (env SMTP_HOST; unset: e-mails are written to the log)")
	fs.IntVar(&c.smtp.Port, "smtp-port", 0, "SMTP `port` (env SMTP_PORT; default 587, or 465 with -smtp-tls tls)")
	fs.StringVar(&c.smtp.TLS, "smtp-tls", "", "SMTP `mode`: starttls (default, required), tls (implicit, port 465) or none (a local relay) (env SMTP_TLS)")
	fs.StringVar(&c.smtp.Username, "smtp-user", "", "SMTP `user` (env SMTP_USER); the password is read from SMTP_PASSWORD")
	fs.StringVar(&c.smtp.From, "mail-from", "", "sender `address` of e-mails (env MAIL_FROM)")
	fs.StringVar(&c.templates, "mail-templates", "", "`directory` whose subject.tmpl, body.txt.tmpl, body.html.tmpl override the built-in e-mail templates")
	fs.DurationVar(&c.every, "outbox-every", defaultOutboxEvery, "how often e-mails and webhooks are delivered (`duration`)")
	fs.IntVar(&c.reminderDays, "reminder-days", defaultReminderDays, "send pre-arrival reminders this many `days` before check-in (0: none)")
	fs.BoolVar(&c.allowPrivateWebhooks, "webhooks-allow-private", false, "allow webhook endpoints over plain http and on loopback or private addresses (local receivers only)")
	fs.StringVar(&c.allowList, "outbound-allow", "", "comma-separated `HOST:PORT` targets that calendar feeds and webhooks may reach over http or https although they are on loopback or a private network (a channel manager on the LAN, a local test feed); everything else private stays refused")
}

// finish completes the outbox's settings from the environment.
func (c *outboxConfig) finish(getenv func(string) string) error {
	env := func(v *string, name string) {
		if *v == "" {
			*v = strings.TrimSpace(getenv(name))
		}
	}
	env(&c.smtp.Host, "SMTP_HOST")
	env(&c.smtp.TLS, "SMTP_TLS")
	env(&c.smtp.Username, "SMTP_USER")
	env(&c.smtp.From, "MAIL_FROM")
	c.smtp.Password = getenv("SMTP_PASSWORD")
	if c.smtp.Port == 0 {
		if p := strings.TrimSpace(getenv("SMTP_PORT")); p != "" {
			n, err := strconv.Atoi(p)
			if err != nil {
				return fmt.Errorf("SMTP_PORT %q is not a number", p)
			}
			c.smtp.Port = n
		}
	}
	if c.smtp.Host != "" {
		if _, err := notify.NewSMTPMailer(c.smtp); err != nil {
			return fmt.Errorf("-smtp-host: %w (set -mail-from too)", err)
		}
	}
	if c.every <= 0 {
		return errors.New("-outbox-every must be positive")
	}
	allow, err := outbound.ParseAllowList(c.allowList)
	if err != nil {
		return fmt.Errorf("-outbound-allow: %w", err)
	}
	c.outboundAllow = allow
	if _, err := notify.LoadTemplates(c.templates); err != nil {
		return fmt.Errorf("-mail-templates: %w", err)
	}
	return nil
}

// outboxWorker builds the worker that delivers the server's messages; the
// booking page link is publicURL/?org=SLUG&booking=TOKEN.
func (s *server) outboxWorker(publicURL string) (*notify.Worker, error) {
	c := s.cfg.outbox
	tpl, err := notify.LoadTemplates(c.templates)
	if err != nil {
		return nil, err
	}
	var mailer notify.Mailer = notify.LogMailer{Logger: s.log}
	if c.smtp.Host != "" {
		if mailer, err = notify.NewSMTPMailer(c.smtp); err != nil {
			return nil, err
		}
	}
	w := &notify.Worker{Store: s.back.store.Stores, Mailer: mailer, Templates: tpl, Logger: s.log,
		Webhooks: notify.NewWebhookClient(notify.WebhookOptions{Policy: c.webhookPolicy()}),
		BookingURL: func(org *booking.Organization, b *booking.Booking) string {
			return publicURL + "/?" + url.Values{"org": {org.Slug}, "booking": {b.Token}}.Encode()
		}}
	if c.reminderDays > 0 {
		w.Reminders = func(ctx context.Context) error {
			_, err := s.svc.QueueReminders(ctx, c.reminderDays)
			return err
		}
	}
	return w, nil
}
