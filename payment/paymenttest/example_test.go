package paymenttest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite"
)

// An embedder's tests run the whole booking flow with the fake provider
// in place of Stripe: a checkout creates an intent, the test pays it with
// Stripe's test cards (Pay), and the booking service confirms the booking
// as it would after Stripe.js.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "staykit-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := sqlite.Open(ctx, filepath.Join(dir, "staykit.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	const catalogue = `{"organizations": [{"slug": "lac", "name": "Gîtes du Lac",
	  "payment_mode": "full", "currency": "EUR", "timezone": "Europe/Paris", "public_engine_enabled": true,
	  "properties": [{"name": "Gîte du Lac", "max_guests": 4, "rates": {"base_rate": 110}}]}]}`
	if err := seed.Load(ctx, db, strings.NewReader(catalogue), time.Now()); err != nil {
		log.Fatal(err)
	}
	fake := paymenttest.New()
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: fake, Logger: slog.New(slog.DiscardHandler)})

	props, err := svc.Properties(ctx, "lac")
	if err != nil {
		log.Fatal(err)
	}
	in := civil.Today(time.Now(), time.UTC).AddDays(30)
	res, err := svc.Checkout(ctx, "lac", booking.CheckoutRequest{PropertyID: props[0].Property.ID,
		Stay:      booking.Stay{CheckIn: in, CheckOut: in.AddDays(3), Guests: 2},
		GuestName: "Ada Lovelace", GuestEmail: "ada@example.com", GuestPhone: "+33612345678"})
	if err != nil {
		log.Fatal(err)
	}
	intent := res.Booking.PaymentIntentID

	_, err = fake.Pay(intent, "4000000000000002")
	fmt.Println("declined card:", errors.Is(err, paymenttest.ErrCardDeclined))
	paid, err := fake.Pay(intent, "4242424242424242")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("test card:", paid.Status, paid.AmountReceived)

	d, err := svc.Confirm(ctx, "lac", res.Booking.Token, booking.ConfirmRequest{PaymentIntentID: intent})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("booking:", d.Booking.Status)
	// Output:
	// declined card: true
	// test card: succeeded 33000
	// booking: confirmed
}
