-- Guests' changes of dates or party (package datechange). A booking has at
-- most one open change (requested: waiting for the host; paying: its
-- charge under way): the partial unique index refuses a second, whatever
-- the race. data holds the offer the guest accepted and the stay it
-- changes from (datechange.Change, JSON). entry_key names the ledger entry
-- of its charge, '' without one.
CREATE TABLE date_changes (
    id         INTEGER PRIMARY KEY,
    org_id     INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    booking_id INTEGER NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
    status     TEXT    NOT NULL,
    entry_key  TEXT    NOT NULL DEFAULT '',
    reason     TEXT    NOT NULL DEFAULT '',
    data       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    updated_at INTEGER NOT NULL
) STRICT;

CREATE UNIQUE INDEX date_changes_open ON date_changes (booking_id) WHERE status IN ('requested', 'paying');
CREATE INDEX date_changes_booking ON date_changes (booking_id, id);
CREATE INDEX date_changes_entry ON date_changes (entry_key) WHERE entry_key <> '';

-- Whether an organisation's host approves changes before they apply.
CREATE TABLE date_change_settings (
    org_id   INTEGER PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    approval INTEGER NOT NULL
) STRICT;
