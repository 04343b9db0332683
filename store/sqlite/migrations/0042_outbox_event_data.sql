-- What an event tells beyond its booking as it is when sent, fixed when the
-- event is written in the transaction of the change it tells about (a date
-- change's old and new stay and amounts, issue #28): JSON, '' for most
-- kinds.
ALTER TABLE outbox_events ADD COLUMN data TEXT NOT NULL DEFAULT '';
