package notify_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbound"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// start is the tests' "now": Monday 1 June 2026, 10:00 in Paris.
var start = time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)

// env is a Service and an outbox Worker on one SQLite store, with the fake
// provider and a fake clock.
type env struct {
	svc      *booking.Service
	store    *sqlite.DB
	pay      *paymenttest.Provider
	clock    *bookingtest.Clock
	worker   *notify.Worker
	orgs     map[string]int64
	property map[string]int64
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := sqlitetest.Open(t)
	clock := bookingtest.NewClock(start)
	e := &env{store: db, pay: paymenttest.New(paymenttest.WithClock(clock.Now)), clock: clock,
		orgs: map[string]int64{}, property: map[string]int64{}}
	e.svc = booking.NewService(booking.Options{Stores: db.Stores(), Payments: e.pay, Clock: clock})
	money.New(e.svc, money.Options{Store: db.Stores(), Payments: e.pay, Clock: clock})
	e.worker = &notify.Worker{Store: db, Clock: clock,
		Webhooks: notify.NewWebhookClient(notify.WebhookOptions{Policy: outbound.Policy{AllowPrivate: true}}),
		BookingURL: func(org *booking.Organization, b *booking.Booking) string {
			return "https://book.example.com/?org=" + org.Slug + "&booking=" + b.Token
		},
		HostBookingURL: func(org *booking.Organization, b *booking.Booking) string {
			return "https://book.example.com/host/#bookings/" + strconv.FormatInt(b.ID, 10)
		}}
	e.addOrg(t, "demo", pricing.ModeFull)
	e.addOrg(t, "demo-request", pricing.ModeRequest)
	return e
}

func ptr[T any](v T) *T { return &v }

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// addOrg creates an organisation, French by default, with a villa at 100 a
// night, cleaning 50 and a tourist tax of 1.50 per guest per night.
func (e *env) addOrg(t *testing.T, slug string, mode pricing.PaymentMode) {
	t.Helper()
	ctx := context.Background()
	org := booking.Organization{Slug: slug, Name: "Gîtes " + slug, PaymentMode: mode, PublicEngineEnabled: true,
		MinStayNights: ptr(2), MaxStayNights: ptr(28), Logo: "https://cdn.example.com/" + slug + ".png",
		Branding: map[string]string{"primary_color": "#9a3412"}}.WithDefaults()
	if err := e.store.CreateOrganization(ctx, &org); err != nil {
		t.Fatal(err)
	}
	p := booking.Property{OrgID: org.ID, Name: "Villa Soleil", MaxGuests: 4, Bedrooms: 2, Active: true,
		Rates: pricing.RatePlan{BaseRate: dec("1000")},
		Fees:  pricing.Fees{Cleaning: dec("50"), GuestsIncluded: 2},
		Tax:   pricing.TouristTax{PerGuestPerNight: dec("1.50")}}
	if err := e.store.CreateProperty(ctx, &p); err != nil {
		t.Fatal(err)
	}
	e.orgs[slug], e.property[slug] = org.ID, p.ID
}

// book checks out 8–11 June 2026 (3 nights, 2 guests: 3 059.00) in locale
// and pays; it returns the booking, confirmed (or requested).
func (e *env) book(t *testing.T, slug, locale string) *booking.Booking {
	t.Helper()
	return e.bookAsOn(t, slug, locale, "camille@example.com", "2026-06-08", "2026-06-11")
}

// bookAs is book with the guest's address.
func (e *env) bookAs(t *testing.T, slug, locale, email string) *booking.Booking {
	t.Helper()
	return e.bookAsOn(t, slug, locale, email, "2026-06-08", "2026-06-11")
}

// bookAsOn is book with the guest's address and dates.
func (e *env) bookAsOn(t *testing.T, slug, locale, email, checkIn, checkOut string) *booking.Booking {
	t.Helper()
	ctx := context.Background()
	res, err := e.svc.Checkout(ctx, slug, booking.CheckoutRequest{PropertyID: e.property[slug],
		Stay:      booking.Stay{CheckIn: civil.MustParse(checkIn), CheckOut: civil.MustParse(checkOut), Guests: 2},
		GuestName: "Camille Martin", GuestEmail: email, GuestPhone: "+33612345678", Locale: locale,
		Message: "We arrive late, around 23:00 <tard>."})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.pay.SimulatePaid(res.Booking.PaymentIntentID); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.Confirm(ctx, slug, res.Booking.Token, booking.ConfirmRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return &d.Booking
}

// addEndpoint registers a webhook endpoint of slug for every event.
func (e *env) addEndpoint(t *testing.T, slug, url string) outbox.Endpoint {
	t.Helper()
	ep := outbox.Endpoint{OrgID: e.orgs[slug], URL: url, Secret: outbox.NewSecret(), Active: true}
	if err := e.store.SaveWebhookEndpoint(context.Background(), &ep); err != nil {
		t.Fatal(err)
	}
	return ep
}

// process runs the worker once.
func (e *env) process(t *testing.T) int {
	t.Helper()
	n, err := e.worker.Process(context.Background())
	if err != nil {
		t.Logf("process: %v", err)
	}
	return n
}
