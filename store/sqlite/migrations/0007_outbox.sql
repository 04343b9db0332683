-- The durable outbox (package outbox): events written in the transaction
-- of the change they tell about (key UNIQUE: written twice, stored once),
-- fanned out into deliveries (one per event and target: the delivery log),
-- both claimed by workers through next_attempt_at (a lease). Webhook
-- endpoints and the host's contact address are per organisation.
CREATE TABLE outbox_events (
    id              INTEGER PRIMARY KEY,
    key             TEXT    NOT NULL UNIQUE,
    kind            TEXT    NOT NULL,
    org_id          INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    booking_id      INTEGER REFERENCES bookings (id) ON DELETE CASCADE,
    entry_id        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    dispatched_at   INTEGER,
    created_at      INTEGER NOT NULL
) STRICT;

CREATE INDEX outbox_events_due ON outbox_events (next_attempt_at) WHERE dispatched_at IS NULL;

CREATE TABLE webhook_endpoints (
    id          INTEGER PRIMARY KEY,
    org_id      INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    url         TEXT    NOT NULL,
    secret      TEXT    NOT NULL,
    event_types TEXT    NOT NULL DEFAULT '',
    active      INTEGER NOT NULL,
    failures    INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
) STRICT;

CREATE INDEX webhook_endpoints_org ON webhook_endpoints (org_id, id);

CREATE TABLE outbox_deliveries (
    id              INTEGER PRIMARY KEY,
    event_id        INTEGER NOT NULL REFERENCES outbox_events (id) ON DELETE CASCADE,
    target          TEXT    NOT NULL,
    channel         TEXT    NOT NULL,
    recipient       TEXT    NOT NULL DEFAULT '',
    endpoint_id     INTEGER REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    status          TEXT    NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT    NOT NULL DEFAULT '',
    response_code   INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    delivered_at    INTEGER,
    UNIQUE (event_id, target)
) STRICT;

CREATE INDEX outbox_deliveries_due ON outbox_deliveries (status, next_attempt_at);
CREATE INDEX outbox_deliveries_endpoint ON outbox_deliveries (endpoint_id, id);

CREATE TABLE organization_contacts (
    org_id INTEGER PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    email  TEXT    NOT NULL
) STRICT;
