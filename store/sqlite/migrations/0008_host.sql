-- The host side (issue #13): API keys (only the SHA-256 of the secret is
-- kept), the audit log of host changes, and the records that make host
-- POST requests idempotent (the response is kept and replayed).
CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY,
    org_id       INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    prefix       TEXT    NOT NULL,
    hash         TEXT    NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
) STRICT;

CREATE INDEX api_keys_org ON api_keys (org_id, id);

CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY,
    org_id     INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    actor      TEXT    NOT NULL,
    actor_name TEXT    NOT NULL DEFAULT '',
    action     TEXT    NOT NULL,
    target     TEXT    NOT NULL DEFAULT '',
    before     TEXT    NOT NULL DEFAULT 'null',
    after      TEXT    NOT NULL DEFAULT 'null',
    at         INTEGER NOT NULL
) STRICT;

CREATE INDEX audit_log_org ON audit_log (org_id, id);

CREATE TABLE host_requests (
    org_id       INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    key          TEXT    NOT NULL,
    request_hash TEXT    NOT NULL,
    status       INTEGER NOT NULL DEFAULT 0,
    body         BLOB,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (org_id, key)
) STRICT;

-- Dashboard users of an organisation (password: an argon2id PHC string)
-- and their server-side sessions (only the SHA-256 of the cookie's token).
CREATE TABLE host_users (
    id            INTEGER PRIMARY KEY,
    org_id        INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email         TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    created_at    INTEGER NOT NULL
) STRICT;

CREATE TABLE host_sessions (
    hash       TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES host_users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;

CREATE INDEX host_sessions_expiry ON host_sessions (expires_at);
