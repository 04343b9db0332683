-- Units and linked listings (issue #27, package units).
--
-- A property sells N identical units (studios, mobile homes, rooms of a
-- type); a booking holds one of them for the whole stay, chosen by
-- CreateBooking inside its write transaction. Every existing property
-- gets one unit, named "1", and its bookings, its iCal feeds and their
-- imported blocks that unit, so that nothing changes for existing data.
-- A retired unit (retired_at set) is sold no more but keeps its stays.
CREATE TABLE units (
    id          INTEGER PRIMARY KEY,
    property_id INTEGER NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    position    INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL DEFAULT 0,
    retired_at  INTEGER
) STRICT;

CREATE INDEX units_property ON units (property_id, position, id);

INSERT INTO units (property_id, name, position) SELECT id, '1', 1 FROM properties;

-- bookings.unit_id is set on every row: by CreateBooking, and for a row
-- inserted without one (an import, a script) by bookings_default_unit.
ALTER TABLE bookings ADD COLUMN unit_id INTEGER REFERENCES units (id);
UPDATE bookings SET unit_id = (SELECT u.id FROM units u WHERE u.property_id = bookings.property_id);
-- Overlap checks per unit.
CREATE INDEX bookings_unit ON bookings (unit_id, check_in);

CREATE TRIGGER bookings_default_unit AFTER INSERT ON bookings WHEN NEW.unit_id IS NULL
BEGIN
    UPDATE bookings SET unit_id = (SELECT u.id FROM units u
        WHERE u.property_id = NEW.property_id AND u.retired_at IS NULL ORDER BY u.position, u.id LIMIT 1)
    WHERE id = NEW.id;
END;

-- A block takes one unit (unit_id) or every unit of its property (NULL):
-- host blocks made before units take the whole property, as they did.
ALTER TABLE blocks ADD COLUMN unit_id INTEGER REFERENCES units (id);

-- A feed belongs to a unit: its events block that unit.
ALTER TABLE ical_feeds ADD COLUMN unit_id INTEGER REFERENCES units (id);
UPDATE ical_feeds SET unit_id = (SELECT u.id FROM units u WHERE u.property_id = ical_feeds.property_id);
UPDATE blocks SET unit_id = (SELECT f.unit_id FROM ical_feeds f WHERE f.id = blocks.feed_id)
    WHERE feed_id IS NOT NULL;

-- Linked listings: a property let whole (the villa) is made of others
-- (its rooms). A part belongs to one whole at most, and neither is
-- itself linked the other way (package units checks it): a hold on the
-- whole takes every unit of its parts, a hold on a part every unit of the
-- whole.
CREATE TABLE property_links (
    part_id    INTEGER PRIMARY KEY REFERENCES properties (id) ON DELETE CASCADE,
    whole_id   INTEGER NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    CHECK (part_id <> whole_id)
) STRICT;

CREATE INDEX property_links_whole ON property_links (whole_id);
