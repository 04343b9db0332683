// Command embed shows a host application mounting the staykit booking API
// on its own http.ServeMux, beside its own routes: a SQLite store, the fake
// payment provider, and the handler under /api/ (and again under /staykit/
// through http.StripPrefix, for hosts that keep a prefix per component).
//
//	go run ./examples/embed -addr 127.0.0.1:8081
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "listen address")
	dbPath := flag.String("db", "embed.db", "SQLite database file")
	flag.Parse()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(*addr, *dbPath, logger); err != nil {
		logger.Error("embed", "err", err)
		os.Exit(1)
	}
}

func run(addr, dbPath string, logger *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	db, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := booking.NewService(booking.Options{Store: db, Payments: paymenttest.New(), Logger: logger})

	api := httpapi.New(httpapi.Options{
		Service:       svc,
		Logger:        logger,
		ServiceDomain: "staykit.app",
		ExtraOrigins:  []string{"http://" + addr},
	})

	// The host's own routes...
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "host home page; the booking API is under /api/v1/")
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "ok")
	})
	// ...and staykit's, as the host's mux sees them: at /api/v1/... and,
	// under a prefix, at /staykit/api/v1/...
	mux.Handle("/api/", api)
	mux.Handle("/staykit/", http.StripPrefix("/staykit", api))

	srv := &http.Server{
		Addr:              addr,
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	logger.Info("listening", "url", "http://"+addr+"/", "openapi", "http://"+addr+"/api/v1/openapi.json")
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}
