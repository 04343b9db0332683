// Package postgres is staykit's store (every seam of booking.Stores) for several replicas sharing
// one PostgreSQL database, through pgx and its connection pool. (The plant
// store keeps its own tables: plantstore/plantpostgres.)
//
// Transactions run at READ COMMITTED. A write that checks something before
// it writes (are the dates free? is the coupon exhausted?) first locks the
// row the check is about (the property, the coupon), so that the writers
// of one property, from whatever replica, take turns, and each sees what the
// previous one committed. Two stays of one property cannot overlap even if
// a check were wrong: an exclusion constraint on the bookings table refuses
// it (see migrations/0001_init.sql for how a constraint copes with holds
// that lapse as time passes).
package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/staykit/staykit/internal/pgmigrate"
	"github.com/staykit/staykit/jobs/enqueue"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// DB is a staykit database on PostgreSQL. It is safe for concurrent use,
// also by several processes on the same database.
type DB struct {
	// pool's errors are classified (a database that cannot serve now is
	// booking.ErrStoreUnavailable): see unavailable.go.
	pool checkedPool
	// flow runs the operations and names them in errors.
	flow sqlflow.Flow
	// jobs is the job engine's hook (jobs.go).
	jobs enqueue.Slot[enqueue.PgxHook]
	// checkouts sends CreateBooking's calls of staykit_create_booking
	// that wait together in one batch (pipeline).
	checkouts *pipeline
	// notices sends the read model's messages published together in one
	// batch (Publish).
	notices *pipeline
	// log hears what fails in the background (a message Publish posted).
	log *slog.Logger
}

// config holds what Options set.
type config struct {
	schema   string
	maxConns int
	log      *slog.Logger
}

// Option configures Open.
type Option func(*config)

// WithSchema keeps staykit's tables in schema name, created if missing:
// every connection of the pool has search_path "name, public" (public for
// the btree_gist extension). Without it the tables go to the first schema
// of the server's search_path, usually public. Tests use it to give each
// test a database of its own.
func WithSchema(name string) Option {
	return func(c *config) { c.schema = name }
}

// WithMaxConns sets the size of the connection pool. The default is pgx's:
// max(4, number of CPUs), unless the URL sets pool_max_conns.
func WithMaxConns(n int) Option {
	return func(c *config) { c.maxConns = n }
}

// WithLogger sets where the store reports what fails after the call that
// asked for it returned: a read model's message it could not send
// (Publish). The default is slog.Default().
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.log = l }
}

// Open connects to the database at url (a postgres:// URL or a key=value
// connection string, as pgx accepts; the PG* environment variables fill in
// what it leaves out, as with libpq) and brings its schema up to date.
// Several processes may Open the same database at once: migrations take an
// advisory lock.
func Open(ctx context.Context, url string, opts ...Option) (*DB, error) {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	pool, err := pgmigrate.Open(ctx, url, pgmigrate.Pool{Schema: cfg.schema, MaxConns: cfg.maxConns}, migrations())
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	if cfg.log == nil {
		cfg.log = slog.Default()
	}
	db := &DB{pool: checkedPool{pool}, flow: sqlflow.Flow{Store: "postgres"},
		checkouts: newPipeline(pool, checkoutBatch, checkoutLanes), notices: newPipeline(pool, noticeBatch, noticeLanes),
		log: cfg.log}
	if err := db.migrateJobs(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	return db, nil
}

// Close sends the messages published and not yet sent (Publish), then
// closes the pool's connections, waiting for those in use to be given
// back. It never fails; it returns an error to match other stores.
func (db *DB) Close() error {
	db.notices.settle()
	db.pool.Close()
	return nil
}

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

// querier runs this store's statements: the pool, or a transaction.
type querier = sqlflow.Querier

// tx runs fn in a READ COMMITTED transaction, committed when fn returns
// nil and rolled back otherwise. op names the operation in errors, once
// (sqlflow.Flow).
func (db *DB) tx(ctx context.Context, op string, fn func(q querier) error) error {
	return db.flow.Tx(ctx, op, db.begin(pgx.TxOptions{}), fn)
}

// readTx runs fn in a read-only REPEATABLE READ transaction, so that its
// queries see one snapshot of the database.
func (db *DB) readTx(ctx context.Context, op string, fn func(q querier) error) error {
	return db.flow.ReadTx(ctx, op, db.begin(pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}), fn)
}

// run runs fn on the pool, outside a transaction: each statement commits
// on its own.
func (db *DB) run(ctx context.Context, op string, fn func(q querier) error) error {
	return db.flow.Run(ctx, op, conn{db.pool}, fn)
}

// begin returns how to begin a transaction with opts.
func (db *DB) begin(opts pgx.TxOptions) func(context.Context) (sqlflow.Tx, error) {
	return func(ctx context.Context) (sqlflow.Tx, error) {
		tx, err := db.pool.BeginTx(ctx, opts)
		if err != nil {
			return nil, err
		}
		return txConn{conn{tx}, tx, db.jobs.Get()}, nil
	}
}

// conn is the pool or a transaction as a sqlflow.Querier.
type conn struct {
	q interface {
		Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
		Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	}
}

func (c conn) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	tag, err := c.q.Exec(ctx, sql, args...)
	return tag.RowsAffected(), err
}

func (c conn) Query(ctx context.Context, sql string, args ...any) (sqlflow.Rows, error) {
	rows, err := c.q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgRows{rows}, nil
}

func (conn) Codec() rowmap.Codec { return codec{} }

// pgRows are pgx's rows as sqlflow.Rows.
type pgRows struct{ pgx.Rows }

func (r pgRows) Close() error {
	r.Rows.Close()
	return nil
}

// txConn is a transaction as a sqlflow.Tx.
type txConn struct {
	conn
	tx pgx.Tx
	// hook enqueues the jobs of what the transaction records; nil: none.
	hook enqueue.PgxHook
}

func (t txConn) Commit(ctx context.Context) error   { return t.tx.Commit(ctx) }
func (t txConn) Rollback(ctx context.Context) error { return t.tx.Rollback(ctx) }

// SQLSTATE codes the store reacts to.
const (
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
	exclusionViolation  = "23P01"
)

// sqlState returns err's SQLSTATE, "" when err is not a server error.
func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// Atomically runs fn as one unit of work, in one READ COMMITTED
// transaction: the operations of this store that fn runs with the context
// it is given join it, and take effect together when fn returns nil, or
// not at all (host.Store.Atomically).
func (db *DB) Atomically(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.flow.Atomically(ctx, db.begin(pgx.TxOptions{}), fn)
}
