-- Invoices that follow a change of stay (package invoice, issues #28
-- and #29). An invoice shows the stay of one revision of its booking:
-- the ID of the latest date change (package datechange) applied to it
-- when the invoice was made, 0 for the stay as booked. When a newer
-- change applies, the invoice is cancelled by a credit note of its full
-- amount (kind credit_note, no ledger entry, the same revision) and a
-- replacement invoice is issued for the new revision. A booking has one
-- invoice per revision and each invoice at most one such cancellation;
-- a credit note for a refund keeps its ledger entry.
ALTER TABLE invoices ADD COLUMN revision bigint NOT NULL DEFAULT 0 CHECK (revision >= 0);
ALTER TABLE invoices DROP CONSTRAINT invoices_check;
ALTER TABLE invoices ADD CONSTRAINT invoices_refund_only_credit_note CHECK (kind = 'credit_note' OR ledger_entry_id IS NULL);

DROP INDEX invoices_one_per_booking;
CREATE UNIQUE INDEX invoices_one_per_revision ON invoices (booking_id, revision) WHERE kind = 'invoice';
CREATE UNIQUE INDEX invoices_one_cancellation ON invoices (booking_id, revision) WHERE kind = 'credit_note' AND ledger_entry_id IS NULL;
