-- The plants table. IF NOT EXISTS: databases created before the plant store
-- had its own persistence got this very table from store/postgres's first
-- migration; the plant store adopts it as it is.
CREATE TABLE IF NOT EXISTS plants (
    id   bigint PRIMARY KEY,
    name text   NOT NULL,
    tag  text   NOT NULL DEFAULT ''
);
