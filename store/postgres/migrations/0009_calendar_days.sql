-- Per-day settings of a property (issue #16): a price override, a closed
-- night, stay limits for a check-in that day, closed to arrival or to
-- departure. One row per property and date; a date without a row sets
-- nothing. price is the decimal's exact text, NULL when not set.
CREATE TABLE calendar_days (
    property_id         bigint  NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    day                 date    NOT NULL,
    price               text,
    closed              boolean NOT NULL DEFAULT false,
    min_stay_nights     integer,
    max_stay_nights     integer,
    closed_to_arrival   boolean NOT NULL DEFAULT false,
    closed_to_departure boolean NOT NULL DEFAULT false,
    PRIMARY KEY (property_id, day)
);
