package jobs_test

import (
	"context"
	"log"
	"os/signal"
	"syscall"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/jobs"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite"
)

// An embedder opens its store (which creates River's tables beside its
// own), builds the services, and runs one Workers value beside its HTTP
// server until a signal ends it.
func Example() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	db, err := sqlite.Open(ctx, "staykit.db")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	payments := paymenttest.New()
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: payments})
	workers, err := jobs.NewSQLite(db, jobs.Options{
		Bookings: svc,
		Money:    money.New(svc, money.Options{Store: db.Stores(), Payments: payments}),
		Outbox:   &notify.Worker{Store: db},
		Feeds:    icalsync.New(icalsync.Options{Store: db}),
	})
	if err != nil {
		log.Fatal(err)
	}
	// ... mount the APIs on an http.Server here ...
	if err := workers.Run(ctx); err != nil {
		log.Print(err)
	}
}
