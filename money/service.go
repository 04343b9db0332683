package money

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment"
)

// Store is what the money I/O reads and writes: the payments ledger, the
// bookings whose money it moves (read, and a paid amount updated once a
// balance is charged), the records that apply each provider event once,
// the bookings' terms (where a balance and a security deposit stand), the
// outbox and the payment accounts that route a booking's calls. The
// Stores of store/sqlite and store/postgres (db.Stores()) satisfy it, as
// does booking.Stores over them.
type Store interface {
	booking.LedgerStore

	// SettleLedgerEntry saves an entry's outcome with the entries it
	// owes again and the events telling about it, in one atomic step
	// (outbox.Store).
	SettleLedgerEntry(ctx context.Context, e *ledger.Entry, owed []ledger.Entry, events []outbox.Event, now time.Time) error
	// RecordOutbox stores events once per key (outbox.Store).
	RecordOutbox(ctx context.Context, events []outbox.Event, now time.Time) ([]outbox.Event, error)

	// BookingByID, BookingByIntent and Transition are
	// booking.BookingStore's.
	BookingByID(ctx context.Context, id int64) (*booking.Booking, error)
	BookingByIntent(ctx context.Context, intentID string) (*booking.Booking, error)
	Transition(ctx context.Context, id int64, t booking.Transition) (*booking.Booking, error)
	// MarkEventProcessed and EventProcessed are booking.BookingStore's.
	MarkEventProcessed(ctx context.Context, eventID string, at time.Time) (bool, error)
	EventProcessed(ctx context.Context, eventID string) (bool, error)

	// OrganizationByID is booking.CatalogStore's.
	OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error)

	// Terms and SaveTerms are booking.TermsStore's.
	Terms(ctx context.Context, bookingID int64) (*booking.Terms, error)
	SaveTerms(ctx context.Context, t *booking.Terms) error

	// PaymentAccount and BookingPaymentAccount are
	// booking.PaymentAccountStore's.
	PaymentAccount(ctx context.Context, orgID int64) (*booking.PaymentAccount, error)
	BookingPaymentAccount(ctx context.Context, bookingID int64) (string, error)
}

// Options configure a Service. Store and Payments are required.
type Options struct {
	// Store is the money's store seam: db.Stores() of a store/sqlite or
	// store/postgres DB.
	Store Store
	// Payments is the payment provider, as given to booking.Options.
	Payments payment.Provider
	// Connect, when set, routes each booking's calls to the connected
	// account its payments were made on, as booking.Options.Connect.
	Connect payment.Connect
	// Clock defaults to the wall clock.
	Clock booking.Clock
	// Notifier is told about refunds, refused entries, disputes, balances
	// and deposit claims; nil means nobody is told.
	Notifier booking.Notifier
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// Service moves a booking's money at the payment provider: it sends the
// ledger's entries, applies the provider's events, and brings a closed
// booking's money to its decision. It is safe for concurrent use.
type Service struct {
	bookings *booking.Service
	store    Store
	payments payment.Provider
	connect  payment.Connect
	accounts booking.Accounts
	clock    booking.Clock
	notifier booking.Notifier
	logger   *slog.Logger
	// changes is the store side of date changes (SetDateChanges).
	changes atomic.Pointer[dateChanges]
}

// New returns the money service of bookings and makes it the lifecycle's
// booking.MoneyMover (bookings.SetMoneyMover), so that a cancellation's
// refunds or a late payment's return are sent at once. Build it right
// after bookings, before either serves. It panics when bookings, Store or
// Payments is nil, a programming error.
func New(bookings *booking.Service, o Options) *Service {
	if bookings == nil || o.Store == nil || o.Payments == nil {
		panic("money: New needs the booking Service, a Store and a payment Provider")
	}
	s := &Service{bookings: bookings, store: o.Store, payments: o.Payments, connect: o.Connect,
		accounts: booking.Accounts{Payments: o.Payments, Connect: o.Connect, Store: o.Store},
		clock:    o.Clock, notifier: o.Notifier, logger: o.Logger}
	if s.clock == nil {
		s.clock = booking.SystemClock{}
	}
	if s.notifier == nil {
		s.notifier = booking.NotifierFunc(func(context.Context, booking.Notification) error { return nil })
	}
	if s.logger == nil {
		s.logger = slog.Default()
	}
	bookings.SetMoneyMover(s)
	return s
}

var (
	_ booking.MoneyMover = (*Service)(nil)
	_ Store              = booking.Stores{}
)

// organizationByID finds the organisation of a booking.
func (s *Service) organizationByID(ctx context.Context, id int64) (*booking.Organization, error) {
	org, err := s.store.OrganizationByID(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("find organisation %d: %w", id, err)
	}
	return org, nil
}

// updateTerms applies change to a booking's terms and saves them, reading
// again when another writer saved first.
func (s *Service) updateTerms(ctx context.Context, bookingID int64, now time.Time, change func(t *booking.Terms)) (*booking.Terms, error) {
	ctx = context.WithoutCancel(ctx)
	for range 5 {
		t, err := s.store.Terms(ctx, bookingID)
		if err != nil {
			return nil, fmt.Errorf("read terms of booking %d: %w", bookingID, err)
		}
		change(t)
		t.UpdatedAt = now
		err = s.store.SaveTerms(ctx, t)
		if err == nil {
			return t, nil
		}
		if booking.ErrorCode(err) != booking.CodeConflict {
			return nil, fmt.Errorf("save terms of booking %d: %w", bookingID, err)
		}
	}
	return nil, fmt.Errorf("save terms of booking %d: too many concurrent writers", bookingID)
}

// notify tells the host about a change; failures are logged, not returned,
// because the change is already stored.
func (s *Service) notify(ctx context.Context, kind string, org *booking.Organization, b *booking.Booking) {
	n := booking.Notification{Kind: kind, Organization: *org, Booking: *b}
	if err := s.notifier.Notify(ctx, n); err != nil {
		s.logger.ErrorContext(ctx, "notify host", "kind", kind, "booking_id", b.ID, "err", err)
	}
}

// tellLater records an event that follows a change stored on its own (a
// ledger entry settled by the worker, a provider event). Its key comes from
// that change, so a retry records it once.
func (s *Service) tellLater(ctx context.Context, kind, key string, b *booking.Booking, entryID int64) {
	ev := outbox.Event{Key: key, Kind: kind, OrgID: b.OrgID, BookingID: b.ID, EntryID: entryID}
	if _, err := s.store.RecordOutbox(context.WithoutCancel(ctx), []outbox.Event{ev}, s.clock.Now()); err != nil {
		s.logger.ErrorContext(ctx, "record outbox event", "kind", kind, "booking_id", b.ID, "err", err)
	}
}
