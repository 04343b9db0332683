-- Organisations get a country (ISO 3166-1 alpha-2: guests' national phone
-- numbers are read as numbers of it) and a booking horizon (how many days
-- after today a stay may end). Existing organisations get the defaults.
ALTER TABLE organizations ADD COLUMN country TEXT NOT NULL DEFAULT 'FR';
ALTER TABLE organizations ADD COLUMN booking_horizon_days INTEGER NOT NULL DEFAULT 730;
