-- A webhook endpoint counts its failed attempts in a row since
-- failing_since, and is paused (paused_at) when they fail too long
-- (outbox.PauseFailures over outbox.PauseSpan); failures counted failed
-- deliveries before: it restarts from zero.
ALTER TABLE webhook_endpoints ADD COLUMN failing_since INTEGER;
ALTER TABLE webhook_endpoints ADD COLUMN paused_at INTEGER;
UPDATE webhook_endpoints SET failures = 0;
CREATE INDEX outbox_deliveries_endpoint_status ON outbox_deliveries (endpoint_id, status, updated_at);
