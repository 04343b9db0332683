package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbound"
	"github.com/staykit/staykit/outbox"
)

// ReasonSyncing is the booking.ParamReason of the CodeConflict returned
// when a feed is being synced by a poller at this moment.
const ReasonSyncing = "sync_in_progress"

// ChannelOptions configure Channels.
type ChannelOptions struct {
	// Syncer imports feeds; nil: icalsync.New over the Service's store and
	// clock with the zero Fetcher (https, public addresses only).
	Syncer *icalsync.Syncer
	// WebhookPolicy is where webhook endpoints may be (the zero Policy:
	// https on public addresses): a URL it refuses is not accepted. The
	// webhook client delivering to them must have the same Policy
	// (notify.WebhookOptions.Policy).
	WebhookPolicy outbound.Policy
}

// Channels are the host's links with the outside world: the external
// calendar feeds imported into properties, each property's exported
// calendar, and the webhook endpoints told about bookings. Every change is
// audited like the Service's own. It is safe for concurrent use.
type Channels struct {
	s        *Service
	sync     *icalsync.Syncer
	webhooks outbound.Policy
}

// Channels returns the channel use cases over s.
func (s *Service) Channels(o ChannelOptions) *Channels {
	c := &Channels{s: s, sync: o.Syncer, webhooks: o.WebhookPolicy}
	if c.sync == nil {
		c.sync = icalsync.New(icalsync.Options{Store: s.store, Clock: s.clock, Logger: s.log})
	}
	return c
}

func channelNotFound(subject string) error {
	msgs := map[string]string{
		"feed":     "This calendar feed does not exist.",
		"webhook":  "This webhook endpoint does not exist.",
		"delivery": "This delivery does not exist.",
	}
	return &booking.Error{Code: booking.CodeNotFound, Message: msgs[subject], Params: map[string]string{booking.ParamSubject: subject}}
}

// FeedStatus is a feed with its current conflicts (events not applied
// because a booking here holds their nights) and its health: how old
// its news is and its exposure window.
type FeedStatus struct {
	feed.Feed
	ConflictList []feed.Conflict
	Health       feed.Health
}

// FeedChange creates or changes a feed: nil fields stay as they are (on
// creation: empty, Active true, EndIsLastNight false).
type FeedChange struct {
	Name           *string
	URL            *string
	Active         *bool
	EndIsLastNight *bool
	// ExportDelay is the channel's export delay (zero: the channel's
	// default, feed.DefaultExportDelay).
	ExportDelay *time.Duration
	// UnitID is the unit whose listing the feed is (issue #27), on
	// creation only: 0 is the property's first unit; a feed keeps its
	// unit.
	UnitID int64
}

func (c FeedChange) apply(f *feed.Feed) error {
	if err := booking.CheckBounds(c, ""); err != nil {
		return err
	}
	set(&f.Name, c.Name)
	set(&f.URL, c.URL)
	set(&f.Active, c.Active)
	set(&f.EndIsLastNight, c.EndIsLastNight)
	set(&f.ExportDelay, c.ExportDelay)
	f.Name, f.URL = strings.TrimSpace(f.Name), strings.TrimSpace(f.URL)
	return booking.Invalid(f.Validate())
}

// feedAudit is what the audit log keeps of a feed.
type feedAudit struct {
	PropertyID     int64  `json:"property_id"`
	Name           string `json:"name"`
	URL            string `json:"url"`
	Active         bool   `json:"active"`
	EndIsLastNight bool   `json:"end_is_last_night"`
	// ExportDelaySeconds: 0 is the channel's default.
	ExportDelaySeconds int64 `json:"export_delay_seconds"`
}

func auditOfFeed(f *feed.Feed) feedAudit {
	return feedAudit{PropertyID: f.PropertyID, Name: f.Name, URL: f.URL, Active: f.Active, EndIsLastNight: f.EndIsLastNight,
		ExportDelaySeconds: int64(f.ExportDelay / time.Second)}
}

// property checks that a property is org's. Errors: CodeNotFound.
func (c *Channels) property(ctx context.Context, org *booking.Organization, id int64) error {
	if _, err := c.s.store.Property(ctx, org.ID, id); err != nil {
		return notFoundAs(err, "property", "find property")
	}
	return nil
}

// feed finds a feed of a property of org. Errors: CodeNotFound.
func (c *Channels) feed(ctx context.Context, org *booking.Organization, propertyID, feedID int64) (*feed.Feed, error) {
	if err := c.property(ctx, org, propertyID); err != nil {
		return nil, err
	}
	f, err := c.s.store.Feed(ctx, org.ID, feedID)
	if err != nil {
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return nil, channelNotFound("feed")
		}
		return nil, fmt.Errorf("find feed %d: %w", feedID, err)
	}
	if f.PropertyID != propertyID {
		return nil, channelNotFound("feed")
	}
	return f, nil
}

func (c *Channels) status(ctx context.Context, f *feed.Feed) (*FeedStatus, error) {
	list, err := c.s.store.FeedConflicts(ctx, f.ID)
	if err != nil {
		return nil, fmt.Errorf("conflicts of feed %d: %w", f.ID, err)
	}
	return &FeedStatus{Feed: *f, ConflictList: list, Health: c.sync.Health(*f)}, nil
}

// Exposure is a property's exposure window (feed.PropertyExposure over
// its active feeds), with how many of its feeds are stale. Errors:
// CodeNotFound (property).
func (c *Channels) Exposure(ctx context.Context, org *booking.Organization, propertyID int64) (*PropertyExposure, error) {
	if err := c.property(ctx, org, propertyID); err != nil {
		return nil, err
	}
	all, err := c.sync.Feeds(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	health := make([]feed.Health, len(all))
	e := &PropertyExposure{}
	for i := range all {
		health[i] = c.sync.Health(all[i])
		if all[i].PropertyID == propertyID && all[i].Active && health[i].Stale {
			e.StaleFeeds++
		}
	}
	e.Exposure = feed.PropertyExposure(propertyID, all, health)
	e.PollEvery = c.sync.PollEvery()
	return e, nil
}

// PropertyExposure is a property's exposure window and what it rests on.
type PropertyExposure struct {
	feed.Exposure
	// StaleFeeds counts the active feeds unchanged for feed.StaleAfter.
	StaleFeeds int
	// PollEvery is the poller's longest time between two polls.
	PollEvery time.Duration
}

// Feeds lists a property's feeds by ID, with their status. Errors:
// CodeNotFound (property).
func (c *Channels) Feeds(ctx context.Context, org *booking.Organization, propertyID int64) ([]FeedStatus, error) {
	if err := c.property(ctx, org, propertyID); err != nil {
		return nil, err
	}
	all, err := c.sync.Feeds(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	var out []FeedStatus
	for i := range all {
		if all[i].PropertyID != propertyID {
			continue
		}
		st, err := c.status(ctx, &all[i])
		if err != nil {
			return nil, err
		}
		out = append(out, *st)
	}
	slices.SortFunc(out, func(a, b FeedStatus) int { return int(a.ID - b.ID) })
	return out, nil
}

// Feed finds a feed of a property with its status. Errors: CodeNotFound.
func (c *Channels) Feed(ctx context.Context, org *booking.Organization, propertyID, feedID int64) (*FeedStatus, error) {
	f, err := c.feed(ctx, org, propertyID, feedID)
	if err != nil {
		return nil, err
	}
	return c.status(ctx, f)
}

// AddFeed imports a channel's calendar into a property: the feed is
// stored, then fetched at once, so its events block the nights before
// this returns. A failed first fetch does not undo the feed: it is its
// last error, and the poller tries again. Errors: CodeInvalid,
// CodeNotFound (property).
func (c *Channels) AddFeed(ctx context.Context, org *booking.Organization, propertyID int64, ch FeedChange, by Actor) (*FeedStatus, *SyncOutcome, error) {
	if err := c.property(ctx, org, propertyID); err != nil {
		return nil, nil, err
	}
	if ch.UnitID != 0 {
		if _, err := c.s.unitOf(ctx, org, propertyID, ch.UnitID); err != nil {
			return nil, nil, err
		}
	}
	f := &feed.Feed{OrgID: org.ID, PropertyID: propertyID, UnitID: ch.UnitID, Active: true}
	if err := ch.apply(f); err != nil {
		return nil, nil, err
	}
	err := c.s.atomically(ctx, func(ctx context.Context) error {
		if err := c.sync.AddFeed(ctx, f); err != nil {
			return notFoundAs(err, "property", "add feed")
		}
		return c.s.audit(ctx, org, by, "feed.create", target("feed", f.ID), nil, auditOfFeed(f))
	})
	if err != nil {
		return nil, nil, err
	}
	out, err := c.syncNow(ctx, org, f)
	if err != nil && booking.ErrorCode(err) != booking.CodeConflict {
		return nil, nil, err
	}
	st, err := c.Feed(ctx, org, propertyID, f.ID)
	if err != nil {
		return nil, nil, err
	}
	return st, out, nil
}

// UpdateFeed changes a feed's name, URL, whether it is polled, and how its
// end dates are read. A new URL is due at once: the poller fetches it at
// its next round. Errors: CodeNotFound, CodeInvalid.
func (c *Channels) UpdateFeed(ctx context.Context, org *booking.Organization, propertyID, feedID int64, ch FeedChange, by Actor) (*FeedStatus, error) {
	before, err := c.feed(ctx, org, propertyID, feedID)
	if err != nil {
		return nil, err
	}
	f := *before
	if err := ch.apply(&f); err != nil {
		return nil, err
	}
	if f.URL != before.URL {
		if err := c.sync.CheckURL(f.URL); err != nil {
			return nil, err
		}
	}
	err = c.s.atomically(ctx, func(ctx context.Context) error {
		if err := c.s.store.UpdateFeed(ctx, &f, c.now()); err != nil {
			if booking.ErrorCode(err) == booking.CodeNotFound {
				return channelNotFound("feed")
			}
			return notFoundAs(err, "feed", "update feed")
		}
		return c.s.audit(ctx, org, by, "feed.update", target("feed", feedID), auditOfFeed(before), auditOfFeed(&f))
	})
	if err != nil {
		return nil, err
	}
	return c.Feed(ctx, org, propertyID, feedID)
}

// RemoveFeed stops importing a feed: the nights its events held are free
// again at once. Errors: CodeNotFound.
func (c *Channels) RemoveFeed(ctx context.Context, org *booking.Organization, propertyID, feedID int64, by Actor) error {
	before, err := c.feed(ctx, org, propertyID, feedID)
	if err != nil {
		return err
	}
	return c.s.atomically(ctx, func(ctx context.Context) error {
		if err := c.sync.RemoveFeed(ctx, org.ID, feedID); err != nil {
			if booking.ErrorCode(err) == booking.CodeNotFound {
				return channelNotFound("feed")
			}
			return err
		}
		return c.s.audit(ctx, org, by, "feed.delete", target("feed", feedID), auditOfFeed(before), nil)
	})
}

// SyncOutcome is what one "sync now" did.
type SyncOutcome struct {
	// NotModified: the channel answered 304; nothing changed.
	NotModified bool
	// Events is the number of events the feed holds; Added, Moved and
	// Removed count the blocks the sync changed.
	Events, Added, Moved, Removed int
	// Conflicts are the events not applied because a booking holds their
	// nights.
	Conflicts []feed.Conflict
	// Error is why the fetch or its reading failed ("" on success); it is
	// also the feed's last error.
	Error string
}

// SyncFeed fetches a feed now, whether due or not, with the fetcher's
// protections. A failed fetch is an outcome with Error, not an error.
// Errors: CodeNotFound; CodeConflict (ReasonSyncing) while a poller syncs
// it.
func (c *Channels) SyncFeed(ctx context.Context, org *booking.Organization, propertyID, feedID int64, by Actor) (*FeedStatus, *SyncOutcome, error) {
	f, err := c.feed(ctx, org, propertyID, feedID)
	if err != nil {
		return nil, nil, err
	}
	out, err := c.syncNow(ctx, org, f)
	if err != nil {
		return nil, nil, err
	}
	after := map[string]any{"events": out.Events, "added": out.Added, "moved": out.Moved, "removed": out.Removed,
		"conflicts": len(out.Conflicts), "error": out.Error}
	if err := c.s.audit(ctx, org, by, "feed.sync", target("feed", feedID), nil, after); err != nil {
		return nil, nil, err
	}
	st, err := c.Feed(ctx, org, propertyID, feedID)
	if err != nil {
		return nil, nil, err
	}
	return st, out, nil
}

func (c *Channels) syncNow(ctx context.Context, org *booking.Organization, f *feed.Feed) (*SyncOutcome, error) {
	res, err := c.sync.SyncFeed(ctx, org.ID, f.ID)
	switch booking.ErrorCode(err) {
	case "":
	case booking.CodeConflict:
		return nil, &booking.Error{Code: booking.CodeConflict, Message: "This feed is being synced at this moment.",
			Params: map[string]string{booking.ParamReason: ReasonSyncing}, Err: err}
	case booking.CodeNotFound:
		return nil, channelNotFound("feed")
	default:
		// The failure is recorded on the feed as its last error.
		now, rerr := c.s.store.Feed(ctx, org.ID, f.ID)
		if rerr != nil {
			return nil, fmt.Errorf("sync feed %d: %w (reading it back: %w)", f.ID, err, rerr)
		}
		msg := now.LastError
		if msg == "" {
			msg = err.Error()
		}
		c.s.log.InfoContext(ctx, "calendar feed sync failed", "feed_id", f.ID, "err", err)
		return &SyncOutcome{Error: msg}, nil
	}
	return &SyncOutcome{NotModified: res.NotModified, Events: res.Events, Added: len(res.Plan.Add), Moved: len(res.Plan.Move),
		Removed: len(res.Plan.Remove), Conflicts: res.Conflicts}, nil
}

// ExportToken returns a property's export token, creating one the first
// time: the calendar to paste into the channels is
// icalsync.ExportPath(token) on the server. Errors: CodeNotFound.
func (c *Channels) ExportToken(ctx context.Context, org *booking.Organization, propertyID int64) (*feed.ExportToken, error) {
	if err := c.property(ctx, org, propertyID); err != nil {
		return nil, err
	}
	return c.sync.ExportToken(ctx, org.ID, propertyID)
}

// RotateExportToken replaces a property's export token: the old URL stops
// working at once (the channels must be given the new one). The audit
// log records the rotation, not the secret. Errors: CodeNotFound.
func (c *Channels) RotateExportToken(ctx context.Context, org *booking.Organization, propertyID int64, by Actor) (*feed.ExportToken, error) {
	if err := c.property(ctx, org, propertyID); err != nil {
		return nil, err
	}
	var before any
	if old, err := c.s.store.ExportToken(ctx, org.ID, propertyID); err == nil {
		before = map[string]any{"created_at": old.CreatedAt}
	}
	var t *feed.ExportToken
	err := c.s.atomically(ctx, func(ctx context.Context) error {
		var err error
		if t, err = c.sync.RotateExportToken(ctx, org.ID, propertyID); err != nil {
			return err
		}
		return c.s.audit(ctx, org, by, "ical.rotate", target("property", propertyID), before,
			map[string]any{"created_at": t.CreatedAt})
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// WebhookEventTypes are the event types an endpoint may ask for ("*" or
// none: all of them).
var WebhookEventTypes = []string{
	booking.NotifyRequested, booking.NotifyConfirmed, booking.NotifyDeclined, booking.NotifyExpired,
	booking.NotifyCancelled, booking.NotifyRefunded, booking.NotifyPaymentFailed, booking.NotifyDisputed,
	booking.NotifyBalancePaid, booking.NotifyBalanceActionRequired, booking.NotifyDepositClaimed,
	booking.NotifyReminder, booking.NotifyCalendarConflict,
}

// WebhookChange creates or changes a webhook endpoint: nil fields stay as
// they are (on creation: empty, all events, Active true).
type WebhookChange struct {
	URL        *string
	EventTypes *[]string
	Active     *bool
}

func (c *Channels) apply(ch WebhookChange, e *outbox.Endpoint) error {
	if err := booking.CheckBounds(ch, ""); err != nil {
		return err
	}
	set(&e.URL, ch.URL)
	set(&e.EventTypes, ch.EventTypes)
	set(&e.Active, ch.Active)
	e.URL = strings.TrimSpace(e.URL)
	fe := booking.FieldErrors{}
	switch {
	case e.URL == "":
		fe.Add("url", "required")
	case len(e.URL) > 2000:
		fe.Add("url", "invalid_url")
	default:
		if reason := urlProblem(notify.ValidEndpointURL(e.URL, c.webhooks)); reason != "" {
			fe.Add("url", reason)
		}
	}
	var types []string
	for _, t := range e.EventTypes {
		if t != "*" && !slices.Contains(WebhookEventTypes, t) {
			fe.Add("event_types", "invalid_choice")
			break
		}
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	e.EventTypes = types
	return fe.Err()
}

// urlProblem is the field reason of an endpoint URL that
// notify.ValidEndpointURL refuses ("" when err is nil): the outbound
// Policy's reason, else "invalid_url".
func urlProblem(err error) string {
	var r *outbound.Refusal
	switch {
	case err == nil:
		return ""
	case errors.As(err, &r):
		return r.Reason()
	}
	return "invalid_url"
}

// webhookAudit is what the audit log keeps of an endpoint: never its
// secret.
type webhookAudit struct {
	URL        string     `json:"url"`
	EventTypes []string   `json:"event_types"`
	Active     bool       `json:"active"`
	PausedAt   *time.Time `json:"paused_at,omitempty"`
}

func auditOfEndpoint(e *outbox.Endpoint) webhookAudit {
	a := webhookAudit{URL: e.URL, EventTypes: e.EventTypes, Active: e.Active}
	if e.Paused() {
		at := e.PausedAt.UTC()
		a.PausedAt = &at
	}
	return a
}

// Webhooks lists an organisation's webhook endpoints by ID.
func (c *Channels) Webhooks(ctx context.Context, org *booking.Organization) ([]outbox.Endpoint, error) {
	list, err := c.s.store.WebhookEndpoints(ctx, org.ID)
	if err != nil {
		return nil, fmt.Errorf("list webhook endpoints: %w", err)
	}
	return list, nil
}

// Webhook finds an endpoint of org. Errors: CodeNotFound.
func (c *Channels) Webhook(ctx context.Context, org *booking.Organization, id int64) (*outbox.Endpoint, error) {
	e, err := c.s.store.WebhookEndpoint(ctx, org.ID, id)
	if err != nil {
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return nil, channelNotFound("webhook")
		}
		return nil, fmt.Errorf("find webhook endpoint %d: %w", id, err)
	}
	return e, nil
}

func (c *Channels) now() time.Time { return c.s.clock.Now().UTC().Truncate(time.Millisecond) }

// CreateWebhook adds an endpoint with a fresh signing secret, returned
// here only. Errors: CodeInvalid.
func (c *Channels) CreateWebhook(ctx context.Context, org *booking.Organization, ch WebhookChange, by Actor) (*outbox.Endpoint, error) {
	now := c.now()
	e := &outbox.Endpoint{OrgID: org.ID, Active: true, Secret: outbox.NewSecret(), CreatedAt: now, UpdatedAt: now}
	if err := c.apply(ch, e); err != nil {
		return nil, err
	}
	err := c.s.atomically(ctx, func(ctx context.Context) error {
		if err := c.s.store.SaveWebhookEndpoint(ctx, e); err != nil {
			return fmt.Errorf("create webhook endpoint: %w", err)
		}
		return c.s.audit(ctx, org, by, "webhook.create", target("webhook", e.ID), nil, auditOfEndpoint(e))
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// UpdateWebhook changes an endpoint's URL, event types or state;
// re-activating one clears its count of failures and its pause (without
// a replay: ResumeWebhook replays). Errors: CodeNotFound, CodeInvalid.
func (c *Channels) UpdateWebhook(ctx context.Context, org *booking.Organization, id int64, ch WebhookChange, by Actor) (*outbox.Endpoint, error) {
	before, err := c.Webhook(ctx, org, id)
	if err != nil {
		return nil, err
	}
	e := *before
	e.EventTypes = slices.Clone(before.EventTypes)
	if err := c.apply(ch, &e); err != nil {
		return nil, err
	}
	if e.Active && !before.Active {
		e.Resume()
	}
	e.UpdatedAt = c.now()
	action := "webhook.update"
	if before.Active && !e.Active {
		action = "webhook.disable"
	}
	err = c.s.atomically(ctx, func(ctx context.Context) error {
		if err := c.s.store.SaveWebhookEndpoint(ctx, &e); err != nil {
			if booking.ErrorCode(err) == booking.CodeNotFound {
				return channelNotFound("webhook")
			}
			return fmt.Errorf("update webhook endpoint %d: %w", id, err)
		}
		return c.s.audit(ctx, org, by, action, target("webhook", id), auditOfEndpoint(before), auditOfEndpoint(&e))
	})
	if err != nil {
		return nil, err
	}
	return &e, nil
}

// ResumeWebhook resumes an endpoint staykit paused after its attempts
// failed too long (outbox.PauseFailures over outbox.PauseSpan): its
// deliveries are attempted again and its failures count from zero. With
// replay, each of its deliveries that failed since its failures began,
// those held while it was paused included, is sent again (the same
// webhook-id: a receiver that got one drops it). It returns the endpoint
// and how many deliveries are replayed. Resuming an endpoint that is not
// paused clears its failures. Errors: CodeNotFound.
func (c *Channels) ResumeWebhook(ctx context.Context, org *booking.Organization, id int64, replay bool, by Actor) (*outbox.Endpoint, int, error) {
	before, err := c.Webhook(ctx, org, id)
	if err != nil {
		return nil, 0, err
	}
	var e *outbox.Endpoint
	var replayed int
	err = c.s.atomically(ctx, func(ctx context.Context) error {
		var err error
		if e, replayed, err = c.s.store.ResumeWebhookEndpoint(ctx, org.ID, id, replay, c.now()); err != nil {
			if booking.ErrorCode(err) == booking.CodeNotFound {
				return channelNotFound("webhook")
			}
			return fmt.Errorf("resume webhook endpoint %d: %w", id, err)
		}
		after := map[string]any{"url": e.URL, "active": e.Active, "replay": replay, "replayed": replayed}
		return c.s.audit(ctx, org, by, "webhook.resume", target("webhook", id), auditOfEndpoint(before), after)
	})
	if err != nil {
		return nil, 0, err
	}
	return e, replayed, nil
}

// RotateWebhookSecret gives an endpoint a new signing secret, returned
// here only; deliveries are signed with it from now on. Errors:
// CodeNotFound.
func (c *Channels) RotateWebhookSecret(ctx context.Context, org *booking.Organization, id int64, by Actor) (*outbox.Endpoint, error) {
	before, err := c.Webhook(ctx, org, id)
	if err != nil {
		return nil, err
	}
	e := *before
	e.Secret, e.UpdatedAt = outbox.NewSecret(), c.now()
	err = c.s.atomically(ctx, func(ctx context.Context) error {
		if err := c.s.store.SaveWebhookEndpoint(ctx, &e); err != nil {
			return fmt.Errorf("rotate secret of webhook endpoint %d: %w", id, err)
		}
		return c.s.audit(ctx, org, by, "webhook.rotate_secret", target("webhook", id), nil, auditOfEndpoint(&e))
	})
	if err != nil {
		return nil, err
	}
	return &e, nil
}

// DeleteWebhook removes an endpoint and its delivery log. Errors:
// CodeNotFound.
func (c *Channels) DeleteWebhook(ctx context.Context, org *booking.Organization, id int64, by Actor) error {
	before, err := c.Webhook(ctx, org, id)
	if err != nil {
		return err
	}
	return c.s.atomically(ctx, func(ctx context.Context) error {
		if err := c.s.store.DeleteWebhookEndpoint(ctx, org.ID, id); err != nil {
			if booking.ErrorCode(err) == booking.CodeNotFound {
				return channelNotFound("webhook")
			}
			return fmt.Errorf("delete webhook endpoint %d: %w", id, err)
		}
		return c.s.audit(ctx, org, by, "webhook.delete", target("webhook", id), auditOfEndpoint(before), nil)
	})
}

// DeliveryEntry is a delivery of the log with the type of its event.
type DeliveryEntry struct {
	outbox.Delivery
	EventType string
}

// Deliveries lists an endpoint's deliveries newest first, below the
// cursor before (0: from the newest), at most limit; next is the cursor
// of the following page (0: none). Only the page is read. Errors:
// CodeNotFound.
func (c *Channels) Deliveries(ctx context.Context, org *booking.Organization, endpointID, before int64, limit int) (list []DeliveryEntry, next int64, err error) {
	if _, err := c.Webhook(ctx, org, endpointID); err != nil {
		return nil, 0, err
	}
	page, err := c.s.store.OutboxDeliveries(ctx, 0, endpointID, before, limit+1)
	if err != nil {
		return nil, 0, fmt.Errorf("deliveries of webhook endpoint %d: %w", endpointID, err)
	}
	if len(page) > limit {
		page, next = page[:limit], page[limit-1].ID
	}
	kinds := map[int64]string{}
	for _, d := range page {
		kind, ok := kinds[d.EventID]
		if !ok {
			ev, err := c.s.store.OutboxEvent(ctx, d.EventID)
			if err != nil {
				return nil, 0, fmt.Errorf("event %d of delivery %d: %w", d.EventID, d.ID, err)
			}
			kind, kinds[d.EventID] = ev.Kind, ev.Kind
		}
		list = append(list, DeliveryEntry{Delivery: d, EventType: kind})
	}
	return list, next, nil
}

// Redeliver sends a delivery of one of org's endpoints again, whatever
// became of it: it is pending and due now, its attempts reset. Errors:
// CodeNotFound.
func (c *Channels) Redeliver(ctx context.Context, org *booking.Organization, deliveryID int64, by Actor) (*DeliveryEntry, error) {
	d, err := c.s.store.OutboxDelivery(ctx, deliveryID)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		return nil, channelNotFound("delivery")
	case err != nil:
		return nil, fmt.Errorf("find delivery %d: %w", deliveryID, err)
	}
	if _, err := c.Webhook(ctx, org, d.EndpointID); err != nil {
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return nil, channelNotFound("delivery") // another organisation's
		}
		return nil, err
	}
	now := c.s.clock.Now()
	err = c.s.atomically(ctx, func(ctx context.Context) error {
		if err := c.s.store.RedeliverOutbox(ctx, deliveryID, now); err != nil {
			if booking.ErrorCode(err) == booking.CodeNotFound {
				return channelNotFound("delivery")
			}
			return fmt.Errorf("redeliver %d: %w", deliveryID, err)
		}
		before := map[string]any{"status": d.Status, "attempts": d.Attempts, "endpoint_id": d.EndpointID}
		after := map[string]any{"status": outbox.StatusPending, "attempts": 0, "endpoint_id": d.EndpointID}
		return c.s.audit(ctx, org, by, "webhook.redeliver", target("delivery", deliveryID), before, after)
	})
	if err != nil {
		return nil, err
	}
	d.Status, d.Attempts, d.NextAttemptAt, d.UpdatedAt, d.DeliveredAt = outbox.StatusPending, 0, now, now, time.Time{}
	ev, err := c.s.store.OutboxEvent(ctx, d.EventID)
	if err != nil {
		return nil, fmt.Errorf("event %d of delivery %d: %w", d.EventID, d.ID, err)
	}
	return &DeliveryEntry{Delivery: *d, EventType: ev.Kind}, nil
}
