-- An organisation's own SMTP server (package mailsettings). The password
-- is sealed (AES-256-GCM under the server's secrets key), never in clear;
-- empty when none.
CREATE TABLE smtp_settings (
    org_id          bigint      PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    host            text        NOT NULL,
    port            integer     NOT NULL,
    tls             text        NOT NULL,
    username        text        NOT NULL DEFAULT '',
    password_sealed bytea       NOT NULL DEFAULT '\x',
    from_address    text        NOT NULL,
    updated_at      timestamptz NOT NULL
);

-- The guest's e-mail of a booking's latest event (resend).
CREATE INDEX outbox_events_booking ON outbox_events (booking_id, id);
