-- Invoices that follow a change of stay (package invoice, issues #28
-- and #29). An invoice shows the stay of one revision of its booking:
-- the ID of the latest date change (package datechange) applied to it
-- when the invoice was made, 0 for the stay as booked. When a newer
-- change applies, the invoice is cancelled by a credit note of its full
-- amount (kind credit_note, no ledger entry, the same revision) and a
-- replacement invoice is issued for the new revision. A booking has one
-- invoice per revision and each invoice at most one such cancellation;
-- a credit note for a refund keeps its ledger entry. SQLite cannot
-- change a CHECK constraint: the table is rebuilt with its rows.
CREATE TABLE invoices_new (
    id              INTEGER PRIMARY KEY,
    org_id          INTEGER NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    booking_id      INTEGER NOT NULL REFERENCES bookings (id),
    kind            TEXT    NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
    number          INTEGER NOT NULL CHECK (number > 0),
    ledger_entry_id INTEGER REFERENCES ledger_entries (id),
    revision        INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0),
    currency        TEXT    NOT NULL,
    total           TEXT    NOT NULL,
    buyer_name      TEXT    NOT NULL,
    buyer_address   TEXT    NOT NULL,
    snapshot        TEXT    NOT NULL,
    issued_at       INTEGER NOT NULL,
    UNIQUE (org_id, number),
    CHECK (kind = 'credit_note' OR ledger_entry_id IS NULL)
) STRICT;

INSERT INTO invoices_new (id, org_id, booking_id, kind, number, ledger_entry_id, revision, currency, total,
    buyer_name, buyer_address, snapshot, issued_at)
SELECT id, org_id, booking_id, kind, number, ledger_entry_id, 0, currency, total,
    buyer_name, buyer_address, snapshot, issued_at FROM invoices;

DROP TABLE invoices;
ALTER TABLE invoices_new RENAME TO invoices;

CREATE UNIQUE INDEX invoices_one_per_revision ON invoices (booking_id, revision) WHERE kind = 'invoice';
CREATE UNIQUE INDEX invoices_one_cancellation ON invoices (booking_id, revision) WHERE kind = 'credit_note' AND ledger_entry_id IS NULL;
CREATE UNIQUE INDEX invoices_one_per_refund ON invoices (ledger_entry_id) WHERE ledger_entry_id IS NOT NULL;
CREATE INDEX invoices_booking ON invoices (booking_id, number);
