-- A booking's online check-in (package checkin): the identity data of its
-- guests, apart from the booking, one row per booking. Deleted with the
-- booking, with its guest's erasure, and by the retention job once the
-- keeping period of its country has passed.
CREATE TABLE booking_checkins (
    booking_id   bigint      PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
    country      text        NOT NULL,
    guests       jsonb       NOT NULL,
    updated_by   text        NOT NULL,
    updated_at   timestamptz NOT NULL,
    submitted_at timestamptz
);

CREATE INDEX booking_checkins_country ON booking_checkins (country, booking_id);
