-- Calendar sync you can measure (issue #30): the channel's export delay
-- as the host sets it (0: the channel's default, package feed), what the
-- last sync added and removed, and when a sync last changed the feed's
-- blocks (NULL: never synced).
ALTER TABLE ical_feeds ADD COLUMN export_delay_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ical_feeds ADD COLUMN last_added INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ical_feeds ADD COLUMN last_removed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ical_feeds ADD COLUMN changed_at INTEGER;
