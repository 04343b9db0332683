// Package sqlite is staykit's default store (every seam of booking.Stores): one SQLite file
// through modernc.org/sqlite, pure Go, no cgo. (The plant store keeps its
// own tables, possibly in the same file: plantstore/plantsqlite.)
//
// Writes go through a pool of one connection whose transactions begin with
// BEGIN IMMEDIATE, so a transaction holds the database's write lock from its
// first statement: the checks it makes (are the dates free? is the coupon
// exhausted?) cannot be invalidated by another writer before it commits, and
// no transaction fails half-way with SQLITE_BUSY when it upgrades a read lock.
// Reads go through a separate pool and, thanks to WAL, never wait for the
// writer.
package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/staykit/staykit/jobs/enqueue"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// DB is a staykit database. It is safe for concurrent use.
type DB struct {
	// write has exactly one connection; its transactions are BEGIN IMMEDIATE.
	write *sql.DB
	// read serves queries; it is write itself for an in-memory database.
	read *sql.DB
	// readStmts and writeStmts are the hot queries prepared on read and
	// on write (prepared.go); one set for an in-memory database.
	readStmts, writeStmts *prepared
	// flow runs the operations and names them in errors.
	flow sqlflow.Flow
	// checkouts commits the bookings that checkouts write together
	// (group commit, sqlflow.Group).
	checkouts *sqlflow.Group
	// jobs is the job engine's hook (jobs.go).
	jobs enqueue.Slot[enqueue.SQLHook]
}

// config holds what Options set.
type config struct {
	busyTimeout time.Duration
	readConns   int
	image       []byte
}

// Option configures Open.
type Option func(*config)

// WithBusyTimeout sets how long a connection waits for a lock held by
// another connection (or process) before failing with SQLITE_BUSY. The
// default is 10 seconds.
func WithBusyTimeout(d time.Duration) Option {
	return func(c *config) { c.busyTimeout = d }
}

// WithReadConns sets the size of the read pool. The default is
// max(4, GOMAXPROCS).
func WithReadConns(n int) Option {
	return func(c *config) { c.readConns = n }
}

// WithImage starts an in-memory database (path ":memory:") as a copy of
// image, the bytes of a closed database file, instead of empty; the
// migrations then bring it up to date as usual. Tests use it (package
// sqlitetest) so that a new in-memory store need not run every migration.
// It is ignored for a database file.
func WithImage(image []byte) Option {
	return func(c *config) { c.image = image }
}

// Open opens (creating it if needed) the database at path and brings its
// schema up to date. Path ":memory:" opens a private in-memory database,
// served by a single connection; it disappears on Close.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	cfg := config{busyTimeout: 10 * time.Second, readConns: max(4, runtime.GOMAXPROCS(0))}
	for _, o := range opts {
		o(&cfg)
	}
	if path == "" {
		return nil, errors.New("sqlite: open: empty path")
	}
	// The driver reads everything after the first '?' as parameters.
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("sqlite: open %q: path must not contain '?'", path)
	}
	memory := path == ":memory:"

	write, err := openPool(dsn(path, cfg, true, memory))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}
	// One writer: database/sql queues writers in Go instead of letting them
	// contend for the file lock, so SQLITE_BUSY cannot surprise a request.
	// For ":memory:" this single connection is the whole database, so it
	// must never be closed while the DB is open.
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)
	write.SetConnMaxIdleTime(0)
	db := &DB{write: write, read: write, flow: sqlflow.Flow{Store: "sqlite"}}
	if memory && cfg.image != nil {
		if err := deserialize(ctx, write, cfg.image); err != nil {
			write.Close()
			return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
		}
	}

	if err := db.migrate(ctx); err != nil {
		write.Close()
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}
	if err := db.migrateJobs(ctx); err != nil {
		write.Close()
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}
	if memory {
		// Prepared now, while no transaction holds the one connection.
		if db.writeStmts, err = prepare(ctx, write, hotWrites(), hotReads()); err != nil {
			write.Close()
			return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
		}
		db.readStmts = db.writeStmts
		db.checkouts = db.flow.Group(db.beginWrite(db.writeStmts))
		return db, nil
	}
	if db.writeStmts, err = prepare(ctx, write, hotWrites()); err != nil {
		write.Close()
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}

	read, err := openPool(dsn(path, cfg, false, memory))
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}
	read.SetMaxOpenConns(cfg.readConns)
	read.SetMaxIdleConns(cfg.readConns)
	if err := read.PingContext(ctx); err != nil {
		read.Close()
		db.writeStmts.close()
		write.Close()
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}
	if db.readStmts, err = prepare(ctx, read, hotReads()); err != nil {
		read.Close()
		db.writeStmts.close()
		write.Close()
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}
	db.read = read
	db.checkouts = db.flow.Group(db.beginWrite(db.writeStmts))
	return db, nil
}

// deserialize replaces the database of pool's one connection with image.
// A file in WAL mode is marked as a rollback-journal one first (header
// bytes 18 and 19), as SQLite cannot use a deserialized WAL database.
func deserialize(ctx context.Context, pool *sql.DB, image []byte) error {
	if len(image) < 100 {
		return errors.New("image: shorter than a database header")
	}
	img := bytes.Clone(image)
	img[18], img[19] = 1, 1
	conn, err := pool.Conn(ctx)
	if err != nil {
		return fmt.Errorf("image: %w", err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		d, ok := dc.(*driverConn).cn.(interface{ Deserialize([]byte) error })
		if !ok {
			return errors.New("the driver cannot deserialize")
		}
		return d.Deserialize(img)
	})
	if err != nil {
		return fmt.Errorf("image: %w", err)
	}
	return nil
}

// openPool returns a pool of connections to dsn whose errors are
// classified (unavailable.go).
func openPool(dsn string) (*sql.DB, error) {
	c, err := newConnector(dsn)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(c), nil
}

// walCheckpointPages is the write connection's wal_autocheckpoint (see
// dsn).
const walCheckpointPages = 16384

// dsn builds the driver's data source name. The driver applies the pragmas
// to every new connection of the pool (they are per connection, except
// journal_mode which is stored in the file), busy_timeout first so that the
// others wait for locks instead of failing:
//   - journal_mode=WAL: readers do not block the writer nor the writer them;
//   - foreign_keys=ON: SQLite leaves them off by default, and the schema
//     relies on them (cascades, references);
//   - synchronous=NORMAL: durable across application crashes, and with WAL
//     the database cannot corrupt on power loss; only the last commits may
//     roll back;
//   - wal_autocheckpoint=16384 on the write connection, the one that
//     commits: the WAL is copied into the database file once it holds
//     16,384 pages (64 MiB) rather than SQLite's 1,000 (4 MiB). A checkpoint
//     runs in the commit that crosses the limit and copies each page the
//     WAL holds once however often it was written: at 1,000 pages a busy
//     checkout load checkpointed every few dozen milliseconds, rewriting
//     the same index pages each time (issue #31: sustained checkouts
//     3,650-3,720/s -> 4,230-4,460/s).
//
// The write pool's transactions are BEGIN IMMEDIATE (_txlock); read
// connections are query_only, so a write through them is a bug that fails.
func dsn(path string, cfg config, write, memory bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(cfg.busyTimeout.Milliseconds(), 10)+")")
	if !memory {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	q.Add("_pragma", "foreign_keys(ON)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if write {
		q.Add("_pragma", "wal_autocheckpoint("+strconv.Itoa(walCheckpointPages)+")")
		q.Set("_txlock", "immediate")
	} else {
		q.Add("_pragma", "query_only(ON)")
	}
	return path + "?" + q.Encode()
}

// Close closes the database.
func (db *DB) Close() error {
	var errs []error
	if db.readStmts != db.writeStmts {
		errs = append(errs, db.readStmts.close())
	}
	errs = append(errs, db.writeStmts.close())
	if db.read != db.write {
		errs = append(errs, db.read.Close())
	}
	errs = append(errs, db.write.Close())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqlite: close: %w", err)
	}
	return nil
}

// Ping checks that the database file can be read: a readiness probe.
// Errors wrap booking.ErrStoreUnavailable when SQLite says the database
// cannot serve now.
func (db *DB) Ping(ctx context.Context) error {
	var version int64
	if err := db.read.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&version); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	return nil
}

// querier runs this store's statements: a pool, or a transaction.
type querier = sqlflow.Querier

// tx runs fn in a BEGIN IMMEDIATE transaction, committed when fn returns
// nil and rolled back otherwise. op names the operation in errors, once
// (sqlflow.Flow).
func (db *DB) tx(ctx context.Context, op string, fn func(q querier) error) error {
	return db.flow.Tx(ctx, op, db.beginWrite(nil), fn)
}

// hotTx is tx for checkout's writes: its queries run through the
// statements prepared on the write pool (prepared.go).
func (db *DB) hotTx(ctx context.Context, op string, fn func(q querier) error) error {
	return db.flow.Tx(ctx, op, db.beginWrite(db.writeStmts), fn)
}

// readTx runs fn in a read transaction, so that its queries see one
// snapshot of the database; its hot reads run prepared.
func (db *DB) readTx(ctx context.Context, op string, fn func(q querier) error) error {
	return db.flow.ReadTx(ctx, op, db.beginRead, fn)
}

// run runs fn on the read pool, outside a transaction.
func (db *DB) run(ctx context.Context, op string, fn func(q querier) error) error {
	return db.flow.Run(ctx, op, conn{db.read}, fn)
}

// hotRun is run for the public API's reads: their queries run through the
// statements prepared on the read pool.
func (db *DB) hotRun(ctx context.Context, op string, fn func(q querier) error) error {
	return db.flow.Run(ctx, op, conn{db.readStmts.on(db.read, nil)}, fn)
}

// beginWrite returns how to begin a write transaction, whose queries run
// through stmts when it is not nil.
func (db *DB) beginWrite(stmts *prepared) func(context.Context) (sqlflow.Tx, error) {
	return func(ctx context.Context) (sqlflow.Tx, error) {
		tx, err := db.write.BeginTx(ctx, nil)
		if err != nil {
			return nil, err
		}
		if stmts == nil {
			return txConn{conn{tx}, tx, db.jobs.Get()}, nil
		}
		return txConn{conn{stmts.on(tx, tx)}, tx, db.jobs.Get()}, nil
	}
}

// beginRead begins a read transaction whose hot reads run prepared.
func (db *DB) beginRead(ctx context.Context) (sqlflow.Tx, error) {
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	return txConn{conn{db.readStmts.on(tx, tx)}, tx, nil}, nil
}

// stdQuerier is what *sql.DB, *sql.Tx and prepared statements
// (stmtQuerier) have in common.
type stdQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// conn is a pool, a transaction or prepared statements as a
// sqlflow.Querier.
type conn struct{ q stdQuerier }

func (c conn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := c.q.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (c conn) Query(ctx context.Context, query string, args ...any) (sqlflow.Rows, error) {
	rows, err := c.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func (conn) Codec() rowmap.Codec { return codec{} }

// txConn is a transaction as a sqlflow.Tx.
type txConn struct {
	conn
	tx *sql.Tx
	// hook enqueues the jobs of what the transaction records; nil: none.
	hook enqueue.SQLHook
}

func (t txConn) Commit(context.Context) error   { return t.tx.Commit() }
func (t txConn) Rollback(context.Context) error { return t.tx.Rollback() }

// constraintCode returns the extended result code of a constraint
// violation, or 0 when err is not one.
func constraintCode(err error) int {
	var se *sqlitedrv.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT {
		return se.Code()
	}
	return 0
}

// isUniqueViolation reports whether err is a UNIQUE or PRIMARY KEY violation.
func isUniqueViolation(err error) bool {
	c := constraintCode(err)
	return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

// isForeignKeyViolation reports whether err is a FOREIGN KEY violation.
func isForeignKeyViolation(err error) bool {
	return constraintCode(err) == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
}

// Atomically runs fn as one unit of work, in one write transaction: the
// operations of this store that fn runs with the context it is given join
// it, and take effect together when fn returns nil, or not at all
// (host.Store.Atomically).
func (db *DB) Atomically(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.flow.Atomically(ctx, db.beginWrite(nil), fn)
}
