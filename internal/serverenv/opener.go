package serverenv

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/internal/cli"
	"github.com/staykit/staykit/jobs"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/payment"
)

// Opener opens a server's database for a host command (package
// internal/cli) as the server does, with the server's configuration read
// from Getenv; warnings go to Stderr.
type Opener struct {
	Getenv func(string) string
	Stderr io.Writer
}

var _ cli.Opener = Opener{}

func (o Opener) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(o.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// open opens the backends of a command with the job hook installed
// (enqueueJobs).
func (o Opener) open(ctx context.Context, cfg Config, logger *slog.Logger) (*Backends, error) {
	back, err := Open(ctx, cfg, logger)
	if err != nil {
		return nil, err
	}
	if err := enqueueJobs(back, logger); err != nil {
		back.Close()
		return nil, err
	}
	return back, nil
}

// enqueueJobs installs in back's store the hook that inserts the jobs of
// what a command records (a redelivery, a resumed endpoint's replay, a
// refund left to retry, a new feed), so that the running servers' job
// workers take them up at once rather than at their next safety-net sweep.
// The Workers built for it are never started: they only insert jobs.
func enqueueJobs(back *Backends, logger *slog.Logger) error {
	svc := booking.NewService(booking.Options{Stores: back.Store.Booking(), Payments: DetachedFake{}, Logger: logger})
	pay := money.New(svc, money.Options{Store: back.Store.Booking(), Payments: DetachedFake{}, Logger: logger})
	_, err := back.Store.Jobs(jobs.Options{Bookings: svc, Money: pay, Logger: logger,
		Outbox: &notify.Worker{Store: back.Store.Booking(), Logger: logger},
		Feeds:  icalsync.New(icalsync.Options{Store: back.Store.Stores, Logger: logger})})
	if err != nil {
		return fmt.Errorf("job hook: %w", err)
	}
	return nil
}

// Store opens the store alone.
func (o Opener) Store(ctx context.Context, db cli.Database) (cli.Stores, func(), error) {
	back, err := o.open(ctx, Config{DBPath: db.Path, PostgresURL: db.PostgresURL}, o.logger())
	if err != nil {
		return cli.Stores{}, nil, err
	}
	return back.Store.Stores, func() { back.Close() }, nil
}

// Bookings opens the Service of a host command (bookings, approve,
// decline, cancel, deposit):
//   - through the read model, so that on PostgreSQL the running replicas
//     hear of the change (on SQLite they re-read within cache.DefaultMaxAge);
//   - with Stripe when its keys are set, as a Connect platform when
//     STRIPE_CONNECT says so (each booking's calls then go to its
//     organisation's account), else with DetachedFake, since fake intents
//     live in the server's memory.
func (o Opener) Bookings(ctx context.Context, db cli.Database) (*booking.Service, func(), error) {
	cfgArgs := []string{"-db", db.Path, "-postgres", db.PostgresURL}
	if strings.TrimSpace(o.Getenv("STRIPE_SECRET_KEY")) == "" {
		cfgArgs = append(cfgArgs, "-fake-payments") // DetachedFake, below
	}
	cfg, err := Parse(cfgArgs, o.Getenv, o.Stderr)
	if err != nil {
		return nil, nil, err
	}
	logger := o.logger()
	back, err := o.open(ctx, cfg, logger)
	if err != nil {
		return nil, nil, err
	}
	var payments payment.Provider = DetachedFake{}
	if cfg.Stripe.SecretKey != "" {
		if payments, _, err = NewPayments(cfg, logger, nil); err != nil {
			back.Close()
			return nil, nil, err
		}
	}
	stores := NewReadModel(back.Store, logger).Stores()
	svc := booking.NewService(booking.Options{
		Stores: stores, Payments: payments, Connect: cfg.Connect(payments), Logger: logger,
	})
	// The lifecycle sends what a command records (a cancellation's
	// refunds, a deposit claim) at once through its money service.
	money.New(svc, money.Options{Store: stores, Payments: payments, Connect: cfg.Connect(payments), Logger: logger})
	return svc, func() { back.Close() }, nil
}

// Host opens the host use cases.
func (o Opener) Host(ctx context.Context, db cli.Database) (*host.Service, func(), error) {
	cfg, err := Parse([]string{"-db", db.Path, "-postgres", db.PostgresURL, "-fake-payments"}, o.Getenv, o.Stderr)
	if err != nil {
		return nil, nil, err
	}
	logger := o.logger()
	back, err := o.open(ctx, cfg, logger)
	if err != nil {
		return nil, nil, err
	}
	svc := booking.NewService(booking.Options{Stores: back.Store.Booking(), Payments: DetachedFake{}, Logger: logger})
	money.New(svc, money.Options{Store: back.Store.Booking(), Payments: DetachedFake{}, Logger: logger})
	return host.New(host.Options{Stores: back.Store.Stores, Bookings: svc, Logger: logger}), func() { back.Close() }, nil
}

// Calendars opens the calendar sync as the server runs it, through the
// read model, with the server's outbound policy.
func (o Opener) Calendars(ctx context.Context, db cli.Database, outboundAllow string) (*icalsync.Syncer, cli.Stores, func(), error) {
	cfg, err := Parse([]string{"-db", db.Path, "-postgres", db.PostgresURL, "-fake-payments", "-outbound-allow", outboundAllow}, o.Getenv, o.Stderr)
	if err != nil {
		return nil, cli.Stores{}, nil, err
	}
	logger := o.logger()
	back, err := o.open(ctx, cfg, logger)
	if err != nil {
		return nil, cli.Stores{}, nil, err
	}
	syncer := icalsync.New(icalsync.Options{Store: back.Store.Through(NewReadModel(back.Store, logger)), Notifier: LogNotifier(logger), Logger: logger,
		Fetcher: &icalsync.Fetcher{Policy: cfg.Outbox.FeedPolicy()}})
	return syncer, back.Store.Stores, func() { back.Close() }, nil
}

// RunCommand runs the host command args names (package internal/cli),
// its database opened by Opener as the server opens it, and reports true;
// it reports false when args[0] names no command. cmd/staykit is this
// function; examples/server runs it before it serves.
func RunCommand(ctx context.Context, args []string, env cli.Env) (bool, error) {
	env.Open = Opener{Getenv: env.Getenv, Stderr: env.Stderr}
	return cli.Run(ctx, args, env)
}
