-- The host API lists an organisation's bookings newest first by ID, a page
-- at a time after a keyset cursor (id < cursor): an index on (org_id, id)
-- serves it without sorting the organisation's bookings.
CREATE INDEX bookings_org_id ON bookings (org_id, id DESC);
