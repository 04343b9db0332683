// Package feed holds the external calendars (iCal feeds) of properties:
// the feeds, the blocks their events hold, their conflicts with bookings,
// each property's export token, and FeedStore, the store seam that keeps them. It is
// the vocabulary of the calendar sync (package icalsync, which polls and
// exports) and of the pure iCalendar code (package ical), and imports
// neither booking nor them, so that booking can name a Conflict in its
// notifications.
package feed

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/staykit/staykit/civil"
)

// Feed is an external calendar (an iCal URL of Airbnb, Booking.com, Vrbo
// or any other channel) whose events block a property's nights here.
type Feed struct {
	ID         int64 `json:"id"`
	OrgID      int64 `json:"org_id"`
	PropertyID int64 `json:"property_id"`
	// UnitID is the unit of the property whose listing on the channel the
	// feed is: its events block that unit. CreateFeed gives a feed without
	// one the property's first active unit; it never changes.
	UnitID int64  `json:"unit_id"`
	Name   string `json:"name"`
	URL    string `json:"url"`
	// Active feeds are polled; inactive ones keep their blocks.
	Active bool `json:"active"`
	// EndIsLastNight is for sources whose DTEND is the last night rather
	// than the check-out day: one day is added to their end dates.
	EndIsLastNight bool `json:"end_is_last_night"`
	// ExportDelay is how long the channel takes, at worst, to show a new
	// booking in the calendar it exports, as the host sets it; zero: the
	// known channel's default (ExportDelayOf).
	ExportDelay time.Duration `json:"export_delay"`

	// What the last fetches left.
	ETag           string    `json:"-"`
	LastModified   string    `json:"-"`
	LastAttemptAt  time.Time `json:"last_attempt_at"`
	LastSuccessAt  time.Time `json:"last_success_at"`
	LastError      string    `json:"last_error"`
	EventsImported int       `json:"events_imported"`
	Conflicts      int       `json:"conflicts"`
	// LastAdded and LastRemoved count the events the last successful
	// sync added and removed (both 0 after a 304). ChangedAt is when a
	// sync last changed the feed's blocks (or, for a feed that never
	// changed, its first success): the feed has been unchanged since.
	LastAdded   int       `json:"last_added"`
	LastRemoved int       `json:"last_removed"`
	ChangedAt   time.Time `json:"changed_at"`
	// NextPollAt is when the poller fetches it next; LeaseUntil, when
	// after now, means a poller (maybe of another replica) has it.
	NextPollAt time.Time `json:"next_poll_at"`
	LeaseUntil time.Time `json:"-"`
	CreatedAt  time.Time `json:"created_at"`
}

// Validate checks a feed's settings before it is stored. The URL must be
// absolute http or https; whether plain http and private addresses may be
// fetched is the fetcher's decision, made when it dials. Errors:
// *InvalidError with Fields (reported as booking.CodeInvalid).
func (f Feed) Validate() error {
	fe := fields{}
	if strings.TrimSpace(f.Name) == "" {
		fe.Add("name", "required")
	} else if len(f.Name) > 200 {
		fe.Add("name", "too_long")
	}
	u, err := url.Parse(f.URL)
	switch {
	case f.URL == "":
		fe.Add("url", "required")
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(f.URL) > 2000:
		fe.Add("url", "invalid")
	}
	if f.PropertyID == 0 {
		fe.Add("property_id", "required")
	}
	if f.ExportDelay < 0 || f.ExportDelay > MaxExportDelay {
		fe.Add("export_delay_seconds", "out_of_range")
	}
	return fe.err()
}

// Block is a night range a feed's event holds: a block of the
// property, checked by the same rule as host blocks.
type Block struct {
	ID      int64      `json:"id"`
	UID     string     `json:"uid"`
	Start   civil.Date `json:"start"`
	End     civil.Date `json:"end"`
	Summary string     `json:"summary,omitempty"`
}

// Range returns the nights the block holds.
func (b Block) Range() civil.Range { return civil.Range{Start: b.Start, End: b.End} }

// Conflict is a feed's event that overlaps a booking holding dates
// here: the booking is kept and the event is not applied, until the
// booking stops holding its dates or the event moves.
type Conflict struct {
	FeedID    int64      `json:"feed_id"`
	UID       string     `json:"uid"`
	Start     civil.Date `json:"start"`
	End       civil.Date `json:"end"`
	Summary   string     `json:"summary,omitempty"`
	BookingID int64      `json:"booking_id"`
	// DetectedAt is when this conflict (these dates against this
	// booking) was first seen.
	DetectedAt time.Time `json:"detected_at"`
	// New is set by ApplyFeedSync on conflicts the previous sync did not
	// have; the host is told about those only.
	New bool `json:"-"`
}

// Sync is what one successful fetch changes, applied atomically by
// ApplyFeedSync.
type Sync struct {
	FeedID int64
	// Lease must equal the feed's LeaseUntil: a poller whose lease lapsed
	// (and which another has taken over) cannot write.
	Lease time.Time
	// At decides which bookings hold dates, and is the attempt's time.
	At time.Time
	// Remove are IDs of the feed's blocks that disappeared.
	Remove []int64
	// Move are blocks of the feed (by ID) with new dates, UID or summary.
	Move []Block
	// Add are new events (ID ignored).
	Add []Block
	// Events is the number of events the feed holds.
	Events       int
	ETag         string
	LastModified string
	NextPollAt   time.Time
}

// Changes reports whether s changes any of the feed's blocks.
func (s Sync) Changes() bool { return len(s.Remove)+len(s.Move)+len(s.Add) > 0 }

// SyncResult is what ApplyFeedSync stored.
type SyncResult struct {
	// Blocks are the feed's blocks after the sync, by start.
	Blocks []Block
	// Conflicts are the events not applied because a booking holds
	// their dates.
	Conflicts []Conflict
}

// Attempt records a fetch that changed no block: it failed, or the
// feed was not modified.
type Attempt struct {
	FeedID int64
	Lease  time.Time
	At     time.Time
	// Err is the failure shown to the host; empty with NotModified.
	Err         string
	NotModified bool
	NextPollAt  time.Time
}

// ExportToken is the secret in the URL of a property's exported calendar.
type ExportToken struct {
	OrgID      int64
	PropertyID int64
	Token      string
	CreatedAt  time.Time
	// ETag and ChangedAt describe the last body served: ChangedAt is when
	// it was first served with that ETag, an honest Last-Modified.
	ETag      string
	ChangedAt time.Time
}

// FeedStore keeps the external calendar feeds of properties, the blocks
// their events hold, the conflicts with bookings, and each property's
// export token. Blocks of feeds are rows of the same kind as host blocks:
// checkouts, transitions and booking's Occupied see them; Property.Blocks,
// and so UpdateProperty and RemoveBlock, do not. Its errors carry the
// codes of booking.Error; store/storetest checks the contract, and
// store/sqlite's and store/postgres's DB are one.
type FeedStore interface {
	// CreateFeed stores f (NextPollAt, CreatedAt zero: now) and sets its
	// ID, and its UnitID when zero (the property's first active unit).
	// Errors: CodeInvalid (f.Validate), CodeNotFound (property not of
	// f.OrgID, or UnitID no active unit of it).
	CreateFeed(ctx context.Context, f *Feed, now time.Time) error
	// UpdateFeed saves f's Name, URL, Active, EndIsLastNight and
	// ExportDelay. When the
	// URL changes, the stored ETag and LastModified (the old URL's) are
	// cleared, so that the next fetch of the new URL is unconditional
	// rather than answered 304 to the old validators, and the lease is
	// released, so that a sync of the old URL under way cannot write its
	// blocks or validators (it fails with CodeConflict), and the feed is due
	// at now (NextPollAt set to now unless it is earlier), so that the
	// poller fetches the new URL at its next round rather than a poll
	// interval later. Errors: CodeInvalid, CodeNotFound.
	UpdateFeed(ctx context.Context, f *Feed, now time.Time) error
	// DeleteFeed removes a feed with its blocks and conflicts. Errors:
	// CodeNotFound, also for another organisation's feed.
	DeleteFeed(ctx context.Context, orgID, feedID int64) error
	// Feed finds a feed of an organisation. Errors: CodeNotFound.
	Feed(ctx context.Context, orgID, feedID int64) (*Feed, error)
	// Feeds lists an organisation's feeds by property, then ID.
	Feeds(ctx context.Context, orgID int64) ([]Feed, error)
	// ClaimFeeds returns up to limit active feeds due at now (NextPollAt
	// ≤ now) and not leased (LeaseUntil ≤ now), soonest due first, and in
	// the same atomic step sets their LeaseUntil to leaseUntil, so that
	// another poller (another replica) does not take them until then.
	ClaimFeeds(ctx context.Context, now, leaseUntil time.Time, limit int) ([]Feed, error)
	// ClaimFeed leases one feed now, whether due or not ("sync now").
	// Errors: CodeNotFound; CodeConflict when another poller holds it.
	ClaimFeed(ctx context.Context, orgID, feedID int64, now, leaseUntil time.Time) (*Feed, error)
	// FeedBlocks lists a feed's blocks by start.
	FeedBlocks(ctx context.Context, feedID int64) ([]Block, error)
	// FeedConflicts lists a feed's current conflicts by start.
	FeedConflicts(ctx context.Context, feedID int64) ([]Conflict, error)
	// ApplyFeedSync applies s in one atomic step: removes, moves and adds
	// the feed's blocks (on the feed's unit), except that an added or
	// moved event overlapping a booking holding dates at s.At on that unit,
	// or on a linked property, becomes a conflict (a moved one loses its
	// block), replaces the feed's conflicts, records the success
	// (LastAdded and LastRemoved: len(s.Add) and len(s.Remove); ChangedAt
	// s.At when s changes a block or the feed never changed) and
	// releases the lease. Errors: CodeNotFound (feed); CodeConflict when
	// the lease is not s.Lease or a block to move or remove is not the
	// feed's; CodeInvalid (a range not ending after it starts).
	ApplyFeedSync(ctx context.Context, s Sync) (*SyncResult, error)
	// RecordFeedAttempt records a fetch that changed no block and releases
	// the lease; a not-modified one is a success that added and removed
	// nothing (ChangedAt set to a.At when the feed never changed). Errors: CodeNotFound; CodeConflict (lease not a.Lease).
	RecordFeedAttempt(ctx context.Context, a Attempt) error

	// ExportToken finds a property's export token. Errors: CodeNotFound
	// (property not of orgID, or no token yet).
	ExportToken(ctx context.Context, orgID, propertyID int64) (*ExportToken, error)
	// SetExportToken gives a property a new export token, replacing the
	// old one, which stops working. Errors: CodeNotFound, CodeInvalid
	// (empty token).
	SetExportToken(ctx context.Context, orgID, propertyID int64, token string, now time.Time) (*ExportToken, error)
	// ExportTokenByValue finds the token record of a token. Errors:
	// CodeNotFound.
	ExportTokenByValue(ctx context.Context, token string) (*ExportToken, error)
	// NoteExport records that the property's calendar was served with
	// etag; when the etag differs from the last one, ChangedAt becomes
	// now. It returns the record. Errors: CodeNotFound.
	NoteExport(ctx context.Context, propertyID int64, etag string, now time.Time) (*ExportToken, error)
}

// PrepareSync checks a Sync for ApplyFeedSync. Errors: *InvalidError (a
// store reports it as booking.CodeInvalid).
func PrepareSync(s Sync) error {
	for _, list := range [][]Block{s.Move, s.Add} {
		for _, b := range list {
			if !b.Start.Before(b.End) {
				return &InvalidError{Message: "An imported event must end after it starts.",
					Fields: map[string][]string{"blocks": {"invalid_range"}}}
			}
		}
	}
	return nil
}

// NewConflicts marks as New the conflicts that previous does not hold
// (same dates against the same booking) and keeps the DetectedAt of
// those it does; stores call it so that every store applies one rule.
func NewConflicts(previous, current []Conflict) []Conflict {
	type key struct {
		start, end civil.Date
		booking    int64
	}
	seen := make(map[key]time.Time, len(previous))
	for _, c := range previous {
		seen[key{c.Start, c.End, c.BookingID}] = c.DetectedAt
	}
	out := make([]Conflict, len(current))
	for i, c := range current {
		if at, ok := seen[key{c.Start, c.End, c.BookingID}]; ok {
			c.DetectedAt, c.New = at, false
		} else {
			c.New = true
		}
		out[i] = c
	}
	return out
}

// InvalidError is the refusal of a feed or a sync that a store cannot
// keep (Feed.Validate, PrepareSync): a message and, per field, its
// problems. Stores and use cases report it as a booking.CodeInvalid error
// with the same message and fields (booking.Invalid).
type InvalidError struct {
	Message string
	Fields  map[string][]string
}

func (e *InvalidError) Error() string { return e.Message }

// InvalidFields returns the problems per field (booking.Invalid reads
// them).
func (e *InvalidError) InvalidFields() map[string][]string { return e.Fields }

// fields collects per-field validation problems.
type fields map[string][]string

func (f fields) Add(field, reason string) { f[field] = append(f[field], reason) }

// err returns an *InvalidError when problems were recorded, else nil.
func (f fields) err() error {
	if len(f) == 0 {
		return nil
	}
	return &InvalidError{Message: "The request is invalid.", Fields: f}
}
