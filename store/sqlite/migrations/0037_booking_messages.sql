-- The messages between a booking's guest and its host (package
-- conversation): written once, never changed; deleted with the booking or
-- its guest's erasure. idem_key is the guest's Idempotency-Key ('' for
-- none): a retry with it stores nothing twice.
CREATE TABLE booking_messages (
    id         INTEGER PRIMARY KEY,
    booking_id INTEGER NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
    sender     TEXT    NOT NULL CHECK (sender IN ('guest', 'host')),
    author     TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    idem_key   TEXT    NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX booking_messages_booking ON booking_messages (booking_id, id);
CREATE UNIQUE INDEX booking_messages_key ON booking_messages (booking_id, idem_key) WHERE idem_key <> '';
