package connect_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite"
)

// An organisation connects its account: the host follows the onboarding
// link, the provider reports the account able to take charges on the
// Connect webhook, and the organisation takes checkouts from then on.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "connect-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := sqlite.Open(ctx, filepath.Join(dir, "staykit.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	org := (&booking.Organization{Slug: "villa", Name: "Villa", Currency: "EUR", PublicEngineEnabled: true}).WithDefaults()
	if err := db.CreateOrganization(ctx, &org); err != nil {
		log.Fatal(err)
	}

	// The platform (Stripe in production: stripe.Config.ChargeType set)
	// is the booking engine's and the money service's Connect and this
	// package's Platform.
	pay := paymenttest.New()
	platform := paymenttest.NewPlatform(pay, payment.ChargeDestination)
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: pay, Connect: platform})
	payments := money.New(svc, money.Options{Store: db.Stores(), Payments: pay, Connect: platform})
	cs := connect.New(connect.Options{Store: db, Platform: platform, Events: payments})

	if _, err := cs.StartOnboarding(ctx, &org, "https://host.example/done", "https://host.example/again"); err != nil {
		log.Fatal(err)
	}
	st, err := cs.Status(ctx, &org)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("after the link:", st.Account.State)

	// The owner finishes onboarding; Stripe sends account.updated to the
	// Connect endpoint, which hands the payload to HandleWebhook.
	platform.SetChargesEnabled(st.Account.AccountID, true)
	payload, signature, err := platform.SignedConnectWebhook(payment.EventAccountUpdated, st.Account.AccountID, "")
	if err != nil {
		log.Fatal(err)
	}
	if err := cs.HandleWebhook(ctx, payload, signature); err != nil {
		log.Fatal(err)
	}
	st, _ = cs.Status(ctx, &org)
	cfg, _ := svc.Config(ctx, "villa")
	fmt.Println("after account.updated:", st.Account.State, "payments ready:", cfg.PaymentsReady)
	// Output:
	// after the link: pending
	// after account.updated: complete payments ready: true
}
