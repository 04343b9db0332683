package invoice

import (
	"context"
	"errors"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
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

// IssueDue issues every document owed (Store.InvoicesDue), invoices
// before credit notes, and returns how many it issued. It is the job
// engine's periodic task (package jobs) and safe to run on several
// replicas at once: a document issued twice is stored once. Errors of
// single documents are joined; the others are issued.
func (s *Service) IssueDue(ctx context.Context) (int, error) {
	issued := 0
	var errs []error
	failed := map[Due]bool{}
	for {
		due, err := s.store.InvoicesDue(ctx, dueBatch)
		if err != nil {
			return issued, fmt.Errorf("invoices due: %w", err)
		}
		progress := false
		for _, d := range due {
			if failed[d] {
				continue
			}
			var created bool
			if d.Kind == KindInvoice {
				_, created, err = s.IssueInvoice(ctx, d.BookingID)
			} else {
				_, created, err = s.IssueCreditNote(ctx, d.BookingID, d.LedgerEntryID)
			}
			if err != nil {
				failed[d] = true
				errs = append(errs, fmt.Errorf("%s of booking %d: %w", d.Kind, d.BookingID, err))
				continue
			}
			progress = true
			if created {
				issued++
			}
		}
		// Again while a pass did something: the credit notes of refunds
		// whose invoice this pass issued are due now.
		if !progress {
			return issued, errors.Join(errs...)
		}
	}
}

// IssueInvoice issues the invoice of a confirmed booking, or returns the
// one it has (created false). Errors: CodeNotFound, CodeConflict (the
// booking was never confirmed).
func (s *Service) IssueInvoice(ctx context.Context, bookingID int64) (*Invoice, bool, error) {
	src, err := s.source(ctx, bookingID)
	if err != nil {
		return nil, false, err
	}
	if src.Booking.ConfirmedAt.IsZero() {
		return nil, false, booking.Errorf(booking.CodeConflict, "Booking %d was never confirmed: it has no invoice.", bookingID)
	}
	inv := NewInvoice(*src)
	inv.IssuedAt = s.clock.Now()
	return s.store.IssueInvoice(ctx, &inv)
}

// IssueCreditNote issues the credit note of a succeeded refund of an
// invoiced booking, or returns the one it has. Errors: CodeNotFound (the
// booking, the entry, or the booking's invoice), CodeConflict (the entry
// is no succeeded refund).
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
	}
	list, err := s.store.BookingInvoices(ctx, bookingID)
	if err != nil {
		return nil, false, fmt.Errorf("invoices of booking %d: %w", bookingID, err)
	}
	for _, inv := range list {
		if inv.Kind == KindInvoice {
			note := NewCreditNote(*src, inv, *refund)
			note.IssuedAt = s.clock.Now()
			return s.store.IssueInvoice(ctx, &note)
		}
	}
	return nil, false, booking.Errorf(booking.CodeNotFound, "Booking %d has no invoice to correct.", bookingID)
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
