-- Team (issue #26): a dashboard user belongs to one or more organisations,
-- each with a role; an owner invites people by e-mail (only the SHA-256 of
-- the invitation's token is kept). Every existing user becomes an owner
-- of their organisation.
CREATE TABLE host_memberships (
    org_id     INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES host_users (id) ON DELETE CASCADE,
    role       TEXT    NOT NULL CHECK (role IN ('owner', 'manager', 'housekeeping')),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (org_id, user_id)
) STRICT;

CREATE INDEX host_memberships_user ON host_memberships (user_id);

INSERT INTO host_memberships (org_id, user_id, role, created_at)
SELECT org_id, id, 'owner', created_at FROM host_users;

CREATE TABLE host_invitations (
    id          INTEGER PRIMARY KEY,
    org_id      INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email       TEXT    NOT NULL,
    role        TEXT    NOT NULL CHECK (role IN ('owner', 'manager', 'housekeeping')),
    hash        TEXT    NOT NULL UNIQUE,
    invited_by  TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    accepted_at INTEGER,
    revoked_at  INTEGER
) STRICT;

CREATE INDEX host_invitations_org ON host_invitations (org_id, id);
