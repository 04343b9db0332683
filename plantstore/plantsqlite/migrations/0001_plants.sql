-- The plants table. IF NOT EXISTS: databases created before the plant store
-- had its own persistence got this very table from store/sqlite's first
-- migration; the plant store adopts it as it is.
CREATE TABLE IF NOT EXISTS plants (
    id   INTEGER PRIMARY KEY,
    name TEXT    NOT NULL,
    tag  TEXT    NOT NULL DEFAULT ''
) STRICT;
