package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbound"
	"github.com/staykit/staykit/outbox"
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
	w := &notify.Worker{Store: s.back.store, Mailer: mailer, Templates: tpl, Logger: s.log,
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

// outboxCommands are the host's commands about messages.
var outboxCommands = map[string]string{
	"webhook": "webhook add|list|remove|redeliver|deliveries|resume -org SLUG ...: manage an organisation's webhook endpoints",
	"contact": "contact -org SLUG [-email ADDRESS]: show or set the address the host's e-mails go to (-email \"\" clears it)",
}

// runOutboxCommand runs webhook and contact commands on the server's
// database.
func runOutboxCommand(ctx context.Context, name string, args []string, stdout, stderr io.Writer) error {
	sub := ""
	if name == "webhook" {
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			fmt.Fprintln(stderr, "Usage: server "+outboxCommands[name])
			return errUsage
		}
		sub, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet(strings.TrimSpace(name+" "+sub), flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", defaultDB, "SQLite database `file` of the server")
	pgURL := fs.String("postgres", "", "PostgreSQL `URL` of the server, instead of -db")
	org := fs.String("org", "", "organisation `slug` (required)")
	email := fs.String("email", "\x00", "contact e-mail `address`")
	endpointURL := fs.String("url", "", "endpoint `URL` (https)")
	events := fs.String("events", "", "comma-separated event `types` (default: all)")
	id := fs.Int64("id", 0, "endpoint or delivery `id`")
	allowPrivate := fs.Bool("allow-private", false, "accept a plain http URL (a local receiver; the server needs -webhooks-allow-private)")
	replay := fs.Bool("replay", false, "with resume: send again what the endpoint missed while its deliveries failed")
	fs.Usage = func() { fmt.Fprintln(fs.Output(), "Usage: server "+outboxCommands[name]); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if *org == "" {
		return usageError(fs, "-org is required")
	}
	if _, err := os.Stat(*dbPath); err != nil && *pgURL == "" {
		return fmt.Errorf("no database at %s (start the server once, or pass -db): %w", *dbPath, err)
	}
	back, err := openBackends(ctx, config{dbPath: *dbPath, postgresURL: *pgURL})
	if err != nil {
		return err
	}
	defer back.close()
	store := back.store
	o, err := store.OrganizationBySlug(ctx, *org)
	if err != nil {
		return fmt.Errorf("organisation %s: %w", *org, err)
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	switch name + " " + sub {
	case "contact ":
		if *email != "\x00" {
			if err := store.SetContactEmail(ctx, o.ID, strings.TrimSpace(*email)); err != nil {
				return err
			}
		}
		got, err := store.ContactEmail(ctx, o.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "contact of %s: %s\n", termSafe(o.Slug), termSafe(got))
		return nil
	case "webhook add":
		if err := notify.ValidEndpointURL(*endpointURL, outbound.Policy{AllowPrivate: *allowPrivate}); err != nil {
			return usageError(fs, "%v", err)
		}
		ep := outbox.Endpoint{OrgID: o.ID, URL: *endpointURL, Secret: outbox.NewSecret(), EventTypes: splitList(*events),
			Active: true, CreatedAt: now, UpdatedAt: now}
		if err := store.SaveWebhookEndpoint(ctx, &ep); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "endpoint %d added; signing secret (shown once): %s\n", ep.ID, ep.Secret)
		return nil
	case "webhook list":
		eps, err := store.WebhookEndpoints(ctx, o.ID)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tURL\tEVENTS\tACTIVE\tFAILURES\tPAUSED SINCE")
		for _, ep := range eps {
			types := strings.Join(ep.EventTypes, ",")
			if types == "" {
				types = "all"
			}
			paused := "-"
			if ep.Paused() {
				paused = ep.PausedAt.UTC().Format("2006-01-02 15:04:05Z")
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%t\t%d\t%s\n", ep.ID, cell(ep.URL), cell(types), ep.Active, ep.Failures, paused)
		}
		return tw.Flush()
	case "webhook resume":
		ep, n, err := store.ResumeWebhookEndpoint(ctx, o.ID, *id, *replay, now)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "endpoint %d resumed; %d deliveries due now\n", ep.ID, n)
		return nil
	case "webhook remove":
		return store.DeleteWebhookEndpoint(ctx, o.ID, *id)
	case "webhook deliveries":
		if _, err := store.WebhookEndpoint(ctx, o.ID, *id); err != nil {
			return err
		}
		ds, err := store.OutboxDeliveries(ctx, 0, *id, 0, 100)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "DELIVERY\tEVENT\tSTATUS\tATTEMPTS\tHTTP\tUPDATED\tERROR")
		for _, d := range ds {
			fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%d\t%s\t%s\n", d.ID, d.EventID, d.Status, d.Attempts, d.ResponseCode,
				d.UpdatedAt.Format("2006-01-02 15:04:05Z"), cell(d.LastError))
		}
		return tw.Flush()
	case "webhook redeliver":
		// -id is a delivery of one of the organisation's endpoints.
		d, err := store.OutboxDelivery(ctx, *id)
		if err == nil {
			_, err = store.WebhookEndpoint(ctx, o.ID, d.EndpointID)
		}
		if err == nil {
			if err := store.RedeliverOutbox(ctx, d.ID, now); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "delivery %d will be sent again\n", d.ID)
			return nil
		}
		if booking.ErrorCode(err) != booking.CodeNotFound {
			return err
		}
		return fmt.Errorf("no delivery %d of %s's endpoints", *id, o.Slug)
	}
	return usageError(fs, "unknown command %q", strings.TrimSpace(name+" "+sub))
}
