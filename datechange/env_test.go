package datechange_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// start is the tests' "now": Monday 1 June 2026, 10:00 in Paris.
var start = time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)

// env is the booking, money and date change services on a real SQLite
// store with the fake provider and a fake clock.
type env struct {
	svc      *booking.Service
	money    *money.Service
	changes  *datechange.Service
	store    *sqlite.DB
	pay      *paymenttest.Provider
	clock    *bookingtest.Clock
	property map[string]int64
}

func newEnv(t testing.TB) *env {
	t.Helper()
	db := sqlitetest.Open(t)
	clock := bookingtest.NewClock(start)
	e := &env{store: db, pay: paymenttest.New(paymenttest.WithClock(clock.Now)), clock: clock, property: map[string]int64{}}
	e.svc = booking.NewService(booking.Options{Stores: db.Stores(), Payments: e.pay, Clock: e.clock})
	e.money = money.New(e.svc, money.Options{Store: db.Stores(), Payments: e.pay, Clock: e.clock})
	e.changes = datechange.New(datechange.Options{Bookings: e.svc, Store: db, Money: e.money, Records: db, Clock: e.clock})
	e.addOrg(t, "demo", pricing.ModeFull)
	e.addOrg(t, "demo-deposit", pricing.ModeDeposit)
	e.addOrg(t, "demo-request", pricing.ModeRequest)
	return e
}

func ptr[T any](v T) *T { return &v }

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func day(s string) civil.Date { return civil.MustParse(s) }

// addOrg creates an organisation with one villa: 100 a night, 120 on
// Friday and Saturday nights; cleaning 50; 10 per extra guest per night
// above 2; tourist tax 1.50 per guest per night; 4 guests at most,
// 2 nights at least; an owner block 20–23 June; the coupon LONG10 (10 %
// for stays of 4 nights or more).
func (e *env) addOrg(t testing.TB, slug string, mode pricing.PaymentMode) {
	t.Helper()
	ctx := context.Background()
	org := booking.Organization{Slug: slug, Name: "Demo " + slug, PaymentMode: mode, PublicEngineEnabled: true,
		MinStayNights: ptr(2), MaxStayNights: ptr(28), BalanceDueDays: 3}.WithDefaults()
	if mode == pricing.ModeDeposit {
		org.DepositPercent = dec("30")
	}
	if err := e.store.CreateOrganization(ctx, &org); err != nil {
		t.Fatal(err)
	}
	p := booking.Property{OrgID: org.ID, Name: "Villa Soleil", MaxGuests: 4, Bedrooms: 2, Active: true,
		Rates:  pricing.RatePlan{BaseRate: dec("100"), WeekendRate: ptr(dec("120"))},
		Fees:   pricing.Fees{Cleaning: dec("50"), ExtraGuest: dec("10"), GuestsIncluded: 2},
		Tax:    pricing.TouristTax{PerGuestPerNight: dec("1.50")},
		Blocks: []booking.Block{{Start: day("2026-06-20"), End: day("2026-06-23"), Reason: "owner"}}}
	if err := e.store.CreateProperty(ctx, &p); err != nil {
		t.Fatal(err)
	}
	e.property[slug] = p.ID
	c := coupon.Coupon{OrgID: org.ID, Code: "LONG10", Kind: pricing.DiscountPercent, Value: dec("10"), Active: true, MinNights: 4}
	if err := e.store.CreateCoupon(ctx, &c); err != nil {
		t.Fatal(err)
	}
}

func (e *env) setPolicy(t *testing.T, slug, name string) {
	t.Helper()
	p, err := policy.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SaveSettings(context.Background(), slug, booking.Settings{Policy: &p}); err != nil {
		t.Fatal(err)
	}
}

// book checks out the villa of slug for [in, out) with 2 guests (and
// coupon, if any), pays and confirms it.
func (e *env) book(t *testing.T, slug, in, out, coupon string) *booking.Booking {
	t.Helper()
	ctx := context.Background()
	res, err := e.svc.Checkout(ctx, slug, booking.CheckoutRequest{PropertyID: e.property[slug],
		Stay:      booking.Stay{CheckIn: day(in), CheckOut: day(out), Guests: 2},
		GuestName: "Camille Martin", GuestEmail: "camille@example.com", GuestPhone: "+33612345678", CouponCode: coupon})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.pay.Pay(res.Booking.PaymentIntentID, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.Confirm(ctx, slug, res.Booking.Token, booking.ConfirmRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if slug == "demo-request" {
		if _, err := e.svc.Approve(ctx, slug, res.Booking.Token); err != nil {
			t.Fatal(err)
		}
		if d, err = e.svc.Booking(ctx, slug, res.Booking.Token); err != nil {
			t.Fatal(err)
		}
	}
	if d.Booking.Status != booking.StatusConfirmed {
		t.Fatalf("booking is %s, want confirmed", d.Booking.Status)
	}
	return &d.Booking
}

func (e *env) booking(t *testing.T, id int64) *booking.Booking {
	t.Helper()
	b, err := e.store.BookingByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (e *env) ledger(t *testing.T, id int64) []ledger.Entry {
	t.Helper()
	entries, err := e.store.LedgerEntries(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func (e *env) process(t *testing.T) {
	t.Helper()
	if _, err := e.money.ProcessPayments(context.Background()); err != nil {
		t.Logf("process payments: %v", err)
	}
}

// changeIntents are the intents made for changes of dates.
func (e *env) changeIntents() []payment.Intent {
	var out []payment.Intent
	for _, in := range e.pay.Intents() {
		if in.Metadata["purpose"] == "date_change" {
			out = append(out, in)
		}
	}
	return out
}

// balanced fails unless the provider holds, over every intent of the
// booking's ledger, what its ledger says it holds, and the booking's
// paid amount less its refunds says the same.
func (e *env) balanced(t *testing.T, b *booking.Booking) int64 {
	t.Helper()
	entries := e.ledger(t, b.ID)
	pos := ledger.PositionOf(entries)
	var provider int64
	for id := range pos.Received {
		in, ok := e.pay.Intent(id)
		if !ok {
			t.Fatalf("intent %s of the ledger is unknown to the provider", id)
		}
		provider += in.AmountReceived - in.AmountRefunded
	}
	for _, in := range e.changeIntents() {
		if _, ok := pos.Received[in.ID]; !ok && in.AmountReceived > in.AmountRefunded && in.Metadata["booking_token"] == b.Token {
			t.Fatalf("change intent %s holds %d the ledger does not record", in.ID, in.AmountReceived-in.AmountRefunded)
		}
	}
	if net := pos.Net(); net != provider {
		t.Fatalf("ledger nets %d, provider holds %d\nledger: %+v", net, provider, entries)
	}
	d, err := e.svc.Booking(context.Background(), slugOf(e, b), b.Token)
	if err != nil {
		t.Fatal(err)
	}
	shown := minor(d.Booking.PaidAmount) - minor(d.Refunded) - minor(d.RefundPending)
	if shown != provider {
		t.Fatalf("the booking page shows %d held (paid %s, refunded %s, pending %s), the provider holds %d",
			shown, d.Booking.PaidAmount, d.Refunded, d.RefundPending, provider)
	}
	return provider
}

func slugOf(e *env, b *booking.Booking) string {
	for slug, id := range e.property {
		if id == b.PropertyID {
			return slug
		}
	}
	return ""
}

func minor(m booking.Money) int64 {
	n, err := pricing.ToMinor(m, "EUR")
	if err != nil {
		panic(err)
	}
	return n
}

// wantCode fails the test unless err is a *booking.Error with code (and
// reason, when not empty).
func wantCode(t *testing.T, err error, code, reason string) {
	t.Helper()
	var e *booking.Error
	if !errors.As(err, &e) || e.Code != code || (reason != "" && e.Params[booking.ParamReason] != reason) {
		t.Fatalf("err = %v, want code %q reason %q", err, code, reason)
	}
}

func req(in, out string, guests int) datechange.Request {
	return datechange.Request{CheckIn: day(in), CheckOut: day(out), Guests: guests}
}
