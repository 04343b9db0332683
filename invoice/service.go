package invoice

import (
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/pricing"
)

// Reader is what the Service reads to make a document: the booking
// engine's records (booking.Stores serve them).
type Reader interface {
	OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error)
	Property(ctx context.Context, orgID, propertyID int64) (*booking.Property, error)
	BookingByID(ctx context.Context, id int64) (*booking.Booking, error)
	LedgerEntries(ctx context.Context, bookingID int64) ([]ledger.Entry, error)
}

// Options configure a Service; Store and Reader are required.
type Options struct {
	Store  Store
	Reader Reader
	// Clock defaults to the wall clock.
	Clock booking.Clock
}

// Service issues and reads documents. It is safe for concurrent use.
type Service struct {
	store  Store
	reader Reader
	clock  booking.Clock
}

// New returns a Service. It panics without a Store or a Reader, a
// programming error.
func New(o Options) *Service {
	if o.Store == nil || o.Reader == nil {
		panic("invoice: New needs a Store and a Reader")
	}
	if o.Clock == nil {
		o.Clock = booking.SystemClock{}
	}
	return &Service{store: o.Store, reader: o.Reader, clock: o.Clock}
}

// dueBatch is how many owed documents one IssueDue pass reads.
const dueBatch = 200

// IssueDue issues every document owed (Store.InvoicesDue) — the
// cancellations of invoices whose stay changed, then invoices (first ones
// and replacements), then credit notes of refunds — and returns how many
// it issued. It is the job engine's periodic task (package jobs) and safe
// to run on several replicas at once: a document issued twice is stored
// once. Errors of single documents are joined; the others are issued.
func (s *Service) IssueDue(ctx context.Context) (int, error) {
	issued := 0
	var errs []error
	// tried holds what this call issued or failed to: a document owed
	// is tried once per call, so that the loop ends even if the store
	// kept listing one it already has.
	tried := map[Due]bool{}
	for {
		due, err := s.store.InvoicesDue(ctx, dueBatch)
		if err != nil {
			return issued, fmt.Errorf("invoices due: %w", err)
		}
		progress := false
		for _, d := range due {
			if tried[d] {
				continue
			}
			tried[d] = true
			var created bool
			switch {
			case d.Kind == KindInvoice:
				_, created, err = s.IssueInvoice(ctx, d.BookingID)
			case d.LedgerEntryID == 0:
				_, created, err = s.CancelInvoice(ctx, d.BookingID, d.Revision)
			default:
				_, created, err = s.IssueCreditNote(ctx, d.BookingID, d.LedgerEntryID)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s of booking %d: %w", d.Kind, d.BookingID, err))
				continue
			}
			progress = true
			if created {
				issued++
			}
		}
		// Again while a pass did something: the replacements of the
		// invoices this pass cancelled, and the credit notes of refunds
		// whose invoice this pass issued, are due now.
		if !progress {
			return issued, errors.Join(errs...)
		}
	}
}

// IssueInvoice issues the invoice of a confirmed booking for its stay as
// it is now — its first, or the replacement of its cancelled one — or
// returns its live invoice (created false). Errors: CodeNotFound,
// CodeConflict (the booking was never confirmed).
func (s *Service) IssueInvoice(ctx context.Context, bookingID int64) (*Invoice, bool, error) {
	// The revision first, then the booking: the invoice shows a stay at
	// least as recent as its revision says (see the package's doc).
	rev, err := s.store.StayRevision(ctx, bookingID)
	if err != nil {
		return nil, false, fmt.Errorf("stay revision of booking %d: %w", bookingID, err)
	}
	src, err := s.source(ctx, bookingID)
	if err != nil {
		return nil, false, err
	}
	if src.Booking.ConfirmedAt.IsZero() {
		return nil, false, booking.Errorf(booking.CodeConflict, "Booking %d was never confirmed: it has no invoice.", bookingID)
	}
	list, err := s.store.BookingInvoices(ctx, bookingID)
	if err != nil {
		return nil, false, fmt.Errorf("invoices of booking %d: %w", bookingID, err)
	}
	inv := NewInvoice(*src)
	inv.Revision = rev
	if last := lastInvoice(list); last != nil && cancelled(list, *last) {
		inv.Snapshot.Replaces = last.Number
		// What the guest paid less what went or goes back to them (a
		// change that cost less refunds the difference).
		entries, err := s.reader.LedgerEntries(ctx, bookingID)
		if err != nil {
			return nil, false, fmt.Errorf("ledger of booking %d: %w", bookingID, err)
		}
		back := pricing.FromMinor(ledger.PositionOf(entries).Returned(), src.Booking.Currency)
		inv.Snapshot.Paid = decimal.Max(decimal.Zero, src.Booking.PaidAmount.Sub(back))
	}
	inv.IssuedAt = s.clock.Now()
	return s.store.IssueInvoice(ctx, &inv)
}

// CancelInvoice issues the credit note that cancels in full the invoice
// of revision rev of a booking whose stay changed since, or returns the
// one it has. Errors: CodeNotFound (the booking, or its invoice of rev),
// CodeConflict (that invoice shows the booking's latest stay).
func (s *Service) CancelInvoice(ctx context.Context, bookingID, rev int64) (*Invoice, bool, error) {
	cur, err := s.store.StayRevision(ctx, bookingID)
	if err != nil {
		return nil, false, fmt.Errorf("stay revision of booking %d: %w", bookingID, err)
	}
	if rev >= cur {
		return nil, false, booking.Errorf(booking.CodeConflict, "The invoice of booking %d shows its latest stay: it stands.", bookingID)
	}
	src, err := s.source(ctx, bookingID)
	if err != nil {
		return nil, false, err
	}
	list, err := s.store.BookingInvoices(ctx, bookingID)
	if err != nil {
		return nil, false, fmt.Errorf("invoices of booking %d: %w", bookingID, err)
	}
	for _, inv := range list {
		if inv.Kind == KindInvoice && inv.Revision == rev {
			note := NewCancellation(*src, inv)
			note.IssuedAt = s.clock.Now()
			return s.store.IssueInvoice(ctx, &note)
		}
	}
	return nil, false, booking.Errorf(booking.CodeNotFound, "Booking %d has no invoice of revision %d to cancel.", bookingID, rev)
}

// IssueCreditNote issues the credit note of a succeeded refund of an
// invoiced booking against its live invoice, or returns the one it has.
// The refund of a change of stay has none: the replacement invoice bills
// the new total (see the package's doc). Errors: CodeNotFound (the
// booking, the entry, or the booking's live invoice), CodeConflict (the
// entry is no succeeded refund, or a change's).
func (s *Service) IssueCreditNote(ctx context.Context, bookingID, entryID int64) (*Invoice, bool, error) {
	src, err := s.source(ctx, bookingID)
	if err != nil {
		return nil, false, err
	}
	entries, err := s.reader.LedgerEntries(ctx, bookingID)
	if err != nil {
		return nil, false, fmt.Errorf("ledger of booking %d: %w", bookingID, err)
	}
	var refund *ledger.Entry
	for i := range entries {
		if entries[i].ID == entryID {
			refund = &entries[i]
		}
	}
	switch {
	case refund == nil:
		return nil, false, booking.Errorf(booking.CodeNotFound, "Ledger entry not found.")
	case refund.Kind != ledger.KindRefund || refund.Status != ledger.StatusSucceeded:
		return nil, false, booking.Errorf(booking.CodeConflict, "Ledger entry %d is no succeeded refund.", entryID)
	case changeRefund(*refund):
		return nil, false, booking.Errorf(booking.CodeConflict, "Ledger entry %d refunds a change of stay: the replacement invoice accounts for it.", entryID)
	}
	list, err := s.store.BookingInvoices(ctx, bookingID)
	if err != nil {
		return nil, false, fmt.Errorf("invoices of booking %d: %w", bookingID, err)
	}
	if inv := lastInvoice(list); inv != nil && !cancelled(list, *inv) {
		note := NewCreditNote(*src, *inv, *refund)
		note.IssuedAt = s.clock.Now()
		return s.store.IssueInvoice(ctx, &note)
	}
	return nil, false, booking.Errorf(booking.CodeNotFound, "Booking %d has no invoice to correct.", bookingID)
}

// changeRefund reports whether a refund belongs to a change of stay (its
// decrease, or a charge given back when the change could not apply):
// such refunds get no credit note.
func changeRefund(e ledger.Entry) bool {
	return e.Reason == ledger.ReasonDateChange || e.Reason == ledger.ReasonChangeRefused
}

// lastInvoice is the invoice numbered last of list (a booking's
// documents by number), nil without one.
func lastInvoice(list []Invoice) *Invoice {
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Kind == KindInvoice {
			return &list[i]
		}
	}
	return nil
}

// cancelled reports whether list holds the cancellation of inv.
func cancelled(list []Invoice, inv Invoice) bool {
	for _, x := range list {
		if x.Cancellation() && x.Revision == inv.Revision {
			return true
		}
	}
	return false
}

// source reads what a document of a booking is made of.
func (s *Service) source(ctx context.Context, bookingID int64) (*Source, error) {
	b, err := s.reader.BookingByID(ctx, bookingID)
	if err != nil {
		return nil, fmt.Errorf("booking %d: %w", bookingID, err)
	}
	org, err := s.reader.OrganizationByID(ctx, b.OrgID)
	if err != nil {
		return nil, fmt.Errorf("organization %d: %w", b.OrgID, err)
	}
	p, err := s.reader.Property(ctx, b.OrgID, b.PropertyID)
	if err != nil {
		return nil, fmt.Errorf("property %d: %w", b.PropertyID, err)
	}
	seller, err := s.store.InvoiceSeller(ctx, b.OrgID)
	if err != nil {
		return nil, fmt.Errorf("seller of organization %d: %w", b.OrgID, err)
	}
	return &Source{Org: *org, Seller: seller, Property: *p, Booking: *b,
		IssueDate: civil.Today(s.clock.Now(), org.Location())}, nil
}

// Invoices lists an organisation's documents by number, after the
// number after, at most limit.
func (s *Service) Invoices(ctx context.Context, orgID, after int64, limit int) ([]Invoice, error) {
	return s.store.Invoices(ctx, orgID, after, limit)
}

// BookingInvoices lists a booking's documents by number.
func (s *Service) BookingInvoices(ctx context.Context, bookingID int64) ([]Invoice, error) {
	return s.store.BookingInvoices(ctx, bookingID)
}

// Invoice finds one of an organisation's documents. Errors: CodeNotFound.
func (s *Service) Invoice(ctx context.Context, orgID, id int64) (*Invoice, error) {
	return s.store.Invoice(ctx, orgID, id)
}

// Seller returns an organisation's seller details.
func (s *Service) Seller(ctx context.Context, orgID int64) (Seller, error) {
	return s.store.InvoiceSeller(ctx, orgID)
}

// CheckSeller checks an organisation's seller details: each field at
// most 500 characters. Errors: CodeInvalid.
func CheckSeller(v Seller) error {
	f := booking.FieldErrors{}
	for name, val := range map[string]string{"legal_name": v.LegalName, "legal_form": v.LegalForm, "address": v.Address, "vat_id": v.VATID} {
		if len([]rune(val)) > 500 {
			f.Add(name, "too_long")
		}
	}
	return f.Err()
}
