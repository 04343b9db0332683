-- The host's private notes on a booking (package notes): written once,
-- never changed; deleted with the booking or its guest's erasure.
CREATE TABLE booking_notes (
    id         INTEGER PRIMARY KEY,
    booking_id INTEGER NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
    author     TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX booking_notes_booking ON booking_notes (booking_id, id);
