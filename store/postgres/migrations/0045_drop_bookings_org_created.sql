-- bookings_org_created (org_id, created_at DESC, id DESC) served one
-- query, Bookings: all of an organisation's bookings (or those of some
-- statuses), newest first. That query reads every row it returns either
-- way, and sorting them costs it little; the index cost every booking
-- written one more B-tree to update (issue #31). Bookings now reads
-- bookings_org_id or bookings_org_status and sorts.
DROP INDEX bookings_org_created;
