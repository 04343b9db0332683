// Command embed is the smallest complete host of staykit, meant to be
// copied: a host application that mounts all of staykit on its own
// http.ServeMux beside its own routes. In one file it
//
//   - opens a SQLite store (embed.db) and, on first start, loads a small
//     demo organisation "lac" with one property from the seed below (the
//     seed package's format; see examples/server/demo-seed.json for all
//     fields);
//   - builds a booking.Service with the in-memory fake payment provider
//     (paymenttest) and the money.Service that moves its bookings' money
//     (refunds, balances, deposits, the provider's events), and mounts
//     the fake's card step (payment/paymenttest/fakepay)
//     at POST /fakepay/intents/{intent_id}: Stripe's test card
//     4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined;
//   - mounts the public booking API under /api/ (and again under
//     /staykit/ through http.StripPrefix, for hosts that keep a prefix per
//     component);
//   - builds the host use cases (host.Service) and mounts the host API at
//     /api/v1/host/ (API keys, or the dashboard's session) and the host
//     dashboard at /host/;
//   - runs the workers beside the server (newWorkers, package jobs: hold
//     expiry, the payments ledger, the outbox that sends e-mails, here to
//     the log, and webhooks, and the calendar sync), and stops everything
//     on SIGINT or SIGTERM.
//
// Run it, then book a stay with curl from another terminal (GNU date;
// on macOS use date -v+30d +%F):
//
//	go run ./examples/embed -addr 127.0.0.1:8081
//
//	API=http://127.0.0.1:8081/api/v1/book/lac
//	IN=$(date -d '+30 days' +%F) OUT=$(date -d '+33 days' +%F)
//	curl -s $API/properties
//	curl -s "$API/properties/1/price?check_in=$IN&check_out=$OUT&guests_count=2"
//	curl -s -X POST $API/checkout -H 'Content-Type: application/json' -d '{"property_id": 1,
//	  "check_in": "'$IN'", "check_out": "'$OUT'", "guests_count": 2, "guest_name": "Ada Lovelace",
//	  "guest_email": "ada@example.com", "guest_phone": "+33612345678"}'
//
// The checkout answers a booking_token and a client_secret. Set TOKEN to
// the first and INTENT to the second up to "_secret_" (pi_...), then pay
// with the test card, confirm, and read the booking:
//
//	curl -s -X POST http://127.0.0.1:8081/fakepay/intents/$INTENT -H 'Content-Type: application/json' \
//	  -d '{"card_number": "4242424242424242"}'
//	curl -s -X POST $API/booking/$TOKEN/confirm -H 'Content-Type: application/json' \
//	  -d '{"payment_intent_id": "'$INTENT'"}'
//	curl -s $API/booking/$TOKEN
//
// The booking is "confirmed". A checkout left unpaid holds its dates for
// 30 minutes; the workers then expire it. The host signs in to the
// dashboard at http://127.0.0.1:8081/host/ as a user created with the
// command line (go run ./cmd/staykit user create -org lac -email E -db
// embed.db), and a program calls the host API with a key (go run
// ./cmd/staykit apikey create -org lac -name NAME -db embed.db). For real
// payments, replace paymenttest.New with payment/stripe and drop the
// /fakepay route; the rest stays as is.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/hostweb"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/jobs"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/payment/paymenttest/fakepay"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/reports"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite"
)

// demoSeed is the host's catalogue, loaded when the database has no
// organisation yet.
const demoSeed = `{
  "organizations": [{
    "slug": "lac", "name": "Gîtes du Lac", "payment_mode": "full",
    "default_locale": "fr", "currency": "EUR", "timezone": "Europe/Paris",
    "min_stay_nights": 2, "max_stay_nights": 21, "hold_minutes": 30,
    "public_engine_enabled": true,
    "properties": [{
      "name": "Gîte du Lac",
      "description": "Une maison de pierre au bord du lac d'Annecy, ponton privé et kayaks.",
      "city": "Annecy", "country": "FR", "max_guests": 4, "bedrooms": 2,
      "rates": {"base_rate": 110, "weekend_rate": 130},
      "fees": {"cleaning": 40, "extra_guest": 15, "guests_included": 2},
      "tax": {"per_guest_per_night": 1.50}
    }],
    "coupons": [{"code": "BIENVENUE", "label": "Offre de bienvenue", "kind": "percent", "value": 10}]
  }]
}`

// sweepEvery is how often the periodic jobs run: lapsed holds expired,
// rows without a job looked for. E-mails, webhooks and refunds go out as
// soon as they are recorded; each calendar feed is fetched every 30
// minutes.
const sweepEvery = time.Minute

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "listen address")
	dbPath := flag.String("db", "embed.db", "SQLite database file")
	flag.Parse()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", *addr)
	if err == nil {
		err = run(ctx, ln, *dbPath, logger)
	}
	if err != nil {
		logger.Error("embed", "err", err)
		os.Exit(1)
	}
}

// run serves on ln until ctx is done: the store, the seed, the services,
// the routes, the workers, and a graceful shutdown.
func run(ctx context.Context, ln net.Listener, dbPath string, logger *slog.Logger) error {
	db, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		return fmt.Errorf("open %s: %w", dbPath, err)
	}
	defer db.Close()
	if err := seedOnce(ctx, db); err != nil {
		return err
	}
	// A random webhook secret: the API's webhook route verifies with it,
	// and nobody outside this process can sign a fake payment.
	fake := paymenttest.New(paymenttest.WithWebhookSecret("whsec_" + rand.Text()))
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: fake, Logger: logger})
	pay := money.New(svc, money.Options{Store: db.Stores(), Payments: fake, Logger: logger})
	hs := host.New(host.Options{Stores: db.HostStores(), Bookings: svc, Logger: logger})

	origin := "http://" + ln.Addr().String()
	api := httpapi.New(httpapi.Options{
		Service:      svc,
		Money:        pay,
		Logger:       logger,
		ExtraOrigins: []string{origin}, // pages served by this host
	})
	// Failed sign-ins and API-key checks are counted here (use
	// ratelimit/redislimit when several replicas serve).
	limiter := ratelimit.NewMemory(ratelimit.MemoryOptions{})
	dashboard := hostweb.New(hostweb.Options{Host: hs, Logger: logger, Limiter: limiter})
	hostAPI := hostapi.New(hostapi.Options{Host: hs, Logger: logger, Limiter: limiter,
		Session: dashboard.Session, PublicURL: origin, Reports: reports.New(reports.Options{Store: db}),
		Events: &eventfeed.Service{Store: db, Payloads: db}})

	// The host's own routes...
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "host home page; the booking API is under /api/v1/, the dashboard at /host/")
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "ok")
	})
	// ...the card step of fake payments...
	fakepay.New(fake, pay, logger).Routes(mux)
	// ...and staykit's, as the host's mux sees them: the public API at
	// /api/v1/... and, under a prefix, at /staykit/api/v1/...; the host
	// API (the longer pattern wins) and the dashboard.
	mux.Handle("/api/", api)
	mux.Handle("/staykit/", http.StripPrefix("/staykit", api))
	mux.Handle(hostapi.Prefix, hostAPI)
	mux.Handle("/host/", dashboard)

	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}

	// The workers run until the server has stopped.
	workers, err := newWorkers(db, svc, pay, origin, logger)
	if err != nil {
		return err
	}
	workCtx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := workers.Run(workCtx); err != nil {
			logger.Error("jobs", "err", err)
		}
	})
	defer func() {
		stopWork()
		wg.Wait()
	}()

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	logger.Info("listening", "url", origin+"/", "properties", origin+"/api/v1/book/lac/properties",
		"openapi", origin+"/api/v1/openapi.json", "dashboard", origin+"/host/")
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// newWorkers builds the background work staykit needs (package jobs):
// hold expiry, the payments ledger, the outbox (e-mails to the guests and
// the host, here written to the log: set notify.Worker.Mailer to
// notify.NewSMTPMailer for real ones; webhooks to the host's endpoints)
// and the calendar sync of the feeds the host added.
func newWorkers(db *sqlite.DB, svc *booking.Service, pay *money.Service, origin string, logger *slog.Logger) (*jobs.Workers, error) {
	outbox := &notify.Worker{Store: db, Logger: logger,
		BookingURL: func(org *booking.Organization, b *booking.Booking) string {
			return origin + "/?" + url.Values{"org": {org.Slug}, "booking": {b.Token}}.Encode()
		},
		HostBookingURL: func(_ *booking.Organization, b *booking.Booking) string {
			return origin + "/host/#bookings/" + strconv.FormatInt(b.ID, 10)
		}}
	feeds := icalsync.New(icalsync.Options{Store: db, Logger: logger})
	return jobs.NewSQLite(db, jobs.Options{Bookings: svc, Money: pay, Outbox: outbox, Feeds: feeds, Every: sweepEvery, Logger: logger})
}

// seedOnce loads demoSeed into an empty database.
func seedOnce(ctx context.Context, db *sqlite.DB) error {
	orgs, err := db.Organizations(ctx)
	if err != nil {
		return fmt.Errorf("list organisations: %w", err)
	}
	if len(orgs) > 0 {
		return nil
	}
	if err := seed.Load(ctx, db, strings.NewReader(demoSeed), time.Now()); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	return nil
}
