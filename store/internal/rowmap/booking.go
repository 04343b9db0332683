package rowmap

import (
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/storedform"
)

// BookingColumns are the columns of bookings, in the order ScanBooking
// reads them.
const BookingColumns = `id, org_id, property_id, token, status, check_in, check_out, guests,
	guest_name, guest_email, guest_phone, message, locale, coupon_id, coupon_code, currency,
	payment_mode, total_amount, charge_amount, paid_amount, balance_amount, balance_due_date,
	quote, payment_intent_id, client_secret, created_at, expires_at, confirmed_at, updated_at, unit_id`

// BookingDataColumns are BookingColumns after id, in the order of
// BookingArgs.
var BookingDataColumns = strings.TrimPrefix(BookingColumns, "id, ")

// BookingArgs returns b's columns after id, in BookingDataColumns order.
func BookingArgs(c Codec, b *booking.Booking) ([]any, error) {
	quote, err := storedform.EncodeQuote(b.Quote)
	if err != nil {
		return nil, err
	}
	return []any{b.OrgID, b.PropertyID, b.Token, string(b.Status), c.DayArg(b.CheckIn),
		c.DayArg(b.CheckOut), b.Guests, b.GuestName, b.GuestEmail, b.GuestPhone, b.Message, b.Locale,
		NullID(b.CouponID), b.CouponCode, b.Currency, string(b.PaymentMode), c.MoneyArg(b.TotalAmount),
		c.MoneyArg(b.ChargeAmount), c.MoneyArg(b.PaidAmount), c.MoneyArg(b.BalanceAmount),
		Date(b.BalanceDueDate), c.JSONArg(quote), NullString(b.PaymentIntentID), b.ClientSecret,
		c.InstantArg(b.CreatedAt), c.InstantArg(b.ExpiresAt), c.InstantArg(b.ConfirmedAt),
		c.InstantArg(b.UpdatedAt), NullID(b.UnitID)}, nil
}

// SetBookingArgsUnit sets the unit of args, made by BookingArgs before
// the unit was chosen (the unit is the last column), so that a store can
// encode a booking before its write lock and choose the unit under it.
func SetBookingArgsUnit(args []any, unitID int64) {
	args[len(args)-1] = NullID(unitID)
}

// ScanBooking reads a row of BookingColumns.
func ScanBooking(c Codec, s Scanner) (*booking.Booking, error) {
	var b booking.Booking
	quote := c.JSON(func(q []byte) (err error) { b.Quote, err = storedform.DecodeQuote(q); return err })
	if err := Scan(s, &b.ID, &b.OrgID, &b.PropertyID, &b.Token, (*string)(&b.Status),
		c.Day(&b.CheckIn), c.Day(&b.CheckOut), &b.Guests, &b.GuestName, &b.GuestEmail,
		&b.GuestPhone, &b.Message, &b.Locale, c.NullInt64(&b.CouponID), &b.CouponCode,
		&b.Currency, (*string)(&b.PaymentMode), c.Money(&b.TotalAmount), c.Money(&b.ChargeAmount),
		c.Money(&b.PaidAmount), c.Money(&b.BalanceAmount), c.Date(&b.BalanceDueDate), quote,
		c.NullString(&b.PaymentIntentID), &b.ClientSecret, c.Instant(&b.CreatedAt),
		c.Instant(&b.ExpiresAt), c.Instant(&b.ConfirmedAt), c.Instant(&b.UpdatedAt), c.NullInt64(&b.UnitID)); err != nil {
		return nil, err
	}
	return &b, nil
}

// BookingNotFound is the error for a booking that is not there.
func BookingNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "Booking not found.")
}

// BookingListColumns are BookingColumns without quote, in the order
// ScanListedBooking reads them: what a list of bookings shows.
var BookingListColumns = strings.Replace(BookingColumns, "quote, ", "", 1)

// ScanListedBooking reads a row of BookingListColumns: a booking without
// its Quote, which lists do not show and which would cost a JSON decoding
// a row.
func ScanListedBooking(c Codec, s Scanner) (*booking.Booking, error) {
	var b booking.Booking
	if err := Scan(s, &b.ID, &b.OrgID, &b.PropertyID, &b.Token, (*string)(&b.Status),
		c.Day(&b.CheckIn), c.Day(&b.CheckOut), &b.Guests, &b.GuestName, &b.GuestEmail,
		&b.GuestPhone, &b.Message, &b.Locale, c.NullInt64(&b.CouponID), &b.CouponCode,
		&b.Currency, (*string)(&b.PaymentMode), c.Money(&b.TotalAmount), c.Money(&b.ChargeAmount),
		c.Money(&b.PaidAmount), c.Money(&b.BalanceAmount), c.Date(&b.BalanceDueDate),
		c.NullString(&b.PaymentIntentID), &b.ClientSecret, c.Instant(&b.CreatedAt),
		c.Instant(&b.ExpiresAt), c.Instant(&b.ConfirmedAt), c.Instant(&b.UpdatedAt), c.NullInt64(&b.UnitID)); err != nil {
		return nil, err
	}
	return &b, nil
}
