package icalsync

import (
	"context"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
)

// PollFeed is the job engine's step for one feed (package jobs runs it):
// when the feed is active and due it syncs it, as Poll would. It returns
// when the feed is due again: its next poll (or, while another poller or
// a "sync now" holds it, the end of that lease); zero when the feed is
// gone or inactive. A failed sync is recorded on the feed and logged, not
// returned; an error means the feed could not be read.
func (s *Syncer) PollFeed(ctx context.Context, orgID, feedID int64) (time.Time, error) {
	f, err := s.store.Feed(ctx, orgID, feedID)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, fmt.Errorf("feed %d: %w", feedID, err)
	case !f.Active:
		return time.Time{}, nil
	}
	now := s.clock.Now()
	if f.LeaseUntil.After(now) {
		return f.LeaseUntil, nil
	}
	if f.NextPollAt.After(now) {
		return f.NextPollAt, nil
	}
	if _, err := s.SyncFeed(ctx, orgID, feedID); err != nil {
		if booking.ErrorCode(err) == booking.CodeConflict {
			return s.clock.Now().Add(s.lease), nil // taken meanwhile
		}
		s.logger.WarnContext(ctx, "calendar feed sync failed; retried at its next poll",
			"feed_id", f.ID, "property_id", f.PropertyID, "err", err)
	}
	if f, err = s.store.Feed(ctx, orgID, feedID); err != nil {
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return time.Time{}, nil
		}
		return time.Time{}, fmt.Errorf("feed %d: %w", feedID, err)
	}
	if !f.Active {
		return time.Time{}, nil
	}
	return f.NextPollAt, nil
}
