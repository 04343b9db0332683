package booking

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// Status is where a booking stands in its lifecycle:
//
//	checkout ──> pending ──(paid)──> confirmed ──> cancelled
//	                │  └──(request mode: authorised)──> requested ──approve──> confirmed
//	                │                                      └──decline / lapse──> declined | expired
//	                └──(hold lapses unpaid)──> expired
type Status string

// Booking statuses.
const (
	StatusPending   Status = "pending"
	StatusRequested Status = "requested"
	StatusConfirmed Status = "confirmed"
	StatusDeclined  Status = "declined"
	StatusExpired   Status = "expired"
	StatusCancelled Status = "cancelled"
)

// MaxAuthorizationHours is how long a card authorisation lasts (7 days); a
// request hold never outlives it.
const MaxAuthorizationHours = 7 * 24

// Booking is a guest's stay at a property, from checkout on.
type Booking struct {
	ID         int64 `json:"id"`
	OrgID      int64 `json:"org_id"`
	PropertyID int64 `json:"property_id"`
	// UnitID is the unit of the property the stay holds (Unit): chosen
	// by the store when the booking is created, unless set then; moved
	// by the host (package units).
	UnitID int64 `json:"unit_id,omitempty"`
	// Token identifies the booking to the guest: 128+ random bits, URL-safe.
	Token    string     `json:"token"`
	Status   Status     `json:"status"`
	CheckIn  civil.Date `json:"check_in"`
	CheckOut civil.Date `json:"check_out"`
	Guests   int        `json:"guests"`

	GuestName  string `json:"guest_name"`
	GuestEmail string `json:"guest_email"`
	GuestPhone string `json:"guest_phone"`
	Message    string `json:"message,omitempty"`
	Locale     string `json:"locale"`

	// CouponID is the redeemed coupon, 0 without one.
	CouponID   int64  `json:"coupon_id,omitempty"`
	CouponCode string `json:"coupon_code,omitempty"`

	Currency       string              `json:"currency"`
	PaymentMode    pricing.PaymentMode `json:"payment_mode"`
	TotalAmount    decimal.Decimal     `json:"total_amount"`
	ChargeAmount   decimal.Decimal     `json:"charge_amount"`
	PaidAmount     decimal.Decimal     `json:"paid_amount"`
	BalanceAmount  decimal.Decimal     `json:"balance_amount"`
	BalanceDueDate civil.Date          `json:"balance_due_date"`
	// Quote is the full price breakdown at checkout.
	Quote pricing.Quote `json:"quote"`

	PaymentIntentID string `json:"payment_intent_id,omitempty"`
	ClientSecret    string `json:"-"`

	CreatedAt time.Time `json:"created_at"`
	// ExpiresAt is when a pending or requested hold lapses; zero otherwise.
	ExpiresAt   time.Time `json:"expires_at"`
	ConfirmedAt time.Time `json:"confirmed_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// Range returns the nights of the stay.
func (b Booking) Range() civil.Range { return civil.Range{Start: b.CheckIn, End: b.CheckOut} }

// Nights returns the number of nights of the stay.
func (b Booking) Nights() int { return b.Range().Nights() }

// HoldsDates reports whether the booking keeps its dates from others at now:
// requested and confirmed bookings do, pending ones until they expire.
func (b Booking) HoldsDates(now time.Time) bool {
	switch b.Status {
	case StatusConfirmed, StatusRequested:
		return true
	case StatusPending:
		return now.Before(b.ExpiresAt)
	}
	return false
}

// HoldingStatuses are the statuses whose bookings may hold dates; a pending
// one only while unexpired. Stores use them to test for overlap.
var HoldingStatuses = []Status{StatusPending, StatusRequested, StatusConfirmed}

// Closed reports whether the booking ended without a stay: expired,
// declined or cancelled. A closed booking keeps of its money only what its
// decision kept (see ledger.KindDecision).
func (b Booking) Closed() bool {
	return b.Status == StatusExpired || b.Status == StatusDeclined || b.Status == StatusCancelled
}
