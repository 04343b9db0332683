-- Calendar sync (package ical, icalsync). ical_feeds are the external
-- calendars a property imports; their events are rows of blocks with
-- feed_id set, so that checkouts and the calendar see them through the
-- same checks as host blocks. Host blocks have feed_id NULL.
-- next_poll_at and lease_until lease a feed to one poller at a time.
CREATE TABLE ical_feeds (
    id                INTEGER PRIMARY KEY,
    org_id            INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    property_id       INTEGER NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    name              TEXT    NOT NULL,
    url               TEXT    NOT NULL,
    active            INTEGER NOT NULL DEFAULT 1,
    end_is_last_night INTEGER NOT NULL DEFAULT 0,
    etag              TEXT    NOT NULL DEFAULT '',
    last_modified     TEXT    NOT NULL DEFAULT '',
    last_attempt_at   INTEGER,
    last_success_at   INTEGER,
    last_error        TEXT    NOT NULL DEFAULT '',
    events_imported   INTEGER NOT NULL DEFAULT 0,
    conflicts         INTEGER NOT NULL DEFAULT 0,
    next_poll_at      INTEGER NOT NULL,
    lease_until       INTEGER NOT NULL DEFAULT 0,
    created_at        INTEGER NOT NULL
) STRICT;

CREATE INDEX ical_feeds_org ON ical_feeds (org_id, property_id, id);
CREATE INDEX ical_feeds_due ON ical_feeds (active, next_poll_at);

ALTER TABLE blocks ADD COLUMN feed_id INTEGER REFERENCES ical_feeds (id) ON DELETE CASCADE;
ALTER TABLE blocks ADD COLUMN uid TEXT NOT NULL DEFAULT '';
CREATE INDEX blocks_feed ON blocks (feed_id) WHERE feed_id IS NOT NULL;

-- Events of a feed not applied because a booking holds their dates.
CREATE TABLE ical_conflicts (
    feed_id     INTEGER NOT NULL REFERENCES ical_feeds (id) ON DELETE CASCADE,
    uid         TEXT    NOT NULL,
    start_date  TEXT    NOT NULL,
    end_date    TEXT    NOT NULL,
    summary     TEXT    NOT NULL DEFAULT '',
    booking_id  INTEGER NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
    detected_at INTEGER NOT NULL
) STRICT;

CREATE INDEX ical_conflicts_feed ON ical_conflicts (feed_id, start_date);
CREATE INDEX ical_conflicts_booking ON ical_conflicts (booking_id);

-- The secret of each property's exported calendar URL, and the ETag of
-- the body last served with the time it first was (Last-Modified).
CREATE TABLE ical_exports (
    property_id INTEGER PRIMARY KEY REFERENCES properties (id) ON DELETE CASCADE,
    org_id      INTEGER NOT NULL,
    token       TEXT    NOT NULL UNIQUE,
    created_at  INTEGER NOT NULL,
    etag        TEXT    NOT NULL DEFAULT '',
    changed_at  INTEGER NOT NULL
) STRICT;
