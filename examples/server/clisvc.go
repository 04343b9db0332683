package main

import (
	"context"
	"io"
	"log/slog"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/icalsync"
	hostcli "github.com/staykit/staykit/internal/cli"
	"github.com/staykit/staykit/payment"
)

// cliOpener opens the server's database for a host command (package
// internal/cli) as the server does, with the server's configuration read
// from getenv; warnings go to stderr.
type cliOpener struct {
	getenv func(string) string
	stderr io.Writer
}

var _ hostcli.Opener = cliOpener{}

func (o cliOpener) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(o.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// Store opens the store alone.
func (o cliOpener) Store(ctx context.Context, db hostcli.Database) (hostcli.Stores, func(), error) {
	back, err := openBackends(ctx, config{dbPath: db.Path, postgresURL: db.PostgresURL})
	if err != nil {
		return hostcli.Stores{}, nil, err
	}
	return seamsOf(back.store), func() { back.close() }, nil
}

// Bookings opens the Service of a host command (bookings, approve,
// decline, cancel, deposit):
//   - through the read model, so that on PostgreSQL the running replicas
//     hear of the change (on SQLite they re-read within cache.DefaultMaxAge);
//   - with Stripe when its keys are set, as a Connect platform when
//     STRIPE_CONNECT says so (each booking's calls then go to its
//     organisation's account), else with detachedFake, since fake intents
//     live in the server's memory.
func (o cliOpener) Bookings(ctx context.Context, db hostcli.Database) (*booking.Service, func(), error) {
	cfgArgs := []string{"-db", db.Path, "-postgres", db.PostgresURL}
	if strings.TrimSpace(o.getenv("STRIPE_SECRET_KEY")) == "" {
		cfgArgs = append(cfgArgs, "-fake-payments") // detachedFake, below
	}
	cfg, err := parseConfig(cfgArgs, o.getenv, o.stderr)
	if err != nil {
		return nil, nil, err
	}
	logger := o.logger()
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
		Stores: newReadModel(back.store, logger).Stores(), Payments: payments, Connect: connectOf(cfg, payments), Logger: logger,
	})
	return svc, func() { back.close() }, nil
}

// Host opens the host use cases.
func (o cliOpener) Host(ctx context.Context, db hostcli.Database) (*host.Service, func(), error) {
	cfg, err := parseConfig([]string{"-db", db.Path, "-postgres", db.PostgresURL, "-fake-payments"}, o.getenv, o.stderr)
	if err != nil {
		return nil, nil, err
	}
	back, err := openBackends(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	logger := o.logger()
	svc := booking.NewService(booking.Options{Stores: back.store.Stores, Payments: detachedFake{}, Logger: logger})
	return host.New(host.Options{Stores: seamsOf(back.store), Bookings: svc, Logger: logger}), func() { back.close() }, nil
}

// Calendars opens the calendar sync as the server runs it, through the
// read model, with the server's outbound policy.
func (o cliOpener) Calendars(ctx context.Context, db hostcli.Database, outboundAllow string) (*icalsync.Syncer, hostcli.Stores, func(), error) {
	cfg, err := parseConfig([]string{"-db", db.Path, "-postgres", db.PostgresURL, "-fake-payments", "-outbound-allow", outboundAllow}, o.getenv, o.stderr)
	if err != nil {
		return nil, hostcli.Stores{}, nil, err
	}
	back, err := openBackends(ctx, cfg)
	if err != nil {
		return nil, hostcli.Stores{}, nil, err
	}
	logger := o.logger()
	syncer := icalsync.New(icalsync.Options{Store: seamsThrough(newReadModel(back.store, logger), back.store), Notifier: logNotifier(logger), Logger: logger,
		Fetcher: &icalsync.Fetcher{Policy: cfg.outbox.feedPolicy()}})
	return syncer, seamsOf(back.store), func() { back.close() }, nil
}
