package reports

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
)

// Store is the reads reports needs: the catalogue's properties, the
// per-day calendar, the host's booking query and the ledger, all served
// by store/sqlite and store/postgres beside booking.Stores.
type Store interface {
	// Properties lists an organisation's properties by ID, blocks
	// included (booking.CatalogStore).
	Properties(ctx context.Context, orgID int64) ([]booking.Property, error)
	// CalendarDays lists a property's per-day settings of [from, to)
	// (booking.CalendarStore).
	CalendarDays(ctx context.Context, propertyID int64, from, to civil.Date) ([]booking.CalendarDay, error)
	// BookingsPage lists bookings newest first (booking.HostCalendarStore).
	BookingsPage(ctx context.Context, orgID int64, q booking.BookingQuery) ([]booking.Booking, error)
	// LedgerEntries lists a booking's entries, oldest first
	// (booking.LedgerStore).
	LedgerEntries(ctx context.Context, bookingID int64) ([]ledger.Entry, error)
	// LedgerEntriesMoved lists every ledger entry of the organisation's
	// bookings that have at least one entry whose UpdatedAt is in [from,
	// to), each with its booking's property, ordered by booking ID then
	// entry ID: the money that moved in a period, with the earlier
	// entries of the same bookings that say how much of it is new.
	LedgerEntriesMoved(ctx context.Context, orgID int64, from, to time.Time) ([]Entry, error)
}

// MaxMonths is the longest span a report covers.
const MaxMonths = 24

// MaxDays is the furthest Upcoming looks ahead.
const MaxDays = 92

// pageSize is how many bookings a read of the store takes at once.
const pageSize = 500

// Service computes an organisation's reports from its Store. It is safe
// for concurrent use.
type Service struct {
	store Store
	clock booking.Clock
}

// Options configure a Service; Store is required.
type Options struct {
	Store Store
	// Clock defaults to the wall clock.
	Clock booking.Clock
}

// New returns a Service. It panics without a Store, a programming error.
func New(o Options) *Service {
	if o.Store == nil {
		panic("reports: New needs a Store")
	}
	if o.Clock == nil {
		o.Clock = booking.SystemClock{}
	}
	return &Service{store: o.Store, clock: o.Clock}
}

// Query selects a report: the months from From to To (both included) and
// one property, or all when PropertyID is 0.
type Query struct {
	Span       Span
	PropertyID int64
}

// Validate checks a query. Errors: CodeInvalid (a month missing, To
// before From: invalid_range; more than MaxMonths months: out_of_range).
func (q Query) Validate() error {
	f := booking.FieldErrors{}
	if q.Span.From.IsZero() {
		f.Add("from", "required")
	}
	if q.Span.To.IsZero() {
		f.Add("to", "required")
	}
	switch {
	case q.Span.From.IsZero() || q.Span.To.IsZero():
	case q.Span.To.Before(q.Span.From):
		f.Add("to", "invalid_range")
	case q.Span.Len() > MaxMonths:
		f.Add("to", "out_of_range")
	}
	return f.Err()
}

// Report computes org's figures for q (see the package doc). Errors:
// CodeInvalid (q.Validate), CodeNotFound (q.PropertyID not of org),
// CodeConflict (amounts in another currency).
func (s *Service) Report(ctx context.Context, org *booking.Organization, q Query) (*Report, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	props, err := s.store.Properties(ctx, org.ID)
	if err != nil {
		return nil, fmt.Errorf("report: properties of org %d: %w", org.ID, err)
	}
	if q.PropertyID != 0 {
		props = slices.DeleteFunc(props, func(p booking.Property) bool { return p.ID != q.PropertyID })
		if len(props) == 0 {
			return nil, &booking.Error{Code: booking.CodeNotFound, Message: "This property does not exist.",
				Params: map[string]string{booking.ParamSubject: "property"}}
		}
	}
	span := q.Span.Range()
	in := Input{Currency: org.Currency, Location: org.Location(), Span: q.Span, Properties: props,
		Closed: map[int64][]civil.Date{}, Ledgers: map[int64][]ledger.Entry{}}
	for _, p := range props {
		days, err := s.store.CalendarDays(ctx, p.ID, span.Start, span.End)
		if err != nil {
			return nil, fmt.Errorf("report: calendar of property %d: %w", p.ID, err)
		}
		for _, d := range days {
			if d.Closed {
				in.Closed[p.ID] = append(in.Closed[p.ID], d.Date)
			}
		}
	}
	in.Bookings, err = s.bookings(ctx, org.ID, booking.BookingQuery{Statuses: []booking.Status{booking.StatusConfirmed, booking.StatusCancelled},
		From: span.Start, To: span.End, PropertyID: q.PropertyID, WithQuote: true})
	if err != nil {
		return nil, err
	}
	for _, b := range in.Bookings {
		if b.Status == booking.StatusCancelled && span.Contains(b.CheckIn) {
			if in.Ledgers[b.ID], err = s.store.LedgerEntries(ctx, b.ID); err != nil {
				return nil, fmt.Errorf("report: ledger of booking %d: %w", b.ID, err)
			}
		}
	}
	loc := in.Location
	if in.Entries, err = s.store.LedgerEntriesMoved(ctx, org.ID, span.Start.In(loc), span.End.In(loc)); err != nil {
		return nil, fmt.Errorf("report: ledger of org %d: %w", org.ID, err)
	}
	return Compute(in)
}

// bookings reads every booking q selects, page after page.
func (s *Service) bookings(ctx context.Context, orgID int64, q booking.BookingQuery) ([]booking.Booking, error) {
	q.Limit = pageSize
	var out []booking.Booking
	for {
		page, err := s.store.BookingsPage(ctx, orgID, q)
		if err != nil {
			return nil, fmt.Errorf("report: bookings of org %d: %w", orgID, err)
		}
		out = append(out, page...)
		if len(page) < pageSize {
			return out, nil
		}
		q.Before = page[len(page)-1].ID
	}
}

// Stay is a booking arriving or leaving.
type Stay struct {
	Date         civil.Date
	BookingID    int64
	PropertyID   int64
	PropertyName string
	GuestName    string
	Guests       int
	CheckIn      civil.Date
	CheckOut     civil.Date
	Status       booking.Status
}

// Upcoming are the arrivals and departures of a few days.
type Upcoming struct {
	// From is today in the organisation's zone; To the day after the
	// last one covered.
	From, To   civil.Date
	Arrivals   []Stay
	Departures []Stay
}

// Upcoming lists the arrivals and departures of confirmed and requested
// bookings from today (in org's zone) for days days, by date then
// property. Errors: CodeInvalid (days outside 1–MaxDays).
func (s *Service) Upcoming(ctx context.Context, org *booking.Organization, days int) (*Upcoming, error) {
	if days < 1 || days > MaxDays {
		return nil, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
			Fields: booking.FieldErrors{"days": {"out_of_range"}}}
	}
	today := civil.Today(s.clock.Now(), org.Location())
	u := &Upcoming{From: today, To: today.AddDays(days), Arrivals: []Stay{}, Departures: []Stay{}}
	props, err := s.store.Properties(ctx, org.ID)
	if err != nil {
		return nil, fmt.Errorf("upcoming: properties of org %d: %w", org.ID, err)
	}
	names := map[int64]string{}
	for _, p := range props {
		names[p.ID] = p.Name
	}
	// A stay leaving today overlaps [today-1, …).
	list, err := s.bookings(ctx, org.ID, booking.BookingQuery{Statuses: []booking.Status{booking.StatusConfirmed, booking.StatusRequested},
		From: today.AddDays(-1), To: u.To})
	if err != nil {
		return nil, err
	}
	window := civil.Range{Start: u.From, End: u.To}
	for _, b := range list {
		st := Stay{BookingID: b.ID, PropertyID: b.PropertyID, PropertyName: names[b.PropertyID], GuestName: b.GuestName,
			Guests: b.Guests, CheckIn: b.CheckIn, CheckOut: b.CheckOut, Status: b.Status}
		if window.Contains(b.CheckIn) {
			st.Date = b.CheckIn
			u.Arrivals = append(u.Arrivals, st)
		}
		if window.Contains(b.CheckOut) {
			st.Date = b.CheckOut
			u.Departures = append(u.Departures, st)
		}
	}
	order := func(a, b Stay) int {
		return cmp.Or(a.Date.Compare(b.Date), cmp.Compare(a.PropertyName, b.PropertyName), cmp.Compare(a.BookingID, b.BookingID))
	}
	slices.SortFunc(u.Arrivals, order)
	slices.SortFunc(u.Departures, order)
	return u, nil
}
