-- Overlap checks (checkout's transaction, Occupied, Holds) ask for a
-- property's bookings ending after a date: with this index they read only
-- the bookings still to come, not every past stay of the property.
CREATE INDEX bookings_property_checkout ON bookings (property_id, check_out);
