package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ invoice.Store = (*DB)(nil)

// IssueInvoice stores a document with its organisation's next number, or
// returns the one its booking or refund has (invoice.Store):
// the organisation's counter row, locked first, serialises its issuers.
func (db *DB) IssueInvoice(ctx context.Context, inv *invoice.Invoice) (*invoice.Invoice, bool, error) {
	snapshot, err := json.Marshal(inv.Snapshot)
	if err != nil {
		return nil, false, fmt.Errorf("issue invoice: %w", err)
	}
	var (
		stored  *invoice.Invoice
		created bool
	)
	err = db.tx(ctx, "issue invoice", func(q querier) error {
		if ok, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM bookings WHERE id = $1 AND org_id = $2`, inv.BookingID, inv.OrgID); err != nil {
			return err
		} else if !ok {
			return bookingNotFound()
		}
		if inv.LedgerEntryID != 0 {
			if ok, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM ledger_entries WHERE id = $1 AND booking_id = $2`, inv.LedgerEntryID, inv.BookingID); err != nil {
				return err
			} else if !ok {
				return booking.Errorf(booking.CodeNotFound, "Ledger entry not found.")
			}
		}
		// The counter's row lock serialises the organisation's issuers on
		// every replica; once it is held, a document issued meanwhile is
		// committed and seen by the check below (READ COMMITTED reads
		// anew at each statement).
		if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO invoice_counters (org_id, last_number, last_issued_at)
			VALUES ($1, 0, $2) ON CONFLICT (org_id) DO NOTHING`, inv.OrgID, instant(inv.IssuedAt)); err != nil {
			return err
		}
		if err := sqlflow.Exec(ctx, q, nil, `SELECT 1 FROM invoice_counters WHERE org_id = $1 FOR UPDATE`, inv.OrgID); err != nil {
			return err
		}
		if stored, err = existingInvoice(ctx, q, inv); err != nil || stored != nil {
			return err
		}
		counter, err := sqlflow.One(ctx, q, scanCounter, nil, `UPDATE invoice_counters SET last_number = last_number + 1,
			last_issued_at = GREATEST(last_issued_at, $2) WHERE org_id = $1 RETURNING last_number, last_issued_at`,
			inv.OrgID, instant(inv.IssuedAt))
		if err != nil {
			return err
		}
		inv.Number, inv.IssuedAt = counter.number, counter.at.UTC()
		inv.ID, err = sqlflow.Value[int64](ctx, q, nil, `INSERT INTO invoices (org_id, booking_id, kind, number, ledger_entry_id, revision,
			currency, total, buyer_name, buyer_address, snapshot, issued_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
			inv.OrgID, inv.BookingID, string(inv.Kind), inv.Number, rowmap.NullID(inv.LedgerEntryID), inv.Revision, inv.Currency,
			inv.Total, inv.Snapshot.Buyer.Name, inv.Snapshot.Buyer.Address, snapshot, instant(inv.IssuedAt))
		created = err == nil
		return err
	})
	if err != nil {
		return nil, false, err
	}
	if stored == nil {
		c := *inv
		stored = &c
	}
	return stored, created, nil
}

// existingInvoice is the document inv stands for that is stored already,
// or nil (invoice.Store.IssueInvoice): for an invoice, the booking's
// invoice of its revision or else its live one (a booking has at most
// one); for a refund's credit note, the refund's; for a cancellation, the
// one of the booking's invoice of its revision, which must exist.
func existingInvoice(ctx context.Context, q querier, inv *invoice.Invoice) (*invoice.Invoice, error) {
	switch {
	case inv.Kind == invoice.KindInvoice:
		return sqlflow.One(ctx, q, rowmap.ScanInvoice, nil, `SELECT `+rowmap.InvoiceColumns+` FROM invoices i
			WHERE i.booking_id = $1 AND i.kind = 'invoice' AND (i.revision = $2 OR NOT EXISTS (`+cancellationOf+`))
			ORDER BY i.revision = $2 DESC, i.number DESC LIMIT 1`, inv.BookingID, inv.Revision)
	case inv.LedgerEntryID != 0:
		return sqlflow.One(ctx, q, rowmap.ScanInvoice, nil, `SELECT `+rowmap.InvoiceColumns+` FROM invoices
			WHERE ledger_entry_id = $1`, inv.LedgerEntryID)
	}
	if ok, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM invoices WHERE booking_id = $1 AND kind = 'invoice' AND revision = $2`,
		inv.BookingID, inv.Revision); err != nil {
		return nil, err
	} else if !ok {
		return nil, rowmap.InvoiceNotFound()
	}
	return sqlflow.One(ctx, q, rowmap.ScanInvoice, nil, `SELECT `+rowmap.InvoiceColumns+` FROM invoices
		WHERE booking_id = $1 AND kind = 'credit_note' AND ledger_entry_id IS NULL AND revision = $2`, inv.BookingID, inv.Revision)
}

// cancellationOf finds the cancellation of the invoice aliased i.
const cancellationOf = `SELECT 1 FROM invoices x WHERE x.booking_id = i.booking_id AND x.kind = 'credit_note'
	AND x.ledger_entry_id IS NULL AND x.revision = i.revision`

// changedSince finds a date change of i's booking applied after the
// revision of the invoice aliased i.
const changedSince = `SELECT 1 FROM date_changes c WHERE c.booking_id = i.booking_id AND c.status = 'applied' AND c.id > i.revision`

// StayRevision is the ID of the latest date change applied to a booking,
// 0 without one (invoice.Store).
func (db *DB) StayRevision(ctx context.Context, bookingID int64) (int64, error) {
	return sqlflow.Get(ctx, db.run, "stay revision", func(q querier) (int64, error) {
		return sqlflow.Value[int64](ctx, q, nil, `SELECT COALESCE(MAX(id), 0) FROM date_changes
			WHERE booking_id = $1 AND status = 'applied'`, bookingID)
	})
}

// Invoices lists an organisation's documents by number (invoice.Store).
func (db *DB) Invoices(ctx context.Context, orgID, after int64, limit int) ([]invoice.Invoice, error) {
	return sqlflow.Get(ctx, db.run, "invoices", func(q querier) ([]invoice.Invoice, error) {
		return sqlflow.All(ctx, q, rowmap.ScanInvoice, `SELECT `+rowmap.InvoiceColumns+` FROM invoices
			WHERE org_id = $1 AND number > $2 ORDER BY number LIMIT $3`, orgID, after, limit)
	})
}

// BookingInvoices lists a booking's documents by number (invoice.Store).
func (db *DB) BookingInvoices(ctx context.Context, bookingID int64) ([]invoice.Invoice, error) {
	return sqlflow.Get(ctx, db.run, "booking invoices", func(q querier) ([]invoice.Invoice, error) {
		return sqlflow.All(ctx, q, rowmap.ScanInvoice, `SELECT `+rowmap.InvoiceColumns+` FROM invoices
			WHERE booking_id = $1 ORDER BY number`, bookingID)
	})
}

// Invoice finds a document of an organisation (invoice.Store).
func (db *DB) Invoice(ctx context.Context, orgID, id int64) (*invoice.Invoice, error) {
	return sqlflow.Get(ctx, db.run, "invoice", func(q querier) (*invoice.Invoice, error) {
		return sqlflow.One(ctx, q, rowmap.ScanInvoice, rowmap.InvoiceNotFound(), `SELECT `+rowmap.InvoiceColumns+`
			FROM invoices WHERE org_id = $1 AND id = $2`, orgID, id)
	})
}

// InvoicesDue lists the documents owed (invoice.Store): step 0 the
// cancellations of live invoices of a changed stay (read from the
// bookings that had a change applied, far fewer than the invoices),
// step 1 the invoices
// of confirmed bookings without a live one, step 2 the credit notes of
// refunds other than a change's, once the live invoice is current.
func (db *DB) InvoicesDue(ctx context.Context, limit int) ([]invoice.Due, error) {
	return sqlflow.Get(ctx, db.run, "invoices due", func(q querier) ([]invoice.Due, error) {
		return sqlflow.All(ctx, q, rowmap.ScanInvoiceDue, `SELECT kind, org_id, booking_id, entry_id, revision FROM (
			SELECT 'credit_note' AS kind, 0 AS step, i.org_id, i.booking_id, 0 AS entry_id, i.revision FROM invoices i
			WHERE i.booking_id IN (SELECT booking_id FROM date_changes WHERE status = 'applied') AND i.kind = 'invoice'
			AND NOT EXISTS (`+cancellationOf+`) AND EXISTS (`+changedSince+`)
			UNION ALL
			SELECT 'invoice', 1, b.org_id, b.id, 0, 0 FROM bookings b
			WHERE b.confirmed_at IS NOT NULL AND b.status IN ('confirmed', 'cancelled')
			AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.booking_id = b.id AND i.kind = 'invoice' AND NOT EXISTS (`+cancellationOf+`))
			UNION ALL
			SELECT 'credit_note', 2, b.org_id, b.id, e.id, 0 FROM ledger_entries e JOIN bookings b ON b.id = e.booking_id
			WHERE e.kind = 'refund' AND e.status = 'succeeded' AND e.reason NOT IN ('date_change', 'date_change_refused')
			AND EXISTS (SELECT 1 FROM invoices i WHERE i.booking_id = b.id AND i.kind = 'invoice'
				AND NOT EXISTS (`+cancellationOf+`) AND NOT EXISTS (`+changedSince+`))
			AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.ledger_entry_id = e.id)
		) AS due ORDER BY step, booking_id, entry_id LIMIT $1`, limit)
	})
}

// InvoiceSeller returns an organisation's seller details (invoice.Store).
func (db *DB) InvoiceSeller(ctx context.Context, orgID int64) (invoice.Seller, error) {
	s, err := sqlflow.Get(ctx, db.run, "invoice seller", func(q querier) (*invoice.Seller, error) {
		return sqlflow.One(ctx, q, rowmap.ScanSeller, nil, `SELECT legal_name, legal_form, address, vat_id
			FROM invoice_sellers WHERE org_id = $1`, orgID)
	})
	if err != nil || s == nil {
		return invoice.Seller{}, err
	}
	return *s, nil
}

// SetInvoiceSeller saves an organisation's seller details (invoice.Store).
func (db *DB) SetInvoiceSeller(ctx context.Context, orgID int64, s invoice.Seller) error {
	return db.tx(ctx, "set invoice seller", func(q querier) error {
		return sqlflow.Exec(ctx, q, rowmap.OrganizationNotFound(), `INSERT INTO invoice_sellers (org_id, legal_name, legal_form, address, vat_id)
			SELECT id, $1, $2, $3, $4 FROM organizations WHERE id = $5
			ON CONFLICT (org_id) DO UPDATE SET legal_name = excluded.legal_name, legal_form = excluded.legal_form,
			address = excluded.address, vat_id = excluded.vat_id`, s.LegalName, s.LegalForm, s.Address, s.VATID, orgID)
	})
}

// counterRow is a counter's last number and last issue time.
type counterRow struct {
	number int64
	at     time.Time
}

func scanCounter(c rowmap.Codec, s rowmap.Scanner) (*counterRow, error) {
	var v counterRow
	if err := rowmap.Scan(s, &v.number, c.Time(&v.at)); err != nil {
		return nil, err
	}
	return &v, nil
}
