package rowmap

import (
	"encoding/json"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/invoice"
)

// InvoiceColumns are the columns of invoices, in the order ScanInvoice
// reads them.
const InvoiceColumns = `id, org_id, booking_id, kind, number, ledger_entry_id, revision, currency, total,
	buyer_name, buyer_address, snapshot, issued_at`

// ScanInvoice reads a row of InvoiceColumns; the buyer's columns fill
// the snapshot's Buyer.
func ScanInvoice(c Codec, s Scanner) (*invoice.Invoice, error) {
	var (
		inv  invoice.Invoice
		kind string
	)
	if err := Scan(s, &inv.ID, &inv.OrgID, &inv.BookingID, &kind, &inv.Number, c.NullInt64(&inv.LedgerEntryID),
		&inv.Revision, &inv.Currency, c.Money(&inv.Total), &inv.Snapshot.Buyer.Name, &inv.Snapshot.Buyer.Address,
		c.JSON(func(b []byte) error {
			buyer := inv.Snapshot.Buyer
			err := json.Unmarshal(b, &inv.Snapshot)
			inv.Snapshot.Buyer = buyer
			return err
		}), c.Time(&inv.IssuedAt)); err != nil {
		return nil, err
	}
	inv.Kind = invoice.Kind(kind)
	return &inv, nil
}

// InvoiceNotFound is the error for a document that is not there.
func InvoiceNotFound() error { return booking.Errorf(booking.CodeNotFound, "Invoice not found.") }

// ScanInvoiceDue reads a row of kind, org_id, booking_id, entry_id,
// revision.
func ScanInvoiceDue(_ Codec, s Scanner) (*invoice.Due, error) {
	var (
		d    invoice.Due
		kind string
	)
	if err := Scan(s, &kind, &d.OrgID, &d.BookingID, &d.LedgerEntryID, &d.Revision); err != nil {
		return nil, err
	}
	d.Kind = invoice.Kind(kind)
	return &d, nil
}

// ScanSeller reads a row of legal_name, legal_form, address, vat_id.
func ScanSeller(_ Codec, s Scanner) (*invoice.Seller, error) {
	var v invoice.Seller
	if err := Scan(s, &v.LegalName, &v.LegalForm, &v.Address, &v.VATID); err != nil {
		return nil, err
	}
	return &v, nil
}
