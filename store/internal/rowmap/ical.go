package rowmap

import (
	"time"

	"github.com/staykit/staykit/feed"
)

// ExportDelayArg is the export_delay_seconds column of a feed.
func ExportDelayArg(f *feed.Feed) int64 { return int64(f.ExportDelay / time.Second) }

// FeedColumns are the columns of ical_feeds, in the order ScanFeed reads
// them.
const FeedColumns = `id, org_id, property_id, name, url, active, end_is_last_night, etag,
	last_modified, last_attempt_at, last_success_at, last_error, events_imported, conflicts,
	next_poll_at, lease_until, created_at, export_delay_seconds, last_added, last_removed, changed_at, unit_id`

// ScanFeed reads a row of FeedColumns. Both stores write the lease_until
// of a feed no poller holds as the Unix epoch; it reads as the zero time.
func ScanFeed(c Codec, s Scanner) (*feed.Feed, error) {
	var f feed.Feed
	var delay int64
	if err := Scan(s, &f.ID, &f.OrgID, &f.PropertyID, &f.Name, &f.URL, &f.Active,
		&f.EndIsLastNight, &f.ETag, &f.LastModified, c.Instant(&f.LastAttemptAt),
		c.Instant(&f.LastSuccessAt), &f.LastError, &f.EventsImported, &f.Conflicts,
		c.Time(&f.NextPollAt), c.Time(&f.LeaseUntil), c.Time(&f.CreatedAt), &delay,
		&f.LastAdded, &f.LastRemoved, c.Instant(&f.ChangedAt), c.NullInt64(&f.UnitID)); err != nil {
		return nil, err
	}
	f.ExportDelay = time.Duration(delay) * time.Second
	if f.LeaseUntil.Equal(time.Unix(0, 0)) {
		f.LeaseUntil = time.Time{}
	}
	return &f, nil
}

// ExportColumns are the columns of ical_exports, in the order ScanExport
// reads them.
const ExportColumns = `org_id, property_id, token, created_at, etag, changed_at`

// ScanExport reads a row of ExportColumns.
func ScanExport(c Codec, s Scanner) (*feed.ExportToken, error) {
	var e feed.ExportToken
	if err := Scan(s, &e.OrgID, &e.PropertyID, &e.Token, c.Time(&e.CreatedAt), &e.ETag,
		c.Time(&e.ChangedAt)); err != nil {
		return nil, err
	}
	return &e, nil
}

// FeedBlockColumns are the columns of blocks imported from a feed, in the
// order ScanFeedBlock reads them.
const FeedBlockColumns = `id, uid, start_date, end_date, reason`

// ScanFeedBlock reads a row of FeedBlockColumns.
func ScanFeedBlock(c Codec, s Scanner) (*feed.Block, error) {
	var b feed.Block
	if err := Scan(s, &b.ID, &b.UID, c.Day(&b.Start), c.Day(&b.End), &b.Summary); err != nil {
		return nil, err
	}
	return &b, nil
}

// ConflictColumns are the columns of ical_conflicts, in the order
// ScanConflict reads them.
const ConflictColumns = `feed_id, uid, start_date, end_date, summary, booking_id, detected_at`

// ScanConflict reads a row of ConflictColumns.
func ScanConflict(c Codec, s Scanner) (*feed.Conflict, error) {
	var f feed.Conflict
	if err := Scan(s, &f.FeedID, &f.UID, c.Day(&f.Start), c.Day(&f.End), &f.Summary, &f.BookingID,
		c.Time(&f.DetectedAt)); err != nil {
		return nil, err
	}
	return &f, nil
}
