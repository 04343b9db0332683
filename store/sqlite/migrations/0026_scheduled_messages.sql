-- Scheduled messages (package schedule): the host's templates, each
-- property's check-in instructions (never in the public API nor the
-- logs), and the switches of the built-in messages. A message sent is an
-- outbox event whose key names the template, booking and occurrence.
CREATE TABLE message_templates (
    id           INTEGER PRIMARY KEY,
    org_id       INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    texts        TEXT    NOT NULL,
    trigger_when TEXT    NOT NULL,
    days         INTEGER NOT NULL,
    hours        INTEGER NOT NULL,
    at_minute    INTEGER NOT NULL,
    event        TEXT    NOT NULL,
    active       INTEGER NOT NULL,
    property_id  INTEGER REFERENCES properties (id) ON DELETE CASCADE,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
) STRICT;

CREATE INDEX message_templates_org ON message_templates (org_id, id);

CREATE TABLE property_checkin_instructions (
    property_id  INTEGER PRIMARY KEY REFERENCES properties (id) ON DELETE CASCADE,
    instructions TEXT    NOT NULL,
    door_code    TEXT    NOT NULL,
    days_before  INTEGER NOT NULL,
    at_minute    INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
) STRICT;

CREATE TABLE message_settings (
    org_id         INTEGER PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    review_request INTEGER NOT NULL
) STRICT;

CREATE INDEX outbox_events_org_kind ON outbox_events (org_id, kind, created_at);
