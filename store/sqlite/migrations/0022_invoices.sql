-- Invoices and credit notes (package invoice, issue #29): one unbroken
-- sequence of numbers per organisation, kept by a counter row that the
-- issuing transaction updates (it serialises the issuers), and checked by
-- UNIQUE (org_id, number). A booking has one invoice, a refund one credit
-- note. The snapshot is what was invoiced, never changed; the buyer's
-- name and address stand apart so that an erasure can anonymise them.
CREATE TABLE invoice_counters (
    org_id      INTEGER PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    last_number INTEGER NOT NULL,
    -- last_issued_at is the latest issue time: an invoice is never dated
    -- before the one numbered before it.
    last_issued_at INTEGER NOT NULL
) STRICT;

CREATE TABLE invoices (
    id              INTEGER PRIMARY KEY,
    org_id          INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    booking_id      INTEGER NOT NULL REFERENCES bookings (id),
    kind            TEXT    NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
    number          INTEGER NOT NULL CHECK (number > 0),
    ledger_entry_id INTEGER REFERENCES ledger_entries (id),
    currency        TEXT    NOT NULL,
    total           TEXT    NOT NULL,
    buyer_name      TEXT    NOT NULL,
    buyer_address   TEXT    NOT NULL,
    snapshot        TEXT    NOT NULL,
    issued_at       INTEGER NOT NULL,
    UNIQUE (org_id, number),
    CHECK ((kind = 'invoice') = (ledger_entry_id IS NULL))
) STRICT;

CREATE UNIQUE INDEX invoices_one_per_booking ON invoices (booking_id) WHERE kind = 'invoice';
CREATE UNIQUE INDEX invoices_one_per_refund ON invoices (ledger_entry_id) WHERE ledger_entry_id IS NOT NULL;
CREATE INDEX invoices_booking ON invoices (booking_id, number);

-- The seller's details an invoice shows (legal name, address, VAT id).
CREATE TABLE invoice_sellers (
    org_id     INTEGER PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    legal_name TEXT NOT NULL,
    address    TEXT NOT NULL,
    vat_id     TEXT NOT NULL,
    legal_form TEXT NOT NULL
) STRICT;

-- Where a property is, for the tourist tax declared per commune
-- (package reports): its postal code and its municipality's official
-- code (the INSEE code in France); '' when unknown.
ALTER TABLE properties ADD COLUMN postal_code TEXT NOT NULL DEFAULT '';
ALTER TABLE properties ADD COLUMN municipality_code TEXT NOT NULL DEFAULT '';
