// Package notify delivers the outbox (package outbox): e-mails to the guest
// and the host, rendered from overridable templates and sent over SMTP (or
// written to the log), and signed webhooks to each organisation's
// endpoints (Standard Webhooks). Package jobs runs a Worker's steps
// (DispatchEvent, Deliver) as River jobs, each delivery concurrently, on
// every replica: River claims each job for one worker, so replicas never
// send the same delivery at the same moment, and each delivery carries an
// id that stays the same across retries so receivers can drop duplicates.
// Worker.Process does all due work at once, serially (tests, tools).
package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbound"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/pricing"
)

// Leases, which Process takes (package jobs' River claims its jobs
// instead, and runs again the job of a killed process after
// jobs.RescueAfter). Process claims events in batches (fanning one out is a few
// queries, and doing it twice adds nothing: DispatchOutboxEvent is
// idempotent) and deliveries one at a time, each attempt bounded by
// AttemptTimeout (Deliver's too), shorter than DeliveryLease: a live worker always saves
// its outcome before its lease ends, so another replica never sends the
// same delivery meanwhile, and a worker killed with kill -9 holds one
// delivery, for DeliveryLease at most, instead of a batch for minutes.
const (
	// DeliveryLease is how long a claimed delivery is left to its
	// worker.
	DeliveryLease = 30 * time.Second
	// AttemptTimeout bounds one delivery, from its claim to the answer;
	// the rest of the lease is left to save the outcome.
	AttemptTimeout = 20 * time.Second
	// eventLease is how long a batch of claimed events is left to its
	// worker.
	eventLease = 30 * time.Second
	batch      = 50
)

// Worker fans events out and delivers them.
type Worker struct {
	// Store is required.
	Store Store
	// Mailer nil: e-mails are written to the log (LogMailer).
	Mailer Mailer
	// Mailers, when set, chooses an organisation's own mailer (its SMTP
	// settings: package mailsettings). The rule: an organisation it gives
	// a mailer sends through it, any other through Mailer.
	Mailers MailerSource
	// Templates nil: the embedded defaults.
	Templates *Templates
	// Webhooks nil: a client for public https endpoints only.
	Webhooks *WebhookClient
	// BookingURL is the link to a booking's page; required for e-mails.
	BookingURL func(org *booking.Organization, b *booking.Booking) string
	// HostBookingURL is the link to a booking in the host's dashboard,
	// which the host's e-mails carry; nil: they link to BookingURL.
	HostBookingURL func(org *booking.Organization, b *booking.Booking) string
	// Clock defaults to the wall clock.
	Clock booking.Clock
	// SignClock is the clock of the webhook-timestamp header, which
	// receivers compare with their own clock (Standard Webhooks allows a
	// few minutes); nil: Clock. A server whose Clock runs ahead of the
	// wall (the sandbox's) sets the wall clock here.
	SignClock booking.Clock
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Reminders, when set, is called periodically by package jobs to
	// queue pre-arrival reminders (booking.Service.QueueReminders).
	Reminders func(ctx context.Context) error
	// Messages renders the host's scheduled messages
	// (outbox.KindMessage, package schedule); nil: they fail unsent.
	Messages MessageSource
	// QueueMessages, when set, is called periodically by package jobs to
	// record the scheduled messages that are due (schedule.Service.Queue).
	QueueMessages func(ctx context.Context) error
	// Threads renders the messages of the guests' and hosts' threads
	// (outbox.KindGuestMessage, KindHostMessage; package conversation);
	// nil: they fail unsent.
	Threads ThreadSource

	// once fills in the defaults once: package jobs calls a Worker's
	// steps concurrently.
	once sync.Once
	// inflight serialises the attempts of one delivery in this process
	// (Deliver).
	inflight keyedLocks
}

func (w *Worker) defaults() { w.once.Do(w.fillDefaults) }

func (w *Worker) fillDefaults() {
	if w.Clock == nil {
		w.Clock = booking.SystemClock{}
	}
	if w.Logger == nil {
		w.Logger = slog.Default()
	}
	if w.Mailer == nil {
		w.Mailer = LogMailer{Logger: w.Logger}
	}
	if w.Templates == nil {
		t, err := LoadTemplates("")
		if err != nil {
			panic(err) // the embedded templates parse: a test proves it
		}
		w.Templates = t
	}
	if w.Webhooks == nil {
		w.Webhooks = NewWebhookClient(WebhookOptions{})
	}
}

// Process does all of the outbox's due work now, in this goroutine: it
// fans out the due events and sends the due deliveries once, one at a
// time, leasing each claim. It returns how many deliveries it settled
// (delivered or failed for good). Production does not call it: package
// jobs runs each event and delivery in its own job (DispatchEvent,
// Deliver); it serves tests and tools.
func (w *Worker) Process(ctx context.Context) (int, error) {
	w.defaults()
	var errs []error
	for {
		now := w.Clock.Now()
		events, err := w.Store.ClaimOutboxEvents(ctx, now, now.Add(eventLease), batch)
		if err != nil {
			return 0, fmt.Errorf("claim outbox events: %w", err)
		}
		for _, ev := range events {
			if err := w.dispatch(ctx, ev); err != nil {
				errs = append(errs, err)
			}
		}
		if len(events) < batch {
			break
		}
	}
	settled := 0
	for ctx.Err() == nil {
		now := w.Clock.Now()
		ds, err := w.Store.ClaimOutboxDeliveries(ctx, now, now.Add(DeliveryLease), 1)
		if err != nil {
			return settled, errors.Join(append(errs, fmt.Errorf("claim outbox deliveries: %w", err))...)
		}
		if len(ds) == 0 {
			break
		}
		attempt, cancel := context.WithTimeout(ctx, AttemptTimeout)
		done, err := w.deliver(attempt, &ds[0])
		cancel()
		if err != nil {
			errs = append(errs, err)
		}
		if done {
			settled++
		}
	}
	return settled, errors.Join(errs...)
}

// dispatch turns an event into its deliveries: the guest's and the host's
// e-mails, and one per endpoint that wants the event.
func (w *Worker) dispatch(ctx context.Context, ev outbox.Event) error {
	var ds []outbox.Delivery
	if (GuestMailed(ev.Kind) || ev.Kind == outbox.KindMessage || ev.Kind == outbox.KindHostMessage) && ev.BookingID != 0 {
		ds = append(ds, outbox.Delivery{Channel: outbox.ChannelMail, To: outbox.ToGuest})
	}
	contact, err := w.Store.ContactEmail(ctx, ev.OrgID)
	if err != nil {
		return fmt.Errorf("dispatch event %d: %w", ev.ID, err)
	}
	if contact != "" && (HostMailed(ev.Kind) || ev.Kind == outbox.KindGuestMessage && ev.BookingID != 0) {
		ds = append(ds, outbox.Delivery{Channel: outbox.ChannelMail, To: outbox.ToHost})
	}
	eps, err := w.Store.WebhookEndpoints(ctx, ev.OrgID)
	if err != nil {
		return fmt.Errorf("dispatch event %d: %w", ev.ID, err)
	}
	for _, ep := range eps {
		if ep.Wants(ev.Kind) {
			ds = append(ds, outbox.Delivery{Channel: outbox.ChannelWebhook, EndpointID: ep.ID})
		}
	}
	if err := w.Store.DispatchOutboxEvent(ctx, ev.ID, ds, w.Clock.Now()); err != nil {
		return fmt.Errorf("dispatch event %d: %w", ev.ID, err)
	}
	return nil
}

// deliver makes one attempt and saves its outcome; it reports whether the
// delivery is settled.
func (w *Worker) deliver(ctx context.Context, d *outbox.Delivery) (bool, error) {
	ev, err := w.Store.OutboxEvent(ctx, d.EventID)
	if err != nil {
		return false, fmt.Errorf("delivery %d: %w", d.ID, err)
	}
	if d.Channel == outbox.ChannelWebhook {
		if ep, err := w.Store.WebhookEndpoint(ctx, 0, d.EndpointID); err == nil && ep.Paused() {
			return w.hold(ctx, d, ep)
		}
	}
	d.Attempts++
	code, outcome := w.attempt(ctx, ev, d)
	now := w.Clock.Now()
	d.ResponseCode, d.UpdatedAt = code, now
	switch {
	case outcome == nil:
		d.Status, d.DeliveredAt, d.LastError = outbox.StatusDelivered, now, ""
	case errors.Is(outcome, errPermanent) || now.Sub(ev.CreatedAt) >= outbox.RetryWindow:
		d.Status, d.LastError = outbox.StatusFailed, lastError(outcome)
	default:
		d.LastError, d.NextAttemptAt = lastError(outcome), now.Add(outbox.Jitter(outbox.Backoff(d.Attempts)))
	}
	if err := w.Store.UpdateOutboxDelivery(context.WithoutCancel(ctx), d); err != nil {
		return false, fmt.Errorf("save delivery %d: %w", d.ID, err)
	}
	if d.Channel == outbox.ChannelWebhook {
		w.countAttempt(context.WithoutCancel(ctx), d, outcome == nil, now)
	}
	if d.Status == outbox.StatusPending {
		w.Logger.WarnContext(ctx, "delivery failed; retrying later", "delivery_id", d.ID, "kind", ev.Kind,
			"attempts", d.Attempts, "err", outcome)
		return false, nil
	}
	if d.Status == outbox.StatusFailed {
		w.Logger.ErrorContext(ctx, "delivery failed for good", "delivery_id", d.ID, "kind", ev.Kind, "err", outcome)
	}
	return true, nil
}

// hold settles a delivery of a paused endpoint without an attempt: it
// fails, with a sentence saying why, and a resume with replay sends it.
func (w *Worker) hold(ctx context.Context, d *outbox.Delivery, ep *outbox.Endpoint) (bool, error) {
	now := w.Clock.Now()
	d.Status, d.UpdatedAt, d.ResponseCode = outbox.StatusFailed, now, 0
	d.LastError = fmt.Sprintf("Not sent: the endpoint was paused on %s after %d failed attempts in a row; resume it with a replay to send this delivery.",
		ep.PausedAt.UTC().Format("2006-01-02 15:04 UTC"), ep.Failures)
	if err := w.Store.UpdateOutboxDelivery(context.WithoutCancel(ctx), d); err != nil {
		return false, fmt.Errorf("save delivery %d: %w", d.ID, err)
	}
	w.Logger.InfoContext(ctx, "delivery held: its webhook endpoint is paused", "delivery_id", d.ID, "endpoint_id", ep.ID)
	return true, nil
}

// countAttempt counts an attempt of a webhook endpoint; the store pauses
// it, and records the event telling the host, when the pause policy says
// so (outbox.Endpoint.RecordAttempt).
func (w *Worker) countAttempt(ctx context.Context, d *outbox.Delivery, ok bool, now time.Time) {
	ep, paused, err := w.Store.RecordWebhookAttempt(ctx, d.EndpointID, ok, now)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		// Removed meanwhile.
	case err != nil:
		w.Logger.ErrorContext(ctx, "count webhook attempt", "endpoint_id", d.EndpointID, "err", err)
	case paused:
		w.Logger.WarnContext(ctx, "webhook endpoint paused after repeated failures; the host is told", "endpoint_id", ep.ID,
			"org_id", ep.OrgID, "failures", ep.Failures, "failing_since", ep.FailingSince)
	}
}

// lastError is an attempt's failure as the delivery log shows it: an
// address the outbound policy refused in the host's words, else the error.
func lastError(err error) string {
	if s, ok := outbound.Explain(err); ok {
		return s
	}
	return err.Error()
}

// MessageID is the idempotency id of an event's deliveries: the same for
// every attempt and redelivery.
func MessageID(ev *outbox.Event) string { return "evt_" + strconv.FormatInt(ev.ID, 10) }

// attempt makes one attempt of d. Its error's text has the booking's
// guest masked (guestPrivate): an SMTP server refusing an address quotes
// it, a receiver may echo the payload, and the text goes to the delivery
// log and the server's log, which never name a guest (issue #29).
func (w *Worker) attempt(ctx context.Context, ev *outbox.Event, d *outbox.Delivery) (int, error) {
	org, b, entry, err := subjects(ctx, w.Store, ev)
	if err != nil {
		return 0, err
	}
	code, err := w.attemptTo(ctx, ev, d, org, b, entry)
	if err != nil && b != nil {
		err = masked(err, guestPrivate(b))
	}
	return code, err
}

// attemptTo makes one attempt of d about org's booking b (nil for an
// organisation's event) and its ledger entry.
func (w *Worker) attemptTo(ctx context.Context, ev *outbox.Event, d *outbox.Delivery, org *booking.Organization, b *booking.Booking, entry *ledger.Entry) (int, error) {
	switch d.Channel {
	case outbox.ChannelWebhook:
		ep, err := w.Store.WebhookEndpoint(ctx, org.ID, d.EndpointID)
		if err != nil {
			return 0, fmt.Errorf("%w: endpoint %d: %w", errPermanent, d.EndpointID, err)
		}
		body, err := json.Marshal(payload(ev, org, b, entry))
		if err != nil {
			return 0, fmt.Errorf("%w: %w", errPermanent, err)
		}
		sign := w.Clock
		if w.SignClock != nil {
			sign = w.SignClock
		}
		return w.Webhooks.Post(ctx, *ep, MessageID(ev), sign.Now(), body)
	case outbox.ChannelMail:
		if ev.Kind == outbox.KindEndpointPaused {
			m, err := w.pausedMail(ctx, ev, d, org)
			if err != nil {
				return 0, err
			}
			return 0, w.send(ctx, org.ID, m)
		}
		if b == nil {
			return 0, fmt.Errorf("%w: a mail needs a booking", errPermanent)
		}
		if ev.Kind == outbox.KindMessage {
			m, err := w.message(ctx, ev, org, b)
			if err != nil {
				return 0, err
			}
			return 0, w.send(ctx, org.ID, m)
		}
		if threadKind(ev.Kind) {
			m, err := w.threadMail(ctx, ev, d, org, b)
			if err != nil {
				return 0, err
			}
			return 0, w.send(ctx, org.ID, m)
		}
		m, err := w.mail(ctx, ev, d, org, b, entry)
		if err != nil {
			return 0, err
		}
		return 0, w.send(ctx, org.ID, m)
	}
	return 0, fmt.Errorf("%w: unknown channel %q", errPermanent, d.Channel)
}

func (w *Worker) mail(ctx context.Context, ev *outbox.Event, d *outbox.Delivery, org *booking.Organization, b *booking.Booking, entry *ledger.Entry) (Mail, error) {
	forHost := d.To == outbox.ToHost
	to, locale := b.GuestEmail, mailLocale(b.Locale)
	if forHost {
		contact, err := w.Store.ContactEmail(ctx, org.ID)
		if err != nil {
			return Mail{}, err
		}
		to, locale = contact, mailLocale(org.DefaultLocale)
	}
	if to == "" {
		return Mail{}, fmt.Errorf("%w: no address", errPermanent)
	}
	property := ""
	if p, err := w.Store.Property(ctx, org.ID, b.PropertyID); err == nil {
		property = p.Name
	}
	data := NewMailData(org, b, property, ev.Kind, locale, forHost)
	if entry != nil && entry.Kind == ledger.KindRefund {
		data.Refund = Amount(pricing.FromMinor(entry.Amount, b.Currency), b.Currency, locale)
	}
	if c := ChangeOf(ev); c != nil {
		data.Change = NewChangeMail(org, c, ev.Kind, locale, forHost)
	}
	switch {
	case forHost && w.HostBookingURL != nil:
		data.Link = w.HostBookingURL(org, b)
	case w.BookingURL != nil:
		data.Link = w.BookingURL(org, b)
	}
	subject, text, html, err := w.Templates.Render(data)
	if err != nil {
		return Mail{}, fmt.Errorf("%w: %w", errPermanent, err)
	}
	return Mail{ID: MessageID(ev) + "." + d.To, Kind: ev.Kind, To: to, Subject: subject, Text: text, HTML: html,
		Private: guestPrivate(b)}, nil
}

// MailerSource gives an organisation's own mailer, nil when it has none.
type MailerSource interface {
	MailerFor(ctx context.Context, orgID int64) (Mailer, error)
}

// send sends m through orgID's own mailer when it has one, else Mailer.
func (w *Worker) send(ctx context.Context, orgID int64, m Mail) error {
	if w.Mailers != nil {
		own, err := w.Mailers.MailerFor(ctx, orgID)
		if err != nil {
			return fmt.Errorf("mailer of organisation %d: %w", orgID, err)
		}
		if own != nil {
			return own.Send(ctx, m)
		}
	}
	return w.Mailer.Send(ctx, m)
}
