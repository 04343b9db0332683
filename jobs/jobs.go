// Package jobs is staykit's one job engine: River
// (github.com/riverqueue/river) on the store's own database, PostgreSQL
// through riverpgxv5 or SQLite through riversqlite. It carries out
// everything that must happen later or be retried (SPEC §9, "Durable
// work"):
//
//   - each pending payments-ledger entry is a job (LedgerEntryArgs) that
//     sends it with its idempotency key (money.Service.SendLedgerEntry);
//   - each outbox event is a job (OutboxEventArgs) that fans it out into
//     deliveries, and each delivery a job (DeliveryArgs) that makes it
//     (notify.Worker): deliveries run concurrently, so one slow receiver
//     delays no one else;
//   - each active iCal feed is a job (FeedPollArgs), one per feed, that
//     polls it when due (icalsync.Syncer.PollFeed);
//   - periodic jobs expire lapsed holds, purge old host requests, queue
//     reminders and the host's scheduled messages, delete the guests'
//     check-ins past their keeping period (Options.Checkins), issue the
//     invoices owed (package invoice) and sweep for due rows that have no
//     job (rows written before the engine ran, or by a store without the
//     hook).
//
// The ledger, outbox and feed rows stay the business records hosts read:
// a job reads its row, acts, saves the outcome there (attempts, last
// error, status) and then sleeps (River's snooze) until the row's next
// attempt, so the schedule hosts see is the schedule that runs. River's
// own retries, with backoff, take the failures that leave no outcome (the
// database down, a panic). Jobs are unique per row, and River claims each
// job for one worker, so several replicas may run Workers on one database;
// the job of a process that was killed mid-work runs again after
// RescueAfter (minutes, not River's default hour).
//
// The stores insert the jobs of what they record in the same transaction
// (package jobs/enqueue); NewSQLite and NewPostgres install that hook. An
// embedder builds one Workers value and runs it beside its HTTP server:
//
//	w, err := jobs.NewSQLite(db, jobs.Options{Bookings: svc, Money: pay, Outbox: outboxWorker, Feeds: syncer})
//	if err != nil { ... }
//	go w.Run(ctx)
package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/jobs/enqueue"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
)

// Defaults of Options.
const (
	DefaultEvery       = time.Minute
	DefaultDeliveries  = 20
	DefaultPerEndpoint = 4
	// sweepLimit is how many rows of each kind one safety-net sweep
	// enqueues at most.
	sweepLimit = 500
	// ledgerGrace is how long a ledger entry's job waits at least after
	// it is enqueued.
	ledgerGrace = 10 * time.Second
	// sqlitePoll is how often River looks for jobs on SQLite.
	sqlitePoll = 500 * time.Millisecond
	// stopGrace is how long Run lets running jobs finish once its context
	// ends.
	stopGrace = 30 * time.Second
	// jobTimeout bounds the jobs whose worker sets no Timeout of its own
	// (an event's fan-out, the periodic tasks): River cancels their
	// context after it.
	jobTimeout = time.Minute
	// RescueAfter is how long a job may stay running before River takes it
	// for the job of a crashed or killed process and runs it again (River's
	// RescueStuckJobsAfter; its default, an hour, would hold a killed
	// delivery or refund back that long, where the old leases took 30
	// seconds). It exceeds every worker's Timeout (at most two minutes:
	// a ledger send, a feed poll) by a minute, the time a cancelled job
	// has to save its outcome and return, so a live job is never rescued
	// while it runs. River's rescuer looks every 30 seconds: a killed job
	// runs again within about three and a half minutes.
	RescueAfter = 3 * time.Minute
)

// Options configure Workers. Bookings and Money are required.
type Options struct {
	// Bookings expires lapsed holds and purges host requests.
	Bookings *booking.Service
	// Money sends the ledger's entries (money.New over Bookings).
	Money *money.Service
	// Outbox delivers e-mails and webhooks; nil: outbox rows are left
	// alone. Its Reminders and QueueMessages, when set, run every Every.
	Outbox *notify.Worker
	// Feeds polls iCal feeds; nil: feeds are not polled.
	Feeds *icalsync.Syncer
	// Checkins deletes the guests' check-ins past their keeping period
	// (host.Service.CheckinRetention); nil: none are deleted.
	Checkins CheckinPurger
	// Invoices issues the invoices and credit notes owed every Every
	// (invoice.Service); nil: none are issued.
	Invoices Invoicer
	// Every is the interval of the periodic jobs (hold expiry, host
	// request purge, reminders, safety-net sweep); default a minute.
	Every time.Duration
	// Deliveries is how many deliveries one process makes at once
	// (default 20); PerEndpoint how many of them may go to one webhook
	// endpoint (default 4), so that a slow receiver holds PerEndpoint
	// workers, not all of them.
	Deliveries  int
	PerEndpoint int
	// Clock is the sweep's "now"; it defaults to the wall clock.
	Clock booking.Clock
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

func (o *Options) defaults() error {
	if o.Bookings == nil || o.Money == nil {
		return errors.New("jobs: Options.Bookings and Options.Money are required")
	}
	if o.Every <= 0 {
		o.Every = DefaultEvery
	}
	if o.Deliveries <= 0 {
		o.Deliveries = DefaultDeliveries
	}
	if o.PerEndpoint <= 0 {
		o.PerEndpoint = DefaultPerEndpoint
	}
	if o.Clock == nil {
		o.Clock = booking.SystemClock{}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return nil
}

// CheckinPurger deletes the check-ins past their keeping period and says
// how many (host.CheckinRetention).
type CheckinPurger interface {
	PurgeCheckins(ctx context.Context) (int, error)
}

// Invoicer issues the documents owed: invoice.Service. Issuing is
// idempotent per booking and per refund, so replicas may run it at once.
type Invoicer interface {
	IssueDue(ctx context.Context) (int, error)
}

// Queues of the jobs.
const (
	QueueLedger = "ledger"
	QueueOutbox = "outbox"
	QueueFeeds  = "feeds"
	// QueuePeriodic runs the periodic jobs.
	QueuePeriodic = river.QueueDefault
)

// DueWorkStore is what the safety-net sweep reads: the due rows of each
// kind (store/sqlite and store/postgres have it).
type DueWorkStore interface {
	DueWork(ctx context.Context, now time.Time, limit int) ([]enqueue.Work, error)
}

// SQLiteStore is what NewSQLite needs of a store: store/sqlite.DB.
type SQLiteStore interface {
	DueWorkStore
	// JobPool is the pool River runs on.
	JobPool() *sql.DB
	// SetJobHook installs the hook that inserts jobs in the store's
	// transactions.
	SetJobHook(enqueue.SQLHook)
}

// PostgresStore is what NewPostgres needs of a store: store/postgres.DB.
type PostgresStore interface {
	DueWorkStore
	JobPool() *pgxpool.Pool
	SetJobHook(enqueue.PgxHook)
}

// Workers runs the jobs of one store. Start it (or Run it) on every
// replica; it is safe for concurrent use.
type Workers struct {
	opts  Options
	store DueWorkStore
	// One of them is set: the client of the store's driver.
	sqlite   *river.Client[*sql.Tx]
	postgres *river.Client[pgx.Tx]
	// wall is River's clock (nil: time.Now), which schedules jobs: a
	// row's job is scheduled after the row's delay on Options.Clock, so
	// that a clock ahead of the wall (the sandbox's) delays nothing.
	wall func() time.Time
}

// NewSQLite returns the Workers of a SQLite store and installs their hook
// in it, so the store inserts jobs with what it records. River's tables
// are the store's (store/sqlite.Open migrates them).
func NewSQLite(store SQLiteStore, o Options) (*Workers, error) {
	w, cfg, err := newWorkers(store, o)
	if err != nil {
		return nil, err
	}
	// SQLite has no LISTEN/NOTIFY. River's SQLite driver emulates it by
	// reading a notification table every 50 ms, a query that cost the
	// reference server 2-3 % of its CPU under load and 2 % of a core when
	// idle; River polls for jobs instead, a little more often than its
	// default so that a job's follow-up (an event's deliveries) starts
	// soon.
	cfg.PollOnly = true
	cfg.FetchPollInterval = sqlitePoll
	if w.sqlite, err = river.NewClient(riversqlite.New(store.JobPool()), cfg); err != nil {
		return nil, fmt.Errorf("jobs: %w", err)
	}
	store.SetJobHook(w)
	return w, nil
}

// NewPostgres returns the Workers of a PostgreSQL store and installs their
// hook in it. River's tables are the store's (store/postgres.Open
// migrates them).
func NewPostgres(store PostgresStore, o Options) (*Workers, error) {
	w, cfg, err := newWorkers(store, o)
	if err != nil {
		return nil, err
	}
	if w.postgres, err = river.NewClient(riverpgxv5.New(store.JobPool()), cfg); err != nil {
		return nil, fmt.Errorf("jobs: %w", err)
	}
	store.SetJobHook(w)
	return w, nil
}

// newWorkers returns Workers without a client, and the client's
// configuration: queues, workers and periodic jobs.
func newWorkers(store DueWorkStore, o Options) (*Workers, *river.Config, error) {
	if err := o.defaults(); err != nil {
		return nil, nil, err
	}
	w := &Workers{opts: o, store: store}
	workers := river.NewWorkers()
	river.AddWorker(workers, &ledgerWorker{money: o.Money, clock: o.Clock})
	river.AddWorker(workers, &eventWorker{w: o.Outbox})
	river.AddWorker(workers, &deliveryWorker{w: o.Outbox, clock: o.Clock, gate: newGate(o.PerEndpoint)})
	river.AddWorker(workers, &feedWorker{s: o.Feeds, clock: o.Clock})
	river.AddWorker(workers, &periodicWorker{w: w})
	every := river.PeriodicInterval(o.Every)
	var periodic []*river.PeriodicJob
	for _, task := range []string{TaskExpireHolds, TaskPurgeHostRequests, TaskReminders, TaskPurgeCheckins, TaskInvoices, TaskMessages, TaskSweep} {
		periodic = append(periodic, river.NewPeriodicJob(every, func() (river.JobArgs, *river.InsertOpts) {
			return PeriodicArgs{Task: task}, nil
		}, &river.PeriodicJobOpts{ID: task, RunOnStart: true}))
	}
	cfg := &river.Config{
		Queues: map[string]river.QueueConfig{
			QueueLedger:   {MaxWorkers: 5},
			QueueOutbox:   {MaxWorkers: o.Deliveries},
			QueueFeeds:    {MaxWorkers: 5},
			QueuePeriodic: {MaxWorkers: 2},
		},
		Workers:              workers,
		PeriodicJobs:         periodic,
		JobTimeout:           jobTimeout,
		RescueStuckJobsAfter: RescueAfter,
		// River's own chatter (job counts every few seconds) stays
		// out of the host's log; its warnings and errors go in.
		Logger: slog.New(minLevel{o.Logger.Handler(), slog.LevelWarn}),
	}
	return w, cfg, nil
}

// Start starts working jobs in the background; ctx is River's (its end
// stops the work at once: prefer Stop).
func (w *Workers) Start(ctx context.Context) error {
	var err error
	if w.sqlite != nil {
		err = w.sqlite.Start(ctx)
	} else {
		err = w.postgres.Start(ctx)
	}
	if err != nil {
		return fmt.Errorf("jobs: start: %w", err)
	}
	return nil
}

// Stop stops fetching jobs and waits for the running ones to finish, or
// for ctx to end.
func (w *Workers) Stop(ctx context.Context) error {
	var err error
	if w.sqlite != nil {
		err = w.sqlite.Stop(ctx)
	} else {
		err = w.postgres.Stop(ctx)
	}
	if err != nil {
		return fmt.Errorf("jobs: stop: %w", err)
	}
	return nil
}

// Run works jobs until ctx ends, then stops, leaving running jobs 30
// seconds to finish; it returns nil after a clean stop. It is what a host
// runs beside its HTTP server, in its own goroutine.
func (w *Workers) Run(ctx context.Context) error {
	if err := w.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	<-ctx.Done()
	stop, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopGrace)
	defer cancel()
	return w.Stop(stop)
}

// EnqueueSQLTx inserts the jobs of work in tx (enqueue.SQLHook, called
// by store/sqlite).
func (w *Workers) EnqueueSQLTx(ctx context.Context, tx *sql.Tx, work []enqueue.Work) error {
	if w.sqlite == nil {
		return errors.New("jobs: a SQLite transaction given to PostgreSQL workers")
	}
	params := w.params(work)
	if len(params) == 0 {
		return nil
	}
	if _, err := w.sqlite.InsertManyTx(ctx, tx, params); err != nil {
		return fmt.Errorf("enqueue jobs: %w", err)
	}
	return nil
}

// EnqueuePgxTx inserts the jobs of work in tx (enqueue.PgxHook, called by
// store/postgres).
func (w *Workers) EnqueuePgxTx(ctx context.Context, tx pgx.Tx, work []enqueue.Work) error {
	if w.postgres == nil {
		return errors.New("jobs: a PostgreSQL transaction given to SQLite workers")
	}
	params := w.params(work)
	if len(params) == 0 {
		return nil
	}
	if _, err := w.postgres.InsertManyTx(ctx, tx, params); err != nil {
		return fmt.Errorf("enqueue jobs: %w", err)
	}
	return nil
}

// insert inserts the jobs of work outside a transaction.
func (w *Workers) insert(ctx context.Context, work []enqueue.Work) (int, error) {
	params := w.params(work)
	if len(params) == 0 {
		return 0, nil
	}
	var (
		res []*rivertype.JobInsertResult
		err error
	)
	if w.sqlite != nil {
		res, err = w.sqlite.InsertMany(ctx, params)
	} else {
		res, err = w.postgres.InsertMany(ctx, params)
	}
	if err != nil {
		return 0, fmt.Errorf("enqueue jobs: %w", err)
	}
	n := 0
	for _, r := range res {
		if !r.UniqueSkippedAsDuplicate {
			n++
		}
	}
	return n, nil
}

// params are the jobs of work that these Workers carry out, scheduled at
// the rows' due times: after the time each row has to wait on
// Options.Clock, counted on River's wall clock.
func (w *Workers) params(work []enqueue.Work) []river.InsertManyParams {
	now := w.opts.Clock.Now()
	wall := time.Now
	if w.wall != nil {
		wall = w.wall
	}
	var out []river.InsertManyParams
	for _, wk := range work {
		args := argsOf(wk)
		if args == nil || !w.handles(wk.Kind) {
			continue
		}
		at := wk.At
		if wk.Kind == enqueue.LedgerEntry {
			// The service sends a fresh entry at once itself
			// (booking's sendNow); the job comes after, for what is
			// left, rather than racing it.
			at = later(at, now.Add(ledgerGrace))
		}
		p := river.InsertManyParams{Args: args}
		if at.After(now) {
			p.InsertOpts = &river.InsertOpts{ScheduledAt: wall().Add(at.Sub(now))}
		}
		out = append(out, p)
	}
	return out
}

// later is the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// handles reports whether these Workers carry out work of kind.
func (w *Workers) handles(kind enqueue.Kind) bool {
	switch kind {
	case enqueue.OutboxEvent, enqueue.OutboxDelivery:
		return w.opts.Outbox != nil
	case enqueue.Feed:
		return w.opts.Feeds != nil
	}
	return true
}

// minLevel is a handler that drops records below min.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(attrs), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}
