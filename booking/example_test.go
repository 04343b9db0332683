package booking_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite"
)

// exampleCatalogue is the catalogue the examples load: one organisation
// whose holds last 30 minutes, one property at 110 € a night.
const exampleCatalogue = `{"organizations": [{"slug": "lac", "name": "Gîtes du Lac",
  "payment_mode": "full", "currency": "EUR", "timezone": "Europe/Paris", "hold_minutes": 30,
  "public_engine_enabled": true,
  "properties": [{"name": "Gîte du Lac", "max_guests": 4, "rates": {"base_rate": 110}}]}]}`

// openExampleStore opens a store on a temporary file with the catalogue;
// done closes and removes it.
func openExampleStore(ctx context.Context) (db *sqlite.DB, done func()) {
	dir, err := os.MkdirTemp("", "staykit-example")
	if err != nil {
		log.Fatal(err)
	}
	db, err = sqlite.Open(ctx, filepath.Join(dir, "staykit.db"))
	if err != nil {
		log.Fatal(err)
	}
	if err := seed.Load(ctx, db, strings.NewReader(exampleCatalogue), time.Now()); err != nil {
		log.Fatal(err)
	}
	return db, func() { db.Close(); os.RemoveAll(dir) }
}

// The booking service is built on a store and a payment provider (here
// the in-memory fake; payment/stripe in production). Every public use case
// is a method taking the organisation's slug.
func ExampleNewService() {
	ctx := context.Background()
	db, done := openExampleStore(ctx)
	defer done()
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: paymenttest.New(), Logger: slog.New(slog.DiscardHandler)})

	props, err := svc.Properties(ctx, "lac")
	if err != nil {
		log.Fatal(err)
	}
	in := civil.Today(time.Now(), time.UTC).AddDays(30)
	q, err := svc.Quote(ctx, "lac", props[0].Property.ID, booking.QuoteRequest{
		Stay: booking.Stay{CheckIn: in, CheckOut: in.AddDays(3), Guests: 2}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(props[0].Property.Name, q.Nights, "nights:", q.Total.StringFixed(2), q.Currency)
	// Output: Gîte du Lac 3 nights: 330.00 EUR
}

// stepClock is a clock the example moves forward by hand.
type stepClock struct{ now time.Time }

func (c *stepClock) Now() time.Time { return c.now }

// Expiring lapsed holds is background work (package jobs runs it every
// minute): a checkout left unpaid holds its dates until its hold lapses,
// then ExpireHolds expires it and tells the host (Options.Notifier); the
// money service (package money) releases its payment intent at once.
func ExampleService_ExpireHolds() {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	db, done := openExampleStore(ctx)
	defer done()
	clock := &stepClock{now: time.Now()}
	payments := paymenttest.New()
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: payments, Clock: clock, Logger: slog.New(slog.DiscardHandler),
		Notifier: booking.NotifierFunc(func(_ context.Context, n booking.Notification) error {
			if n.Kind == booking.NotifyExpired {
				fmt.Println(n.Kind, n.Booking.Status)
			}
			return nil
		})})
	money.New(svc, money.Options{Store: db.Stores(), Payments: payments, Clock: clock, Logger: slog.New(slog.DiscardHandler)})

	props, err := svc.Properties(ctx, "lac")
	if err != nil {
		log.Fatal(err)
	}
	in := civil.Today(clock.now, time.UTC).AddDays(30)
	res, err := svc.Checkout(ctx, "lac", booking.CheckoutRequest{PropertyID: props[0].Property.ID,
		Stay:      booking.Stay{CheckIn: in, CheckOut: in.AddDays(3), Guests: 2},
		GuestName: "Ada Lovelace", GuestEmail: "ada@example.com", GuestPhone: "+33612345678"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("checkout", res.Booking.Status)

	clock.now = clock.now.Add(time.Hour) // the guest never paid
	if _, err := svc.ExpireHolds(ctx); err != nil {
		log.Fatal(err)
	}
	intent, _ := payments.Intent(res.Booking.PaymentIntentID)
	fmt.Println("intent", intent.Status)
	// Output:
	// checkout pending
	// booking.expired expired
	// intent canceled
}
