package schedule_test

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/notify/notifytest"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/schedule"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// env is a booking Service, a schedule Service and an outbox Worker on one
// SQLite store, with the fake provider and a fake clock; the organisation
// "demo" is in Europe/Paris.
type env struct {
	svc   *booking.Service
	store *sqlite.DB
	pay   *paymenttest.Provider
	clock *bookingtest.Clock
	sched *schedule.Service
	mails *notifytest.Mailer
	log   *bytes.Buffer
	org   *booking.Organization
	prop  int64
}

func newEnv(t *testing.T, start time.Time, mode pricing.PaymentMode) *env {
	t.Helper()
	db := sqlitetest.Open(t)
	clock := bookingtest.NewClock(start)
	e := &env{store: db, pay: paymenttest.New(paymenttest.WithClock(clock.Now)), clock: clock, mails: &notifytest.Mailer{},
		log: &bytes.Buffer{}}
	e.svc = booking.NewService(booking.Options{Stores: db.Stores(), Payments: e.pay, Clock: clock})
	money.New(e.svc, money.Options{Store: db.Stores(), Payments: e.pay, Clock: clock})
	e.sched = schedule.New(schedule.Options{Store: db, Catalog: db, Records: db, Clock: clock, BookingURL: bookingURL})
	ctx := context.Background()
	org := booking.Organization{Slug: "demo", Name: "Gîtes demo", PaymentMode: mode, PublicEngineEnabled: true,
		DepositPercent: decimal.NewFromInt(30), BalanceDueDays: 14, Timezone: "Europe/Paris"}.WithDefaults()
	if err := db.CreateOrganization(ctx, &org); err != nil {
		t.Fatal(err)
	}
	p := booking.Property{OrgID: org.ID, Name: "Villa Soleil", MaxGuests: 4, Bedrooms: 2, Active: true,
		Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(100)}}
	if err := db.CreateProperty(ctx, &p); err != nil {
		t.Fatal(err)
	}
	e.org, e.prop = &org, p.ID
	return e
}

func bookingURL(org *booking.Organization, b *booking.Booking) string {
	return "https://book.example.com/?org=" + org.Slug + "&booking=" + b.Token
}

// worker is a fresh outbox worker, as a process that just started has.
func (e *env) worker() *notify.Worker {
	return &notify.Worker{Store: e.store, Clock: e.clock, Mailer: e.mails, Messages: e.sched, BookingURL: bookingURL,
		Logger: slog.New(slog.NewTextHandler(e.log, &slog.HandlerOptions{Level: slog.LevelDebug}))}
}

// book checks out [in, out) for a guest in locale and pays what checkout
// charges; it returns the booking, confirmed.
func (e *env) book(t *testing.T, locale, email, in, out string) *booking.Booking {
	t.Helper()
	ctx := context.Background()
	res, err := e.svc.Checkout(ctx, e.org.Slug, booking.CheckoutRequest{PropertyID: e.prop,
		Stay:      booking.Stay{CheckIn: civil.MustParse(in), CheckOut: civil.MustParse(out), Guests: 2},
		GuestName: "Camille Martin", GuestEmail: email, GuestPhone: "+33612345678", Locale: locale})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.pay.SimulatePaid(res.Booking.PaymentIntentID); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.Confirm(ctx, e.org.Slug, res.Booking.Token, booking.ConfirmRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return &d.Booking
}

// queue runs the periodic step once and returns how many messages it
// recorded or found recorded.
func (e *env) queue(t *testing.T) int {
	t.Helper()
	n, err := e.sched.Queue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// send delivers what is due with a fresh worker.
func (e *env) send(t *testing.T) {
	t.Helper()
	if _, err := e.worker().Process(context.Background()); err != nil {
		t.Logf("process: %v", err)
	}
}

// messages are the scheduled messages sent to addr.
func (e *env) messages(addr string) []notify.Mail {
	return e.mails.Sent(func(m notify.Mail) bool { return m.To == addr && m.Kind == outbox.KindMessage })
}

// save saves a template as the host.
func (e *env) save(t *testing.T, tpl *schedule.Template) {
	t.Helper()
	if err := e.sched.Save(context.Background(), e.org, tpl, hostActor); err != nil {
		t.Fatal(err)
	}
}

// paris is a wall-clock time in Paris.
func paris(s string) time.Time {
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		panic(err)
	}
	t, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
	if err != nil {
		panic(err)
	}
	return t
}
