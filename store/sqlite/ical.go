package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// This file is the booking.FeedStore of calendar sync. A feed's events are
// rows of blocks with feed_id set: the availability queries of
// availability.go count them like host blocks.

func collectFeeds(rows *sql.Rows) ([]booking.Feed, error) {
	defer rows.Close()
	var out []booking.Feed
	for rows.Next() {
		f, err := rowmap.ScanFeed(codec{}, rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: scan feed: %w", err)
		}
		out = append(out, *f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: feeds: %w", err)
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
	err := db.inWriteTx(ctx, "create feed", func(tx *sql.Tx) error {
		found, err := exists(ctx, tx, `SELECT 1 FROM properties WHERE id = ? AND org_id = ?`, c.PropertyID, c.OrgID)
		if err != nil {
			return fmt.Errorf("sqlite: create feed: %w", err)
		}
		if !found {
			return rowmap.PropertyNotFound()
		}
		return tx.QueryRowContext(ctx, `INSERT INTO ical_feeds (org_id, property_id, name, url, active,
			end_is_last_night, next_poll_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			c.OrgID, c.PropertyID, c.Name, c.URL, c.Active, c.EndIsLastNight,
			c.NextPollAt.UnixMilli(), c.CreatedAt.UnixMilli()).Scan(&c.ID)
	})
	if err != nil {
		return err
	}
	*f = c
	return nil
}

// UpdateFeed saves a feed's settings. A new URL drops the old one's
// validators and lease and makes the feed due at now (see
// booking.FeedStore): the CASEs compare with the row's URL before the
// update.
func (db *DB) UpdateFeed(ctx context.Context, f *booking.Feed, now time.Time) error {
	if err := f.Validate(); err != nil {
		return err
	}
	return db.inWriteTx(ctx, "update feed", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE ical_feeds SET name = ?, url = ?, active = ?, end_is_last_night = ?,
			etag = CASE WHEN url = ? THEN etag ELSE '' END,
			last_modified = CASE WHEN url = ? THEN last_modified ELSE '' END,
			lease_until = CASE WHEN url = ? THEN lease_until ELSE 0 END,
			next_poll_at = CASE WHEN url = ? THEN next_poll_at ELSE MIN(next_poll_at, ?) END
			WHERE id = ? AND org_id = ?`, f.Name, f.URL, f.Active, f.EndIsLastNight, f.URL, f.URL, f.URL, f.URL, now.UnixMilli(), f.ID, f.OrgID)
		if err != nil {
			return fmt.Errorf("sqlite: update feed %d: %w", f.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return feedNotFound()
		}
		return nil
	})
}

// DeleteFeed removes a feed; its blocks and conflicts go with it (ON
// DELETE CASCADE).
func (db *DB) DeleteFeed(ctx context.Context, orgID, feedID int64) error {
	return db.inWriteTx(ctx, "delete feed", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM ical_feeds WHERE id = ? AND org_id = ?`, feedID, orgID)
		if err != nil {
			return fmt.Errorf("sqlite: delete feed %d: %w", feedID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return feedNotFound()
		}
		return nil
	})
}

// Feed finds a feed of an organisation.
func (db *DB) Feed(ctx context.Context, orgID, feedID int64) (*booking.Feed, error) {
	f, err := rowmap.ScanFeed(codec{}, db.read.QueryRowContext(ctx, `SELECT `+rowmap.FeedColumns+` FROM ical_feeds WHERE id = ? AND org_id = ?`, feedID, orgID))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, feedNotFound()
	case err != nil:
		return nil, fmt.Errorf("sqlite: feed %d: %w", feedID, err)
	}
	return f, nil
}

// Feeds lists an organisation's feeds by property, then ID.
func (db *DB) Feeds(ctx context.Context, orgID int64) ([]booking.Feed, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+rowmap.FeedColumns+` FROM ical_feeds WHERE org_id = ? ORDER BY property_id, id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: feeds: %w", err)
	}
	return collectFeeds(rows)
}

// ClaimFeeds leases due feeds in one write transaction (SQLite has one
// writer at a time, so two claims cannot take the same feed).
func (db *DB) ClaimFeeds(ctx context.Context, now, leaseUntil time.Time, limit int) ([]booking.Feed, error) {
	var out []booking.Feed
	err := db.inWriteTx(ctx, "claim feeds", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+rowmap.FeedColumns+` FROM ical_feeds
			WHERE active = 1 AND next_poll_at <= ? AND lease_until <= ? ORDER BY next_poll_at, id LIMIT ?`,
			now.UnixMilli(), now.UnixMilli(), limit)
		if err != nil {
			return fmt.Errorf("sqlite: claim feeds: %w", err)
		}
		if out, err = collectFeeds(rows); err != nil {
			return err
		}
		for i := range out {
			out[i].LeaseUntil = leaseUntil
			if _, err := tx.ExecContext(ctx, `UPDATE ical_feeds SET lease_until = ? WHERE id = ?`,
				leaseUntil.UnixMilli(), out[i].ID); err != nil {
				return fmt.Errorf("sqlite: claim feed %d: %w", out[i].ID, err)
			}
		}
		return nil
	})
	return out, err
}

// ClaimFeed leases one feed whether due or not.
func (db *DB) ClaimFeed(ctx context.Context, orgID, feedID int64, now, leaseUntil time.Time) (*booking.Feed, error) {
	var f *booking.Feed
	err := db.inWriteTx(ctx, "claim feed", func(tx *sql.Tx) error {
		var err error
		f, err = rowmap.ScanFeed(codec{}, tx.QueryRowContext(ctx, `SELECT `+rowmap.FeedColumns+` FROM ical_feeds WHERE id = ? AND org_id = ?`, feedID, orgID))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return feedNotFound()
		case err != nil:
			return fmt.Errorf("sqlite: claim feed %d: %w", feedID, err)
		}
		if f.LeaseUntil.After(now) {
			return feedLeaseLost()
		}
		f.LeaseUntil = leaseUntil
		if _, err := tx.ExecContext(ctx, `UPDATE ical_feeds SET lease_until = ? WHERE id = ?`, leaseUntil.UnixMilli(), feedID); err != nil {
			return fmt.Errorf("sqlite: claim feed %d: %w", feedID, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// FeedBlocks lists a feed's blocks by start.
func (db *DB) FeedBlocks(ctx context.Context, feedID int64) ([]booking.FeedBlock, error) {
	return feedBlocks(ctx, db.read, feedID)
}

func feedBlocks(ctx context.Context, q querier, feedID int64) ([]booking.FeedBlock, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, uid, start_date, end_date, reason FROM blocks
		WHERE feed_id = ? ORDER BY start_date, id`, feedID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: feed blocks: %w", err)
	}
	defer rows.Close()
	var out []booking.FeedBlock
	for rows.Next() {
		var (
			b          booking.FeedBlock
			start, end string
		)
		if err := rows.Scan(&b.ID, &b.UID, &start, &end, &b.Summary); err != nil {
			return nil, fmt.Errorf("sqlite: feed blocks: %w", err)
		}
		if b.Start, err = civil.Parse(start); err != nil {
			return nil, fmt.Errorf("sqlite: feed blocks: %w", err)
		}
		if b.End, err = civil.Parse(end); err != nil {
			return nil, fmt.Errorf("sqlite: feed blocks: %w", err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: feed blocks: %w", err)
	}
	return out, nil
}

// FeedConflicts lists a feed's conflicts by start.
func (db *DB) FeedConflicts(ctx context.Context, feedID int64) ([]booking.FeedConflict, error) {
	return feedConflicts(ctx, db.read, feedID)
}

func feedConflicts(ctx context.Context, q querier, feedID int64) ([]booking.FeedConflict, error) {
	rows, err := q.QueryContext(ctx, `SELECT feed_id, uid, start_date, end_date, summary, booking_id, detected_at
		FROM ical_conflicts WHERE feed_id = ? ORDER BY start_date, uid`, feedID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: feed conflicts: %w", err)
	}
	defer rows.Close()
	var out []booking.FeedConflict
	for rows.Next() {
		var (
			c          booking.FeedConflict
			start, end string
			at         int64
		)
		if err := rows.Scan(&c.FeedID, &c.UID, &start, &end, &c.Summary, &c.BookingID, &at); err != nil {
			return nil, fmt.Errorf("sqlite: feed conflicts: %w", err)
		}
		if c.Start, err = civil.Parse(start); err != nil {
			return nil, fmt.Errorf("sqlite: feed conflicts: %w", err)
		}
		if c.End, err = civil.Parse(end); err != nil {
			return nil, fmt.Errorf("sqlite: feed conflicts: %w", err)
		}
		c.DetectedAt = time.UnixMilli(at).UTC()
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: feed conflicts: %w", err)
	}
	return out, nil
}

// holderOf returns the ID of a booking of the property holding dates at
// now that overlaps r, 0 when none.
func holderOf(ctx context.Context, q querier, propertyID int64, r civil.Range, now time.Time) (int64, error) {
	var id int64
	err := q.QueryRowContext(ctx, `SELECT id FROM bookings
		WHERE property_id = ? AND check_in < ? AND ? < check_out AND `+holdsDates+`
		ORDER BY check_in, id LIMIT 1`, propertyID, r.End.String(), r.Start.String(), now.UnixMilli()).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// ApplyFeedSync applies one fetch's changes in one write transaction:
// BEGIN IMMEDIATE serialises it with checkouts, so a booking and an
// imported block cannot both take a night.
func (db *DB) ApplyFeedSync(ctx context.Context, s booking.FeedSync) (*booking.FeedSyncResult, error) {
	if err := booking.PrepareFeedSync(s); err != nil {
		return nil, err
	}
	res := &booking.FeedSyncResult{}
	err := db.inWriteTx(ctx, "apply feed sync", func(tx *sql.Tx) error {
		var propertyID, lease int64
		err := tx.QueryRowContext(ctx, `SELECT property_id, lease_until FROM ical_feeds WHERE id = ?`, s.FeedID).Scan(&propertyID, &lease)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return feedNotFound()
		case err != nil:
			return fmt.Errorf("sqlite: apply feed sync: %w", err)
		}
		if lease != s.Lease.UnixMilli() {
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
				return fmt.Errorf("sqlite: apply feed sync: %w", err)
			}
			if holder != 0 {
				if err := deleteFeedBlock(ctx, tx, s.FeedID, b.ID); err != nil {
					return err
				}
				conflict(b, holder)
				continue
			}
			r, err := tx.ExecContext(ctx, `UPDATE blocks SET uid = ?, start_date = ?, end_date = ?, reason = ?
				WHERE id = ? AND feed_id = ?`, b.UID, b.Start.String(), b.End.String(), b.Summary, b.ID, s.FeedID)
			if err != nil {
				return fmt.Errorf("sqlite: apply feed sync: move block %d: %w", b.ID, err)
			}
			if n, _ := r.RowsAffected(); n == 0 {
				return booking.Errorf(booking.CodeConflict, "Block %d is not this feed's.", b.ID)
			}
		}
		for _, b := range s.Add {
			holder, err := holderOf(ctx, tx, propertyID, b.Range(), s.At)
			if err != nil {
				return fmt.Errorf("sqlite: apply feed sync: %w", err)
			}
			if holder != 0 {
				conflict(b, holder)
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO blocks (property_id, start_date, end_date, reason, feed_id, uid)
				VALUES (?, ?, ?, ?, ?, ?)`, propertyID, b.Start.String(), b.End.String(), b.Summary, s.FeedID, b.UID); err != nil {
				return fmt.Errorf("sqlite: apply feed sync: add block %s: %w", b.UID, err)
			}
		}
		res.Conflicts = booking.NewConflicts(previous, conflicts)
		if _, err := tx.ExecContext(ctx, `DELETE FROM ical_conflicts WHERE feed_id = ?`, s.FeedID); err != nil {
			return fmt.Errorf("sqlite: apply feed sync: %w", err)
		}
		for _, c := range res.Conflicts {
			if _, err := tx.ExecContext(ctx, `INSERT INTO ical_conflicts (feed_id, uid, start_date, end_date, summary,
				booking_id, detected_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, c.FeedID, c.UID, c.Start.String(), c.End.String(),
				c.Summary, c.BookingID, c.DetectedAt.UnixMilli()); err != nil {
				return fmt.Errorf("sqlite: apply feed sync: record conflict: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ical_feeds SET etag = ?, last_modified = ?, last_attempt_at = ?,
			last_success_at = ?, last_error = '', events_imported = ?, conflicts = ?, next_poll_at = ?, lease_until = 0
			WHERE id = ?`, s.ETag, s.LastModified, s.At.UnixMilli(), s.At.UnixMilli(), s.Events, len(res.Conflicts),
			s.NextPollAt.UnixMilli(), s.FeedID); err != nil {
			return fmt.Errorf("sqlite: apply feed sync: %w", err)
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
func deleteFeedBlock(ctx context.Context, tx *sql.Tx, feedID, blockID int64) error {
	r, err := tx.ExecContext(ctx, `DELETE FROM blocks WHERE id = ? AND feed_id = ?`, blockID, feedID)
	if err != nil {
		return fmt.Errorf("sqlite: apply feed sync: remove block %d: %w", blockID, err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return booking.Errorf(booking.CodeConflict, "Block %d is not this feed's.", blockID)
	}
	return nil
}

// RecordFeedAttempt records a fetch that changed nothing.
func (db *DB) RecordFeedAttempt(ctx context.Context, a booking.FeedAttempt) error {
	return db.inWriteTx(ctx, "record feed attempt", func(tx *sql.Tx) error {
		var lease int64
		err := tx.QueryRowContext(ctx, `SELECT lease_until FROM ical_feeds WHERE id = ?`, a.FeedID).Scan(&lease)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return feedNotFound()
		case err != nil:
			return fmt.Errorf("sqlite: record feed attempt: %w", err)
		}
		if lease != a.Lease.UnixMilli() {
			return feedLeaseLost()
		}
		query := `UPDATE ical_feeds SET last_attempt_at = ?, last_error = ?, next_poll_at = ?, lease_until = 0 WHERE id = ?`
		args := []any{a.At.UnixMilli(), a.Err, a.NextPollAt.UnixMilli(), a.FeedID}
		if a.NotModified {
			query = `UPDATE ical_feeds SET last_attempt_at = ?, last_success_at = ?, last_error = '', next_poll_at = ?,
				lease_until = 0 WHERE id = ?`
			args = []any{a.At.UnixMilli(), a.At.UnixMilli(), a.NextPollAt.UnixMilli(), a.FeedID}
		}
		if _, err := tx.ExecContext(ctx, query, args...); err != nil {
			return fmt.Errorf("sqlite: record feed attempt: %w", err)
		}
		return nil
	})
}

func exportNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This calendar does not exist.")
}

func (db *DB) exportBy(ctx context.Context, q querier, where string, args ...any) (*booking.ExportToken, error) {
	e, err := rowmap.ScanExport(codec{}, q.QueryRowContext(ctx, `SELECT `+rowmap.ExportColumns+` FROM ical_exports WHERE `+where, args...))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, exportNotFound()
	case err != nil:
		return nil, fmt.Errorf("sqlite: export token: %w", err)
	}
	return e, nil
}

// ExportToken finds a property's export token.
func (db *DB) ExportToken(ctx context.Context, orgID, propertyID int64) (*booking.ExportToken, error) {
	return db.exportBy(ctx, db.read, `property_id = ? AND org_id = ?`, propertyID, orgID)
}

// ExportTokenByValue finds the record of a token.
func (db *DB) ExportTokenByValue(ctx context.Context, token string) (*booking.ExportToken, error) {
	if token == "" {
		return nil, exportNotFound()
	}
	return db.exportBy(ctx, db.read, `token = ?`, token)
}

// SetExportToken replaces a property's export token.
func (db *DB) SetExportToken(ctx context.Context, orgID, propertyID int64, token string, now time.Time) (*booking.ExportToken, error) {
	if token == "" {
		return nil, booking.Errorf(booking.CodeInvalid, "An export token must not be empty.")
	}
	var e *booking.ExportToken
	err := db.inWriteTx(ctx, "set export token", func(tx *sql.Tx) error {
		found, err := exists(ctx, tx, `SELECT 1 FROM properties WHERE id = ? AND org_id = ?`, propertyID, orgID)
		if err != nil {
			return fmt.Errorf("sqlite: set export token: %w", err)
		}
		if !found {
			return rowmap.PropertyNotFound()
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO ical_exports (property_id, org_id, token, created_at, etag, changed_at)
			VALUES (?, ?, ?, ?, '', ?) ON CONFLICT (property_id) DO UPDATE SET token = excluded.token,
			created_at = excluded.created_at`, propertyID, orgID, token, now.UnixMilli(), now.UnixMilli()); err != nil {
			return fmt.Errorf("sqlite: set export token: %w", err)
		}
		e, err = db.exportBy(ctx, tx, `property_id = ?`, propertyID)
		return err
	})
	return e, err
}

// NoteExport records the ETag of the body served.
func (db *DB) NoteExport(ctx context.Context, propertyID int64, etag string, now time.Time) (*booking.ExportToken, error) {
	e, err := db.exportBy(ctx, db.read, `property_id = ?`, propertyID)
	if err != nil || e.ETag == etag {
		return e, err
	}
	err = db.inWriteTx(ctx, "note export", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE ical_exports SET etag = ?, changed_at = ? WHERE property_id = ? AND etag <> ?`,
			etag, now.UnixMilli(), propertyID, etag); err != nil {
			return fmt.Errorf("sqlite: note export: %w", err)
		}
		e, err = db.exportBy(ctx, tx, `property_id = ?`, propertyID)
		return err
	})
	return e, err
}
