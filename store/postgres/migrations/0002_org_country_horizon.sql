-- Organisations get a country (ISO 3166-1 alpha-2: guests' national phone
-- numbers are read as numbers of it) and a booking horizon (how many days
-- after today a stay may end). Existing organisations get the defaults.
ALTER TABLE organizations
    ADD COLUMN country text NOT NULL DEFAULT 'FR',
    ADD COLUMN booking_horizon_days integer NOT NULL DEFAULT 730;
