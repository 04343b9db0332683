package notify

import (
	"context"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
)

// Store is what a Worker reads and writes: the outbox, and the booking,
// organisation, property and ledger entries an event tells about. A
// store/sqlite or store/postgres DB is one.
type Store interface {
	outbox.Store
	// OrganizationByID is booking.CatalogStore's. Errors: CodeNotFound.
	OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error)
	// Property is booking.CatalogStore's. Errors: CodeNotFound.
	Property(ctx context.Context, orgID, propertyID int64) (*booking.Property, error)
	// BookingByID is booking.BookingStore's. Errors: CodeNotFound.
	BookingByID(ctx context.Context, id int64) (*booking.Booking, error)
	// LedgerEntries is booking.LedgerStore's.
	LedgerEntries(ctx context.Context, bookingID int64) ([]ledger.Entry, error)
}
