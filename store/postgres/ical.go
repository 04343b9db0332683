package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// This file is the booking.FeedStore of calendar sync. A feed's events are
// rows of blocks with feed_id set: the availability queries of
// availability.go count them like host blocks, and writers lock the
// property row before they check and write (lockProperty).

// noLease is lease_until of a feed no poller holds.
var noLease = time.Unix(0, 0).UTC()

func collectFeeds(rows pgx.Rows) ([]booking.Feed, error) {
	defer rows.Close()
	var out []booking.Feed
	for rows.Next() {
		f, err := rowmap.ScanFeed(codec{}, rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: scan feed: %w", err)
		}
		out = append(out, *f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: feeds: %w", err)
	}
	return out, nil
}

func feedNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This calendar feed does not exist.")
}

func feedLeaseLost() error {
	return booking.Errorf(booking.CodeConflict, "Another poller holds this calendar feed.")
}

// CreateFeed stores f and sets its ID.
func (db *DB) CreateFeed(ctx context.Context, f *booking.Feed, now time.Time) error {
	if err := f.Validate(); err != nil {
		return err
	}
	c := *f
	if c.NextPollAt.IsZero() {
		c.NextPollAt = now
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = now
	}
	err := db.pool.QueryRow(ctx, `INSERT INTO ical_feeds (org_id, property_id, name, url, active,
		end_is_last_night, next_poll_at, created_at)
		SELECT $1, id, $3, $4, $5, $6, $7, $8 FROM properties WHERE id = $2 AND org_id = $1 RETURNING id`,
		c.OrgID, c.PropertyID, c.Name, c.URL, c.Active, c.EndIsLastNight, c.NextPollAt, c.CreatedAt).Scan(&c.ID)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return rowmap.PropertyNotFound()
	case err != nil:
		return fmt.Errorf("postgres: create feed: %w", err)
	}
	*f = c
	return nil
}

// UpdateFeed saves a feed's settings. A new URL drops the old one's
// validators and lease and makes the feed due at now (see
// booking.FeedStore): in SET, url is the row's value before the update.
func (db *DB) UpdateFeed(ctx context.Context, f *booking.Feed, now time.Time) error {
	if err := f.Validate(); err != nil {
		return err
	}
	tag, err := db.pool.Exec(ctx, `UPDATE ical_feeds SET name = $1, url = $2, active = $3, end_is_last_night = $4,
		etag = CASE WHEN url = $2 THEN etag ELSE '' END,
		last_modified = CASE WHEN url = $2 THEN last_modified ELSE '' END,
		lease_until = CASE WHEN url = $2 THEN lease_until ELSE $7 END,
		next_poll_at = CASE WHEN url = $2 THEN next_poll_at ELSE LEAST(next_poll_at, $8) END
		WHERE id = $5 AND org_id = $6`, f.Name, f.URL, f.Active, f.EndIsLastNight, f.ID, f.OrgID, noLease, now)
	if err != nil {
		return fmt.Errorf("postgres: update feed %d: %w", f.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return feedNotFound()
	}
	return nil
}

// DeleteFeed removes a feed; its blocks and conflicts go with it (ON
// DELETE CASCADE). The property row is locked first, like every writer of
// blocks.
func (db *DB) DeleteFeed(ctx context.Context, orgID, feedID int64) error {
	return db.inTx(ctx, "delete feed", func(tx pgx.Tx) error {
		var propertyID int64
		err := tx.QueryRow(ctx, `SELECT property_id FROM ical_feeds WHERE id = $1 AND org_id = $2`, feedID, orgID).Scan(&propertyID)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return feedNotFound()
		case err != nil:
			return fmt.Errorf("postgres: delete feed %d: %w", feedID, err)
		}
		if err := lockProperty(ctx, tx, 0, propertyID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM ical_feeds WHERE id = $1`, feedID); err != nil {
			return fmt.Errorf("postgres: delete feed %d: %w", feedID, err)
		}
		return nil
	})
}

// Feed finds a feed of an organisation.
func (db *DB) Feed(ctx context.Context, orgID, feedID int64) (*booking.Feed, error) {
	f, err := rowmap.ScanFeed(codec{}, db.pool.QueryRow(ctx, `SELECT `+rowmap.FeedColumns+` FROM ical_feeds WHERE id = $1 AND org_id = $2`, feedID, orgID))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, feedNotFound()
	case err != nil:
		return nil, fmt.Errorf("postgres: feed %d: %w", feedID, err)
	}
	return f, nil
}

// Feeds lists an organisation's feeds by property, then ID.
func (db *DB) Feeds(ctx context.Context, orgID int64) ([]booking.Feed, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+rowmap.FeedColumns+` FROM ical_feeds WHERE org_id = $1 ORDER BY property_id, id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("postgres: feeds: %w", err)
	}
	return collectFeeds(rows)
}

// ClaimFeeds leases due feeds; SKIP LOCKED lets two replicas claim at once
// without taking the same feed.
func (db *DB) ClaimFeeds(ctx context.Context, now, leaseUntil time.Time, limit int) ([]booking.Feed, error) {
	rows, err := db.pool.Query(ctx, `UPDATE ical_feeds SET lease_until = $2 WHERE id IN (
			SELECT id FROM ical_feeds WHERE active AND next_poll_at <= $1 AND lease_until <= $1
			ORDER BY next_poll_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
		RETURNING `+rowmap.FeedColumns, now, leaseUntil, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: claim feeds: %w", err)
	}
	return collectFeeds(rows)
}

// ClaimFeed leases one feed whether due or not.
func (db *DB) ClaimFeed(ctx context.Context, orgID, feedID int64, now, leaseUntil time.Time) (*booking.Feed, error) {
	f, err := rowmap.ScanFeed(codec{}, db.pool.QueryRow(ctx, `UPDATE ical_feeds SET lease_until = $4
		WHERE id = $1 AND org_id = $2 AND lease_until <= $3 RETURNING `+rowmap.FeedColumns, feedID, orgID, now, leaseUntil))
	if errors.Is(err, pgx.ErrNoRows) {
		found, err := exists(ctx, db.pool, `SELECT 1 FROM ical_feeds WHERE id = $1 AND org_id = $2`, feedID, orgID)
		if err != nil {
			return nil, fmt.Errorf("postgres: claim feed %d: %w", feedID, err)
		}
		if !found {
			return nil, feedNotFound()
		}
		return nil, feedLeaseLost()
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: claim feed %d: %w", feedID, err)
	}
	return f, nil
}

// FeedBlocks lists a feed's blocks by start.
func (db *DB) FeedBlocks(ctx context.Context, feedID int64) ([]booking.FeedBlock, error) {
	return feedBlocks(ctx, db.pool, feedID)
}

func feedBlocks(ctx context.Context, q querier, feedID int64) ([]booking.FeedBlock, error) {
	rows, err := q.Query(ctx, `SELECT id, uid, start_date, end_date, reason FROM blocks
		WHERE feed_id = $1 ORDER BY start_date, id`, feedID)
	if err != nil {
		return nil, fmt.Errorf("postgres: feed blocks: %w", err)
	}
	defer rows.Close()
	var out []booking.FeedBlock
	for rows.Next() {
		var (
			b          booking.FeedBlock
			start, end pgtype.Date
		)
		if err := rows.Scan(&b.ID, &b.UID, &start, &end, &b.Summary); err != nil {
			return nil, fmt.Errorf("postgres: feed blocks: %w", err)
		}
		b.Start, b.End = fromDate(start), fromDate(end)
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: feed blocks: %w", err)
	}
	return out, nil
}

// FeedConflicts lists a feed's conflicts by start.
func (db *DB) FeedConflicts(ctx context.Context, feedID int64) ([]booking.FeedConflict, error) {
	return feedConflicts(ctx, db.pool, feedID)
}

func feedConflicts(ctx context.Context, q querier, feedID int64) ([]booking.FeedConflict, error) {
	rows, err := q.Query(ctx, `SELECT feed_id, uid, start_date, end_date, summary, booking_id, detected_at
		FROM ical_conflicts WHERE feed_id = $1 ORDER BY start_date, uid`, feedID)
	if err != nil {
		return nil, fmt.Errorf("postgres: feed conflicts: %w", err)
	}
	defer rows.Close()
	var out []booking.FeedConflict
	for rows.Next() {
		var (
			c          booking.FeedConflict
			start, end pgtype.Date
		)
		if err := rows.Scan(&c.FeedID, &c.UID, &start, &end, &c.Summary, &c.BookingID, &c.DetectedAt); err != nil {
			return nil, fmt.Errorf("postgres: feed conflicts: %w", err)
		}
		c.Start, c.End, c.DetectedAt = fromDate(start), fromDate(end), c.DetectedAt.UTC()
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: feed conflicts: %w", err)
	}
	return out, nil
}

// holderOf returns the ID of a booking of the property holding dates at
// now that overlaps r, 0 when none.
func holderOf(ctx context.Context, q querier, propertyID int64, r civil.Range, now time.Time) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT id FROM bookings
		WHERE property_id = $1 AND check_in < $2 AND $3 < check_out AND `+holdsDates(4)+`
		ORDER BY check_in, id LIMIT 1`, propertyID, date(r.End), date(r.Start), now).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// ApplyFeedSync applies one fetch's changes in one transaction, the
// property row locked first so that checkouts of the property wait for
// it (and it for them): a booking and an imported block cannot both take
// a night.
func (db *DB) ApplyFeedSync(ctx context.Context, s booking.FeedSync) (*booking.FeedSyncResult, error) {
	if err := booking.PrepareFeedSync(s); err != nil {
		return nil, err
	}
	res := &booking.FeedSyncResult{}
	err := db.inTx(ctx, "apply feed sync", func(tx pgx.Tx) error {
		var propertyID int64
		err := tx.QueryRow(ctx, `SELECT property_id FROM ical_feeds WHERE id = $1`, s.FeedID).Scan(&propertyID)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return feedNotFound()
		case err != nil:
			return fmt.Errorf("postgres: apply feed sync: %w", err)
		}
		if err := lockProperty(ctx, tx, 0, propertyID); err != nil {
			return err
		}
		var lease time.Time
		if err := tx.QueryRow(ctx, `SELECT lease_until FROM ical_feeds WHERE id = $1 FOR UPDATE`, s.FeedID).Scan(&lease); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return feedNotFound()
			}
			return fmt.Errorf("postgres: apply feed sync: %w", err)
		}
		if lease.UnixMilli() != s.Lease.UnixMilli() {
			return feedLeaseLost()
		}
		previous, err := feedConflicts(ctx, tx, s.FeedID)
		if err != nil {
			return err
		}
		var conflicts []booking.FeedConflict
		conflict := func(b booking.FeedBlock, holder int64) {
			conflicts = append(conflicts, booking.FeedConflict{FeedID: s.FeedID, UID: b.UID, Start: b.Start, End: b.End,
				Summary: b.Summary, BookingID: holder, DetectedAt: s.At})
		}
		for _, id := range s.Remove {
			if err := deleteFeedBlock(ctx, tx, s.FeedID, id); err != nil {
				return err
			}
		}
		for _, b := range s.Move {
			holder, err := holderOf(ctx, tx, propertyID, b.Range(), s.At)
			if err != nil {
				return fmt.Errorf("postgres: apply feed sync: %w", err)
			}
			if holder != 0 {
				if err := deleteFeedBlock(ctx, tx, s.FeedID, b.ID); err != nil {
					return err
				}
				conflict(b, holder)
				continue
			}
			tag, err := tx.Exec(ctx, `UPDATE blocks SET uid = $1, start_date = $2, end_date = $3, reason = $4
				WHERE id = $5 AND feed_id = $6`, b.UID, date(b.Start), date(b.End), b.Summary, b.ID, s.FeedID)
			if err != nil {
				return fmt.Errorf("postgres: apply feed sync: move block %d: %w", b.ID, err)
			}
			if tag.RowsAffected() == 0 {
				return booking.Errorf(booking.CodeConflict, "Block %d is not this feed's.", b.ID)
			}
		}
		for _, b := range s.Add {
			holder, err := holderOf(ctx, tx, propertyID, b.Range(), s.At)
			if err != nil {
				return fmt.Errorf("postgres: apply feed sync: %w", err)
			}
			if holder != 0 {
				conflict(b, holder)
				continue
			}
			if _, err := tx.Exec(ctx, `INSERT INTO blocks (property_id, start_date, end_date, reason, feed_id, uid)
				VALUES ($1, $2, $3, $4, $5, $6)`, propertyID, date(b.Start), date(b.End), b.Summary, s.FeedID, b.UID); err != nil {
				return fmt.Errorf("postgres: apply feed sync: add block %s: %w", b.UID, err)
			}
		}
		res.Conflicts = booking.NewConflicts(previous, conflicts)
		if _, err := tx.Exec(ctx, `DELETE FROM ical_conflicts WHERE feed_id = $1`, s.FeedID); err != nil {
			return fmt.Errorf("postgres: apply feed sync: %w", err)
		}
		for _, c := range res.Conflicts {
			if _, err := tx.Exec(ctx, `INSERT INTO ical_conflicts (feed_id, uid, start_date, end_date, summary,
				booking_id, detected_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, c.FeedID, c.UID, date(c.Start), date(c.End),
				c.Summary, c.BookingID, c.DetectedAt); err != nil {
				return fmt.Errorf("postgres: apply feed sync: record conflict: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE ical_feeds SET etag = $1, last_modified = $2, last_attempt_at = $3,
			last_success_at = $3, last_error = '', events_imported = $4, conflicts = $5, next_poll_at = $6, lease_until = $7
			WHERE id = $8`, s.ETag, s.LastModified, s.At, s.Events, len(res.Conflicts), s.NextPollAt, noLease, s.FeedID); err != nil {
			return fmt.Errorf("postgres: apply feed sync: %w", err)
		}
		res.Blocks, err = feedBlocks(ctx, tx, s.FeedID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// deleteFeedBlock deletes a block of a feed. Errors: CodeConflict when it
// is not the feed's.
func deleteFeedBlock(ctx context.Context, tx pgx.Tx, feedID, blockID int64) error {
	tag, err := tx.Exec(ctx, `DELETE FROM blocks WHERE id = $1 AND feed_id = $2`, blockID, feedID)
	if err != nil {
		return fmt.Errorf("postgres: apply feed sync: remove block %d: %w", blockID, err)
	}
	if tag.RowsAffected() == 0 {
		return booking.Errorf(booking.CodeConflict, "Block %d is not this feed's.", blockID)
	}
	return nil
}

// RecordFeedAttempt records a fetch that changed nothing.
func (db *DB) RecordFeedAttempt(ctx context.Context, a booking.FeedAttempt) error {
	return db.inTx(ctx, "record feed attempt", func(tx pgx.Tx) error {
		var lease time.Time
		err := tx.QueryRow(ctx, `SELECT lease_until FROM ical_feeds WHERE id = $1 FOR UPDATE`, a.FeedID).Scan(&lease)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return feedNotFound()
		case err != nil:
			return fmt.Errorf("postgres: record feed attempt: %w", err)
		}
		if lease.UnixMilli() != a.Lease.UnixMilli() {
			return feedLeaseLost()
		}
		query := `UPDATE ical_feeds SET last_attempt_at = $1, last_error = $2, next_poll_at = $3, lease_until = $4 WHERE id = $5`
		args := []any{a.At, a.Err, a.NextPollAt, noLease, a.FeedID}
		if a.NotModified {
			query = `UPDATE ical_feeds SET last_attempt_at = $1, last_success_at = $1, last_error = '', next_poll_at = $2,
				lease_until = $3 WHERE id = $4`
			args = []any{a.At, a.NextPollAt, noLease, a.FeedID}
		}
		if _, err := tx.Exec(ctx, query, args...); err != nil {
			return fmt.Errorf("postgres: record feed attempt: %w", err)
		}
		return nil
	})
}

func exportNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This calendar does not exist.")
}

func exportBy(ctx context.Context, q querier, where string, args ...any) (*booking.ExportToken, error) {
	e, err := rowmap.ScanExport(codec{}, q.QueryRow(ctx, `SELECT `+rowmap.ExportColumns+` FROM ical_exports WHERE `+where, args...))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, exportNotFound()
	case err != nil:
		return nil, fmt.Errorf("postgres: export token: %w", err)
	}
	return e, nil
}

// ExportToken finds a property's export token.
func (db *DB) ExportToken(ctx context.Context, orgID, propertyID int64) (*booking.ExportToken, error) {
	return exportBy(ctx, db.pool, `property_id = $1 AND org_id = $2`, propertyID, orgID)
}

// ExportTokenByValue finds the record of a token.
func (db *DB) ExportTokenByValue(ctx context.Context, token string) (*booking.ExportToken, error) {
	if token == "" {
		return nil, exportNotFound()
	}
	return exportBy(ctx, db.pool, `token = $1`, token)
}

// SetExportToken replaces a property's export token.
func (db *DB) SetExportToken(ctx context.Context, orgID, propertyID int64, token string, now time.Time) (*booking.ExportToken, error) {
	if token == "" {
		return nil, booking.Errorf(booking.CodeInvalid, "An export token must not be empty.")
	}
	tag, err := db.pool.Exec(ctx, `INSERT INTO ical_exports (property_id, org_id, token, created_at, etag, changed_at)
		SELECT id, org_id, $3, $4, '', $4 FROM properties WHERE id = $1 AND org_id = $2
		ON CONFLICT (property_id) DO UPDATE SET token = excluded.token, created_at = excluded.created_at`,
		propertyID, orgID, token, now)
	if err != nil {
		return nil, fmt.Errorf("postgres: set export token: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return nil, rowmap.PropertyNotFound()
	}
	return exportBy(ctx, db.pool, `property_id = $1`, propertyID)
}

// NoteExport records the ETag of the body served.
func (db *DB) NoteExport(ctx context.Context, propertyID int64, etag string, now time.Time) (*booking.ExportToken, error) {
	if _, err := db.pool.Exec(ctx, `UPDATE ical_exports SET etag = $1, changed_at = $2 WHERE property_id = $3 AND etag <> $1`,
		etag, now, propertyID); err != nil {
		return nil, fmt.Errorf("postgres: note export: %w", err)
	}
	return exportBy(ctx, db.pool, `property_id = $1`, propertyID)
}
