package money_test

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
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite"
)

// The money service is built right after the booking service, over the
// same store and provider. Here a guest pays and closes the tab: the
// provider's webhook confirms the booking; the host then cancels it with
// a full refund, which the money service sends at once.
func ExampleNew() {
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
	logger := slog.New(slog.DiscardHandler)
	fake := paymenttest.New()
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: fake, Logger: logger})
	pay := money.New(svc, money.Options{Store: db.Stores(), Payments: fake, Logger: logger})

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
	if _, err := fake.Pay(intent, "4242424242424242"); err != nil {
		log.Fatal(err)
	}

	// The provider's webhook (httpapi mounts it on pay.HandleWebhook).
	payload, signature, err := fake.SignedWebhook(payment.EventSucceeded, intent)
	if err != nil {
		log.Fatal(err)
	}
	if err := pay.HandleWebhook(ctx, payload, signature); err != nil {
		log.Fatal(err)
	}
	d, err := svc.Booking(ctx, "lac", res.Booking.Token)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("after the webhook:", d.Booking.Status, d.Booking.PaidAmount.StringFixed(2))

	// The host cancels with a full refund: booking decides it, money sends it.
	if _, err := svc.Cancel(ctx, "lac", res.Booking.Token, true); err != nil {
		log.Fatal(err)
	}
	d, err = svc.Booking(ctx, "lac", res.Booking.Token)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("after the cancellation:", d.Booking.Status, "refunded", d.Refunded.StringFixed(2))
	refunds := fake.Refunds(intent)
	fmt.Println("at the provider:", len(refunds), "refund of", refunds[0].Amount, refunds[0].Status)
	// Output:
	// after the webhook: confirmed 330.00
	// after the cancellation: cancelled refunded 330.00
	// at the provider: 1 refund of 33000 succeeded
}
