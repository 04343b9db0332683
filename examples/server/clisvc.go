package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/payment"
)

// cliService opens the database of a host command (bookings, approve,
// decline, cancel, deposit) and the Service over it:
//   - through the read model, so that on PostgreSQL the running replicas
//     hear of the change (on SQLite they re-read within cache.DefaultMaxAge);
//   - with Stripe when its keys are set, as a Connect platform when
//     STRIPE_CONNECT says so (each booking's calls then go to its
//     organisation's account), else with detachedFake, since fake intents
//     live in the server's memory.
//
// The returned func closes the database.
func cliService(ctx context.Context, dbPath, pgURL string, getenv func(string) string, stderr io.Writer) (*booking.Service, func(), error) {
	if _, err := os.Stat(dbPath); err != nil && pgURL == "" {
		return nil, nil, fmt.Errorf("no database at %s (start the server once, or pass -db): %w", dbPath, err)
	}
	cfgArgs := []string{"-db", dbPath, "-postgres", pgURL}
	if strings.TrimSpace(getenv("STRIPE_SECRET_KEY")) == "" {
		cfgArgs = append(cfgArgs, "-fake-payments") // detachedFake, below
	}
	cfg, err := parseConfig(cfgArgs, getenv, stderr)
	if err != nil {
		return nil, nil, err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	back, err := openBackends(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	var payments payment.Provider = detachedFake{}
	if cfg.stripe.SecretKey != "" {
		if payments, _, err = newPayments(cfg, logger); err != nil {
			back.close()
			return nil, nil, err
		}
	}
	svc := booking.NewService(booking.Options{
		Store: newReadModel(back.store, logger), Payments: payments, Connect: connectOf(cfg, payments), Logger: logger,
	})
	return svc, func() { back.close() }, nil
}
