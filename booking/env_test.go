package booking_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// start is the tests' "now": Monday 1 June 2026, 10:00 in Paris.
var start = time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)

// env is a booking Service and its money Service on a real SQLite store
// with the fake provider, a fake clock and a recording notifier.
type env struct {
	svc *booking.Service
	// money moves svc's money (money.New over svc).
	money *money.Service
	// connect is the Connect use cases of connectEnv, nil otherwise.
	connect  *connect.Service
	store    *sqlite.DB
	pay      *paymenttest.Provider
	clock    *bookingtest.Clock
	notified *bookingtest.Notifier
	// property is the villa of every organisation created by newEnv.
	property map[string]int64
}

func newEnv(t testing.TB) *env {
	t.Helper()
	db := sqlitetest.Open(t)
	clock := bookingtest.NewClock(start)
	e := &env{
		store:    db,
		pay:      paymenttest.New(paymenttest.WithClock(clock.Now)),
		clock:    clock,
		notified: &bookingtest.Notifier{},
		property: map[string]int64{},
	}
	e.svc = booking.NewService(booking.Options{Stores: db.Stores(), Payments: e.pay, Clock: e.clock, Notifier: e.notified})
	e.money = money.New(e.svc, money.Options{Store: db.Stores(), Payments: e.pay, Clock: e.clock, Notifier: e.notified})
	e.addOrg(t, "demo", pricing.ModeFull)
	e.addOrg(t, "demo-deposit", pricing.ModeDeposit)
	e.addOrg(t, "demo-request", pricing.ModeRequest)
	return e
}

func ptr[T any](v T) *T { return &v }

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// addOrg creates an organisation with one villa and the coupons WELCOME10
// (10 %), FREE100 (100 %) and LAST1 (10 %, one redemption).
//
// Villa prices: 100 a night, 120 on Friday and Saturday nights, 150 in
// July (minimum stay 5); cleaning 50; 10 per extra guest per night above
// 2; tourist tax 1.50 per guest per night; 4 guests at most.
func (e *env) addOrg(t testing.TB, slug string, mode pricing.PaymentMode) {
	t.Helper()
	ctx := context.Background()
	org := booking.Organization{
		Slug: slug, Name: "Demo " + slug, PaymentMode: mode, PublicEngineEnabled: true,
		MinStayNights: ptr(2), MaxStayNights: ptr(28), BalanceDueDays: 3,
	}.WithDefaults()
	if mode == pricing.ModeDeposit {
		org.DepositPercent = dec("30")
	}
	if err := e.store.CreateOrganization(ctx, &org); err != nil {
		t.Fatal(err)
	}
	p := booking.Property{
		OrgID: org.ID, Name: "Villa Soleil", MaxGuests: 4, Bedrooms: 2, Active: true,
		Rates: pricing.RatePlan{
			BaseRate: dec("100"), WeekendRate: ptr(dec("120")),
			Seasons: []pricing.Season{{Name: "Summer", Start: civil.MustParse("2026-07-01"), End: civil.MustParse("2026-07-31"), Rate: dec("150"), MinStayNights: 5}},
		},
		Fees:   pricing.Fees{Cleaning: dec("50"), ExtraGuest: dec("10"), GuestsIncluded: 2},
		Tax:    pricing.TouristTax{PerGuestPerNight: dec("1.50")},
		Blocks: []booking.Block{{Start: civil.MustParse("2026-06-20"), End: civil.MustParse("2026-06-23"), Reason: "owner"}},
	}
	if err := e.store.CreateProperty(ctx, &p); err != nil {
		t.Fatal(err)
	}
	e.property[slug] = p.ID
	for _, c := range []coupon.Coupon{
		{Code: "WELCOME10", Kind: pricing.DiscountPercent, Value: dec("10"), Active: true},
		{Code: "FREE100", Kind: pricing.DiscountPercent, Value: dec("100"), Active: true},
		{Code: "LAST1", Kind: pricing.DiscountPercent, Value: dec("10"), Active: true, MaxRedemptions: 1},
	} {
		c.OrgID = org.ID
		if err := e.store.CreateCoupon(ctx, &c); err != nil {
			t.Fatal(err)
		}
	}
}

// order is a valid checkout of the villa for 8–11 June (Mon–Thu), 2 guests.
func (e *env) order(slug string) booking.CheckoutRequest {
	return booking.CheckoutRequest{
		PropertyID: e.property[slug],
		Stay:       booking.Stay{CheckIn: civil.MustParse("2026-06-08"), CheckOut: civil.MustParse("2026-06-11"), Guests: 2},
		GuestName:  "Camille Martin", GuestEmail: "camille@example.com", GuestPhone: "+33612345678",
	}
}

// wantCode fails the test unless err is a *booking.Error with code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var e *booking.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("err = %v, want code %q", err, code)
	}
}

func (e *env) status(t *testing.T, slug, token string) booking.Status {
	t.Helper()
	d, err := e.svc.Booking(context.Background(), slug, token)
	if err != nil {
		t.Fatal(err)
	}
	return d.Booking.Status
}

func errorsAs(err error, target **booking.Error) bool { return errors.As(err, target) }
