package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/puddle/v2"

	"github.com/staykit/staykit/booking"
)

// Every error the driver returns goes through classify on its way out of
// checkedPool, checkedTx, checkedRows and checkedRow below, so that the methods of DB need not think
// about it: an error saying the database cannot serve now is marked with
// booking.ErrStoreUnavailable (the HTTP layers answer it with 503 and
// Retry-After); any other error is returned as it is.

// classify marks err when it is an outage (see unreachable).
func classify(err error) error { return check(nil, err) }

// check is classify, and when err says a connection was lost (the server
// restarted, the network failed), it also closes the pool's connections,
// which likely went the same way: the next requests connect again instead
// of each failing once on a dead idle connection.
func check(p *pgxpool.Pool, err error) error {
	if !unreachable(err) {
		return err
	}
	if p != nil && lost(err) {
		p.Reset()
	}
	return booking.StoreUnavailable(err)
}

// lost reports whether an outage error says an established connection
// died, rather than that none could be made or the server is short of
// something.
func lost(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "57P01" || pe.Code == "57P02"
	}
	var ce *pgconn.ConnectError
	return !errors.As(err, &ce) && !errors.Is(err, puddle.ErrClosedPool)
}

// unreachable reports whether err says the database cannot serve now,
// whatever the request: the connection could not be made or was lost,
// the pool is closed, the server is shutting down or starting, or it ran
// out of disk, memory or connections. The caller's own cancellation is
// not one.
func unreachable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"), // connection exception
			strings.HasPrefix(pe.Code, "53"), // insufficient resources: disk_full (53100), out_of_memory, too_many_connections
			strings.HasPrefix(pe.Code, "58"), // system error: io_error (58030)
			pe.Code == "57P01",               // admin_shutdown (pg_terminate_backend, a fast shutdown)
			pe.Code == "57P02",               // crash_shutdown
			pe.Code == "57P03":               // cannot_connect_now (starting up, recovering)
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) ||
		errors.Is(err, puddle.ErrClosedPool) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// checkedPool is the connection pool, its errors classified.
type checkedPool struct{ *pgxpool.Pool }

func (p checkedPool) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := p.Pool.Exec(ctx, sql, args...)
	return tag, check(p.Pool, err)
}

func (p checkedPool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	r, err := p.Pool.Query(ctx, sql, args...)
	if err != nil {
		return r, check(p.Pool, err)
	}
	return checkedRows{r, p.Pool}, nil
}

func (p checkedPool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return checkedRow{p.Pool.QueryRow(ctx, sql, args...), p.Pool}
}

func (p checkedPool) Begin(ctx context.Context) (pgx.Tx, error) {
	t, err := p.Pool.Begin(ctx)
	if err != nil {
		return nil, check(p.Pool, err)
	}
	return checkedTx{t, p.Pool}, nil
}

func (p checkedPool) BeginTx(ctx context.Context, o pgx.TxOptions) (pgx.Tx, error) {
	t, err := p.Pool.BeginTx(ctx, o)
	if err != nil {
		return nil, check(p.Pool, err)
	}
	return checkedTx{t, p.Pool}, nil
}

func (p checkedPool) Acquire(ctx context.Context) (*pgxpool.Conn, error) {
	c, err := p.Pool.Acquire(ctx)
	return c, check(p.Pool, err)
}

func (p checkedPool) Ping(ctx context.Context) error { return check(p.Pool, p.Pool.Ping(ctx)) }

// checkedTx is a transaction, its errors classified.
type checkedTx struct {
	pgx.Tx
	pool *pgxpool.Pool
}

func (t checkedTx) Begin(ctx context.Context) (pgx.Tx, error) {
	n, err := t.Tx.Begin(ctx)
	if err != nil {
		return nil, check(t.pool, err)
	}
	return checkedTx{n, t.pool}, nil
}

func (t checkedTx) Commit(ctx context.Context) error   { return check(t.pool, t.Tx.Commit(ctx)) }
func (t checkedTx) Rollback(ctx context.Context) error { return check(t.pool, t.Tx.Rollback(ctx)) }

func (t checkedTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := t.Tx.Exec(ctx, sql, args...)
	return tag, check(t.pool, err)
}

func (t checkedTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	r, err := t.Tx.Query(ctx, sql, args...)
	if err != nil {
		return r, check(t.pool, err)
	}
	return checkedRows{r, t.pool}, nil
}

func (t checkedTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return checkedRow{t.Tx.QueryRow(ctx, sql, args...), t.pool}
}

func (t checkedTx) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error) {
	n, err := t.Tx.CopyFrom(ctx, table, columns, src)
	return n, check(t.pool, err)
}

// checkedRows are a query's rows, their errors classified.
type checkedRows struct {
	pgx.Rows
	pool *pgxpool.Pool
}

func (r checkedRows) Err() error             { return check(r.pool, r.Rows.Err()) }
func (r checkedRows) Scan(dest ...any) error { return check(r.pool, r.Rows.Scan(dest...)) }
func (r checkedRows) Values() ([]any, error) { v, err := r.Rows.Values(); return v, check(r.pool, err) }

// checkedRow is a query's single row, its error classified.
type checkedRow struct {
	pgx.Row
	pool *pgxpool.Pool
}

func (r checkedRow) Scan(dest ...any) error { return check(r.pool, r.Row.Scan(dest...)) }
