-- Per-day settings of a property (issue #16): a price override, a closed
-- night, stay limits for a check-in that day, closed to arrival or to
-- departure. One row per property and date; a date without a row sets
-- nothing. price is the decimal's exact text, NULL when not set.
CREATE TABLE calendar_days (
    property_id         INTEGER NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    day                 TEXT    NOT NULL,
    price               TEXT,
    closed              INTEGER NOT NULL DEFAULT 0,
    min_stay_nights     INTEGER,
    max_stay_nights     INTEGER,
    closed_to_arrival   INTEGER NOT NULL DEFAULT 0,
    closed_to_departure INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (property_id, day)
) STRICT;
