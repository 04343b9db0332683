package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/bookingpage"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/closeout"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/internal/httpserve"
	"github.com/staykit/staykit/internal/serverenv"
	"github.com/staykit/staykit/jobs"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/payment/paymenttest/fakepay"
	"github.com/staykit/staykit/plantstore"
	"github.com/staykit/staykit/review"
	"github.com/staykit/staykit/sandbox"
	"github.com/staykit/staykit/store/cache"
)

// demoSeed is demo-seed.json, loaded on first start when -seed is not
// given.
//
//go:embed demo-seed.json
var demoSeed []byte

// HTTP server timeouts besides the read timeouts of config: a checkout
// (which calls the payment provider) has time to finish, and an idle
// keep-alive connection is closed after a while.
const (
	writeTimeout = 60 * time.Second
	idleTimeout  = 2 * time.Minute
)

// server is the reference server: its backends, the booking and money
// services and the payment provider, before it listens.
type server struct {
	cfg  serverenv.Config
	log  *slog.Logger
	back *serverenv.Backends
	svc  *booking.Service
	// money moves the bookings' money (package money): the ledger's
	// jobs, the provider's webhooks.
	money *money.Service
	// connect is the Stripe Connect onboarding and webhook (the zero
	// connect.Service when the server is no platform).
	connect *connect.Service
	// reviews are the guests' reviews (package review); nil when the
	// database keeps none.
	reviews *review.Service
	// changes are the guests' changes of dates or party (package
	// datechange); nil when the database keeps none.
	changes *datechange.Service
	fake    *paymenttest.Provider // nil with Stripe
	stripe  bool

	// readModel keeps the public read routes' data in memory over
	// back.Store (store/cache).
	readModel *cache.Store

	// clock is every service's clock: the wall clock, or with -sandbox
	// the sandbox's (also in sandbox).
	clock   booking.Clock
	sandbox *sandbox.Clock
	// jobs is the job engine, set by startWorkers before the first
	// request is served.
	jobs *jobs.Workers

	// thread is the guest's side of the messages between guests and
	// hosts, and their e-mails (package conversation); nil when the
	// database keeps none.
	thread *conversation.Service
}

// newServer opens the backends, loads the seed on first start and builds
// the booking service. Close releases what it opened.
func newServer(ctx context.Context, cfg serverenv.Config, logger *slog.Logger) (*server, error) {
	back, err := serverenv.Open(ctx, cfg, logger)
	if err != nil {
		return nil, err
	}
	s := &server{cfg: cfg, log: logger, back: back}
	if err := serverenv.SeedOnce(ctx, back.Store, cfg, demoSeed, "examples/server/demo-seed.json", logger); err != nil {
		back.Close()
		return nil, err
	}
	s.clock = booking.SystemClock{}
	if cfg.Sandbox {
		s.sandbox = sandbox.NewClock()
		s.clock = s.sandbox
	}
	payments, fake, err := serverenv.NewPayments(cfg, logger, s.clock)
	if err != nil {
		back.Close()
		return nil, err
	}
	s.fake, s.stripe = fake, fake == nil
	s.readModel = serverenv.NewReadModel(back.Store, logger)
	// Guests arriving today are refused while a property's channel
	// calendars are older than the host's threshold (package closeout).
	sameDay := &closeout.Guard{Store: back.Store.Closeout(), Feeds: back.Store.FeedStore, PollEvery: s.calendarSync().PollEvery()}
	s.svc = booking.NewService(booking.Options{
		Stores: s.readModel.Stores(), Payments: payments, Notifier: serverenv.LogNotifier(logger), Logger: logger,
		Connect: cfg.Connect(payments), SameDay: sameDay, Clock: s.clock,
	})
	s.money = money.New(s.svc, money.Options{
		Store: s.readModel.Stores(), Payments: payments, Notifier: serverenv.LogNotifier(logger), Logger: logger,
		Connect: cfg.Connect(payments), Clock: s.clock,
	})
	s.connect = &connect.Service{}
	if platform := cfg.Connect(payments); platform != nil {
		s.connect = connect.New(connect.Options{Store: back.Store.Connect(), Platform: platform, Events: s.money})
	}
	if store := back.Store.Reviews(); store != nil {
		s.reviews = review.New(review.Options{Store: store, Records: back.Store.Records, Clock: s.clock})
	}
	if store := back.Store.Conversation(); store != nil {
		s.thread = conversation.New(conversation.Options{Store: store, Catalog: back.Store.Booking(), Clock: s.clock})
	}
	if store := back.Store.DateChanges(s.readModel); store != nil {
		s.changes = datechange.New(datechange.Options{Bookings: s.svc, Store: store, Money: s.money, Records: back.Store.Records, Clock: s.clock, Logger: logger})
	}
	if err := serverenv.ApplyPlatformFee(ctx, cfg, s.connect, s.readModel); err != nil {
		back.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the backends.
func (s *server) Close() error { return s.back.Close() }

// handler returns the server's routes. origins (publicURL and the listen
// address) are allowed origins of every organisation, since browsers send
// Origin on same-origin POSTs too.
func (s *server) handler(publicURL string, origins []string) http.Handler {
	api := httpapi.New(httpapi.Options{
		Service:        s.svc,
		Money:          s.money,
		Connect:        s.connect,
		Logger:         s.log,
		Limiter:        s.back.Limiter,
		Limits:         s.cfg.Limits,
		TrustedProxies: s.cfg.TrustedProxies,
		ServiceDomain:  s.cfg.ServiceDomain,
		PreviewDomains: s.cfg.PreviewDomains,
		ExtraOrigins:   origins,
		Reviews:        s.reviews,
		Changes:        s.changes,
		Checkin:        s.guestHost(),
		Conversation:   s.thread,
	})
	plants := plantstore.New(plantstore.Options{Store: s.back.Plants, Tokens: s.cfg.PlantTokens, Logger: s.log})

	mux := http.NewServeMux()
	mux.Handle("/plants", plants)
	mux.Handle("/plants/", plants)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		httpserve.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", s.ready)
	mux.Handle("GET /app-config.json", bookingpage.AppConfig(s.back.Store, s.publishableKey()))
	mux.Handle("GET /ical/", s.calendarHandler())
	if s.fake != nil {
		fakepay.New(s.fake, s.money, s.log).Routes(mux)
	} else {
		// Real money: no way around the provider.
		mux.HandleFunc("/fakepay/", func(w http.ResponseWriter, r *http.Request) {
			httpserve.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "not_found", "message": "Fake payments are off: this server uses Stripe."})
		})
	}
	mux.Handle("GET /widget.js", bookingpage.Widget(s.publishableKey()))
	mux.Handle(bookingpage.InvoicesPrefix, bookingpage.Invoices(s.back.Store.Booking(), s.back.Store.Invoices(s.clock)))
	mux.Handle(bookingpage.ReceiptsPrefix, bookingpage.Receipts(s.back.Store.Booking(), s.clock.Now))
	mux.Handle("/", bookingpage.Handler(s.stripe))
	sandboxAPI := s.sandboxHandler()
	hostAPI, dashboard := s.hostSide(publicURL)
	mux.Handle("/host/", dashboard)
	mux.Handle("GET /host", http.RedirectHandler("/host/", http.StatusSeeOther))
	// The API logs its own requests, with their route.
	apis := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, hostapi.Prefix) {
			hostAPI.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
	if h, err := s.mcpHandler(apis, publicURL); err != nil {
		s.log.Error("the MCP server is off", "err", err)
	} else {
		mux.Handle("/mcp", h)
	}
	logged := httpserve.LogRequests(s.log, fakepay.AnyOrigin(mux))

	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, sandbox.Prefix) {
			sandboxAPI.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			apis.ServeHTTP(w, r)
			return
		}
		logged.ServeHTTP(w, r)
	})
}

// sandboxHandler serves /api/v1/sandbox/ (package sandbox): with
// -sandbox the clock and its due work, else 404.
func (s *server) sandboxHandler() http.Handler {
	if s.sandbox == nil {
		return &sandbox.Handler{Refusal: "The sandbox is off: start the server with -sandbox (fake payments only)."}
	}
	return &sandbox.Handler{Clock: s.sandbox, Logger: s.log, RunDue: func(ctx context.Context) error {
		return s.jobs.RunDue(ctx)
	}}
}

// readyTimeout bounds the readiness probe's wait for the database.
const readyTimeout = 2 * time.Second

// ready answers the readiness probe: 200 while the database answers, else
// 503 with Retry-After, so that a load balancer sends no traffic to a
// replica that would fail it. /healthz (liveness) answers 200 as long as
// the process serves. Redis is not checked: without it rate limits fail
// open and requests are served.
func (s *server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := s.back.Ping(ctx); err != nil {
		s.log.WarnContext(r.Context(), "not ready: the database does not answer", "err", err)
		w.Header().Set("Retry-After", strconv.Itoa(httpapi.RetryAfterUnavailable))
		httpserve.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		return
	}
	httpserve.WriteJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

func (s *server) publishableKey() string {
	if s.stripe {
		return s.cfg.Stripe.PublishableKey
	}
	return ""
}

// Serve serves on ln until ctx is done, then shuts down gracefully:
// the listener closes, requests in flight finish (within
// cfg.ShutdownTimeout), and the hold sweeper stops. Connections over
// cfg.MaxConns, or cfg.MaxConnsPerAddr from one client, are closed as soon
// as they are accepted.
func (s *server) Serve(ctx context.Context, ln net.Listener) error {
	publicURL, origins := s.cfg.URLs(ln.Addr())
	ln = httpserve.NewLimitListener(ln, s.cfg.MaxConns, s.cfg.MaxConnsPerAddr, s.cfg.TrustedProxies, s.log)
	hs := &http.Server{
		Handler:           s.handler(publicURL, origins),
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}

	stopWorkers, err := s.startWorkers(publicURL)
	if err != nil {
		return err
	}
	defer stopWorkers()

	// The listener is open: the welcome is logged whole before the first
	// request is served (a test that waits for /healthz reads all of it).
	s.logWelcome(ctx, publicURL)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.log.Info("shutting down: finishing requests in flight", "timeout", s.cfg.ShutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		hs.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	s.log.Info("stopped")
	return nil
}

// logWelcome logs where to point a browser and a first API call.
func (s *server) logWelcome(ctx context.Context, publicURL string) {
	mode := "fake (pay with card 4242 4242 4242 4242; 4000 0000 0000 0002 is declined)"
	if s.stripe {
		mode = "stripe"
	}
	s.log.Info("staykit reference server ready", append([]any{"url", publicURL + "/"}, append(s.cfg.StoreAttrs(), "payments", mode)...)...)
	orgs, err := s.back.Store.Organizations(ctx)
	if err != nil || len(orgs) == 0 {
		return
	}
	org := orgs[0]
	for _, o := range orgs {
		if o.Slug == "demo" {
			org = o
		}
	}
	s.log.Info("booking page", "url", publicURL+"/?org="+url.QueryEscape(org.Slug))
	s.log.Info("try the API", "curl", "curl -s "+publicURL+"/api/v1/book/"+org.Slug+"/properties")
	props, err := s.back.Store.Properties(ctx, org.ID)
	if err != nil || len(props) == 0 {
		return
	}
	today := civil.Today(time.Now(), org.Location())
	in, out := today.AddDays(30), today.AddDays(33)
	s.log.Info("price a stay", "curl", fmt.Sprintf("curl -s '%s/api/v1/book/%s/properties/%d/price?check_in=%s&check_out=%s&guests_count=2&coupon_code=WELCOME10'",
		publicURL, org.Slug, props[0].ID, in, out))
	s.log.Info("the API's contract", "url", publicURL+"/api/v1/openapi.json")
	if len(s.cfg.PlantTokens) == 0 {
		s.log.Info("the plant store at /plants refuses every request until PLANTSTORE_TOKENS is set")
	}
}
