package fakepay_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/payment/paymenttest/fakepay"
)

// printEvents stands for the booking service (booking.Service), which
// confirms a booking when its payment's event arrives.
type printEvents struct{}

func (printEvents) HandlePaymentEvent(_ context.Context, ev payment.Event) error {
	fmt.Println("event:", ev.Type)
	return nil
}

// A booking page in fake-payment mode pays the checkout's intent through
// the card step, as Stripe.js would on Stripe.
func ExampleNew() {
	fake := paymenttest.New()
	intent, err := fake.CreateIntent(context.Background(), payment.CreateParams{Amount: 33000, Currency: "EUR", IdempotencyKey: "checkout-1"})
	if err != nil {
		log.Fatal(err)
	}

	mux := http.NewServeMux()
	fakepay.New(fake, printEvents{}, slog.New(slog.DiscardHandler)).Routes(mux)
	srv := httptest.NewServer(fakepay.AnyOrigin(mux))
	defer srv.Close()

	for _, card := range []string{"4000000000000002", "4242424242424242"} {
		res, err := http.Post(srv.URL+"/fakepay/intents/"+intent.ID, "application/json",
			strings.NewReader(`{"card_number": "`+card+`"}`))
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		fmt.Println(res.StatusCode, strings.Contains(string(body), "succeeded"))
	}
	// Output:
	// event: payment_intent.payment_failed
	// 402 false
	// event: payment_intent.succeeded
	// 200 true
}
