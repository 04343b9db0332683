// Package eventfeed is the event feed that cannot be missed: every event
// the webhooks send (the outbox's events, package outbox) is also
// readable, in order, page after page, from a cursor, in a CloudEvents
// 1.0 JSON envelope whose data is the webhook body's data; a receiver
// acknowledges what it processed and lists what it has not; and a webhook
// endpoint's deliveries of a time range can be sent again.
//
// Order and gaps. The feed is read by a cursor, the last event id
// seen, so a reader that resumes from its last cursor gets every event
// once: a store guarantees that an event that becomes visible later never
// has an id below one already served. SQLite writes one transaction at a
// time, so ids grow in commit order. PostgreSQL takes ids before commit:
// a transaction holding id 5 may commit after the one holding id 6, and a
// reader at 6 would skip 5. There a read first waits for the transactions
// writing events to end (LOCK TABLE ... IN SHARE MODE, held for the read
// alone, which blocks new writers meanwhile), so every id taken before it
// is committed or gone, and every id taken after it is larger.
//
// Retention: events are never purged by staykit (at least 30 days is
// promised); they go with their organisation or booking.
package eventfeed

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/outbox"
)

// FormatCursor is the cursor after the event id.
func FormatCursor(id int64) string { return strconv.FormatInt(id, 10) }

// ParseCursor reads a cursor: an event id, bare or as its webhook id
// ("evt_12"); "" is the start. Errors: CodeInvalid.
func ParseCursor(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(s, "evt_"), 10, 64)
	if err != nil || id < 0 {
		return 0, booking.Errorf(booking.CodeInvalid, "The cursor %q is not an event id.", s)
	}
	return id, nil
}

// Entry is an event of the feed.
type Entry struct {
	outbox.Event
	// AckedAt is when a receiver acknowledged it (zero: not yet).
	AckedAt time.Time
}

// Store is what the feed reads and writes. store/sqlite's and
// store/postgres's DB are one; store/storetest checks the contract.
type Store interface {
	// FeedEvents lists up to limit (1–1000) of an organisation's events
	// whose id is above after, in id order, without the events no
	// webhook carries (outbox.Internal); with unacked, only
	// those not acknowledged. No event committed later may have an id
	// below one it returned (see the package comment).
	FeedEvents(ctx context.Context, orgID int64, after int64, limit int, unacked bool) ([]Entry, error)
	// AckFeedEvent acknowledges one event of an organisation at now (a
	// second time keeps the first time). Errors: CodeNotFound (also
	// another organisation's event).
	AckFeedEvent(ctx context.Context, orgID, eventID int64, now time.Time) error
	// AckFeedEventsUpTo acknowledges every event of an organisation
	// whose id is at most upTo, and returns how many it acknowledged.
	AckFeedEventsUpTo(ctx context.Context, orgID int64, upTo int64, now time.Time) (int, error)
	// ReplayWebhookRange makes due at now again, attempts reset, a webhook
	// endpoint's deliveries of the events created in [from, to) that are
	// not under way (pending and due before now + outbox.MaxLease), and
	// returns how many. Errors: CodeNotFound (also another organisation's
	// endpoint).
	ReplayWebhookRange(ctx context.Context, orgID, endpointID int64, from, to, now time.Time) (int, error)
}

// MaxLimit is the longest page.
const MaxLimit = 1000

// CheckLimit validates a page size for FeedEvents. Errors: CodeInvalid.
func CheckLimit(limit int) error {
	if limit < 1 || limit > MaxLimit {
		return booking.Errorf(booking.CodeInvalid, "limit must be between 1 and %d.", MaxLimit)
	}
	return nil
}

// CheckRange validates a replay's range. Errors: CodeInvalid.
func CheckRange(from, to time.Time) error {
	if from.IsZero() || to.IsZero() || !to.After(from) {
		return booking.Errorf(booking.CodeInvalid, "A replay needs from before to.")
	}
	return nil
}

// errorf wraps err with what was being done.
func errorf(what string, err error) error { return fmt.Errorf("event feed: %s: %w", what, err) }
