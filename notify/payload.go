package notify

import (
	"context"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/pricing"
)

// Event is the JSON body of a webhook delivery.
type Event struct {
	// ID is the idempotency id, also sent as webhook-id.
	ID      string    `json:"id"`
	Type    string    `json:"type"`
	Created time.Time `json:"created"`
	Data    EventData `json:"data"`
}

// EventData is the booking as its public status shows it plus the fields
// only the host sees (the guest's contact details), as it is when the
// event is sent, and the ledger entry of payment events.
type EventData struct {
	Organization string       `json:"organization"`
	Booking      *BookingData `json:"booking,omitempty"`
	Payment      *PaymentData `json:"payment,omitempty"`
	// Change is the change of dates or party of a change event
	// (booking.change_requested, booking.changed, booking.change_declined,
	// booking.change_expired): the stay before and the one asked for, as
	// they were when it happened.
	Change *ChangeData `json:"change,omitempty"`
}

// BookingData is a booking in a webhook event; amounts are decimal strings.
type BookingData struct {
	Token       string     `json:"token"`
	Status      string     `json:"status"`
	PropertyID  int64      `json:"property_id"`
	CheckIn     string     `json:"check_in"`
	CheckOut    string     `json:"check_out"`
	Nights      int        `json:"nights"`
	Guests      int        `json:"guests"`
	Currency    string     `json:"currency"`
	PaymentMode string     `json:"payment_mode"`
	Total       string     `json:"total_amount"`
	Charge      string     `json:"charge_amount"`
	Paid        string     `json:"paid_amount"`
	Balance     string     `json:"balance_amount"`
	CouponCode  string     `json:"coupon_code,omitempty"`
	Locale      string     `json:"locale"`
	CreatedAt   time.Time  `json:"created_at"`
	ConfirmedAt *time.Time `json:"confirmed_at,omitempty"`
	ExpiresAt   *time.Time `json:"expires_at,omitempty"`
	// Host-side fields.
	ID         int64  `json:"id"`
	GuestName  string `json:"guest_name"`
	GuestEmail string `json:"guest_email"`
	GuestPhone string `json:"guest_phone"`
	Message    string `json:"message,omitempty"`
}

// PaymentData is the ledger entry of a payment event.
type PaymentData struct {
	Kind     string `json:"kind"`
	Status   string `json:"status"`
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	Reason   string `json:"reason,omitempty"`
	Error    string `json:"error,omitempty"`
}

// PayloadStore is what EventBody reads: notify.Store's lookups.
type PayloadStore interface {
	OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error)
	BookingByID(ctx context.Context, id int64) (*booking.Booking, error)
	LedgerEntries(ctx context.Context, bookingID int64) ([]ledger.Entry, error)
}

// EventBody is the body a webhook delivery of ev carries if sent now:
// the booking as it is now, the event's ledger entry. The event feed
// (package eventfeed) serves the same data.
func EventBody(ctx context.Context, s PayloadStore, ev *outbox.Event) (Event, error) {
	org, b, entry, err := subjects(ctx, s, ev)
	if err != nil {
		return Event{}, err
	}
	return payload(ev, org, b, entry), nil
}

// subjects reads what ev tells about.
func subjects(ctx context.Context, s PayloadStore, ev *outbox.Event) (*booking.Organization, *booking.Booking, *ledger.Entry, error) {
	org, err := s.OrganizationByID(ctx, ev.OrgID)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("organisation %d: %w", ev.OrgID, err)
	}
	var b *booking.Booking
	if ev.BookingID != 0 {
		if b, err = s.BookingByID(ctx, ev.BookingID); err != nil {
			return nil, nil, nil, fmt.Errorf("booking %d: %w", ev.BookingID, err)
		}
	}
	var entry *ledger.Entry
	if ev.EntryID != 0 && b != nil {
		entries, err := s.LedgerEntries(ctx, b.ID)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("ledger of booking %d: %w", b.ID, err)
		}
		for i := range entries {
			if entries[i].ID == ev.EntryID {
				entry = &entries[i]
			}
		}
	}
	return org, b, entry, nil
}

func payload(ev *outbox.Event, org *booking.Organization, b *booking.Booking, e *ledger.Entry) Event {
	out := Event{ID: MessageID(ev), Type: ev.Kind, Created: ev.CreatedAt, Data: EventData{Organization: org.Slug}}
	if b != nil {
		places := pricing.MinorUnits(b.Currency)
		bd := &BookingData{Token: b.Token, Status: string(b.Status), PropertyID: b.PropertyID,
			CheckIn: b.CheckIn.String(), CheckOut: b.CheckOut.String(), Nights: b.Nights(), Guests: b.Guests,
			Currency: b.Currency, PaymentMode: string(b.PaymentMode),
			Total: b.TotalAmount.StringFixed(places), Charge: b.ChargeAmount.StringFixed(places),
			Paid: b.PaidAmount.StringFixed(places), Balance: b.BalanceAmount.StringFixed(places),
			CouponCode: b.CouponCode, Locale: b.Locale, CreatedAt: b.CreatedAt,
			ID: b.ID, GuestName: b.GuestName, GuestEmail: b.GuestEmail, GuestPhone: b.GuestPhone, Message: b.Message}
		if !b.ConfirmedAt.IsZero() {
			t := b.ConfirmedAt
			bd.ConfirmedAt = &t
		}
		if !b.ExpiresAt.IsZero() {
			t := b.ExpiresAt
			bd.ExpiresAt = &t
		}
		out.Data.Booking = bd
	}
	out.Data.Change = ChangeOf(ev)
	if e != nil {
		cur := e.Currency
		out.Data.Payment = &PaymentData{Kind: string(e.Kind), Status: string(e.Status), Currency: cur,
			Amount: pricing.FromMinor(e.Amount, cur).StringFixed(pricing.MinorUnits(cur)), Reason: e.Reason, Error: e.LastError}
	}
	return out
}
