-- What guests say of their stay (package review): one review per booking,
-- published on its property by the host (published_at, NULL while not).
-- Deleted with the booking or its guest's erasure.
CREATE TABLE reviews (
    id           INTEGER PRIMARY KEY,
    org_id       INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    property_id  INTEGER NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    booking_id   INTEGER NOT NULL UNIQUE REFERENCES bookings (id) ON DELETE CASCADE,
    rating       INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    comment      TEXT    NOT NULL,
    author       TEXT    NOT NULL,
    locale       TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    published_at INTEGER
) STRICT;

CREATE INDEX reviews_org ON reviews (org_id, id);
CREATE INDEX reviews_property_published ON reviews (property_id, id) WHERE published_at IS NOT NULL;
