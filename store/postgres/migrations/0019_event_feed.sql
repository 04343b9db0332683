-- The event feed (package eventfeed): events are read per organisation
-- in id order, and a receiver acknowledges what it processed.
ALTER TABLE outbox_events ADD COLUMN acked_at timestamptz;
CREATE INDEX outbox_events_feed ON outbox_events (org_id, id);
CREATE INDEX outbox_deliveries_endpoint_event ON outbox_deliveries (endpoint_id, event_id);
