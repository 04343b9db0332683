// Package invoice issues a host's invoices and credit notes (issue #29):
// an invoice for each booking once it is confirmed, a credit note for
// each refund that succeeds, both as immutable snapshots rendered to PDF
// in French or English.
//
// # Numbering
//
// French law (Code de commerce art. L441-9, CGI art. 242 nonies A) wants
// the invoices of a seller numbered in one continuous, chronological
// sequence, with no gap and no duplicate. Each organisation has one
// counter row, which the store locks, reads and moves on in the same
// transaction as the invoice's insert, and UNIQUE (org, number) backs it:
// concurrent checkouts on any number of replicas take consecutive numbers,
// and an issue that fails rolls its number back with it. An invoice is
// never dated before the one numbered before it.
//
// Credit notes (factures d'avoir) share the invoices' sequence: the
// administration accepts one sequence for both as long as it is
// continuous (BOI-TVA-DECLA-30-20-20 § 280 also allows distinct series,
// which one sequence makes needless), and one sequence keeps the
// no-gap check a single query. A credit note names the invoice it
// corrects.
//
// # Issuing
//
// Issuing is idempotent: a booking has at most one invoice (the store
// enforces it with a unique index), a refund ledger entry at most one
// credit note, and issuing either again returns the stored one. Service
// IssueDue issues whatever is owed — confirmed bookings without an
// invoice, succeeded refunds without a credit note — and runs as a
// periodic job on the job engine (package jobs), so an invoice is issued
// durably whatever happened to the process that confirmed the booking.
//
// # Snapshots and the GDPR
//
// An invoice's Snapshot holds everything it shows, copied at issue time:
// the seller's legal details (Seller, kept per organisation), the buyer,
// the stay, its lines, VAT per rate and tourist tax, and the totals. The
// PDF is drawn from the snapshot alone, so a later change of prices or
// settings changes no invoice. An erasure of the guest (package privacy)
// keeps the numbers and amounts and replaces the buyer's name and address
// in the stored snapshots.
package invoice

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
)

// Kind tells an invoice from a credit note.
type Kind string

// The kinds of document.
const (
	KindInvoice    Kind = "invoice"
	KindCreditNote Kind = "credit_note"
)

// Invoice is an issued invoice or credit note.
type Invoice struct {
	ID        int64
	OrgID     int64
	BookingID int64
	Kind      Kind
	// Number is its place in the organisation's sequence, from 1.
	Number int64
	// LedgerEntryID is the refund a credit note is for; 0 for an invoice.
	LedgerEntryID int64
	// IssuedAt is when it was issued; a store moves it forward to the
	// previous number's time if that is later.
	IssuedAt time.Time
	Currency string
	// Total is what it charges, taxes included: negative for a credit
	// note.
	Total    decimal.Decimal
	Snapshot Snapshot
}

// Display is the number as printed: six digits at least.
func (i Invoice) Display() string { return Format(i.Number) }

// Format prints an invoice number with six digits at least.
func Format(n int64) string { return fmt.Sprintf("%06d", n) }

// Snapshot is what a document shows, fixed when it is issued.
type Snapshot struct {
	// Locale is the language it is drawn in ("fr" or "en").
	Locale string `json:"locale"`
	// IssueDate is the day it was issued, in the organisation's zone.
	IssueDate civil.Date `json:"issue_date"`
	Seller    Seller     `json:"seller"`
	// Buyer is left out of the stored JSON: the store keeps it apart, so
	// that an erasure can replace it (buyer_name, buyer_address).
	Buyer    Buyer  `json:"-"`
	Property string `json:"property"`
	// PropertyAddress is the property's city, postal code and country.
	PropertyAddress string     `json:"property_address"`
	BookingRef      string     `json:"booking_ref"`
	CheckIn         civil.Date `json:"check_in"`
	CheckOut        civil.Date `json:"check_out"`
	Nights          int        `json:"nights"`
	Guests          int        `json:"guests"`
	// Lines are the stay's priced lines: accommodation, discounts
	// (negative), fees and extras; a credit note's one refund line.
	Lines []Line `json:"lines"`
	// Subtotal is the sum of Lines.
	Subtotal decimal.Decimal `json:"subtotal"`
	// Taxes are the percentage taxes (VAT and the like) per rate.
	Taxes []Tax `json:"taxes"`
	// TouristTax is the tourist tax collected for the commune, outside
	// the VAT base.
	TouristTax decimal.Decimal `json:"tourist_tax"`
	// Total = Subtotal + exclusive Taxes + TouristTax.
	Total decimal.Decimal `json:"total"`
	// Paid is what the guest had paid when it was issued (invoices).
	Paid     decimal.Decimal `json:"paid"`
	Currency string          `json:"currency"`
	// Corrects is the number of the invoice a credit note corrects.
	Corrects int64 `json:"corrects,omitempty"`
}

// Line is one priced line of a document.
type Line struct {
	Code     string          `json:"code"`
	Label    string          `json:"label"`
	Quantity int             `json:"quantity,omitempty"`
	Amount   decimal.Decimal `json:"amount"`
}

// Tax is a percentage tax at one rate: Amount on Base. An inclusive tax
// is part of the lines' prices (Base is then the lines' amount net of
// it); an exclusive one is added to them.
type Tax struct {
	Code      string          `json:"code"`
	Label     string          `json:"label"`
	Rate      decimal.Decimal `json:"rate"`
	Inclusive bool            `json:"inclusive,omitempty"`
	Base      decimal.Decimal `json:"base"`
	Amount    decimal.Decimal `json:"amount"`
}

// Seller is the host's legal identity as its invoices print it.
type Seller struct {
	// LegalName is the business's registered name ("SARL Villa Soleil");
	// empty means the organisation's name.
	LegalName string `json:"legal_name"`
	// LegalForm and registration ("SARL au capital de 10 000 €, RCS
	// Nice 123 456 789"), free text.
	LegalForm string `json:"legal_form"`
	// Address is the postal address, lines separated by "\n".
	Address string `json:"address"`
	// VATID is the intra-community VAT number ("FR12345678901"); empty
	// for a seller not registered for VAT (the PDF then says so).
	VATID string `json:"vat_id"`
}

// Buyer is the guest as a document names them.
type Buyer struct {
	Name    string
	Address string
}

// Due is a document owed: an invoice for BookingID, or a credit note for
// the refund LedgerEntryID of it.
type Due struct {
	Kind          Kind
	OrgID         int64
	BookingID     int64
	LedgerEntryID int64
}

// Store keeps the documents; store/sqlite and store/postgres implement
// it, store/storetest checks it (including 200 concurrent issues).
type Store interface {
	// IssueInvoice stores inv with its organisation's next number, taken
	// from the organisation's counter in the same transaction, and sets
	// its ID, Number and IssuedAt (moved forward to the previous
	// number's when that is later). When the booking already has an
	// invoice (inv.Kind KindInvoice) or the refund a credit note, it
	// stores nothing, takes no number and returns the stored document
	// with created false. Errors: booking.CodeNotFound (booking or
	// ledger entry).
	IssueInvoice(ctx context.Context, inv *Invoice) (stored *Invoice, created bool, err error)
	// Invoices lists an organisation's documents by number, those with
	// a number above after, at most limit.
	Invoices(ctx context.Context, orgID, after int64, limit int) ([]Invoice, error)
	// BookingInvoices lists a booking's documents by number.
	BookingInvoices(ctx context.Context, bookingID int64) ([]Invoice, error)
	// Invoice finds a document of an organisation by ID. Errors:
	// booking.CodeNotFound.
	Invoice(ctx context.Context, orgID, id int64) (*Invoice, error)
	// InvoicesDue lists up to limit documents owed: invoices of bookings
	// that were confirmed (confirmed or cancelled since) and have none,
	// then credit notes of succeeded refunds of invoiced bookings that
	// have none, oldest first.
	InvoicesDue(ctx context.Context, limit int) ([]Due, error)
	// InvoiceSeller returns an organisation's seller details (the zero
	// Seller when none were saved).
	InvoiceSeller(ctx context.Context, orgID int64) (Seller, error)
	// SetInvoiceSeller saves an organisation's seller details. Errors:
	// booking.CodeNotFound (organisation).
	SetInvoiceSeller(ctx context.Context, orgID int64, s Seller) error
}
