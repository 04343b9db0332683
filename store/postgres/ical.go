package postgres

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// This file is the feed.FeedStore of calendar sync. A feed's events are
// rows of blocks with feed_id set: the availability queries of
// availability.go count them like host blocks, and writers lock the
// property row before they check and write (lockProperty).

// noLease is lease_until of a feed no poller holds.
var noLease = time.Unix(0, 0).UTC()

func feedNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This calendar feed does not exist.")
}

func feedLeaseLost() error {
	return booking.Errorf(booking.CodeConflict, "Another poller holds this calendar feed.")
}

// CreateFeed stores f and sets its ID.
func (db *DB) CreateFeed(ctx context.Context, f *feed.Feed, now time.Time) error {
	if err := f.Validate(); err != nil {
		return booking.Invalid(err)
	}
	c := *f
	if c.NextPollAt.IsZero() {
		c.NextPollAt = now
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = now
	}
	type created struct{ id, unit int64 }
	r, err := sqlflow.Get(ctx, db.tx, "create feed", func(q querier) (*created, error) {
		found, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM properties WHERE id = $1 AND org_id = $2`, c.PropertyID, c.OrgID)
		switch {
		case err != nil:
			return nil, err
		case !found:
			return nil, rowmap.PropertyNotFound()
		}
		return sqlflow.One(ctx, q, func(_ rowmap.Codec, s rowmap.Scanner) (*created, error) {
			var r created
			return &r, s.Scan(&r.id, &r.unit)
		}, rowmap.UnitNotFound(), `INSERT INTO ical_feeds (org_id, property_id, name, url,
			active, end_is_last_night, next_poll_at, created_at, export_delay_seconds, unit_id)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, u.id FROM units u
			WHERE u.property_id = $2 AND u.retired_at IS NULL AND ($10 = 0 OR u.id = $10)
			ORDER BY u.position, u.id LIMIT 1 RETURNING id, unit_id`,
			c.OrgID, c.PropertyID, c.Name, c.URL, c.Active, c.EndIsLastNight, c.NextPollAt, c.CreatedAt, rowmap.ExportDelayArg(&c),
			c.UnitID)
	})
	if err != nil {
		return err
	}
	c.ID, c.UnitID = r.id, r.unit
	*f = c
	return nil
}

// UpdateFeed saves a feed's settings. A new URL drops the old one's
// validators and lease and makes the feed due at now (see
// feed.FeedStore): in SET, url is the row's value before the update.
func (db *DB) UpdateFeed(ctx context.Context, f *feed.Feed, now time.Time) error {
	if err := f.Validate(); err != nil {
		return booking.Invalid(err)
	}
	return db.run(ctx, "update feed", func(q querier) error {
		return sqlflow.Exec(ctx, q, feedNotFound(), `UPDATE ical_feeds SET name = $1, url = $2, active = $3,
			end_is_last_night = $4, export_delay_seconds = $9,
			etag = CASE WHEN url = $2 THEN etag ELSE '' END,
			last_modified = CASE WHEN url = $2 THEN last_modified ELSE '' END,
			lease_until = CASE WHEN url = $2 THEN lease_until ELSE $7 END,
			next_poll_at = CASE WHEN url = $2 THEN next_poll_at ELSE LEAST(next_poll_at, $8) END
			WHERE id = $5 AND org_id = $6`, f.Name, f.URL, f.Active, f.EndIsLastNight, f.ID, f.OrgID, noLease, now,
			rowmap.ExportDelayArg(f))
	})
}

// DeleteFeed removes a feed; its blocks and conflicts go with it (ON
// DELETE CASCADE). The property row is locked first, like every writer of
// blocks.
func (db *DB) DeleteFeed(ctx context.Context, orgID, feedID int64) error {
	return db.tx(ctx, "delete feed", func(q querier) error {
		propertyID, err := sqlflow.Value[int64](ctx, q, feedNotFound(),
			`SELECT property_id FROM ical_feeds WHERE id = $1 AND org_id = $2`, feedID, orgID)
		if err != nil {
			return err
		}
		if err := lockProperty(ctx, q, 0, propertyID); err != nil {
			return err
		}
		return sqlflow.Exec(ctx, q, nil, `DELETE FROM ical_feeds WHERE id = $1`, feedID)
	})
}

// Feed finds a feed of an organisation.
func (db *DB) Feed(ctx context.Context, orgID, feedID int64) (*feed.Feed, error) {
	return sqlflow.Get(ctx, db.run, "feed", func(q querier) (*feed.Feed, error) {
		return sqlflow.One(ctx, q, rowmap.ScanFeed, feedNotFound(),
			`SELECT `+rowmap.FeedColumns+` FROM ical_feeds WHERE id = $1 AND org_id = $2`, feedID, orgID)
	})
}

// Feeds lists an organisation's feeds by property, then ID.
func (db *DB) Feeds(ctx context.Context, orgID int64) ([]feed.Feed, error) {
	return sqlflow.Get(ctx, db.run, "feeds", func(q querier) ([]feed.Feed, error) {
		return sqlflow.All(ctx, q, rowmap.ScanFeed,
			`SELECT `+rowmap.FeedColumns+` FROM ical_feeds WHERE org_id = $1 ORDER BY property_id, id`, orgID)
	})
}

// ClaimFeeds leases due feeds; SKIP LOCKED lets two replicas claim at once
// without taking the same feed.
func (db *DB) ClaimFeeds(ctx context.Context, now, leaseUntil time.Time, limit int) ([]feed.Feed, error) {
	return sqlflow.Get(ctx, db.run, "claim feeds", func(q querier) ([]feed.Feed, error) {
		return sqlflow.All(ctx, q, rowmap.ScanFeed, `UPDATE ical_feeds SET lease_until = $2 WHERE id IN (
				SELECT id FROM ical_feeds WHERE active AND next_poll_at <= $1 AND lease_until <= $1
				ORDER BY next_poll_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
			RETURNING `+rowmap.FeedColumns, now, leaseUntil, limit)
	})
}

// ClaimFeed leases one feed whether due or not.
func (db *DB) ClaimFeed(ctx context.Context, orgID, feedID int64, now, leaseUntil time.Time) (*feed.Feed, error) {
	return sqlflow.Get(ctx, db.run, "claim feed", func(q querier) (*feed.Feed, error) {
		f, err := sqlflow.One(ctx, q, rowmap.ScanFeed, nil, `UPDATE ical_feeds SET lease_until = $4
			WHERE id = $1 AND org_id = $2 AND lease_until <= $3 RETURNING `+rowmap.FeedColumns, feedID, orgID, now, leaseUntil)
		if err != nil || f != nil {
			return f, err
		}
		found, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM ical_feeds WHERE id = $1 AND org_id = $2`, feedID, orgID)
		switch {
		case err != nil:
			return nil, err
		case !found:
			return nil, feedNotFound()
		}
		return nil, feedLeaseLost()
	})
}

// FeedBlocks lists a feed's blocks by start.
func (db *DB) FeedBlocks(ctx context.Context, feedID int64) ([]feed.Block, error) {
	return sqlflow.Get(ctx, db.run, "feed blocks", func(q querier) ([]feed.Block, error) {
		return feedBlocks(ctx, q, feedID)
	})
}

func feedBlocks(ctx context.Context, q querier, feedID int64) ([]feed.Block, error) {
	return sqlflow.All(ctx, q, rowmap.ScanFeedBlock, `SELECT `+rowmap.FeedBlockColumns+` FROM blocks
		WHERE feed_id = $1 ORDER BY start_date, id`, feedID)
}

// FeedConflicts lists a feed's conflicts by start.
func (db *DB) FeedConflicts(ctx context.Context, feedID int64) ([]feed.Conflict, error) {
	return sqlflow.Get(ctx, db.run, "feed conflicts", func(q querier) ([]feed.Conflict, error) {
		return feedConflicts(ctx, q, feedID)
	})
}

func feedConflicts(ctx context.Context, q querier, feedID int64) ([]feed.Conflict, error) {
	return sqlflow.All(ctx, q, rowmap.ScanConflict, `SELECT `+rowmap.ConflictColumns+`
		FROM ical_conflicts WHERE feed_id = $1 ORDER BY start_date, uid`, feedID)
}

// holderOf returns the ID of a booking holding dates at now that overlaps
// r on the unit of the property (any unit when unitID is 0), or on a
// property linked to it; 0 when none.
func holderOf(ctx context.Context, q querier, propertyID, unitID int64, r civil.Range, now time.Time) (int64, error) {
	return sqlflow.Value[int64](ctx, q, nil, `WITH `+linkedOf+`
		SELECT id FROM (
			SELECT id, check_in FROM bookings
				WHERE property_id = $1 AND ($5 = 0 OR unit_id = $5) AND check_in < $2 AND $3 < check_out AND `+holdsDates(4)+`
			UNION ALL
			SELECT b.id, b.check_in FROM linked l JOIN bookings b ON b.property_id = l.id
				WHERE b.check_in < $2 AND $3 < b.check_out
				AND (b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > $4))) h
		ORDER BY check_in, id LIMIT 1`, propertyID, rowmap.Date(r.End), rowmap.Date(r.Start), now, unitID)
}

// ApplyFeedSync applies one fetch's changes in one transaction, the
// property row locked first so that checkouts of the property wait for
// it (and it for them): a booking and an imported block cannot both take
// a night.
func (db *DB) ApplyFeedSync(ctx context.Context, s feed.Sync) (*feed.SyncResult, error) {
	if err := feed.PrepareSync(s); err != nil {
		return nil, booking.Invalid(err)
	}
	return sqlflow.Get(ctx, db.tx, "apply feed sync", func(q querier) (*feed.SyncResult, error) {
		type feedUnit struct{ property, unit int64 }
		fu, err := sqlflow.One(ctx, q, func(c rowmap.Codec, sc rowmap.Scanner) (*feedUnit, error) {
			var f feedUnit
			return &f, rowmap.Scan(sc, &f.property, c.NullInt64(&f.unit))
		}, feedNotFound(), `SELECT property_id, unit_id FROM ical_feeds WHERE id = $1`, s.FeedID)
		if err != nil {
			return nil, err
		}
		propertyID, unitID := fu.property, fu.unit
		if err := lockProperty(ctx, q, 0, propertyID); err != nil {
			return nil, err
		}
		if err := checkFeedLease(ctx, q, s.FeedID, s.Lease); err != nil {
			return nil, err
		}
		previous, err := feedConflicts(ctx, q, s.FeedID)
		if err != nil {
			return nil, err
		}
		var conflicts []feed.Conflict
		conflict := func(b feed.Block, holder int64) {
			conflicts = append(conflicts, feed.Conflict{FeedID: s.FeedID, UID: b.UID, Start: b.Start, End: b.End,
				Summary: b.Summary, BookingID: holder, DetectedAt: s.At})
		}
		for _, id := range s.Remove {
			if err := deleteFeedBlock(ctx, q, s.FeedID, id); err != nil {
				return nil, err
			}
		}
		for _, b := range s.Move {
			holder, err := holderOf(ctx, q, propertyID, unitID, b.Range(), s.At)
			switch {
			case err != nil:
				return nil, err
			case holder != 0:
				if err := deleteFeedBlock(ctx, q, s.FeedID, b.ID); err != nil {
					return nil, err
				}
				conflict(b, holder)
				continue
			}
			if err := sqlflow.Exec(ctx, q, notFeedsBlock(b.ID), `UPDATE blocks SET uid = $1, start_date = $2, end_date = $3,
				reason = $4 WHERE id = $5 AND feed_id = $6`, b.UID, rowmap.Date(b.Start), rowmap.Date(b.End), b.Summary, b.ID, s.FeedID); err != nil {
				return nil, err
			}
		}
		for _, b := range s.Add {
			holder, err := holderOf(ctx, q, propertyID, unitID, b.Range(), s.At)
			switch {
			case err != nil:
				return nil, err
			case holder != 0:
				conflict(b, holder)
				continue
			}
			if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO blocks (property_id, start_date, end_date, reason, feed_id, uid, unit_id)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, propertyID, rowmap.Date(b.Start), rowmap.Date(b.End), b.Summary, s.FeedID, b.UID,
				rowmap.NullID(unitID)); err != nil {
				return nil, err
			}
		}
		res := &feed.SyncResult{Conflicts: feed.NewConflicts(previous, conflicts)}
		if err := sqlflow.Exec(ctx, q, nil, `DELETE FROM ical_conflicts WHERE feed_id = $1`, s.FeedID); err != nil {
			return nil, err
		}
		for _, c := range res.Conflicts {
			if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO ical_conflicts (`+rowmap.ConflictColumns+`)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, c.FeedID, c.UID, rowmap.Date(c.Start), rowmap.Date(c.End),
				c.Summary, c.BookingID, c.DetectedAt); err != nil {
				return nil, err
			}
		}
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE ical_feeds SET etag = $1, last_modified = $2, last_attempt_at = $3,
			last_success_at = $3, last_error = '', events_imported = $4, conflicts = $5, next_poll_at = $6, lease_until = $7,
			last_added = $9, last_removed = $10,
			changed_at = CASE WHEN $11 OR changed_at IS NULL THEN $3 ELSE changed_at END
			WHERE id = $8`, s.ETag, s.LastModified, s.At, s.Events, len(res.Conflicts), s.NextPollAt, noLease, s.FeedID,
			len(s.Add), len(s.Remove), s.Changes()); err != nil {
			return nil, err
		}
		res.Blocks, err = feedBlocks(ctx, q, s.FeedID)
		return res, err
	})
}

// checkFeedLease locks a feed's row and checks that the poller's lease is
// still the feed's. Errors: CodeNotFound, CodeConflict (lease lost).
func checkFeedLease(ctx context.Context, q querier, feedID int64, lease time.Time) error {
	held, err := sqlflow.Value[time.Time](ctx, q, feedNotFound(), `SELECT lease_until FROM ical_feeds WHERE id = $1 FOR UPDATE`, feedID)
	if err == nil && held.UnixMilli() != lease.UnixMilli() {
		return feedLeaseLost()
	}
	return err
}

// notFeedsBlock is the error for a block a feed sync names that is not
// the feed's.
func notFeedsBlock(blockID int64) error {
	return booking.Errorf(booking.CodeConflict, "Block %d is not this feed's.", blockID)
}

// deleteFeedBlock deletes a block of a feed. Errors: CodeConflict when it
// is not the feed's.
func deleteFeedBlock(ctx context.Context, q querier, feedID, blockID int64) error {
	return sqlflow.Exec(ctx, q, notFeedsBlock(blockID), `DELETE FROM blocks WHERE id = $1 AND feed_id = $2`, blockID, feedID)
}

// RecordFeedAttempt records a fetch that changed nothing.
func (db *DB) RecordFeedAttempt(ctx context.Context, a feed.Attempt) error {
	return db.tx(ctx, "record feed attempt", func(q querier) error {
		if err := checkFeedLease(ctx, q, a.FeedID, a.Lease); err != nil {
			return err
		}
		query := `UPDATE ical_feeds SET last_attempt_at = $1, last_error = $2, next_poll_at = $3, lease_until = $4 WHERE id = $5`
		args := []any{a.At, a.Err, a.NextPollAt, noLease, a.FeedID}
		if a.NotModified {
			query = `UPDATE ical_feeds SET last_attempt_at = $1, last_success_at = $1, last_error = '', next_poll_at = $2,
				lease_until = $3, last_added = 0, last_removed = 0, changed_at = coalesce(changed_at, $1) WHERE id = $4`
			args = []any{a.At, a.NextPollAt, noLease, a.FeedID}
		}
		return sqlflow.Exec(ctx, q, nil, query, args...)
	})
}

func exportNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This calendar does not exist.")
}

func exportBy(ctx context.Context, q querier, where string, args ...any) (*feed.ExportToken, error) {
	return sqlflow.One(ctx, q, rowmap.ScanExport, exportNotFound(), `SELECT `+rowmap.ExportColumns+` FROM ical_exports WHERE `+where, args...)
}

// ExportToken finds a property's export token.
func (db *DB) ExportToken(ctx context.Context, orgID, propertyID int64) (*feed.ExportToken, error) {
	return sqlflow.Get(ctx, db.run, "export token", func(q querier) (*feed.ExportToken, error) {
		return exportBy(ctx, q, `property_id = $1 AND org_id = $2`, propertyID, orgID)
	})
}

// ExportTokenByValue finds the record of a token.
func (db *DB) ExportTokenByValue(ctx context.Context, token string) (*feed.ExportToken, error) {
	if token == "" {
		return nil, exportNotFound()
	}
	return sqlflow.Get(ctx, db.run, "export token by value", func(q querier) (*feed.ExportToken, error) {
		return exportBy(ctx, q, `token = $1`, token)
	})
}

// SetExportToken replaces a property's export token.
func (db *DB) SetExportToken(ctx context.Context, orgID, propertyID int64, token string, now time.Time) (*feed.ExportToken, error) {
	if token == "" {
		return nil, booking.Errorf(booking.CodeInvalid, "An export token must not be empty.")
	}
	return sqlflow.Get(ctx, db.run, "set export token", func(q querier) (*feed.ExportToken, error) {
		if err := sqlflow.Exec(ctx, q, rowmap.PropertyNotFound(), `INSERT INTO ical_exports (`+rowmap.ExportColumns+`)
			SELECT org_id, id, $3, $4, '', $4 FROM properties WHERE id = $1 AND org_id = $2
			ON CONFLICT (property_id) DO UPDATE SET token = excluded.token, created_at = excluded.created_at`,
			propertyID, orgID, token, now); err != nil {
			return nil, err
		}
		return exportBy(ctx, q, `property_id = $1`, propertyID)
	})
}

// NoteExport records the ETag of the body served.
func (db *DB) NoteExport(ctx context.Context, propertyID int64, etag string, now time.Time) (*feed.ExportToken, error) {
	return sqlflow.Get(ctx, db.run, "note export", func(q querier) (*feed.ExportToken, error) {
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE ical_exports SET etag = $1, changed_at = $2
			WHERE property_id = $3 AND etag <> $1`, etag, now, propertyID); err != nil {
			return nil, err
		}
		return exportBy(ctx, q, `property_id = $1`, propertyID)
	})
}
