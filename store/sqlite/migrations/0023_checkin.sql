-- A booking's online check-in (package checkin): the identity data of its
-- guests, apart from the booking, one row per booking. Deleted with the
-- booking, with its guest's erasure, and by the retention job once the
-- keeping period of its country has passed.
CREATE TABLE booking_checkins (
    booking_id   INTEGER PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
    country      TEXT    NOT NULL,
    guests       TEXT    NOT NULL,
    updated_by   TEXT    NOT NULL,
    updated_at   INTEGER NOT NULL,
    submitted_at INTEGER
) STRICT;

CREATE INDEX booking_checkins_country ON booking_checkins (country, booking_id);
