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
// Issuing is idempotent: a booking has at most one invoice per revision
// of its stay, a refund ledger entry at most one credit note, an invoice
// at most one cancellation (the store enforces each with a unique index),
// and issuing any of them again returns the stored one. Service IssueDue
// issues whatever is owed — invoices of confirmed bookings without one,
// the cancellation and replacement of invoices whose stay changed,
// credit notes of succeeded refunds — and runs as a periodic job on the
// job engine (package jobs), so a document is issued durably whatever
// happened to the process that confirmed or changed the booking, and on
// any number of replicas at once.
//
// # Changes of stay
//
// An invoice is never corrected in place. When the stay or the total of
// an invoiced booking changes (a change of dates or party, package
// datechange), French practice is followed: the old invoice is cancelled
// by a credit note of its full amount (every line, VAT line and the
// tourist tax negated, naming the invoice it cancels), and a replacement
// invoice is issued for the stay as it now is — new dates, nights, lines,
// VAT per rate and tourist tax, and the new total — which names the
// invoice it replaces. Both take the next numbers of the same sequence,
// the cancellation first. A change applied before the booking's first
// invoice was issued leaves one invoice, of the new stay.
//
// The stay an invoice shows is its Revision: the ID of the latest change
// applied to the booking when the invoice was made (0: the stay as
// booked). The store reads it before the booking is read, so an invoice
// is never older than its revision says; a change applied between the two
// reads only makes the next pass replace an invoice that already shows
// the new stay. An invoice is live until its cancellation; a booking has
// at most one live invoice (the store returns the live one rather than
// issue a second).
//
// Refunds never count twice:
//
//   - the refund of a change that costs less (ledger.ReasonDateChange)
//     gets no credit note: the replacement already bills the lower total;
//   - the refund of a change that could not apply
//     (ledger.ReasonChangeRefused) gets none either: it gives back a
//     charge that no invoice billed;
//   - every other succeeded refund (a cancellation, a refund at the
//     provider's dashboard) gets a credit note correcting the booking's
//     live invoice, issued once that invoice shows the booking's latest
//     stay (after its replacement, when the stay changed).
//
// The invariant, checked on both stores (store/storetest, scenarios
// Invoice/ChangeOfStay): for every booking, once IssueDue has run, the
// totals of its invoices less those of its credit notes equal what the
// guest finally owes for the stay — the booking's total after its
// changes, less the refunds that are not a change's. Sums of VAT and
// tourist tax follow the same rule, the refunds' credit notes taking
// their share in proportion.
//
// A change that costs less may keep part of the decrease (the policy's
// retained amount, datechange.Offer.Retained): the booking's total is
// then more than its new quote, and the replacement bills the difference
// on a line of its own (LineRetained), outside the VAT base and the
// tourist tax, as the reports (package reports) count the taxes of the
// stored quote only.
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
	// LedgerEntryID is the refund a credit note is for; 0 for an invoice
	// and for the cancellation of one.
	LedgerEntryID int64
	// Revision is the revision of the booking's stay an invoice shows
	// (the ID of the latest date change applied to it, 0 for none); for
	// a cancellation, the revision of the invoice it cancels; 0 for a
	// refund's credit note.
	Revision int64
	// IssuedAt is when it was issued; a store moves it forward to the
	// previous number's time if that is later.
	IssuedAt time.Time
	Currency string
	// Total is what it charges, taxes included: negative for a credit
	// note.
	Total    decimal.Decimal
	Snapshot Snapshot
}

// Cancellation reports whether a credit note cancels an invoice in full
// (the booking's stay changed), rather than correcting it for a refund.
func (i Invoice) Cancellation() bool { return i.Kind == KindCreditNote && i.LedgerEntryID == 0 }

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
	// Corrects is the number of the invoice a credit note corrects (or,
	// a cancellation, cancels).
	Corrects int64 `json:"corrects,omitempty"`
	// Replaces is the number of the invoice a replacement invoice
	// replaces (cancelled by a credit note when the stay changed).
	Replaces int64 `json:"replaces,omitempty"`
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

// Due is a document owed: an invoice for BookingID (its first, or the
// replacement of a cancelled one), a credit note for the refund
// LedgerEntryID of it, or (LedgerEntryID 0) the cancellation of its
// invoice of Revision, whose stay changed since.
type Due struct {
	Kind          Kind
	OrgID         int64
	BookingID     int64
	LedgerEntryID int64
	Revision      int64
}

// Store keeps the documents; store/sqlite and store/postgres implement
// it, store/storetest checks it (including 200 concurrent issues).
type Store interface {
	// IssueInvoice stores inv with its organisation's next number, taken
	// from the organisation's counter in the same transaction, and sets
	// its ID, Number and IssuedAt (moved forward to the previous
	// number's when that is later). It stores nothing, takes no number
	// and returns the stored document with created false when the
	// document exists already: for an invoice, the booking's invoice of
	// inv.Revision, or its live invoice (one not cancelled) whatever its
	// revision; for a refund's credit note, the refund's; for a
	// cancellation (a credit note without ledger entry), the one of the
	// booking's invoice of inv.Revision. Errors: booking.CodeNotFound
	// (booking, ledger entry, or the invoice a cancellation cancels).
	IssueInvoice(ctx context.Context, inv *Invoice) (stored *Invoice, created bool, err error)
	// StayRevision is the revision of a booking's stay: the ID of the
	// latest date change applied to it (package datechange), 0 when
	// none was.
	StayRevision(ctx context.Context, bookingID int64) (int64, error)
	// Invoices lists an organisation's documents by number, those with
	// a number above after, at most limit.
	Invoices(ctx context.Context, orgID, after int64, limit int) ([]Invoice, error)
	// BookingInvoices lists a booking's documents by number.
	BookingInvoices(ctx context.Context, bookingID int64) ([]Invoice, error)
	// Invoice finds a document of an organisation by ID. Errors:
	// booking.CodeNotFound.
	Invoice(ctx context.Context, orgID, id int64) (*Invoice, error)
	// InvoicesDue lists up to limit documents owed, oldest first: the
	// cancellations of live invoices whose booking had a change applied
	// since their revision; invoices of bookings that were confirmed
	// (confirmed or cancelled since) and have no live invoice (a first
	// invoice, or the replacement of a cancelled one); then credit notes
	// of the succeeded refunds that are not a change's
	// (ledger.ReasonDateChange, ledger.ReasonChangeRefused) and have
	// none, of bookings whose live invoice shows their latest revision.
	InvoicesDue(ctx context.Context, limit int) ([]Due, error)
	// InvoiceSeller returns an organisation's seller details (the zero
	// Seller when none were saved).
	InvoiceSeller(ctx context.Context, orgID int64) (Seller, error)
	// SetInvoiceSeller saves an organisation's seller details. Errors:
	// booking.CodeNotFound (organisation).
	SetInvoiceSeller(ctx context.Context, orgID int64, s Seller) error
}
