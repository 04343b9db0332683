package main

import (
	"context"
	"github.com/staykit/staykit/invoice"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/internal/serverenv"
	"github.com/staykit/staykit/jobs"
	"github.com/staykit/staykit/mailsettings"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/schedule"
)

// startWorkers starts what runs beside the server: the read model's
// refresh and the job engine (package jobs: the payments ledger, the
// outbox's deliveries of e-mails and webhooks, whose booking links start
// with publicURL, the calendar sync, and every -sweep-every the periodic
// sweeps). stop ends them and returns once they have all returned.
func (s *server) startWorkers(publicURL string) (stop func(), err error) {
	worker, err := s.outboxWorker(publicURL)
	if err != nil {
		return nil, err
	}
	// The guests' check-ins are deleted once their country's keeping
	// period has passed (checkin.DefaultRetention), audited.
	retention := s.guestHost().CheckinRetention(nil)
	workers, err := s.back.Store.Jobs(jobs.Options{Bookings: s.svc, Money: s.money, Outbox: worker, Feeds: s.calendarSync(),
		Checkins: retention, Invoices: invoicer(s.back.Store.Invoices(s.clock)), Every: s.cfg.SweepEvery, Logger: s.log, Clock: s.clock})
	if err != nil {
		return nil, err
	}
	s.jobs = workers
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { s.readModel.Run(ctx) })
	wg.Go(func() {
		if err := workers.Run(ctx); err != nil {
			s.log.Error("jobs", "err", err)
		}
	})
	return func() {
		cancel()
		wg.Wait()
	}, nil
}

// outboxWorker builds the worker that delivers the server's messages; the
// booking page link is publicURL/?org=SLUG&booking=TOKEN.
func (s *server) outboxWorker(publicURL string) (*notify.Worker, error) {
	c := s.cfg.Outbox
	tpl, err := c.Templates()
	if err != nil {
		return nil, err
	}
	mailer, err := c.Mailer(s.log)
	if err != nil {
		return nil, err
	}
	// webhook-timestamp stays on the wall clock: receivers check it
	// against theirs, even in the sandbox.
	w := &notify.Worker{Store: s.back.Store.Booking(), Mailer: mailer, Templates: tpl, Logger: s.log, Clock: s.clock,
		SignClock: booking.SystemClock{},
		// An organisation with its own SMTP settings sends through them.
		Mailers:    mailsettings.Resolver{Store: s.back.Store.MailSettings(), Key: c.SecretsKey},
		Webhooks:   notify.NewWebhookClient(notify.WebhookOptions{Policy: c.WebhookPolicy()}),
		BookingURL: bookingURL(publicURL), HostBookingURL: hostBookingURL(publicURL)}
	// The host's scheduled messages, the check-in instructions and the
	// review requests: queued every -sweep-every, sent as e-mails.
	if msgs := s.scheduleService(publicURL); msgs != nil {
		w.Messages, w.QueueMessages = msgs, func(ctx context.Context) error {
			_, err := msgs.Queue(ctx)
			return err
		}
	}
	// The guests' and hosts' messages, each e-mailed to the other side.
	if s.thread != nil {
		w.Threads = s.thread
	}
	if c.ReminderDays > 0 {
		w.Reminders = func(ctx context.Context) error {
			_, err := s.svc.QueueReminders(ctx, c.ReminderDays)
			return err
		}
	}
	return w, nil
}

// scheduleService is the scheduled messages (package schedule) on the
// database, whose booking links start with publicURL; nil when the
// database keeps none.
func (s *server) scheduleService(publicURL string) *schedule.Service {
	store := s.back.Store.Messages()
	if store == nil {
		return nil
	}
	return schedule.New(schedule.Options{Store: store, Catalog: s.back.Store.Booking(), Records: s.back.Store.Records,
		BookingURL: bookingURL(publicURL), Clock: s.clock})
}

// bookingURL is the link to a booking's page:
// publicURL/?org=SLUG&booking=TOKEN.
func bookingURL(publicURL string) func(org *booking.Organization, b *booking.Booking) string {
	return func(org *booking.Organization, b *booking.Booking) string {
		return publicURL + "/?" + url.Values{"org": {org.Slug}, "booking": {b.Token}}.Encode()
	}
}

// hostBookingURL is the link to a booking in the dashboard (hostweb),
// which opens it at /host/#bookings/ID.
func hostBookingURL(publicURL string) func(org *booking.Organization, b *booking.Booking) string {
	return func(_ *booking.Organization, b *booking.Booking) string {
		return publicURL + "/host/#bookings/" + strconv.FormatInt(b.ID, 10)
	}
}

// calendarSync is the server's calendar sync: feeds fetched over https from
// public addresses only (and the -outbound-allow targets), conflicts told
// in the log like bookings.
func (s *server) calendarSync() *icalsync.Syncer {
	// Through the read model, so that imported blocks reach the public
	// calendar at once (and the other replicas through NOTIFY).
	return icalsync.New(icalsync.Options{Store: s.back.Store.Through(s.readModel), Clock: s.clock, Notifier: serverenv.LogNotifier(s.log), Logger: s.log,
		Fetcher: &icalsync.Fetcher{Policy: s.cfg.Outbox.FeedPolicy()}})
}

// calendarHandler serves GET /ical/{token}.ics.
func (s *server) calendarHandler() http.Handler {
	return &icalsync.Handler{Store: s.back.Store.Stores, Logger: s.log}
}

// invoicer is svc as the job engine's Invoicer; nil (no invoices
// issued) when the database serves none.
func invoicer(svc *invoice.Service) jobs.Invoicer {
	if svc == nil {
		return nil
	}
	return svc
}
