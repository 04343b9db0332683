// Package privacy holds what the GDPR asks of a host about a booking's
// guest (issue #29): a copy of everything staykit keeps about them
// (Export, art. 15 and 20) and the erasure of the person (art. 17), which
// keeps the booking's amounts, dates and payments ledger, records the law
// asks a seller to keep, without the person's name, e-mail address, phone
// number or message. Package host runs both as use cases, audited.
package privacy

import (
	"context"
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/notes"
	"github.com/staykit/staykit/pricing"
)

// Store erases a guest's details; store/sqlite and store/postgres
// implement it (host.Store embeds it), store/storetest checks it.
type Store interface {
	// EraseGuest replaces the guest's details of the booking id (name,
	// e-mail address, phone number, message) with e's, sets its UpdatedAt
	// to e.At, and fails the pending deliveries of mail to the guest of
	// its outbox events, which would otherwise be sent to no one or to an
	// erased address; it deletes the host's notes on the booking (package
	// notes), the guest's review (package review) and the messages
	// between the guest and the host (package conversation), which may
	// name the guest, and its check-in (package checkin: the guests'
	// identity data); it erases the host API's kept answers to requests
	// about the booking (host.Request.BookingID: their bodies, marked
	// Erased) and the host's words declining its changes of dates
	// (package datechange: the change's reason, its event's
	// host_reason), and replaces the buyer of its invoices and credit notes
	// (package invoice) with e.Name and no address, keeping their numbers
	// and amounts, in the same transaction. Amounts, dates, status and
	// ledger are left as they are. Errors: booking.CodeNotFound.
	EraseGuest(ctx context.Context, bookingID int64, e Erasure) error
}

// Erasure is what an erased guest's details become.
type Erasure struct {
	Name    string
	Email   string
	Phone   string
	Message string
	At      time.Time
}

// ErasedName is the name an erased guest's bookings show.
const ErasedName = "Erased guest"

// ErasedDeliveryError is the last error of a mail delivery to a guest
// failed by an erasure.
const ErasedDeliveryError = "guest data erased"

// Anonymous is the erasure of a guest at at: no e-mail address, phone
// number nor message, and ErasedName.
func Anonymous(at time.Time) Erasure { return Erasure{Name: ErasedName, At: at} }

// Erased reports whether b's guest was erased.
func Erased(b booking.Booking) bool {
	return b.GuestName == ErasedName && b.GuestEmail == "" && b.GuestPhone == ""
}

// Live reports whether b still needs its guest's details on today (the
// organisation's date): a pending, requested or confirmed booking whose
// check-out is not past. Its guest cannot be erased yet.
func Live(b booking.Booking, today civil.Date) bool {
	switch b.Status {
	case booking.StatusPending, booking.StatusRequested, booking.StatusConfirmed:
		return !b.CheckOut.Before(today)
	}
	return false
}

// Export is everything staykit keeps about a booking's guest: the
// booking as they made it and its payments, referenced by the payment
// provider's ids (no card data is ever held: the provider keeps it).
type Export struct {
	Booking  ExportedBooking   `json:"booking"`
	Payments []ExportedPayment `json:"payments"`
	// Notes are the host's notes on the booking (package notes), which
	// may name the guest; the caller adds them (AddNotes).
	Notes []ExportedNote `json:"notes"`
	// Checkin is the identity data of the booking's guests entered for
	// the online check-in (package checkin); the caller adds it
	// (AddCheckin).
	Checkin []checkin.Guest `json:"checkin"`
	// Messages are the messages between the guest and the host (package
	// conversation), oldest first; the caller adds them (AddMessage).
	Messages []ExportedMessage `json:"messages"`
}

// ExportedMessage is a message of the booking's guest-host thread.
type ExportedMessage struct {
	// From is "guest" or "host".
	From      string    `json:"from"`
	Body      string    `json:"body"`
	CreatedAt time.Time `json:"created_at"`
}

// AddMessage adds a message of the booking's thread to the export.
func (e *Export) AddMessage(from, body string, at time.Time) {
	e.Messages = append(e.Messages, ExportedMessage{From: from, Body: body, CreatedAt: at.UTC()})
}

// AddCheckin adds the booking's check-in (nil: none) to the export.
func (e *Export) AddCheckin(r *checkin.Record) {
	if r != nil {
		e.Checkin = append(e.Checkin, r.Guests...)
	}
}

// ExportedNote is a host's note on the booking.
type ExportedNote struct {
	Author    string    `json:"author"`
	Body      string    `json:"body"`
	CreatedAt time.Time `json:"created_at"`
}

// AddNotes adds the host's notes on the booking to the export.
func (e *Export) AddNotes(list []notes.Note) {
	for _, n := range list {
		e.Notes = append(e.Notes, ExportedNote{Author: n.Author, Body: n.Body, CreatedAt: n.CreatedAt.UTC()})
	}
}

// ExportedBooking is the booking and the guest's details in it.
type ExportedBooking struct {
	ID              int64       `json:"id"`
	PropertyID      int64       `json:"property_id"`
	Status          string      `json:"status"`
	CheckIn         civil.Date  `json:"check_in"`
	CheckOut        civil.Date  `json:"check_out"`
	Guests          int         `json:"guests"`
	GuestName       string      `json:"guest_name"`
	GuestEmail      string      `json:"guest_email"`
	GuestPhone      string      `json:"guest_phone"`
	Message         string      `json:"message"`
	Locale          string      `json:"locale"`
	CouponCode      string      `json:"coupon_code"`
	Currency        string      `json:"currency"`
	TotalAmount     json.Number `json:"total_amount"`
	PaidAmount      json.Number `json:"paid_amount"`
	PaymentIntentID string      `json:"payment_intent_id"`
	CreatedAt       time.Time   `json:"created_at"`
	UpdatedAt       time.Time   `json:"updated_at"`
	Erased          bool        `json:"erased"`
}

// ExportedPayment is a payments ledger entry, by reference.
type ExportedPayment struct {
	ID         int64       `json:"id"`
	Kind       string      `json:"kind"`
	Status     string      `json:"status"`
	Amount     json.Number `json:"amount"`
	Currency   string      `json:"currency"`
	ProviderID string      `json:"provider_id"`
	CreatedAt  time.Time   `json:"created_at"`
}

// NewExport copies what b and its ledger entries hold about the guest.
func NewExport(b booking.Booking, entries []ledger.Entry) Export {
	e := Export{Booking: ExportedBooking{ID: b.ID, PropertyID: b.PropertyID, Status: string(b.Status),
		CheckIn: b.CheckIn, CheckOut: b.CheckOut, Guests: b.Guests, GuestName: b.GuestName, GuestEmail: b.GuestEmail,
		GuestPhone: b.GuestPhone, Message: b.Message, Locale: b.Locale, CouponCode: b.CouponCode, Currency: b.Currency,
		TotalAmount: amount(b.TotalAmount, b.Currency), PaidAmount: amount(b.PaidAmount, b.Currency), PaymentIntentID: b.PaymentIntentID,
		CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt, Erased: Erased(b)}, Payments: []ExportedPayment{}, Notes: []ExportedNote{}, Checkin: []checkin.Guest{},
		Messages: []ExportedMessage{}}
	for _, x := range entries {
		e.Payments = append(e.Payments, ExportedPayment{ID: x.ID, Kind: string(x.Kind), Status: string(x.Status),
			Amount: amount(pricing.FromMinor(x.Amount, x.Currency), x.Currency), Currency: x.Currency, ProviderID: x.ProviderID, CreatedAt: x.CreatedAt})
	}
	return e
}

// amount is d as a JSON number with the currency's minor units.
func amount(d decimal.Decimal, currency string) json.Number {
	return json.Number(d.StringFixed(pricing.MinorUnits(currency)))
}
