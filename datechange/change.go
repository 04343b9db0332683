package datechange

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/pricing"
)

// Status is where a change stands.
type Status string

// Change statuses. Requested and paying are open: a booking has at most
// one open change (the store refuses a second, booking.CodeConflict).
const (
	// StatusRequested: the host requires approval; the change waits for
	// it until ExpiresAt. Nothing is held or charged meanwhile.
	StatusRequested Status = "requested"
	// StatusPaying: its charge is under way (the provider, or the guest's
	// authentication on the booking page, until the charge's deadline).
	// The new dates are not held meanwhile: they are taken in the write
	// that records the charge succeeded.
	StatusPaying Status = "paying"
	// StatusApplied: the booking has its new stay.
	StatusApplied Status = "applied"
	// StatusDeclined: the host declined the request.
	StatusDeclined Status = "declined"
	// StatusExpired: the host did not answer in time, or the guest did not
	// complete the charge's payment in time (its intent voided).
	StatusExpired Status = "expired"
	// StatusRefused: the charge went through but the new stay could not
	// be taken any more (another guest booked the dates first, the booking
	// was cancelled): the charge went back in full.
	StatusRefused Status = "refused"
)

// Open reports whether a change still waits for something.
func (s Status) Open() bool { return s == StatusRequested || s == StatusPaying }

// OpenStatuses are the statuses of an open change.
var OpenStatuses = []Status{StatusRequested, StatusPaying}

// Reasons (booking.ParamReason) of a change refused before it starts.
const (
	// ReasonNotConfirmed: only a confirmed booking can change
	// (booking.CodeBookingClosed).
	ReasonNotConfirmed = "change_not_confirmed"
	// ReasonStayStarted: the stay has started; changes are possible
	// until the day before arrival (booking.CodeBookingClosed).
	ReasonStayStarted = "change_stay_started"
	// ReasonBalanceInProgress: the balance is being charged, retried or
	// waits for the guest, or is due within the hour: settle it first
	// (booking.CodeBookingClosed).
	ReasonBalanceInProgress = "change_balance_in_progress"
	// ReasonDepositHeld: the security deposit is held (or being held)
	// for the current dates (booking.CodeBookingClosed).
	ReasonDepositHeld = "change_deposit_held"
	// ReasonChangeOpen: another change of the booking is open
	// (booking.CodeConflict).
	ReasonChangeOpen = "change_open"
	// ReasonChangeClosed: the change is no longer open (the host answered
	// already, or it expired) (booking.CodeConflict).
	ReasonChangeClosed = "change_closed"
)

// Request is a guest's wish for new dates or party.
type Request struct {
	CheckIn, CheckOut civil.Date
	Guests            int
	// Locale ("fr" or "en") is the language of the quote's labels; empty:
	// the booking's.
	Locale string
}

// Offer is what a change would do, priced at the moment it is asked.
// Amounts are in the booking's currency.
type Offer struct {
	CheckIn  civil.Date `json:"check_in"`
	CheckOut civil.Date `json:"check_out"`
	Guests   int        `json:"guests"`
	// Quote is the new stay's price, as a checkout of it would be priced
	// now (in the booking's payment mode, with its coupon when it still
	// applies).
	Quote pricing.Quote `json:"quote"`
	// Units, when not nil, are the units Quote prices the new stay on
	// (their own prices, booking.DateGuard.Units): the change applies on
	// one of them, however long after it was offered, or not at all.
	Units []int64 `json:"units,omitempty"`
	// PreviousTotal is the booking's total before the change.
	PreviousTotal decimal.Decimal `json:"previous_total"`
	// Paid is what the booking holds now: received, less what went or is
	// going back.
	Paid decimal.Decimal `json:"paid"`
	// PolicyPercent is the share the cancellation policy refunds now.
	PolicyPercent decimal.Decimal `json:"policy_percent"`
	// Retained is what the policy keeps of a price decrease (Plan).
	Retained decimal.Decimal `json:"retained"`
	// Total is the new total: the new price and Retained.
	Total decimal.Decimal `json:"total"`
	// Charge is charged now, Refund given back now, Balance left to pay
	// by BalanceDueDate.
	Charge         decimal.Decimal `json:"charge"`
	Refund         decimal.Decimal `json:"refund"`
	Balance        decimal.Decimal `json:"balance"`
	BalanceDueDate civil.Date      `json:"balance_due_date"`
	// CouponDropped: the booking's coupon does not apply to the new stay.
	CouponDropped bool `json:"coupon_dropped"`
	// ApprovalRequired: the host approves changes before they apply.
	ApprovalRequired bool `json:"approval_required"`
}

// Change is one change of a booking's dates or party.
type Change struct {
	ID        int64  `json:"-"`
	BookingID int64  `json:"-"`
	OrgID     int64  `json:"-"`
	Status    Status `json:"-"`
	// OldCheckIn, OldCheckOut and OldGuests are the stay it changes from.
	OldCheckIn  civil.Date `json:"old_check_in"`
	OldCheckOut civil.Date `json:"old_check_out"`
	OldGuests   int        `json:"old_guests"`
	Offer       Offer      `json:"offer"`
	// Customer is the provider's customer an on-session charge (a booking
	// without a saved card) belongs to, so that an intent whose answer was
	// lost is found by its key.
	Customer string `json:"customer,omitempty"`
	// EntryKey is the key of its charge's ledger entry
	// (ledger.KindChangeCharge), "" without one.
	EntryKey string `json:"-"`
	// Reason says why it was declined, expired or refused.
	Reason    string    `json:"-"`
	CreatedAt time.Time `json:"-"`
	// ExpiresAt is when a request lapses without the host's answer; zero
	// for other statuses.
	ExpiresAt time.Time `json:"-"`
	UpdatedAt time.Time `json:"-"`
}

// Apply is the one atomic write that gives a booking its new stay.
type Apply struct {
	// Change is stored applied: inserted when its ID is 0, else updated
	// when its status is one of From.
	Change *Change
	From   []Status
	// Was is the booking's stay as the change read it; the booking must
	// still have it, and be confirmed.
	Was civil.Range
	// Stay is the new stay; Guard the property's preparation days and
	// rule-closed nights, checked as CreateBooking checks a new stay's
	// (booking.CreateOptions.DateGuard), the booking's own stay apart.
	Stay  booking.Stay
	Guard booking.DateGuard
	// Booking's amounts, price breakdown and coupon after the change.
	TotalAmount, PaidAmount, BalanceAmount booking.Money
	BalanceDueDate                         civil.Date
	Quote                                  pricing.Quote
	CouponID                               int64
	CouponCode                             string
	// Terms, when not nil, are saved as by TermsStore.SaveTerms (their
	// Version must be the stored one).
	Terms *booking.Terms
	// Settle, when not nil, is an entry whose outcome is saved (as by
	// LedgerStore.UpdateLedgerEntry): the change's charge, succeeded.
	Settle *ledger.Entry
	// Supersede are pending entries the change replaces (a balance or a
	// security deposit hold scheduled for the old dates): each must be
	// pending, never attempted and due after NotDueBefore, and becomes
	// skipped.
	Supersede    []int64
	NotDueBefore time.Time
	// Record are ledger entries written as by RecordLedger (refunds, the
	// new balance); Outbox events as by RecordOutbox (booking.changed),
	// those without a key keyed for the change once it has its id
	// (KeyEvents).
	Record []ledger.Entry
	Outbox []outbox.Event
	At     time.Time
}

// Close is the write that ends an open change without applying it.
type Close struct {
	ID     int64
	From   []Status
	To     Status
	Reason string
	// Settle and Record as in Apply: a charge that went through for a
	// change that cannot apply is settled succeeded with the refunds
	// that give it back. Outbox events are written as by RecordOutbox
	// (booking.change_declined, booking.change_expired).
	Settle *ledger.Entry
	Record []ledger.Entry
	Outbox []outbox.Event
	At     time.Time
}

// Store keeps date changes; store/sqlite and store/postgres implement it,
// store/storetest checks it. Methods that find one change return a
// booking.CodeNotFound error when there is none.
type Store interface {
	// SaveDateChange stores c with record (its charge's entry, as by
	// RecordLedger) and events (as by RecordOutbox; those without a key
	// keyed for c once it has its id, KeyEvents) in one atomic step:
	// inserted when c.ID is 0 (setting it), else its status, entry key,
	// customer, offer, expiry and UpdatedAt updated when its status is
	// one of from. Errors:
	// booking.CodeConflict (reason ReasonChangeOpen) when the booking has
	// another open change; booking.CodeConflict (reason
	// ReasonChangeClosed) when its status is not in from;
	// booking.CodeNotFound (booking).
	SaveDateChange(ctx context.Context, c *Change, from []Status, record []ledger.Entry, events []outbox.Event, at time.Time) error
	// ApplyDateChange gives a booking its new stay (see Apply) in one
	// atomic step, and returns the booking. The new stay is checked as
	// CreateBooking checks a new one, under the same lock: no block nor
	// other booking holding dates at a.At overlaps it widened by the
	// preparation days (a.Guard.Guarded), and no night of it is closed;
	// the booking's own stay does not count. Errors: booking.CodeUnavailable;
	// booking.CodeConflict when the booking is not confirmed or its stay
	// is not a.Was any more, when the change's status is not in a.From
	// (reason ReasonChangeClosed) or another change is open (reason
	// ReasonChangeOpen), when a superseded entry was sent meanwhile, or
	// when the terms' version is stale; booking.CodeNotFound.
	ApplyDateChange(ctx context.Context, a Apply) (*booking.Booking, error)
	// CloseDateChange ends an open change (see Close) in one atomic step.
	// Errors: booking.CodeConflict (reason ReasonChangeClosed) when its
	// status is not in c.From; booking.CodeNotFound.
	CloseDateChange(ctx context.Context, c Close) (*Change, error)
	// DateChange finds a change of an organisation.
	DateChange(ctx context.Context, orgID, id int64) (*Change, error)
	// DateChangeByEntry finds the change whose charge has entry key.
	DateChangeByEntry(ctx context.Context, key string) (*Change, error)
	// DateChanges lists a booking's changes, newest first.
	DateChanges(ctx context.Context, bookingID int64) ([]Change, error)
	// DateChangeApproval reports whether an organisation's host approves
	// changes before they apply (false when never set).
	DateChangeApproval(ctx context.Context, orgID int64) (bool, error)
	// SetDateChangeApproval sets it. Errors: booking.CodeNotFound.
	SetDateChangeApproval(ctx context.Context, orgID int64, required bool) error

	// What a change reads of the bookings, as booking's stores have it.
	BookingByToken(ctx context.Context, orgID int64, token string) (*booking.Booking, error)
	BookingByID(ctx context.Context, id int64) (*booking.Booking, error)
	OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error)
	Terms(ctx context.Context, bookingID int64) (*booking.Terms, error)
	LedgerEntries(ctx context.Context, bookingID int64) ([]ledger.Entry, error)
}

// ErrChangeOpen is the refusal of a second open change.
func ErrChangeOpen() error {
	return &booking.Error{Code: booking.CodeConflict, Message: "Another change of this booking is waiting (for the host's answer or its payment).",
		Params: map[string]string{booking.ParamReason: ReasonChangeOpen}}
}

// ErrChangeClosed is the refusal of a change that is no longer open.
func ErrChangeClosed() error {
	return &booking.Error{Code: booking.CodeConflict, Message: "This change is no longer waiting: it was answered, applied or has expired.",
		Params: map[string]string{booking.ParamReason: ReasonChangeClosed}}
}

// ErrChangeNotFound is the error of an unknown change.
func ErrChangeNotFound() error {
	return &booking.Error{Code: booking.CodeNotFound, Message: "This change does not exist.",
		Params: map[string]string{booking.ParamSubject: "date_change"}}
}
