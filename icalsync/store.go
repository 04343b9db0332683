package icalsync

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/outbox"
)

// Store is what a Syncer reads and writes: the feeds, their blocks and
// conflicts, the export tokens, and the organisation, property and booking
// a conflict tells about. A store/sqlite or store/postgres DB is one (with
// a read model, its Feeds wrapper: store/cache.Store.Feeds).
type Store interface {
	feed.FeedStore
	// OrganizationByID is booking.CatalogStore's. Errors: CodeNotFound.
	OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error)
	// Property is booking.CatalogStore's. Errors: CodeNotFound.
	Property(ctx context.Context, orgID, propertyID int64) (*booking.Property, error)
	// BookingByID is booking.BookingStore's. Errors: CodeNotFound.
	BookingByID(ctx context.Context, id int64) (*booking.Booking, error)
	// RecordOutbox is outbox.Store's: the host is told about new
	// conflicts.
	RecordOutbox(ctx context.Context, events []outbox.Event, now time.Time) ([]outbox.Event, error)
}

// ExportStore is what a property's exported calendar reads (Handler,
// Export, PropertyCalendar).
type ExportStore interface {
	// ExportTokenByValue and NoteExport are feed.FeedStore's.
	ExportTokenByValue(ctx context.Context, token string) (*feed.ExportToken, error)
	NoteExport(ctx context.Context, propertyID int64, etag string, now time.Time) (*feed.ExportToken, error)
	// OrganizationByID and Property are booking.CatalogStore's.
	OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error)
	Property(ctx context.Context, orgID, propertyID int64) (*booking.Property, error)
	// Bookings is booking.BookingStore's.
	Bookings(ctx context.Context, orgID int64, statuses ...booking.Status) ([]booking.Booking, error)
}
