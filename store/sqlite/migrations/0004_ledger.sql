-- The payments ledger (package ledger): every capture, release, refund and
-- dispute of a booking. key is the idempotency key sent to the provider;
-- UNIQUE makes writing an entry twice store it once. Pending entries are
-- claimed by the worker through next_attempt_at (a lease).
CREATE TABLE ledger_entries (
    id              INTEGER PRIMARY KEY,
    booking_id      INTEGER NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL,
    intent_id       TEXT    NOT NULL DEFAULT '',
    amount          INTEGER NOT NULL DEFAULT 0,
    currency        TEXT    NOT NULL DEFAULT '',
    key             TEXT    NOT NULL UNIQUE,
    reason          TEXT    NOT NULL DEFAULT '',
    status          TEXT    NOT NULL,
    provider_id     TEXT    NOT NULL DEFAULT '',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT    NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
) STRICT;

CREATE INDEX ledger_entries_booking ON ledger_entries (booking_id, id);
CREATE INDEX ledger_entries_due ON ledger_entries (status, next_attempt_at);
CREATE INDEX ledger_entries_provider ON ledger_entries (provider_id) WHERE provider_id <> '';
