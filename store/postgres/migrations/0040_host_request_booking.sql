-- The booking whose guest a host request's kept answer may show (issue
-- #29): the guest's erasure erases the answer (body NULL, erased true) in
-- its transaction, and a retry of the request is then refused, not
-- replayed.
ALTER TABLE host_requests ADD COLUMN booking_id bigint;
ALTER TABLE host_requests ADD COLUMN erased boolean NOT NULL DEFAULT false;

CREATE INDEX host_requests_booking ON host_requests (booking_id) WHERE booking_id IS NOT NULL;
