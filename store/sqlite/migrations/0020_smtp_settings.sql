-- An organisation's own SMTP server (package mailsettings). The password
-- is sealed (AES-256-GCM under the server's secrets key), never in clear;
-- empty when none.
CREATE TABLE smtp_settings (
    org_id          INTEGER PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    host            TEXT    NOT NULL,
    port            INTEGER NOT NULL,
    tls             TEXT    NOT NULL,
    username        TEXT    NOT NULL DEFAULT '',
    password_sealed BLOB    NOT NULL DEFAULT x'',
    from_address    TEXT    NOT NULL,
    updated_at      INTEGER NOT NULL
) STRICT;

-- The guest's e-mail of a booking's latest event (resend).
CREATE INDEX outbox_events_booking ON outbox_events (booking_id, id);
