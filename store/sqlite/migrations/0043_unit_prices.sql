-- Units priced on their own (issue #27): a unit's price of a night wins
-- over its property's (rate plan and calendar) for stays on that unit. A
-- checkout is priced as the cheapest free unit and kept to the units
-- priced alike (booking.DateGuard.Units).
CREATE TABLE unit_prices (
    unit_id INTEGER NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    day     TEXT    NOT NULL,
    price   TEXT    NOT NULL,
    PRIMARY KEY (unit_id, day)
) STRICT, WITHOUT ROWID;

-- has_prices says whether the unit has a row in unit_prices: it travels
-- with the property's units (booking.Unit.Priced), so that a property
-- none of whose units is priced costs no read of unit_prices.
ALTER TABLE units ADD COLUMN has_prices INTEGER NOT NULL DEFAULT 0;
