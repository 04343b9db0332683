package httpapi

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// number is a decimal that marshals as a JSON number as it is (a percent).
type number decimal.Decimal

// MarshalJSON writes the decimal as a number.
func (n number) MarshalJSON() ([]byte, error) { return []byte(decimal.Decimal(n).String()), nil }

// optDate is a date, null when zero.
type optDate civil.Date

// MarshalJSON writes "YYYY-MM-DD" or null.
func (d optDate) MarshalJSON() ([]byte, error) {
	if civil.Date(d).IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(civil.Date(d).String())
}

// optTime is an instant in RFC 3339 UTC, null when zero.
type optTime time.Time

// MarshalJSON writes the time in UTC to the second, or null.
func (t optTime) MarshalJSON() ([]byte, error) {
	if time.Time(t).IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(time.Time(t).UTC().Truncate(time.Second).Format(time.RFC3339))
}

// optString is a string, null when empty.
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// optInt is an int, null when nil or zero.
func optInt(n *int) *int {
	if n == nil || *n == 0 {
		return nil
	}
	return n
}

func optPositive(n int) *int {
	if n <= 0 {
		return nil
	}
	return &n
}

// Configuration.

type configView struct {
	Organization     orgView     `json:"organization"`
	Config           orgSettings `json:"config"`
	PaymentPublicKey string      `json:"payment_public_key"`
	// PaymentsReady is false while the organisation's payment account
	// cannot take charges: checkouts then fail with payments_not_ready.
	PaymentsReady bool `json:"payments_ready"`
	// PaymentAccount is the connected account Stripe.js is initialised
	// with (stripeAccount), with direct charges only.
	PaymentAccount string `json:"payment_account,omitempty"`
}

type orgView struct {
	Name string  `json:"name"`
	Slug string  `json:"slug"`
	Logo *string `json:"logo"`
}

type orgSettings struct {
	PaymentMode   string            `json:"payment_mode"`
	DefaultLocale string            `json:"default_locale"`
	Branding      map[string]string `json:"branding"`
	TermsURL      *string           `json:"terms_url"`
	MinStayNights *int              `json:"min_stay_nights"`
	MaxStayNights *int              `json:"max_stay_nights"`
	Currency      string            `json:"currency"`
	Timezone      string            `json:"timezone"`
	// Country reads guests' national phone numbers; the horizon is how
	// many days after today a stay may end.
	Country            string `json:"country"`
	BookingHorizonDays int    `json:"booking_horizon_days"`
}

func newConfigView(c *booking.Config) configView {
	o := c.Organization
	branding := o.Branding
	if branding == nil {
		branding = map[string]string{}
	}
	return configView{
		Organization: orgView{Name: o.Name, Slug: o.Slug, Logo: optString(o.Logo)},
		Config: orgSettings{
			PaymentMode: string(o.PaymentMode), DefaultLocale: o.DefaultLocale, Branding: branding,
			TermsURL: optString(o.TermsURL), MinStayNights: optInt(o.MinStayNights), MaxStayNights: optInt(o.MaxStayNights),
			Currency: o.Currency, Timezone: o.Timezone,
			// Unset settings show as the defaults they stand for.
			Country: o.WithDefaults().Country, BookingHorizonDays: o.WithDefaults().BookingHorizonDays,
		},
		PaymentPublicKey: c.PaymentPublicKey,
		PaymentsReady:    c.PaymentsReady,
		PaymentAccount:   c.PaymentAccount,
	}
}

// Properties.

type propertyView struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Photos      []string `json:"photos"`
	City        string   `json:"city"`
	Country     string   `json:"country"`
	MaxGuests   int      `json:"max_guests"`
	Bedrooms    int      `json:"bedrooms"`
	// RegistrationNumber: issue #29, absent when the host entered none.
	RegistrationNumber string `json:"registration_number,omitempty"`
	MinStayNights      *int   `json:"min_stay_nights"`
	MaxStayNights      *int   `json:"max_stay_nights"`
	Currency           string `json:"currency"`
	PriceFrom          money  `json:"price_from"`
	// Units: issue #27, how many identical units the property sells.
	Units int `json:"units"`
	// Issue #16: optional fees a guest may choose, guest categories, and
	// in a search the stay's total.
	Extras     []extraView `json:"extras"`
	Guests     guestsView  `json:"guests"`
	QuoteTotal *money      `json:"quote_total,omitempty"`
}

func newPropertyView(l booking.Listing) propertyView {
	p := l.Property
	photos := p.Photos
	if photos == nil {
		photos = []string{}
	}
	return propertyView{
		ID: p.ID, Name: p.Name, Description: p.Description, Photos: photos, City: p.City, Country: p.Country,
		MaxGuests: p.MaxGuests, Bedrooms: p.Bedrooms, RegistrationNumber: p.RegistrationNumber,
		MinStayNights: optPositive(l.MinStayNights), MaxStayNights: optPositive(l.MaxStayNights),
		Currency: l.Currency, PriceFrom: newMoney(l.PriceFrom, l.Currency), Units: p.UnitCount(),
		Extras: newExtrasView(p, l.Currency), Guests: newGuestsView(p),
	}
}

// Availability.

type calendarView struct {
	PropertyID int64      `json:"property_id"`
	Currency   string     `json:"currency"`
	From       civil.Date `json:"from"`
	To         civil.Date `json:"to"`
	Days       days       `json:"days"`
}

// dayJSONSize is about the size of a day in JSON, departure_days aside:
// enough to write most calendars without growing the buffer.
const dayJSONSize = 128

// days are the days of a calendar: up to 24 months of them, so they
// marshal by hand rather than through reflection, field per field.
type days struct {
	list   []booking.Day
	places int32
}

// MarshalJSON writes [{date, available, units_available, check_in,
// check_out, price, min_stay, max_stay, departure_days}, ...]; min_stay is
// at least 1; departure_days only when the day's stays may end on some
// weekdays only.
func (ds days) MarshalJSON() ([]byte, error) {
	return ds.appendJSON(make([]byte, 0, 2+len(ds.list)*dayJSONSize)), nil
}

// appendJSON appends the days as MarshalJSON writes them.
func (ds days) appendJSON(b []byte) []byte {
	b = append(b, '[')
	for i, d := range ds.list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"date":"`...)
		b = appendDate(b, d.Date)
		b = append(b, `","available":`...)
		b = strconv.AppendBool(b, d.Available)
		b = append(b, `,"units_available":`...)
		b = strconv.AppendInt(b, int64(d.UnitsAvailable), 10)
		b = append(b, `,"check_in":`...)
		b = strconv.AppendBool(b, d.CheckIn)
		b = append(b, `,"check_out":`...)
		b = strconv.AppendBool(b, d.CheckOut)
		b = append(b, `,"price":`...)
		b = appendMoney(b, d.Price, ds.places)
		b = append(b, `,"min_stay":`...)
		b = strconv.AppendInt(b, int64(max(d.MinStay, 1)), 10)
		b = append(b, `,"max_stay":`...)
		b = strconv.AppendInt(b, int64(max(d.MaxStay, 1)), 10)
		if len(d.DepartureDays) > 0 {
			b = append(b, `,"departure_days":[`...)
			for j, wd := range d.DepartureDays {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, '"')
				b = append(b, weekdayKeys[wd]...)
				b = append(b, '"')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// weekdayKeys are the lower-case English names of the days of the week,
// as rules.Weekdays writes them.
var weekdayKeys = [...]string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// appendDate appends d as YYYY-MM-DD.
func appendDate(b []byte, d civil.Date) []byte {
	if d.Year < 0 || d.Year > 9999 {
		return append(b, d.String()...)
	}
	y, m, dd := d.Year, int(d.Month), d.Day
	return append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+dd/10), byte('0'+dd%10))
}

// encodeCalendar encodes a calendar's success envelope once, by hand, in
// one buffer (up to 24 months of days): the JSON of calendarView, not
// re-scanned by encoding/json.
func encodeCalendar(c *booking.Calendar) rawEnvelope {
	v := newCalendarView(c)
	cur, _ := json.Marshal(v.Currency)
	b := envelopeBuf(160 + len(v.Days.list)*dayJSONSize)
	b = append(b, `{"success":true,"data":{"property_id":`...)
	b = strconv.AppendInt(b, v.PropertyID, 10)
	b = append(b, `,"currency":`...)
	b = append(b, cur...)
	b = append(b, `,"from":"`...)
	b = appendDate(b, v.From)
	b = append(b, `","to":"`...)
	b = appendDate(b, v.To)
	b = append(b, `","days":`...)
	b = v.Days.appendJSON(b)
	return append(b, "}}\n"...)
}

func newCalendarView(c *booking.Calendar) calendarView {
	return calendarView{PropertyID: c.PropertyID, Currency: c.Currency, From: c.From, To: c.To,
		Days: days{list: c.Days, places: pricing.MinorUnits(c.Currency)}}
}

// Price quote.

type quoteView struct {
	PropertyID     int64       `json:"property_id"`
	CheckIn        civil.Date  `json:"check_in"`
	CheckOut       civil.Date  `json:"check_out"`
	Nights         int         `json:"nights"`
	GuestsCount    int         `json:"guests_count"`
	Currency       string      `json:"currency"`
	NightsDetail   []nightView `json:"nights_detail"`
	Accommodation  money       `json:"accommodation"`
	Discounts      []lineView  `json:"discounts"`
	Fees           []lineView  `json:"fees"`
	Taxes          []lineView  `json:"taxes"`
	TotalAmount    money       `json:"total_amount"`
	PaymentMode    string      `json:"payment_mode"`
	ChargeAmount   money       `json:"charge_amount"`
	BalanceAmount  money       `json:"balance_amount"`
	BalanceDueDate optDate     `json:"balance_due_date"`
	Coupon         *string     `json:"coupon"`
	// Issue #16: the inclusive taxes the prices contain (not added to the
	// total), and the guests by category.
	IncludedTaxes []lineView `json:"included_taxes"`
	Guests        partyView  `json:"guests"`
	// LineLabels are the labels of every line in fr and en, by line code,
	// kept apart so that v1 line objects stay as they were.
	LineLabels map[string]map[string]string `json:"line_labels"`
	// CancellationPolicy is the policy a booking made now is sold with.
	CancellationPolicy *policyView `json:"cancellation_policy,omitempty"`
}

// partyView is the guests of a stay by category.
type partyView struct {
	Adults   int `json:"adults"`
	Children int `json:"children"`
	Infants  int `json:"infants"`
	Pets     int `json:"pets"`
}

type nightView struct {
	Date  civil.Date `json:"date"`
	Price money      `json:"price"`
}

type lineView struct {
	Code   string `json:"code"`
	Label  string `json:"label"`
	Amount money  `json:"amount"`
	// Quantity is that of an extra (issue #16).
	Quantity int `json:"quantity,omitempty"`
}

func newQuoteView(propertyID int64, q *pricing.Quote) quoteView {
	cur := q.Currency
	lines := func(ls []pricing.Line) []lineView {
		out := make([]lineView, len(ls))
		for i, l := range ls {
			out[i] = lineView{Code: l.Code, Label: l.Label, Amount: newMoney(l.Amount, cur), Quantity: l.Quantity}
		}
		return out
	}
	v := quoteView{
		PropertyID: propertyID, CheckIn: q.CheckIn, CheckOut: q.CheckOut, Nights: q.Nights,
		GuestsCount: q.Guests, Currency: cur,
		NightsDetail:  make([]nightView, len(q.NightsDetail)),
		Accommodation: newMoney(q.Accommodation, cur),
		Discounts:     lines(q.Discounts), Fees: lines(q.Fees), Taxes: lines(q.Taxes),
		TotalAmount: newMoney(q.Total, cur), PaymentMode: string(q.Mode),
		ChargeAmount: newMoney(q.Charge, cur), BalanceAmount: newMoney(q.Balance, cur),
		BalanceDueDate: optDate(q.BalanceDueDate), Coupon: optString(q.CouponCode),
		IncludedTaxes: lines(q.IncludedTaxes),
		Guests:        partyView{Adults: q.Party.Adults, Children: q.Party.Children, Infants: q.Party.Infants, Pets: q.Party.Pets},
	}
	for i, n := range q.NightsDetail {
		v.NightsDetail[i] = nightView{Date: n.Date, Price: newMoney(n.Price, cur)}
	}
	v.LineLabels = map[string]map[string]string{}
	for _, ls := range [][]pricing.Line{q.Discounts, q.Fees, q.Taxes, q.IncludedTaxes} {
		for _, l := range ls {
			if l.Labels != nil {
				v.LineLabels[l.Code] = l.Labels
			}
		}
	}
	return v
}

// Coupon validation.

type couponView struct {
	Code           string `json:"code"`
	Valid          bool   `json:"valid"`
	DiscountType   string `json:"discount_type"`
	DiscountValue  any    `json:"discount_value"`
	DiscountAmount *money `json:"discount_amount"`
	Currency       string `json:"currency"`
	Label          string `json:"label"`
}

func newCouponView(c *booking.CouponResult) couponView {
	v := couponView{Code: c.Code, Valid: true, DiscountType: string(c.Kind), Currency: c.Currency,
		Label: c.Label, DiscountValue: number(c.Value)}
	if c.Kind == pricing.DiscountFixed {
		v.DiscountValue = newMoney(c.Value, c.Currency)
	}
	if c.DiscountAmount != nil {
		m := newMoney(*c.DiscountAmount, c.Currency)
		v.DiscountAmount = &m
	}
	return v
}

// Checkout.

type checkoutView struct {
	BookingToken     string  `json:"booking_token"`
	PaymentMode      string  `json:"payment_mode"`
	TotalAmount      money   `json:"total_amount"`
	ChargeAmount     money   `json:"charge_amount"`
	ClientSecret     *string `json:"client_secret"`
	PaymentPublicKey string  `json:"payment_public_key"`
	Status           string  `json:"status"`
	Currency         string  `json:"currency"`
	BalanceAmount    money   `json:"balance_amount"`
	ExpiresAt        optTime `json:"expires_at"`
	// CancellationPolicy is the policy the booking is sold with;
	// BalanceConsent and DepositConsent are what the page shows beside
	// the card form when the card is kept for later charges.
	CancellationPolicy *policyView `json:"cancellation_policy,omitempty"`
	BalanceConsent     *string     `json:"balance_consent"`
	DepositConsent     *string     `json:"security_deposit_consent"`
}

func newCheckoutView(c *booking.CheckoutResult) checkoutView {
	b := c.Booking
	cur := b.Currency
	v := checkoutView{
		BookingToken: b.Token, PaymentMode: string(b.PaymentMode),
		TotalAmount: newMoney(b.TotalAmount, cur), ChargeAmount: newMoney(b.ChargeAmount, cur),
		ClientSecret: optString(c.ClientSecret), PaymentPublicKey: c.PaymentPublicKey,
		Status: string(b.Status), Currency: cur, BalanceAmount: newMoney(b.BalanceAmount, cur),
		ExpiresAt:      optTime(b.ExpiresAt),
		BalanceConsent: balanceConsent(b, c.Terms, b.Locale), DepositConsent: depositConsent(b, c.Terms, b.Locale),
	}
	if c.Terms != nil {
		v.CancellationPolicy = newPolicyView(c.Terms.Policy, cur, b.Locale)
	}
	return v
}

// Booking status, also the answer to confirm. Never the guest's e-mail or
// phone: whoever holds the token sees it.

type bookingView struct {
	BookingToken string      `json:"booking_token"`
	Status       string      `json:"status"`
	Property     propertyRef `json:"property"`
	CheckIn      civil.Date  `json:"check_in"`
	CheckOut     civil.Date  `json:"check_out"`
	Nights       int         `json:"nights"`
	GuestsCount  int         `json:"guests_count"`
	GuestName    string      `json:"guest_name"`
	Currency     string      `json:"currency"`
	TotalAmount  money       `json:"total_amount"`
	ChargeAmount money       `json:"charge_amount"`
	PaidAmount   money       `json:"paid_amount"`
	// RefundedAmount went back to the guest; RefundPendingAmount is on its
	// way back.
	RefundedAmount      money   `json:"refunded_amount"`
	RefundPendingAmount money   `json:"refund_pending_amount"`
	BalanceAmount       money   `json:"balance_amount"`
	BalanceDueDate      optDate `json:"balance_due_date"`
	PaymentMode         string  `json:"payment_mode"`
	CreatedAt           optTime `json:"created_at"`
	ExpiresAt           optTime `json:"expires_at"`
	ConfirmedAt         optTime `json:"confirmed_at"`
	// Balance is where the balance stands; CancellationPolicy and
	// SecurityDeposit what the booking was sold with.
	Balance            balanceView          `json:"balance"`
	CancellationPolicy *policyView          `json:"cancellation_policy,omitempty"`
	SecurityDeposit    *securityDepositView `json:"security_deposit,omitempty"`
}

type propertyRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func newBookingView(d *booking.Details) bookingView {
	b := d.Booking
	cur := b.Currency
	v := bookingView{
		BookingToken: b.Token, Status: string(b.Status),
		Property: propertyRef{ID: b.PropertyID, Name: d.PropertyName},
		CheckIn:  b.CheckIn, CheckOut: b.CheckOut, Nights: b.Nights(), GuestsCount: b.Guests,
		GuestName: b.GuestName, Currency: cur,
		TotalAmount: newMoney(b.TotalAmount, cur), ChargeAmount: newMoney(b.ChargeAmount, cur),
		PaidAmount: newMoney(b.PaidAmount, cur), BalanceAmount: newMoney(b.BalanceAmount, cur),
		RefundedAmount: newMoney(d.Refunded, cur), RefundPendingAmount: newMoney(d.RefundPending, cur),
		BalanceDueDate: optDate(b.BalanceDueDate), PaymentMode: string(b.PaymentMode),
		CreatedAt: optTime(b.CreatedAt), ExpiresAt: optTime(b.ExpiresAt), ConfirmedAt: optTime(b.ConfirmedAt),
		Balance:         newBalanceView(booking.BalanceOf(&b, d.Terms), cur),
		SecurityDeposit: newSecurityDepositView(d.Terms, cur),
	}
	if d.Terms != nil {
		v.CancellationPolicy = newPolicyView(d.Terms.Policy, cur, b.Locale)
	}
	return v
}
