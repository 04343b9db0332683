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
		inv.ID, err = sqlflow.Value[int64](ctx, q, nil, `INSERT INTO invoices (org_id, booking_id, kind, number, ledger_entry_id,
			currency, total, buyer_name, buyer_address, snapshot, issued_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
			inv.OrgID, inv.BookingID, string(inv.Kind), inv.Number, rowmap.NullID(inv.LedgerEntryID), inv.Currency,
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

// existingInvoice is the document inv's booking (an invoice) or refund (a
// credit note) has already, or nil.
func existingInvoice(ctx context.Context, q querier, inv *invoice.Invoice) (*invoice.Invoice, error) {
	if inv.Kind == invoice.KindInvoice {
		return sqlflow.One(ctx, q, rowmap.ScanInvoice, nil, `SELECT `+rowmap.InvoiceColumns+` FROM invoices
			WHERE booking_id = $1 AND kind = 'invoice'`, inv.BookingID)
	}
	return sqlflow.One(ctx, q, rowmap.ScanInvoice, nil, `SELECT `+rowmap.InvoiceColumns+` FROM invoices
		WHERE ledger_entry_id = $1`, inv.LedgerEntryID)
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

// InvoicesDue lists the documents owed (invoice.Store).
func (db *DB) InvoicesDue(ctx context.Context, limit int) ([]invoice.Due, error) {
	return sqlflow.Get(ctx, db.run, "invoices due", func(q querier) ([]invoice.Due, error) {
		return sqlflow.All(ctx, q, rowmap.ScanInvoiceDue, `SELECT kind, org_id, booking_id, entry_id FROM (
			SELECT 'invoice' AS kind, 0 AS step, b.org_id, b.id AS booking_id, 0 AS entry_id FROM bookings b
			WHERE b.confirmed_at IS NOT NULL AND b.status IN ('confirmed', 'cancelled')
			AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.booking_id = b.id AND i.kind = 'invoice')
			UNION ALL
			SELECT 'credit_note', 1, b.org_id, b.id, e.id FROM ledger_entries e JOIN bookings b ON b.id = e.booking_id
			WHERE e.kind = 'refund' AND e.status = 'succeeded'
			AND EXISTS (SELECT 1 FROM invoices i WHERE i.booking_id = b.id AND i.kind = 'invoice')
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
