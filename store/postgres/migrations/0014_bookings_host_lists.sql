-- The host's bookings list filtered by status or by property, newest first
-- after a keyset cursor: indexes in the order of the list, so that a page
-- reads a page of rows whatever the statistics (issue #31). A list of
-- several statuses reads one page down each status and merges them.
CREATE INDEX bookings_org_status ON bookings (org_id, status, id DESC);
CREATE INDEX bookings_property_id ON bookings (property_id, id DESC);
