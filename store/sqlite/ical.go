package sqlite

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
// availability.go count them like host blocks.

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
	id, err := sqlflow.Get(ctx, db.tx, "create feed", func(q querier) (int64, error) {
		found, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM properties WHERE id = ? AND org_id = ?`, c.PropertyID, c.OrgID)
		switch {
		case err != nil:
			return 0, err
		case !found:
			return 0, rowmap.PropertyNotFound()
		}
		units, err := activeUnits(ctx, q, c.PropertyID, c.UnitID)
		switch {
		case err != nil:
			return 0, err
		case len(units) == 0:
			return 0, rowmap.UnitNotFound()
		}
		c.UnitID = units[0].ID
		return sqlflow.Value[int64](ctx, q, nil, `INSERT INTO ical_feeds (org_id, property_id, name, url, active,
			end_is_last_night, next_poll_at, created_at, export_delay_seconds, unit_id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			c.OrgID, c.PropertyID, c.Name, c.URL, c.Active, c.EndIsLastNight,
			c.NextPollAt.UnixMilli(), c.CreatedAt.UnixMilli(), rowmap.ExportDelayArg(&c), c.UnitID)
	})
	if err != nil {
		return err
	}
	c.ID = id
	*f = c
	return nil
}

// UpdateFeed saves a feed's settings. A new URL drops the old one's
// validators and lease and makes the feed due at now (see
// feed.FeedStore): the CASEs compare with the row's URL before the
// update.
func (db *DB) UpdateFeed(ctx context.Context, f *feed.Feed, now time.Time) error {
	if err := f.Validate(); err != nil {
		return booking.Invalid(err)
	}
	return db.tx(ctx, "update feed", func(q querier) error {
		return sqlflow.Exec(ctx, q, feedNotFound(), `UPDATE ical_feeds SET name = ?, url = ?, active = ?, end_is_last_night = ?,
			export_delay_seconds = ?,
			etag = CASE WHEN url = ? THEN etag ELSE '' END,
			last_modified = CASE WHEN url = ? THEN last_modified ELSE '' END,
			lease_until = CASE WHEN url = ? THEN lease_until ELSE 0 END,
			next_poll_at = CASE WHEN url = ? THEN next_poll_at ELSE MIN(next_poll_at, ?) END
			WHERE id = ? AND org_id = ?`, f.Name, f.URL, f.Active, f.EndIsLastNight, rowmap.ExportDelayArg(f), f.URL, f.URL, f.URL, f.URL,
			now.UnixMilli(), f.ID, f.OrgID)
	})
}

// DeleteFeed removes a feed; its blocks and conflicts go with it (ON
// DELETE CASCADE).
func (db *DB) DeleteFeed(ctx context.Context, orgID, feedID int64) error {
	return db.tx(ctx, "delete feed", func(q querier) error {
		return sqlflow.Exec(ctx, q, feedNotFound(), `DELETE FROM ical_feeds WHERE id = ? AND org_id = ?`, feedID, orgID)
	})
}

// Feed finds a feed of an organisation.
func (db *DB) Feed(ctx context.Context, orgID, feedID int64) (*feed.Feed, error) {
	return sqlflow.Get(ctx, db.run, "feed", func(q querier) (*feed.Feed, error) {
		return sqlflow.One(ctx, q, rowmap.ScanFeed, feedNotFound(),
			`SELECT `+rowmap.FeedColumns+` FROM ical_feeds WHERE id = ? AND org_id = ?`, feedID, orgID)
	})
}

// Feeds lists an organisation's feeds by property, then ID.
func (db *DB) Feeds(ctx context.Context, orgID int64) ([]feed.Feed, error) {
	return sqlflow.Get(ctx, db.run, "feeds", func(q querier) ([]feed.Feed, error) {
		return sqlflow.All(ctx, q, rowmap.ScanFeed,
			`SELECT `+rowmap.FeedColumns+` FROM ical_feeds WHERE org_id = ? ORDER BY property_id, id`, orgID)
	})
}

// ClaimFeeds leases due feeds in one write transaction (SQLite has one
// writer at a time, so two claims cannot take the same feed).
func (db *DB) ClaimFeeds(ctx context.Context, now, leaseUntil time.Time, limit int) ([]feed.Feed, error) {
	return sqlflow.Get(ctx, db.tx, "claim feeds", func(q querier) ([]feed.Feed, error) {
		out, err := sqlflow.All(ctx, q, rowmap.ScanFeed, `SELECT `+rowmap.FeedColumns+` FROM ical_feeds
			WHERE active = 1 AND next_poll_at <= ? AND lease_until <= ? ORDER BY next_poll_at, id LIMIT ?`,
			now.UnixMilli(), now.UnixMilli(), limit)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].LeaseUntil = leaseUntil
			if err := setFeedLease(ctx, q, out[i].ID, leaseUntil); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// ClaimFeed leases one feed whether due or not.
func (db *DB) ClaimFeed(ctx context.Context, orgID, feedID int64, now, leaseUntil time.Time) (*feed.Feed, error) {
	return sqlflow.Get(ctx, db.tx, "claim feed", func(q querier) (*feed.Feed, error) {
		f, err := sqlflow.One(ctx, q, rowmap.ScanFeed, feedNotFound(),
			`SELECT `+rowmap.FeedColumns+` FROM ical_feeds WHERE id = ? AND org_id = ?`, feedID, orgID)
		switch {
		case err != nil:
			return nil, err
		case f.LeaseUntil.After(now):
			return nil, feedLeaseLost()
		}
		f.LeaseUntil = leaseUntil
		return f, setFeedLease(ctx, q, feedID, leaseUntil)
	})
}

// setFeedLease writes the lease of a feed.
func setFeedLease(ctx context.Context, q querier, feedID int64, leaseUntil time.Time) error {
	return sqlflow.Exec(ctx, q, nil, `UPDATE ical_feeds SET lease_until = ? WHERE id = ?`, leaseUntil.UnixMilli(), feedID)
}

// FeedBlocks lists a feed's blocks by start.
func (db *DB) FeedBlocks(ctx context.Context, feedID int64) ([]feed.Block, error) {
	return sqlflow.Get(ctx, db.run, "feed blocks", func(q querier) ([]feed.Block, error) {
		return feedBlocks(ctx, q, feedID)
	})
}

func feedBlocks(ctx context.Context, q querier, feedID int64) ([]feed.Block, error) {
	return sqlflow.All(ctx, q, rowmap.ScanFeedBlock, `SELECT `+rowmap.FeedBlockColumns+` FROM blocks
		WHERE feed_id = ? ORDER BY start_date, id`, feedID)
}

// FeedConflicts lists a feed's conflicts by start.
func (db *DB) FeedConflicts(ctx context.Context, feedID int64) ([]feed.Conflict, error) {
	return sqlflow.Get(ctx, db.run, "feed conflicts", func(q querier) ([]feed.Conflict, error) {
		return feedConflicts(ctx, q, feedID)
	})
}

func feedConflicts(ctx context.Context, q querier, feedID int64) ([]feed.Conflict, error) {
	return sqlflow.All(ctx, q, rowmap.ScanConflict, `SELECT `+rowmap.ConflictColumns+`
		FROM ical_conflicts WHERE feed_id = ? ORDER BY start_date, uid`, feedID)
}

// holderOf returns the ID of a booking holding dates at now that overlaps
// r on the unit of the property, or on a property linked to it; 0 when
// none.
func holderOf(ctx context.Context, q querier, propertyID, unitID int64, r civil.Range, now time.Time) (int64, error) {
	return sqlflow.Value[int64](ctx, q, nil, `WITH `+linkedOf+`
		SELECT id FROM (
			SELECT id, check_in FROM bookings
				WHERE property_id = ?1 AND (?4 = 0 OR unit_id = ?4) AND check_in < ?2 AND ?3 < check_out AND `+holdsDatesAt5+`
			UNION ALL
			SELECT b.id, b.check_in FROM linked l CROSS JOIN bookings b ON b.property_id = l.id
				WHERE b.check_in < ?2 AND ?3 < b.check_out AND `+orgHoldsDatesAt5+`)
		ORDER BY check_in, id LIMIT 1`, propertyID, r.End.String(), r.Start.String(), unitID, now.UnixMilli())
}

// ApplyFeedSync applies one fetch's changes in one write transaction:
// BEGIN IMMEDIATE serialises it with checkouts, so a booking and an
// imported block cannot both take a night.
func (db *DB) ApplyFeedSync(ctx context.Context, s feed.Sync) (*feed.SyncResult, error) {
	if err := feed.PrepareSync(s); err != nil {
		return nil, booking.Invalid(err)
	}
	return sqlflow.Get(ctx, db.tx, "apply feed sync", func(q querier) (*feed.SyncResult, error) {
		propertyID, unitID, err := checkFeedLease(ctx, q, s.FeedID, s.Lease)
		if err != nil {
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
			if err := sqlflow.Exec(ctx, q, notFeedsBlock(b.ID), `UPDATE blocks SET uid = ?, start_date = ?, end_date = ?,
				reason = ? WHERE id = ? AND feed_id = ?`, b.UID, b.Start.String(), b.End.String(), b.Summary, b.ID, s.FeedID); err != nil {
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
				VALUES (?, ?, ?, ?, ?, ?, ?)`, propertyID, b.Start.String(), b.End.String(), b.Summary, s.FeedID, b.UID,
				rowmap.NullID(unitID)); err != nil {
				return nil, err
			}
		}
		res := &feed.SyncResult{Conflicts: feed.NewConflicts(previous, conflicts)}
		if err := sqlflow.Exec(ctx, q, nil, `DELETE FROM ical_conflicts WHERE feed_id = ?`, s.FeedID); err != nil {
			return nil, err
		}
		for _, c := range res.Conflicts {
			if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO ical_conflicts (`+rowmap.ConflictColumns+`)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, c.FeedID, c.UID, c.Start.String(), c.End.String(),
				c.Summary, c.BookingID, c.DetectedAt.UnixMilli()); err != nil {
				return nil, err
			}
		}
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE ical_feeds SET etag = ?, last_modified = ?, last_attempt_at = ?,
			last_success_at = ?, last_error = '', events_imported = ?, conflicts = ?, next_poll_at = ?, lease_until = 0,
			last_added = ?, last_removed = ?, changed_at = CASE WHEN ? OR changed_at IS NULL THEN ? ELSE changed_at END
			WHERE id = ?`, s.ETag, s.LastModified, s.At.UnixMilli(), s.At.UnixMilli(), s.Events, len(res.Conflicts),
			s.NextPollAt.UnixMilli(), len(s.Add), len(s.Remove), s.Changes(), s.At.UnixMilli(), s.FeedID); err != nil {
			return nil, err
		}
		res.Blocks, err = feedBlocks(ctx, q, s.FeedID)
		return res, err
	})
}

// checkFeedLease checks that the poller's lease is still the feed's, and
// returns the feed's property and unit. Errors: CodeNotFound,
// CodeConflict (lease lost).
func checkFeedLease(ctx context.Context, q querier, feedID int64, lease time.Time) (propertyID, unitID int64, err error) {
	type feedLease struct{ propertyID, unitID, lease int64 }
	f, err := sqlflow.One(ctx, q, func(c rowmap.Codec, s rowmap.Scanner) (*feedLease, error) {
		var f feedLease
		return &f, rowmap.Scan(s, &f.propertyID, c.NullInt64(&f.unitID), &f.lease)
	}, feedNotFound(), `SELECT property_id, unit_id, lease_until FROM ical_feeds WHERE id = ?`, feedID)
	switch {
	case err != nil:
		return 0, 0, err
	case f.lease != lease.UnixMilli():
		return 0, 0, feedLeaseLost()
	}
	return f.propertyID, f.unitID, nil
}

// notFeedsBlock is the error for a block a feed sync names that is not
// the feed's.
func notFeedsBlock(blockID int64) error {
	return booking.Errorf(booking.CodeConflict, "Block %d is not this feed's.", blockID)
}

// deleteFeedBlock deletes a block of a feed. Errors: CodeConflict when it
// is not the feed's.
func deleteFeedBlock(ctx context.Context, q querier, feedID, blockID int64) error {
	return sqlflow.Exec(ctx, q, notFeedsBlock(blockID), `DELETE FROM blocks WHERE id = ? AND feed_id = ?`, blockID, feedID)
}

// RecordFeedAttempt records a fetch that changed nothing.
func (db *DB) RecordFeedAttempt(ctx context.Context, a feed.Attempt) error {
	return db.tx(ctx, "record feed attempt", func(q querier) error {
		if _, _, err := checkFeedLease(ctx, q, a.FeedID, a.Lease); err != nil {
			return err
		}
		query := `UPDATE ical_feeds SET last_attempt_at = ?, last_error = ?, next_poll_at = ?, lease_until = 0 WHERE id = ?`
		args := []any{a.At.UnixMilli(), a.Err, a.NextPollAt.UnixMilli(), a.FeedID}
		if a.NotModified {
			query = `UPDATE ical_feeds SET last_attempt_at = ?, last_success_at = ?, last_error = '', next_poll_at = ?,
				lease_until = 0, last_added = 0, last_removed = 0, changed_at = coalesce(changed_at, ?) WHERE id = ?`
			args = []any{a.At.UnixMilli(), a.At.UnixMilli(), a.NextPollAt.UnixMilli(), a.At.UnixMilli(), a.FeedID}
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
		return exportBy(ctx, q, `property_id = ? AND org_id = ?`, propertyID, orgID)
	})
}

// ExportTokenByValue finds the record of a token.
func (db *DB) ExportTokenByValue(ctx context.Context, token string) (*feed.ExportToken, error) {
	if token == "" {
		return nil, exportNotFound()
	}
	return sqlflow.Get(ctx, db.run, "export token by value", func(q querier) (*feed.ExportToken, error) {
		return exportBy(ctx, q, `token = ?`, token)
	})
}

// SetExportToken replaces a property's export token.
func (db *DB) SetExportToken(ctx context.Context, orgID, propertyID int64, token string, now time.Time) (*feed.ExportToken, error) {
	if token == "" {
		return nil, booking.Errorf(booking.CodeInvalid, "An export token must not be empty.")
	}
	return sqlflow.Get(ctx, db.tx, "set export token", func(q querier) (*feed.ExportToken, error) {
		found, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM properties WHERE id = ? AND org_id = ?`, propertyID, orgID)
		switch {
		case err != nil:
			return nil, err
		case !found:
			return nil, rowmap.PropertyNotFound()
		}
		if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO ical_exports (`+rowmap.ExportColumns+`)
			VALUES (?, ?, ?, ?, '', ?) ON CONFLICT (property_id) DO UPDATE SET token = excluded.token,
			created_at = excluded.created_at`, orgID, propertyID, token, now.UnixMilli(), now.UnixMilli()); err != nil {
			return nil, err
		}
		return exportBy(ctx, q, `property_id = ?`, propertyID)
	})
}

// NoteExport records the ETag of the body served.
func (db *DB) NoteExport(ctx context.Context, propertyID int64, etag string, now time.Time) (*feed.ExportToken, error) {
	e, err := sqlflow.Get(ctx, db.run, "note export", func(q querier) (*feed.ExportToken, error) {
		return exportBy(ctx, q, `property_id = ?`, propertyID)
	})
	if err != nil || e.ETag == etag {
		return e, err
	}
	return sqlflow.Get(ctx, db.tx, "note export", func(q querier) (*feed.ExportToken, error) {
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE ical_exports SET etag = ?, changed_at = ?
			WHERE property_id = ? AND etag <> ?`, etag, now.UnixMilli(), propertyID, etag); err != nil {
			return nil, err
		}
		return exportBy(ctx, q, `property_id = ?`, propertyID)
	})
}
