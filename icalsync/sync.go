// Package icalsync is calendar sync's use cases: importing external iCal
// feeds into a property's blocks (Syncer.SyncFeed now, and one River job
// per feed through package jobs and Syncer.PollFeed when due), managing
// feeds and the export token, and serving each property's calendar
// (Handler). The pure part, reading and writing
// iCalendar and deciding what a fetch changes, is package ical.
//
// Imported events become blocks of their feed, checked at checkout by the
// same database rule as host blocks, so a booking here and an event
// imported from a channel never both hold a night. Between two polls a
// channel may sell nights that are free here: the checkout's re-check
// stops a guest here only once the event is imported. An event that
// overlaps a booking held here is not applied: it is recorded as a
// conflict of its feed and the host is told (booking.NotifyCalendarConflict).
package icalsync

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/ical"
	"github.com/staykit/staykit/outbox"
)

// Defaults of Options.
const (
	DefaultInterval = 15 * time.Minute
	DefaultLease    = 2 * time.Minute
)

// MinInterval is the shortest Options.Interval: a shorter one is raised
// to it, so that channels are not polled more often than they allow.
const MinInterval = 5 * time.Minute

// Options configure a Syncer. Store is required.
type Options struct {
	Store Store
	// Clock defaults to the wall clock.
	Clock booking.Clock
	// Notifier is told about new conflicts; nil: nobody.
	Notifier booking.Notifier
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Fetcher fetches feeds; nil: a zero Fetcher (https, public
	// addresses only).
	Fetcher *Fetcher
	// Interval between two polls of a feed (default 15 minutes, at least
	// MinInterval), each delayed by a random Jitter (default a tenth of
	// Interval) so that feeds added together do not stay in step.
	Interval time.Duration
	Jitter   time.Duration
	// Lease is how long a poller holds a feed it fetches (default 2
	// minutes, more than a fetch's timeout).
	Lease time.Duration
	// Batch is how many due feeds a poll claims at most (default 20).
	Batch int
}

// Syncer imports feeds. It is safe for concurrent use, and several
// replicas may each run one on a shared store: feeds are leased.
type Syncer struct {
	store    Store
	clock    booking.Clock
	notifier booking.Notifier
	logger   *slog.Logger
	fetcher  *Fetcher
	interval time.Duration
	jitter   time.Duration
	lease    time.Duration
	batch    int
}

// New returns a Syncer. It panics without a Store, a programming error.
func New(o Options) *Syncer {
	if o.Store == nil {
		panic("icalsync: New needs a Store")
	}
	s := &Syncer{store: o.Store, clock: o.Clock, notifier: o.Notifier, logger: o.Logger, fetcher: o.Fetcher,
		interval: o.Interval, jitter: o.Jitter, lease: o.Lease, batch: o.Batch}
	if s.clock == nil {
		s.clock = booking.SystemClock{}
	}
	if s.notifier == nil {
		s.notifier = booking.NotifierFunc(func(context.Context, booking.Notification) error { return nil })
	}
	if s.logger == nil {
		s.logger = slog.Default()
	}
	if s.fetcher == nil {
		s.fetcher = &Fetcher{}
	}
	if s.interval <= 0 {
		s.interval = DefaultInterval
	}
	s.interval = max(s.interval, MinInterval)
	if s.jitter <= 0 {
		s.jitter = s.interval / 10
	}
	if s.lease <= 0 {
		s.lease = DefaultLease
	}
	if s.batch <= 0 {
		s.batch = 20
	}
	return s
}

// Result is what one sync of a feed did.
type Result struct {
	FeedID int64
	// NotModified: the source answered 304; nothing changed.
	NotModified bool
	// Events is the number of events the feed holds.
	Events int
	Plan   ical.Plan
	// Blocks and Conflicts are the feed's after the sync.
	Blocks    []feed.Block
	Conflicts []feed.Conflict
	// Warnings name the events read only in part, such as a recurrence
	// rule not understood (its first occurrence alone is blocked). They
	// are logged too.
	Warnings []ical.Warning
}

// importWindow is the nights over which a feed's recurring events are
// expanded: from today, in the organisation's zone, to its booking
// horizon, the nights a guest can book here. Occurrences before it hold
// no bookable night and after it none yet; each sync moves the window on,
// so the blocks follow the calendar day by day. Events that do not recur
// are imported whatever their dates, as before.
func importWindow(org *booking.Organization, now time.Time) civil.Range {
	today := civil.Today(now, org.Location())
	return civil.Range{Start: today, End: org.Horizon(today)}
}

// SyncFeed syncs one feed of an organisation now, whether due or not
// ("sync now"). Errors: CodeNotFound; CodeConflict when a poller is
// syncing it at this moment; a fetch or parse failure (recorded on the
// feed as its last error; nothing else changes).
func (s *Syncer) SyncFeed(ctx context.Context, orgID, feedID int64) (*Result, error) {
	now := s.clock.Now()
	f, err := s.store.ClaimFeed(ctx, orgID, feedID, now, s.leaseUntil(now))
	if err != nil {
		return nil, fmt.Errorf("claim feed %d: %w", feedID, err)
	}
	return s.sync(ctx, f)
}

// Poll does all due polling now, in this goroutine: it syncs the feeds
// due now, a batch at a time (leasing them), until none is due or ctx is
// done. Production does not call it: package jobs polls each feed in its
// own job (PollFeed); it serves tests and tools. It returns how many it synced; failures of single feeds
// are recorded on them and logged, not returned.
func (s *Syncer) Poll(ctx context.Context) (int, error) {
	done := 0
	for ctx.Err() == nil {
		now := s.clock.Now()
		feeds, err := s.store.ClaimFeeds(ctx, now, s.leaseUntil(now), s.batch)
		if err != nil {
			return done, fmt.Errorf("claim due feeds: %w", err)
		}
		if len(feeds) == 0 {
			return done, nil
		}
		for i := range feeds {
			if _, err := s.sync(ctx, &feeds[i]); err != nil {
				s.logger.WarnContext(ctx, "calendar feed sync failed; retried at its next poll",
					"feed_id", feeds[i].ID, "property_id", feeds[i].PropertyID, "err", err)
			}
			done++
		}
	}
	return done, nil
}

// PollEvery is the longest time between two polls of an active feed:
// the interval plus its largest jitter.
func (s *Syncer) PollEvery() time.Duration { return s.interval + s.jitter }

// Health judges a feed now (feed.HealthOf with PollEvery).
func (s *Syncer) Health(f feed.Feed) feed.Health {
	return feed.HealthOf(f, s.clock.Now(), s.PollEvery())
}

// leaseUntil is the end of a lease taken at now, to the millisecond (the
// stores' precision; the lease is compared when the sync is applied).
func (s *Syncer) leaseUntil(now time.Time) time.Time {
	return now.Add(s.lease).Truncate(time.Millisecond)
}

// nextPoll is when a feed fetched at now is due again.
func (s *Syncer) nextPoll(now time.Time) time.Time {
	return now.Add(s.interval + rand.N(s.jitter))
}

// sync fetches, parses and applies one leased feed.
func (s *Syncer) sync(ctx context.Context, f *feed.Feed) (*Result, error) {
	res := &Result{FeedID: f.ID}
	fail := func(err error) (*Result, error) {
		now := s.clock.Now()
		if rerr := s.store.RecordFeedAttempt(context.WithoutCancel(ctx), feed.Attempt{FeedID: f.ID, Lease: f.LeaseUntil,
			At: now, Err: errorText(describe(err, s.fetcher.maxBytes())), NextPollAt: s.nextPoll(now)}); rerr != nil {
			return nil, errors.Join(err, fmt.Errorf("record the failure: %w", rerr))
		}
		return nil, err
	}
	org, err := s.store.OrganizationByID(ctx, f.OrgID)
	if err != nil {
		return fail(fmt.Errorf("find organisation %d: %w", f.OrgID, err))
	}
	resp, err := s.fetcher.Fetch(ctx, f.URL, f.ETag, f.LastModified)
	if err != nil {
		return fail(err)
	}
	now := s.clock.Now()
	if resp.NotModified {
		res.NotModified, res.Events = true, f.EventsImported
		if err := s.store.RecordFeedAttempt(ctx, feed.Attempt{FeedID: f.ID, Lease: f.LeaseUntil, At: now,
			NotModified: true, NextPollAt: s.nextPoll(now)}); err != nil {
			return nil, fmt.Errorf("record feed %d not modified: %w", f.ID, err)
		}
		return res, nil
	}
	parsed, err := ical.ParseFeed(resp.Body, ical.ParseOptions{Location: org.Location(), EndIsLastNight: f.EndIsLastNight,
		Window: importWindow(org, now), Charset: charsetOf(resp.ContentType)})
	if err != nil {
		return fail(err)
	}
	events := parsed.Events
	res.Warnings = parsed.Warnings
	for _, w := range parsed.Warnings {
		// The feed's URL may hold the channel's secret token: the feed is
		// named by its ID only.
		s.logger.WarnContext(ctx, "calendar feed read in part", "feed_id", f.ID, "property_id", f.PropertyID,
			"uid", w.UID, "problem", w.Problem)
	}
	existing, err := s.store.FeedBlocks(ctx, f.ID)
	if err != nil {
		return fail(fmt.Errorf("feed %d blocks: %w", f.ID, err))
	}
	res.Plan, res.Events = ical.Diff(existing, events), len(events)
	etag, lastModified := resp.ETag, resp.LastModified
	if parsed.Recurring > 0 {
		// The occurrences depend on today as well as on the body: a 304
		// would leave the window where it was, and the nights entering
		// the booking horizon unblocked. Without validators the next
		// fetch is unconditional and the window moves on.
		etag, lastModified = "", ""
	}
	applied, err := s.store.ApplyFeedSync(ctx, feed.Sync{FeedID: f.ID, Lease: f.LeaseUntil, At: now,
		Remove: res.Plan.Remove, Move: res.Plan.Move, Add: res.Plan.Add, Events: len(events),
		ETag: etag, LastModified: lastModified, NextPollAt: s.nextPoll(now)})
	if err != nil {
		if booking.ErrorCode(err) == booking.CodeConflict {
			return nil, fmt.Errorf("apply feed %d: %w", f.ID, err)
		}
		return fail(fmt.Errorf("apply feed %d: %w", f.ID, err))
	}
	res.Blocks, res.Conflicts = applied.Blocks, applied.Conflicts
	for i := range applied.Conflicts {
		if c := &applied.Conflicts[i]; c.New {
			s.notifyConflict(ctx, org, f, c)
		}
	}
	return res, nil
}

// notifyConflict tells the host about a new conflict; failures are logged.
func (s *Syncer) notifyConflict(ctx context.Context, org *booking.Organization, f *feed.Feed, c *feed.Conflict) {
	s.logger.WarnContext(ctx, "calendar event overlaps a booking; booking kept, event not applied",
		"feed_id", f.ID, "property_id", f.PropertyID, "booking_id", c.BookingID, "start", c.Start, "end", c.End)
	b, err := s.store.BookingByID(ctx, c.BookingID)
	if err != nil {
		s.logger.ErrorContext(ctx, "notify calendar conflict: find booking", "booking_id", c.BookingID, "err", err)
		return
	}
	// The outbox tells the host by e-mail and webhook. Its key names the
	// conflict, so a sync that records it again stores it once. It is
	// written after the sync's transaction: a crash in between loses the
	// e-mail, while the conflict stays listed on the feed.
	ev := outbox.Event{Key: fmt.Sprintf("%s:%d:%s:%d:%s", booking.NotifyCalendarConflict, f.ID, c.UID, c.BookingID, c.Start),
		Kind: booking.NotifyCalendarConflict, OrgID: org.ID, BookingID: b.ID}
	if _, err := s.store.RecordOutbox(context.WithoutCancel(ctx), []outbox.Event{ev}, c.DetectedAt); err != nil {
		s.logger.ErrorContext(ctx, "record calendar conflict in the outbox", "booking_id", b.ID, "err", err)
	}
	n := booking.Notification{Kind: booking.NotifyCalendarConflict, Organization: *org, Booking: *b, Conflict: c}
	if err := s.notifier.Notify(ctx, n); err != nil {
		s.logger.ErrorContext(ctx, "notify host", "kind", n.Kind, "booking_id", b.ID, "err", err)
	}
}

// errorText is the failure shown to the host, bounded.
func errorText(msg string) string {
	if len(msg) > 500 {
		msg = strings.ToValidUTF8(msg[:500], "") + "…"
	}
	return msg
}
