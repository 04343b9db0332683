-- staykit schema, version 1.
--
-- Conventions: tables are STRICT so a value of the wrong type is refused
-- rather than silently stored; money is decimal TEXT (never REAL); civil
-- dates are 'YYYY-MM-DD' TEXT, so string comparison orders them; instants
-- are INTEGER unix milliseconds UTC, NULL when unset; structured settings
-- (rates, fees, tax, quote, lists, maps) are JSON TEXT.

CREATE TABLE organizations (
    id                    INTEGER PRIMARY KEY,
    slug                  TEXT    NOT NULL UNIQUE,
    name                  TEXT    NOT NULL,
    logo                  TEXT    NOT NULL DEFAULT '',
    payment_mode          TEXT    NOT NULL,
    default_locale        TEXT    NOT NULL,
    branding              TEXT    NOT NULL DEFAULT 'null',
    terms_url             TEXT    NOT NULL DEFAULT '',
    min_stay_nights       INTEGER,
    max_stay_nights       INTEGER,
    currency              TEXT    NOT NULL,
    timezone              TEXT    NOT NULL,
    deposit_percent       TEXT    NOT NULL DEFAULT '0',
    balance_due_days      INTEGER NOT NULL DEFAULT 0,
    hold_minutes          INTEGER NOT NULL DEFAULT 0,
    request_hold_hours    INTEGER NOT NULL DEFAULT 0,
    custom_domain         TEXT    NOT NULL DEFAULT '',
    allowed_origins       TEXT    NOT NULL DEFAULT 'null',
    public_engine_enabled INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE properties (
    id              INTEGER PRIMARY KEY,
    org_id          INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name            TEXT    NOT NULL,
    description     TEXT    NOT NULL DEFAULT '',
    photos          TEXT    NOT NULL DEFAULT 'null',
    city            TEXT    NOT NULL DEFAULT '',
    country         TEXT    NOT NULL DEFAULT '',
    max_guests      INTEGER NOT NULL,
    bedrooms        INTEGER NOT NULL DEFAULT 0,
    min_stay_nights INTEGER,
    max_stay_nights INTEGER,
    active          INTEGER NOT NULL DEFAULT 0,
    rates           TEXT    NOT NULL,
    fees            TEXT    NOT NULL,
    tax             TEXT    NOT NULL
) STRICT;

CREATE INDEX properties_org ON properties (org_id, id);

CREATE TABLE blocks (
    id          INTEGER PRIMARY KEY,
    property_id INTEGER NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    start_date  TEXT    NOT NULL,
    end_date    TEXT    NOT NULL,
    reason      TEXT    NOT NULL DEFAULT '',
    CHECK (start_date < end_date)
) STRICT;

CREATE INDEX blocks_property ON blocks (property_id, start_date);

CREATE TABLE coupons (
    id              INTEGER PRIMARY KEY,
    org_id          INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    -- code is normalised (trimmed, upper case) before it is stored.
    code            TEXT    NOT NULL,
    label           TEXT    NOT NULL DEFAULT '',
    kind            TEXT    NOT NULL,
    value           TEXT    NOT NULL,
    active          INTEGER NOT NULL DEFAULT 0,
    valid_from      TEXT,
    valid_until     TEXT,
    stay_from       TEXT,
    stay_until      TEXT,
    min_nights      INTEGER NOT NULL DEFAULT 0,
    min_amount      TEXT    NOT NULL DEFAULT '0',
    max_redemptions INTEGER NOT NULL DEFAULT 0,
    property_ids    TEXT    NOT NULL DEFAULT 'null',
    UNIQUE (org_id, code)
) STRICT;

CREATE TABLE bookings (
    id                INTEGER PRIMARY KEY,
    org_id            INTEGER NOT NULL REFERENCES organizations (id),
    property_id       INTEGER NOT NULL REFERENCES properties (id),
    token             TEXT    NOT NULL UNIQUE,
    status            TEXT    NOT NULL,
    check_in          TEXT    NOT NULL,
    check_out         TEXT    NOT NULL,
    guests            INTEGER NOT NULL,
    guest_name        TEXT    NOT NULL DEFAULT '',
    guest_email       TEXT    NOT NULL DEFAULT '',
    guest_phone       TEXT    NOT NULL DEFAULT '',
    message           TEXT    NOT NULL DEFAULT '',
    locale            TEXT    NOT NULL DEFAULT '',
    coupon_id         INTEGER REFERENCES coupons (id),
    coupon_code       TEXT    NOT NULL DEFAULT '',
    currency          TEXT    NOT NULL,
    payment_mode      TEXT    NOT NULL,
    total_amount      TEXT    NOT NULL,
    charge_amount     TEXT    NOT NULL,
    paid_amount       TEXT    NOT NULL,
    balance_amount    TEXT    NOT NULL,
    balance_due_date  TEXT,
    quote             TEXT    NOT NULL,
    payment_intent_id TEXT,
    client_secret     TEXT    NOT NULL DEFAULT '',
    created_at        INTEGER NOT NULL,
    expires_at        INTEGER,
    confirmed_at      INTEGER,
    updated_at        INTEGER NOT NULL,
    CHECK (check_in < check_out)
) STRICT;

-- Overlap checks: the bookings of a property by status and arrival.
CREATE INDEX bookings_property_status ON bookings (property_id, status, check_in);
CREATE INDEX bookings_payment_intent ON bookings (payment_intent_id);
-- Bookings(orgID): newest first.
CREATE INDEX bookings_org_created ON bookings (org_id, created_at DESC, id DESC);
-- LapsedHolds: pending and requested holds by expiry.
CREATE INDEX bookings_status_expires ON bookings (status, expires_at);
-- Coupon redemption counts.
CREATE INDEX bookings_coupon ON bookings (coupon_id, status);

CREATE TABLE idempotency_keys (
    org_id       INTEGER NOT NULL,
    scope        TEXT    NOT NULL,
    key          TEXT    NOT NULL,
    request_hash TEXT    NOT NULL DEFAULT '',
    -- booking_id is NULL when the request created no booking.
    booking_id   INTEGER REFERENCES bookings (id) ON DELETE CASCADE,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (org_id, scope, key)
) STRICT;

-- Lets the cascade from bookings find a booking's records.
CREATE INDEX idempotency_keys_booking ON idempotency_keys (booking_id);

CREATE TABLE payment_events (
    event_id     TEXT    PRIMARY KEY,
    processed_at INTEGER NOT NULL
) STRICT;
