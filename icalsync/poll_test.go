package icalsync_test

import (
	"testing"
	"time"

	"github.com/staykit/staykit/icalsync"
)

// PollFeed, the job engine's step for one feed, syncs a feed when it is
// due, and returns its next poll; not before, and never an inactive or
// removed feed.
func TestPollFeedFollowsTheFeedsSchedule(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	e.feeds.set("bcom", calendar("-//admin.booking.com//EN", event("2c9e3d1f0a5b4c6d@booking.com", "20260610", "20260614", "CLOSED - Not available")))
	f := e.addFeed(t, "Booking.com", "bcom")
	fetches := func() int {
		e.feeds.mu.Lock()
		defer e.feeds.mu.Unlock()
		return len(e.feeds.requests)
	}

	next, err := e.sync.PollFeed(ctx, e.org.ID, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !next.After(e.clock.Now()) {
		t.Fatalf("next poll %v after a sync, want after now %v", next, e.clock.Now())
	}
	blocks, err := e.store.FeedBlocks(ctx, f.ID)
	if err != nil || len(blocks) != 1 {
		t.Fatalf("blocks after the poll = %d, %v; want 1", len(blocks), err)
	}
	requests := fetches()
	if again, err := e.sync.PollFeed(ctx, e.org.ID, f.ID); err != nil || !again.Equal(next) || fetches() != requests {
		t.Errorf("PollFeed before the feed is due = %v, %v after %d fetches; want %v, no fetch", again, err, fetches()-requests, next)
	}
	e.clock.Set(next)
	if after, err := e.sync.PollFeed(ctx, e.org.ID, f.ID); err != nil || !after.After(next) || fetches() != requests+1 {
		t.Errorf("PollFeed when due = %v, %v after %d fetches; want a later poll, one fetch", after, err, fetches()-requests)
	}

	f.Active = false
	if err := e.store.UpdateFeed(ctx, f, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if done, err := e.sync.PollFeed(ctx, e.org.ID, f.ID); err != nil || !done.IsZero() {
		t.Errorf("PollFeed of an inactive feed = %v, %v; want zero", done, err)
	}
	if done, err := e.sync.PollFeed(ctx, e.org.ID, f.ID+1000); err != nil || !done.IsZero() {
		t.Errorf("PollFeed of no feed = %v, %v; want zero", done, err)
	}
}

// The poll interval defaults to 15 minutes and is never under 5: a
// shorter one is raised to MinInterval. PollEvery adds the jitter.
func TestPollInterval(t *testing.T) {
	for _, tc := range []struct {
		name     string
		interval time.Duration
		jitter   time.Duration
		want     time.Duration
	}{
		{"default", 0, 0, 15*time.Minute + 90*time.Second},
		{"one minute is raised to five", time.Minute, 0, 5*time.Minute + 30*time.Second},
		{"five", 5 * time.Minute, time.Minute, 6 * time.Minute},
		{"an hour", time.Hour, 0, time.Hour + 6*time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := icalsync.New(icalsync.Options{Store: newEnv(t).store, Interval: tc.interval, Jitter: tc.jitter})
			if got := s.PollEvery(); got != tc.want {
				t.Errorf("PollEvery() = %v, want %v", got, tc.want)
			}
		})
	}
}
