// Package closeout closes same-day direct sales while a property's
// imported channel calendars are too old to trust (issue #30).
//
// Between two polls of an iCal feed, a channel can sell a night that
// still looks free here; the exposure window (feed.PropertyExposure) is
// the worst-case time such a booking could go unseen: poll interval, time
// since the feed's last success and the channel's export delay. A host who
// sets a threshold (Store.SetSyncCloseout) refuses guests arriving today
// while the property's window is over it — or unknown, a feed that never
// synced —, when a double booking would leave no time to move a guest.
// Later arrivals are never refused: by their day the next polls will have
// told. Properties without an active feed are never closed.
//
// The check runs when a stay is quoted and at checkout (booking's
// SameDayGuard). The availability calendar does not show it: the window
// changes by the minute, and the calendar is computed once per change of
// its inputs.
package closeout

import (
	"context"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
)

// MaxThreshold bounds a host's threshold: a week.
const MaxThreshold = 7 * 24 * time.Hour

// ReasonSyncExposure is the booking.ParamReason of the CodeUnavailable a
// closed same-day arrival gets.
const ReasonSyncExposure = "sync_exposure"

// Store keeps each organisation's threshold.
type Store interface {
	// SyncCloseout returns the organisation's threshold; 0: never close.
	SyncCloseout(ctx context.Context, orgID int64) (time.Duration, error)
	// SetSyncCloseout sets it; 0 turns the close-out off.
	SetSyncCloseout(ctx context.Context, orgID int64, max time.Duration) error
}

// Feeds lists an organisation's imported calendars (feed.FeedStore).
type Feeds interface {
	Feeds(ctx context.Context, orgID int64) ([]feed.Feed, error)
}

// Guard is the booking.SameDayGuard of the close-out.
type Guard struct {
	Store Store
	Feeds Feeds
	// PollEvery is the poller's worst-case interval between two polls of
	// a feed (icalsync.Syncer.PollEvery).
	PollEvery time.Duration
}

var _ booking.SameDayGuard = (*Guard)(nil)

// AllowArrivalToday refuses a stay arriving today at propertyID when the
// organisation has a threshold and the property's exposure window is over
// it or unknown: CodeUnavailable with ParamReason ReasonSyncExposure.
func (g *Guard) AllowArrivalToday(ctx context.Context, org *booking.Organization, propertyID int64, now time.Time) error {
	max, err := g.Store.SyncCloseout(ctx, org.ID)
	if err != nil {
		return fmt.Errorf("sync close-out of organisation %d: %w", org.ID, err)
	}
	if max <= 0 {
		return nil
	}
	feeds, err := g.Feeds.Feeds(ctx, org.ID)
	if err != nil {
		return fmt.Errorf("feeds of organisation %d: %w", org.ID, err)
	}
	if Closed(Exposure(propertyID, feeds, now, g.PollEvery), max) {
		return &booking.Error{Code: booking.CodeUnavailable,
			Message: "Arrivals today are closed at this property while its calendars are being brought up to date. Please choose a later arrival date.",
			Params:  map[string]string{booking.ParamReason: ReasonSyncExposure}}
	}
	return nil
}

// Exposure is propertyID's exposure window at now among feeds.
func Exposure(propertyID int64, feeds []feed.Feed, now time.Time, pollEvery time.Duration) feed.Exposure {
	health := make([]feed.Health, len(feeds))
	for i, f := range feeds {
		health[i] = feed.HealthOf(f, now, pollEvery)
	}
	return feed.PropertyExposure(propertyID, feeds, health)
}

// Closed reports whether a property with exposure e is closed to
// arrivals today under threshold max (0: never).
func Closed(e feed.Exposure, max time.Duration) bool {
	switch {
	case max <= 0 || e.Feeds == 0:
		return false
	case !e.Known:
		return true
	}
	return e.Window > max
}
