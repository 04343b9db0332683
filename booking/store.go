package booking

import (
	"context"
	"time"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/rules"
)

// Stores are the store seams a Service consumes, one small interface per
// aggregate. One database value fills every field: store/sqlite's and
// store/postgres's DB.Stores return them, so an embedder writes
//
//	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: p})
//
// A read model (store/cache) or a test replaces the fields it wraps. The
// interfaces' methods are promoted, so a Stores value can be used where a
// whole database is meant. Methods that find one thing return a
// CodeNotFound *Error when there is none. Implementations are safe for
// concurrent use; store/storetest checks the contract.
type Stores struct {
	CatalogStore
	BookingStore
	LedgerStore
	TermsStore
	CalendarStore
	PaymentAccountStore
	OutboxStore
	// HostCalendarStore is the host's calendar and property writes and
	// paged booking lists (package host); a read model wraps it so that
	// its writes forget what they change.
	HostCalendarStore
	// HostRequestPurger serves Service.PurgeHostRequests.
	HostRequestPurger
	// UnitPriceReader reads units' own prices (issue #27); nil prices
	// every stay as its property, whatever its unit.
	UnitPriceReader
}

// empty reports whether s has no seam at all.
func (s Stores) empty() bool {
	return s.CatalogStore == nil && s.BookingStore == nil && s.LedgerStore == nil && s.TermsStore == nil &&
		s.CalendarStore == nil && s.PaymentAccountStore == nil && s.OutboxStore == nil &&
		s.HostCalendarStore == nil && s.HostRequestPurger == nil
}

// LedgerStore keeps the payments ledger (package ledger): what moved, or
// must move, at the payment provider for each booking.
type LedgerStore interface {
	// RecordLedger stores entries and sets their IDs. An entry whose Key
	// is recorded already is not stored again: it gets the stored entry's
	// ID and fields, so writing the same entry twice (a retry, a second
	// replica) is harmless. Zero CreatedAt, UpdatedAt and NextAttemptAt
	// become now. Errors: CodeNotFound (booking), CodeInvalid (no key).
	RecordLedger(ctx context.Context, entries []ledger.Entry, now time.Time) ([]ledger.Entry, error)
	// LedgerEntries lists a booking's entries, oldest first.
	LedgerEntries(ctx context.Context, bookingID int64) ([]ledger.Entry, error)
	// LedgerEntryByProviderID finds the entry of a provider's refund or
	// dispute id. Errors: CodeNotFound.
	LedgerEntryByProviderID(ctx context.Context, providerID string) (*ledger.Entry, error)
	// ClaimLedgerEntries returns up to limit pending entries due at now,
	// oldest first, and in the same atomic step moves their NextAttemptAt
	// to leaseUntil, so that another worker (another replica) does not
	// take them until then.
	ClaimLedgerEntries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]ledger.Entry, error)
	// UpdateLedgerEntry saves e's Status, ProviderID, Attempts,
	// NextAttemptAt, LastError and UpdatedAt. Errors: CodeNotFound.
	UpdateLedgerEntry(ctx context.Context, e *ledger.Entry) error
}

// CatalogStore holds what a host sets up: organisations, properties (with
// rates, fees, taxes and blocks) and coupons.
type CatalogStore interface {
	// CreateOrganization stores o and sets its ID. Errors: CodeConflict
	// when the slug is taken, CodeInvalid.
	CreateOrganization(ctx context.Context, o *Organization) error
	// UpdateOrganization replaces the organisation with o.ID. Errors:
	// CodeNotFound, CodeConflict (slug taken).
	UpdateOrganization(ctx context.Context, o *Organization) error
	// OrganizationBySlug finds an organisation, enabled or not. Errors:
	// CodeNotFound.
	OrganizationBySlug(ctx context.Context, slug string) (*Organization, error)
	// OrganizationByID finds an organisation, enabled or not. Errors:
	// CodeNotFound.
	OrganizationByID(ctx context.Context, id int64) (*Organization, error)
	// Organizations lists every organisation by slug.
	Organizations(ctx context.Context) ([]Organization, error)

	// CreateProperty stores p (with its rates and blocks) and sets its ID
	// and its blocks' IDs. Errors: CodeNotFound (organisation).
	CreateProperty(ctx context.Context, p *Property) error
	// UpdateProperty replaces the property with p.ID, rates and blocks
	// included. Errors: CodeNotFound.
	UpdateProperty(ctx context.Context, p *Property) error
	// Property finds a property of an organisation, blocks included.
	// Errors: CodeNotFound, also when it belongs to another organisation.
	Property(ctx context.Context, orgID, propertyID int64) (*Property, error)
	// Properties lists an organisation's properties by ID, blocks included.
	Properties(ctx context.Context, orgID int64) ([]Property, error)
	// AddBlock adds an owner block to a property and sets b.ID: on one
	// unit (b.UnitID, an active unit of the property) or on every unit (0).
	// Errors: CodeNotFound (property, or unit); CodeUnavailable when it
	// overlaps a booking holding dates at now on a unit it takes, or on a
	// linked property (Property.Linked).
	AddBlock(ctx context.Context, propertyID int64, b *Block, now time.Time) error
	// RemoveBlock deletes a block. Errors: CodeNotFound.
	RemoveBlock(ctx context.Context, propertyID, blockID int64) error

	// CreateCoupon stores c (code normalised) and sets its ID. Errors:
	// CodeConflict when the organisation has that code already;
	// CodeNotFound (organisation).
	CreateCoupon(ctx context.Context, c *coupon.Coupon) error
	// UpdateCoupon replaces the coupon with c.ID. Errors: CodeNotFound,
	// CodeConflict (code taken).
	UpdateCoupon(ctx context.Context, c *coupon.Coupon) error
	// CouponByCode finds a coupon by code, case-insensitively. Errors:
	// CodeNotFound.
	CouponByCode(ctx context.Context, orgID int64, code string) (*coupon.Coupon, error)
	// CouponRedemptions counts the bookings holding the coupon at now
	// (requested, confirmed, and unexpired pending).
	CouponRedemptions(ctx context.Context, couponID int64, now time.Time) (int, error)
}

// BookingStore holds bookings and the records that make payment handling
// idempotent.
type BookingStore interface {
	// CreateBooking inserts b, a pending booking (with its payment intent
	// and client secret when b has them: a checkout's only write), and
	// sets its ID and its UnitID. In one atomic step it chooses the unit
	// the stay holds — b.UnitID when set (an active unit of the property),
	// else the best fit (BestUnit) among the property's active units —
	// such that no owner block and no booking holding dates at c.Now on
	// that unit, no block of the whole property, and no block nor booking
	// holding dates of a linked property (Property.Linked) overlaps b's
	// stay widened by the preparation days (c.Guarded); checks that no
	// night of the stay is closed (c.ClosedNight over
	// the calendar days stored at that step), that the coupon (if
	// b.CouponID) has fewer than c.MaxRedemptions holders (0 =
	// unlimited), and records the idempotency key (if set), the terms and
	// the payment account (if set). A host closing nights of the stay
	// (ApplyCalendar) takes turns with it, so that only one of the two
	// succeeds. Errors: CodeUnavailable (dates taken, kept for
	// preparation, or closed), coupon_exhausted, CodeConflict (key
	// already recorded, with *IdempotencyConflict as Err; checked first,
	// so a retry finds its own booking rather than its own dates taken),
	// CodeInvalid (b not pending, or CheckOut not after CheckIn),
	// CodeNotFound (property not of b.OrgID, or b.UnitID no active unit
	// of it). An empty Status becomes
	// pending; zero CreatedAt, UpdatedAt and Idempotency.CreatedAt become
	// c.Now. Records of the key older than IdempotencyWindow are
	// forgotten.
	CreateBooking(ctx context.Context, b *Booking, c CreateOptions) error
	// DeleteBooking removes a pending booking that never reached the
	// payment provider, with its idempotency record. (A checkout no
	// longer needs it: it writes nothing until its intent exists.)
	// Errors: CodeNotFound, CodeConflict (not pending).
	DeleteBooking(ctx context.Context, id int64) error
	// SetPaymentIntent records the intent of a pending booking. (A
	// checkout stores its intent with the booking, in CreateBooking.)
	// Errors: CodeNotFound.
	SetPaymentIntent(ctx context.Context, id int64, intentID, clientSecret string) error
	// Transition moves a booking from one of t.From to t.To in one
	// conditional update. When t.ClaimDates is set it first checks, in the
	// same atomic step, that no other booking holding dates at t.At nor
	// any block overlaps the stay on the booking's unit (nor on a linked
	// property, as CreateBooking checks); and, when the booking does not
	// hold its dates at t.At (a late payment's re-claim), that none
	// overlaps the stay widened by the preparation days (t.Guarded) and
	// that no night of it is closed (t.ClosedNight over the calendar days
	// stored at that step), as CreateBooking does, taking turns with the
	// same writers: the booking keeps its unit when it is free, else it
	// takes the best fit of the others (BestUnit), so that a late payment
	// confirms a stay whenever a checkout could book it. Errors: CodeNotFound; CodeConflict when the status is not
	// in t.From (or, with t.OnlyExpired, the hold has not lapsed);
	// CodeUnavailable when the dates cannot be claimed.
	Transition(ctx context.Context, id int64, t Transition) (*Booking, error)

	// BookingByToken finds a booking of an organisation. Errors:
	// CodeNotFound, also for another organisation's token.
	BookingByToken(ctx context.Context, orgID int64, token string) (*Booking, error)
	// BookingByID finds a booking. Errors: CodeNotFound.
	BookingByID(ctx context.Context, id int64) (*Booking, error)
	// BookingByIntent finds the booking paid by an intent. Errors:
	// CodeNotFound.
	BookingByIntent(ctx context.Context, intentID string) (*Booking, error)
	// Bookings lists an organisation's bookings, newest first, optionally
	// only those with one of statuses.
	Bookings(ctx context.Context, orgID int64, statuses ...Status) ([]Booking, error)
	// BookingsArriving lists an organisation's bookings in status whose
	// stay starts on day, by ID: what is reminded before arrival, found
	// without reading the organisation's other bookings.
	BookingsArriving(ctx context.Context, orgID int64, day civil.Date, status Status) ([]Booking, error)
	// Occupied returns the nights taken on a property between from and to
	// (half-open), by blocks and by bookings holding dates at now: whole
	// ranges, not clipped, ordered by start, each with the unit it takes
	// (Hold.Unit; 0 for a block of the whole property, and for the blocks
	// and bookings of a linked property, Property.Linked, which take every
	// unit) and, for a pending booking, when it lapses (Hold.Until).
	Occupied(ctx context.Context, propertyID int64, from, to civil.Date, now time.Time) ([]Hold, error)
	// LapsedHolds returns pending and requested bookings whose ExpiresAt
	// is at or before now, oldest first, at most limit (≤ 0: no limit).
	LapsedHolds(ctx context.Context, now time.Time, limit int) ([]Booking, error)

	// IdempotencyRecord finds the record of a key within a scope, ignoring
	// records created before notBefore. Errors: CodeNotFound.
	IdempotencyRecord(ctx context.Context, orgID int64, scope, key string, notBefore time.Time) (*IdempotencyRecord, error)
	// SaveIdempotencyRecord stores r unless the key is already recorded
	// (after notBefore), in which case it returns the existing record and
	// CodeConflict.
	SaveIdempotencyRecord(ctx context.Context, r *IdempotencyRecord, notBefore time.Time) (*IdempotencyRecord, error)

	// MarkEventProcessed records a provider event id. It reports false when
	// the id was recorded already.
	MarkEventProcessed(ctx context.Context, eventID string, at time.Time) (bool, error)
	// EventProcessed reports whether an event id is recorded.
	EventProcessed(ctx context.Context, eventID string) (bool, error)
}

// CreateOptions are the atomic side conditions of CreateBooking.
type CreateOptions struct {
	// Now decides which pending holds still block.
	Now time.Time
	// MaxRedemptions caps the coupon's holders; 0 = unlimited.
	MaxRedemptions int
	// Idempotency, when Key is set, is recorded with the booking; its
	// BookingID is filled in by the store.
	Idempotency IdempotencyRecord
	// Terms, when not nil, are stored with the booking as by SaveTerms of
	// new terms (Version 0), in the same atomic step: one write instead
	// of two per checkout. On success the store fills in their BookingID
	// and sets Version to 1.
	Terms *Terms
	// DateGuard is the property's preparation days and the nights its
	// own rules close: the stay is refused when it overlaps another
	// holder's range widened by the preparation days (Guarded) or when
	// one of its nights is closed (ClosedNight).
	DateGuard
	// PaymentAccount, when not empty, is recorded as the booking's
	// payment account (as by SetBookingPaymentAccount) in the same atomic
	// step, so that no booking exists whose account is unknown.
	PaymentAccount string
}

// DateGuard is what keeps a stay off dates beyond another stay or block
// overlapping it: the property's preparation days and the nights its own
// stay rules close. CreateBooking checks it for a new stay, and
// Transition for a booking that claims its dates back (ClaimDates), so
// that a late payment cannot confirm a stay a checkout could not book.
// The zero value guards nothing: overlaps alone count.
type DateGuard struct {
	// PreparationDaysBefore and PreparationDaysAfter are the property's
	// preparation days (rules.Set): the larger of them is kept free
	// between the stay and every other stay and block (rules.Set.Gap).
	// The stay is refused when it overlaps another holder's range widened
	// by it (rules.Set.Reserved), which is the stay's range widened the
	// same way: see Guarded. Negative values count as zero.
	PreparationDaysBefore, PreparationDaysAfter int
	// Units, when not nil, are the only units the stay may hold: those
	// priced exactly as the stay was priced (a property whose units have
	// prices of their own, UnitPrice), so that a guest quoted the price
	// of the cheapest unit is not sold a dearer one. Nil: any active unit
	// of the property. A store choosing among them still picks the best
	// fit (BestUnit); none of them free is CodeUnavailable.
	Units []int64
	// RuleClosed are the nights the property's own stay rules close
	// (rules.Day.Closed of its rate plan), as the caller read them. The
	// stay is refused when one of its nights is closed: by the calendar
	// day stored for that date (CalendarStore), read in the same atomic
	// step, or, when no calendar day is stored for it, by RuleClosed. See
	// ClosedNight.
	RuleClosed []civil.Date
}

// Guarded returns the range no other holder (booking holding dates, or
// block) may overlap for stay to be free under g's preparation days: stay
// widened on both sides by the gap kept between stays (rules.Set.Gap). A
// holder overlaps the result exactly when its range widened by
// rules.Set.Reserved overlaps stay.
func (g DateGuard) Guarded(stay civil.Range) civil.Range {
	gap := rules.Set{PreparationDaysBefore: g.PreparationDaysBefore, PreparationDaysAfter: g.PreparationDaysAfter}.Gap()
	return civil.Range{Start: stay.Start.AddDays(-gap), End: stay.End.AddDays(gap)}
}

// ClosedNight reports whether a night of stay is closed, given the
// calendar days stored for the stay's dates (others are ignored): a
// stored day decides for its date, and a date without one is closed when
// g.RuleClosed lists it. This is how Service.withCalendar merges the
// calendar over the property's stay rules, so that a store decides as
// the quote does.
func (g DateGuard) ClosedNight(stay civil.Range, stored []CalendarDay) bool {
	decided := make(map[civil.Date]bool, len(stored))
	for _, d := range stored {
		if !stay.Contains(d.Date) {
			continue
		}
		if d.Closed {
			return true
		}
		decided[d.Date] = true
	}
	for _, d := range g.RuleClosed {
		if stay.Contains(d) && !decided[d] {
			return true
		}
	}
	return false
}

// Transition is one conditional status change.
type Transition struct {
	From []Status
	To   Status
	At   time.Time
	// OnlyExpired requires ExpiresAt <= At (the hold has lapsed).
	OnlyExpired bool
	// ClaimDates requires the stay to be free of other holders and
	// blocks. A booking that does not hold its dates at At (expired, or
	// pending past its ExpiresAt) claims them as CreateBooking takes a
	// new stay's: DateGuard applies too. One that still holds them keeps
	// them, whatever the guard says now (preparation days raised or
	// nights closed by the rules since its checkout).
	ClaimDates bool
	// DateGuard, with ClaimDates, is the property's preparation days and
	// rule-closed nights, as for CreateBooking (see ClaimDates for when
	// it applies); ignored without ClaimDates.
	DateGuard
	// ExpiresAt, when non-nil, replaces the hold's expiry (zero clears it).
	ExpiresAt *time.Time
	// PaidAmount, when non-nil, replaces the amount received.
	PaidAmount *Money
	// Confirmed sets ConfirmedAt to At.
	Confirmed bool
	// Record are ledger entries written in the same atomic step, as by
	// RecordLedger (BookingID set to the booking's), so that a status
	// change and the money movement it needs are stored together or not
	// at all.
	Record []ledger.Entry
	// Outbox are events written in the same atomic step, as by
	// RecordOutbox (BookingID set to the booking's), so that a change and
	// the messages telling about it are stored together or not at all.
	Outbox []outbox.Event
}

// IdempotencyRecord remembers a request made with an Idempotency-Key.
type IdempotencyRecord struct {
	OrgID int64
	// Scope separates keys of different operations ("checkout",
	// "confirm:{token}").
	Scope string
	Key   string
	// RequestHash identifies the request body; the same key with another
	// hash is a conflict.
	RequestHash string
	BookingID   int64
	CreatedAt   time.Time
}

// IdempotencyConflict is the Err of the CodeConflict that CreateBooking
// returns when the key is recorded already.
type IdempotencyConflict struct {
	Existing IdempotencyRecord
}

func (e *IdempotencyConflict) Error() string { return "idempotency key already used" }

// PrepareCreate checks a booking for CreateBooking and fills in what the
// contract defaults, so that every Store applies the same rules: the status
// becomes pending, zero CreatedAt and UpdatedAt become c.Now, and the
// idempotency record takes the booking's organisation and, when zero,
// c.Now as its CreatedAt. Errors: CodeInvalid (not pending, or check-out
// not after check-in).
func PrepareCreate(b Booking, c CreateOptions) (Booking, IdempotencyRecord, error) {
	if b.Status != "" && b.Status != StatusPending {
		return Booking{}, IdempotencyRecord{}, Errorf(CodeInvalid, "A new booking must be pending, not %s.", b.Status)
	}
	if !b.CheckIn.Before(b.CheckOut) {
		return Booking{}, IdempotencyRecord{}, &Error{Code: CodeInvalid, Message: "The check-out must be after the check-in.",
			Fields: FieldErrors{"check_out": {"invalid_range"}}}
	}
	b.Status = StatusPending
	if b.CreatedAt.IsZero() {
		b.CreatedAt = c.Now
	}
	if b.UpdatedAt.IsZero() {
		b.UpdatedAt = b.CreatedAt
	}
	key := c.Idempotency
	key.OrgID = b.OrgID
	if key.CreatedAt.IsZero() {
		key.CreatedAt = c.Now
	}
	return b, key, nil
}

// PrepareLedger checks entries for RecordLedger and fills in what the
// contract defaults, so that every Store applies the same rules. Errors:
// CodeInvalid (no key, no kind or status, or no booking).
func PrepareLedger(entries []ledger.Entry, bookingID int64, now time.Time) ([]ledger.Entry, error) {
	out := make([]ledger.Entry, len(entries))
	for i, e := range entries {
		if bookingID != 0 {
			e.BookingID = bookingID
		}
		if e.Key == "" || e.Kind == "" || e.Status == "" || e.BookingID == 0 {
			return nil, Errorf(CodeInvalid, "A ledger entry needs a booking, a kind, a status and an idempotency key.")
		}
		if e.CreatedAt.IsZero() {
			e.CreatedAt = now
		}
		if e.UpdatedAt.IsZero() {
			e.UpdatedAt = e.CreatedAt
		}
		if e.NextAttemptAt.IsZero() {
			e.NextAttemptAt = now
		}
		out[i] = e
	}
	return out, nil
}
