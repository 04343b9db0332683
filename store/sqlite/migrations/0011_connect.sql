-- Stripe Connect: each organisation's connected account (its onboarding
-- state, whether it takes charges, the platform's fee on its charges), and
-- the account each booking's intents were created on, recorded once at
-- checkout so that an organisation changing account does not move its past
-- bookings' money.
CREATE TABLE payment_accounts (
    org_id          INTEGER PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    account_id      TEXT    NOT NULL DEFAULT '',
    state           TEXT    NOT NULL,
    charges_enabled INTEGER NOT NULL DEFAULT 0,
    fee_percent     TEXT    NOT NULL DEFAULT '0',
    fee_fixed       INTEGER NOT NULL DEFAULT 0,
    updated_at      INTEGER NOT NULL
) STRICT;

CREATE UNIQUE INDEX payment_accounts_account ON payment_accounts (account_id) WHERE account_id <> '';

CREATE TABLE booking_payment_accounts (
    booking_id INTEGER PRIMARY KEY REFERENCES bookings (id) ON DELETE CASCADE,
    account_id TEXT    NOT NULL
) STRICT;
