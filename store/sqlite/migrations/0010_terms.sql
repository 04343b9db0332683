-- Cancellation and security deposit settings per organisation
-- (property_id 0) or property, and each booking's terms: the policy copied
-- at checkout and where its balance and security deposit stand. Both are
-- JSON documents of package booking; terms carry a version for optimistic
-- concurrency.
CREATE TABLE booking_settings (
    org_id      INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    property_id INTEGER NOT NULL DEFAULT 0,
    data        TEXT    NOT NULL,
    PRIMARY KEY (org_id, property_id)
) STRICT;

CREATE TABLE booking_terms (
    booking_id INTEGER PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    data       TEXT    NOT NULL
) STRICT;
