package serverenv

import (
	"flag"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/mailsettings"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbound"
)

// Outbox is how the server delivers its messages (package notify) and
// where its outbound requests may go.
type Outbox struct {
	SMTP notify.SMTPConfig // Host empty: e-mails go to the log
	// TemplatesDir is a directory whose files override the e-mail
	// templates.
	TemplatesDir string
	// ignoredEvery is the value of -outbox-every, which is accepted and
	// ignored: deliveries are jobs (package jobs), made as soon as due.
	ignoredEvery time.Duration
	// ReminderDays: pre-arrival reminders this many days before check-in
	// (0: none).
	ReminderDays int
	// AllowPrivateWebhooks lets endpoints be plain http on loopback or
	// private addresses (a receiver on the same machine, tests).
	AllowPrivateWebhooks bool
	// OutboundAllow are the host:port targets feeds and webhooks may
	// reach although loopback or private (-outbound-allow), over http or
	// https.
	OutboundAllow []string
	allowList     string
	// SecretsKey seals the organisations' SMTP passwords (package
	// mailsettings); nil without -secrets-key: organisations cannot have
	// their own SMTP server.
	SecretsKey *mailsettings.Key
	secretsKey string
}

// FeedPolicy is where calendar feeds may be fetched from.
func (c Outbox) FeedPolicy() outbound.Policy {
	return outbound.Policy{Allow: c.OutboundAllow}
}

// WebhookPolicy is where webhook endpoints may be.
func (c Outbox) WebhookPolicy() outbound.Policy {
	return outbound.Policy{Allow: c.OutboundAllow, AllowPrivate: c.AllowPrivateWebhooks}
}

// Defaults of the outbox.
const (
	DefaultReminderDays = 3
)

// addFlags declares the outbox's flags on fs.
func (c *Outbox) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.SMTP.Host, "smtp-host", "", "SMTP server `host` for e-mails (env SMTP_HOST; unset: e-mails are written to the log)")
	fs.IntVar(&c.SMTP.Port, "smtp-port", 0, "SMTP `port` (env SMTP_PORT; default 587, or 465 with -smtp-tls tls)")
	fs.StringVar(&c.SMTP.TLS, "smtp-tls", "", "SMTP `mode`: starttls (default, required), tls (implicit, port 465) or none (a local relay) (env SMTP_TLS)")
	fs.StringVar(&c.SMTP.Username, "smtp-user", "", "SMTP `user` (env SMTP_USER); the password is read from SMTP_PASSWORD")
	fs.StringVar(&c.SMTP.From, "mail-from", "", "sender `address` of e-mails (env MAIL_FROM)")
	fs.StringVar(&c.secretsKey, "secrets-key", "", "`base64` of 32 random bytes sealing the organisations' SMTP passwords (env STAYKIT_SECRETS_KEY, preferred: a flag shows in ps; generate with: openssl rand -base64 32); unset: organisations cannot set their own SMTP server")
	fs.StringVar(&c.TemplatesDir, "mail-templates", "", "`directory` whose subject.tmpl, body.txt.tmpl, body.html.tmpl override the built-in e-mail templates")
	// -outbox-every set the old outbox loop's interval; deliveries are
	// now jobs, made as soon as they are due. The flag stays accepted so
	// that existing command lines still start.
	fs.DurationVar(&c.ignoredEvery, "outbox-every", 0, "deprecated and ignored: e-mails and webhooks are delivered as soon as they are due (`duration`)")
	fs.IntVar(&c.ReminderDays, "reminder-days", DefaultReminderDays, "send pre-arrival reminders this many `days` before check-in (0: none)")
	fs.BoolVar(&c.AllowPrivateWebhooks, "webhooks-allow-private", false, "allow webhook endpoints over plain http and on loopback or private addresses (local receivers only)")
	fs.StringVar(&c.allowList, "outbound-allow", "", "comma-separated `HOST:PORT` targets that calendar feeds and webhooks may reach over http or https although they are on loopback or a private network (a channel manager on the LAN, a local test feed); everything else private stays refused")
}

// finish completes the outbox's settings from the environment.
func (c *Outbox) finish(getenv func(string) string) error {
	env := func(v *string, name string) {
		if *v == "" {
			*v = strings.TrimSpace(getenv(name))
		}
	}
	env(&c.SMTP.Host, "SMTP_HOST")
	env(&c.SMTP.TLS, "SMTP_TLS")
	env(&c.SMTP.Username, "SMTP_USER")
	env(&c.SMTP.From, "MAIL_FROM")
	c.SMTP.Password = getenv("SMTP_PASSWORD")
	if c.SMTP.Port == 0 {
		if p := strings.TrimSpace(getenv("SMTP_PORT")); p != "" {
			n, err := strconv.Atoi(p)
			if err != nil {
				return fmt.Errorf("SMTP_PORT %q is not a number", p)
			}
			c.SMTP.Port = n
		}
	}
	if c.SMTP.Host != "" {
		if _, err := notify.NewSMTPMailer(c.SMTP); err != nil {
			return fmt.Errorf("-smtp-host: %w (set -mail-from too)", err)
		}
	}
	env(&c.secretsKey, "STAYKIT_SECRETS_KEY")
	if c.secretsKey != "" {
		k, err := mailsettings.ParseKey(c.secretsKey)
		if err != nil {
			return fmt.Errorf("-secrets-key: %w", err)
		}
		c.SecretsKey, c.secretsKey = k, ""
	}
	allow, err := outbound.ParseAllowList(c.allowList)
	if err != nil {
		return fmt.Errorf("-outbound-allow: %w", err)
	}
	c.OutboundAllow = allow
	if _, err := notify.LoadTemplates(c.TemplatesDir); err != nil {
		return fmt.Errorf("-mail-templates: %w", err)
	}
	return nil
}

// Templates are the e-mail templates: the built-in ones, overridden by
// the files of -mail-templates.
func (c Outbox) Templates() (*notify.Templates, error) {
	return notify.LoadTemplates(c.TemplatesDir)
}

// Mailer is where e-mails go: the SMTP server of -smtp-host, else the
// log.
func (c Outbox) Mailer(logger *slog.Logger) (notify.Mailer, error) {
	if c.SMTP.Host == "" {
		return notify.LogMailer{Logger: logger}, nil
	}
	return notify.NewSMTPMailer(c.SMTP)
}
