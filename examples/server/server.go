package main

import (
	"bytes"
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
	"sync"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/plantstore"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/seed"
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

// server is the reference server: its backends, the booking service and
// the payment provider, before it listens.
type server struct {
	cfg    config
	log    *slog.Logger
	back   *backends
	svc    *booking.Service
	fake   *paymenttest.Provider // nil with Stripe
	stripe bool

	// readModel keeps the public read routes' data in memory over
	// back.store (store/cache).
	readModel *cache.Store
}

// newServer opens the backends, loads the seed on first start and builds
// the booking service. Close releases what it opened.
func newServer(ctx context.Context, cfg config, logger *slog.Logger) (*server, error) {
	back, err := openBackends(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if cfg.redisAddr != "" {
		// Redis that fails or hangs costs a request at most
		// -redis-timeout, then nothing while it is down: requests are
		// allowed uncounted (fail open), logged once.
		back.limiter = ratelimit.NewBreaker(back.limiter, ratelimit.BreakerOptions{Timeout: cfg.redisTimeout, Logger: logger})
	}
	s := &server{cfg: cfg, log: logger, back: back}
	if err := s.seed(ctx); err != nil {
		back.close()
		return nil, err
	}
	payments, fake, err := newPayments(cfg, logger)
	if err != nil {
		back.close()
		return nil, err
	}
	s.fake, s.stripe = fake, fake == nil
	s.readModel = newReadModel(back.store, logger)
	s.svc = booking.NewService(booking.Options{
		Store: s.readModel, Payments: payments, Notifier: logNotifier(logger), Logger: logger,
		Connect: connectOf(cfg, payments),
	})
	if err := applyPlatformFee(ctx, cfg, s.svc, s.readModel); err != nil {
		back.close()
		return nil, err
	}
	return s, nil
}

// Close closes the backends.
func (s *server) Close() error { return s.back.close() }

// seed loads the seed file when the database has no organisation yet.
func (s *server) seed(ctx context.Context) error {
	orgs, err := s.back.store.Organizations(ctx)
	if err != nil {
		return fmt.Errorf("list organisations: %w", err)
	}
	if len(orgs) > 0 {
		if s.cfg.seedPath != "" {
			s.log.Info("the database has organisations already: seed file not loaded (start with an empty database to load it)",
				append([]any{"seed", s.cfg.seedPath, "organizations", len(orgs)}, s.cfg.storeAttrs()...)...)
		}
		return nil
	}
	now := time.Now()
	if s.cfg.seedPath != "" {
		err = seed.LoadFile(ctx, s.back.store, s.cfg.seedPath, now)
	} else {
		err = seed.Load(ctx, s.back.store, bytes.NewReader(demoSeed), now)
		if err != nil {
			err = fmt.Errorf("demo seed: %w", err)
		}
	}
	if booking.ErrorCode(err) == booking.CodeConflict {
		// Another replica on the same database seeded it meanwhile.
		s.log.Info("seed: organisations created by another replica meanwhile", "err", err)
		return nil
	}
	if err != nil {
		return err
	}
	orgs, err = s.back.store.Organizations(ctx)
	if err != nil {
		return fmt.Errorf("list organisations: %w", err)
	}
	source := s.cfg.seedPath
	if source == "" {
		source = "built-in demo (examples/server/demo-seed.json)"
	}
	s.log.Info("first start: seed loaded", "seed", source, "organizations", len(orgs))
	return nil
}

// handler returns the server's routes. origins (publicURL and the listen
// address) are allowed origins of every organisation, since browsers send
// Origin on same-origin POSTs too.
func (s *server) handler(publicURL string, origins []string) http.Handler {
	api := httpapi.New(httpapi.Options{
		Service:        s.svc,
		Logger:         s.log,
		Limiter:        s.back.limiter,
		Limits:         s.cfg.limits,
		TrustedProxies: s.cfg.trustedProxies,
		ServiceDomain:  s.cfg.serviceDomain,
		PreviewDomains: s.cfg.previewDomains,
		ExtraOrigins:   origins,
	})
	plants := plantstore.New(plantstore.Options{Store: s.back.plants, Tokens: s.cfg.plantTokens, Logger: s.log})

	mux := http.NewServeMux()
	mux.Handle("/plants", plants)
	mux.Handle("/plants/", plants)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", s.ready)
	mux.Handle("GET /app-config.json", appConfigHandler(s.back.store, s.publishableKey()))
	mux.Handle("GET /ical/", s.calendarHandler())
	if s.fake != nil {
		(&fakePay{fake: s.fake, svc: s.svc, logger: s.log}).routes(mux)
	} else {
		// Real money: no way around the provider.
		mux.HandleFunc("/fakepay/", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found", "message": "Fake payments are off: this server uses Stripe."})
		})
	}
	mux.Handle("GET /widget.js", widgetHandler(s.publishableKey()))
	mux.Handle("/", pageHandler(s.stripe))
	hostAPI, dashboard := s.hostSide(publicURL)
	mux.Handle("/host/", dashboard)
	mux.Handle("GET /host", http.RedirectHandler("/host/", http.StatusSeeOther))
	logged := logRequests(s.log, fakePayCORS(mux))

	// The API logs its own requests, with their route.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, hostapi.Prefix) {
			hostAPI.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			api.ServeHTTP(w, r)
			return
		}
		logged.ServeHTTP(w, r)
	})
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
	if err := s.back.ping(ctx); err != nil {
		s.log.WarnContext(r.Context(), "not ready: the database does not answer", "err", err)
		w.Header().Set("Retry-After", strconv.Itoa(httpapi.RetryAfterUnavailable))
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

func (s *server) publishableKey() string {
	if s.stripe {
		return s.cfg.stripe.PublishableKey
	}
	return ""
}

// Serve serves on ln until ctx is done, then shuts down gracefully:
// the listener closes, requests in flight finish (within
// cfg.shutdownTimeout), and the hold sweeper stops. Connections over
// cfg.maxConns, or cfg.maxConnsPerAddr from one client, are closed as soon
// as they are accepted.
func (s *server) Serve(ctx context.Context, ln net.Listener) error {
	publicURL, origins := s.urls(ln.Addr())
	ln = newLimitListener(ln, s.cfg.maxConns, s.cfg.maxConnsPerAddr, s.cfg.trustedProxies, s.log)
	hs := &http.Server{
		Handler:           s.handler(publicURL, origins),
		ReadHeaderTimeout: s.cfg.readHeaderTimeout,
		ReadTimeout:       s.cfg.readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}

	sweepCtx, stopSweep := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { s.readModel.Run(sweepCtx) })
	workers, err := s.jobs(publicURL)
	if err != nil {
		stopSweep()
		wg.Wait()
		return err
	}
	wg.Go(func() { s.runJobs(sweepCtx, workers) })
	defer func() {
		stopSweep()
		wg.Wait()
	}()

	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	s.logWelcome(ctx, publicURL)

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.log.Info("shutting down: finishing requests in flight", "timeout", s.cfg.shutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.shutdownTimeout)
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

// urls returns the server's public URL (cfg.publicURL, else http://{the
// listen address}, with localhost for an unspecified address) and the
// origins browsers may call the API from: the public URL, the listen
// address, and its localhost and 127.0.0.1 twins on a loopback address.
func (s *server) urls(addr net.Addr) (string, []string) {
	host, port := "localhost", ""
	if ta, ok := addr.(*net.TCPAddr); ok {
		port = strconv.Itoa(ta.Port)
		if !ta.IP.IsUnspecified() {
			host = ta.IP.String()
		}
	}
	listen := "http://" + net.JoinHostPort(host, port)
	publicURL := s.cfg.publicURL
	if publicURL == "" {
		publicURL = listen
	}
	origins := []string{publicURL}
	if listen != publicURL {
		origins = append(origins, listen)
	}
	if isLoopback(host) {
		for _, h := range []string{"localhost", "127.0.0.1"} {
			if o := "http://" + net.JoinHostPort(h, port); o != publicURL && o != listen {
				origins = append(origins, o)
			}
		}
	}
	return publicURL, origins
}

// logWelcome logs where to point a browser and a first API call.
func (s *server) logWelcome(ctx context.Context, publicURL string) {
	mode := "fake (pay with card 4242 4242 4242 4242; 4000 0000 0000 0002 is declined)"
	if s.stripe {
		mode = "stripe"
	}
	s.log.Info("staykit reference server ready", append([]any{"url", publicURL + "/"}, append(s.cfg.storeAttrs(), "payments", mode)...)...)
	orgs, err := s.back.store.Organizations(ctx)
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
	props, err := s.back.store.Properties(ctx, org.ID)
	if err != nil || len(props) == 0 {
		return
	}
	today := civil.Today(time.Now(), org.Location())
	in, out := today.AddDays(30), today.AddDays(33)
	s.log.Info("price a stay", "curl", fmt.Sprintf("curl -s '%s/api/v1/book/%s/properties/%d/price?check_in=%s&check_out=%s&guests_count=2&coupon_code=WELCOME10'",
		publicURL, org.Slug, props[0].ID, in, out))
	s.log.Info("the API's contract", "url", publicURL+"/api/v1/openapi.json")
	if len(s.cfg.plantTokens) == 0 {
		s.log.Info("the plant store at /plants refuses every request until PLANTSTORE_TOKENS is set")
	}
}
