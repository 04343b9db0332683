// Package sqlflow is the control flow that store/sqlite and store/postgres
// share: one small Querier that each store adapts its driver to, generic
// helpers that run a statement and read its rows (All, One, Value, Exists,
// Exec), and a Flow that runs each operation, in a transaction or not, and
// names it once in its errors.
//
// Each store keeps its own SQL: this package never writes any. How a row
// becomes a value is store/internal/rowmap's part.
package sqlflow

import (
	"context"
	"errors"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// Querier runs statements: a pool, a connection or a transaction of one
// store, whatever its driver.
type Querier interface {
	// Exec runs a statement and returns the number of rows it changed.
	Exec(ctx context.Context, sql string, args ...any) (int64, error)
	// Query runs a statement and returns its rows, which the caller
	// closes.
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
	// Codec is how the store writes and reads the columns whose encoding
	// differs between the stores.
	Codec() rowmap.Codec
}

// Rows is a cursor over the rows of a query.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

// Tx is a transaction: a Querier that ends.
type Tx interface {
	Querier
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
}

// ErrNoRow is the error none of One and Value for a row that must be
// there: one written earlier in the transaction, or locked.
var ErrNoRow = errors.New("no row")

// Scan reads one row into a new T, the columns whose encoding differs
// through c. The rowmap.Scan… functions are Scans.
type Scan[T any] func(c rowmap.Codec, s rowmap.Scanner) (*T, error)

// All runs a query and reads each of its rows with scan. It returns nil
// when there are none.
func All[T any](ctx context.Context, q Querier, scan Scan[T], sql string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(q.Codec(), rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// One runs a query and reads its first row with scan. When the query
// returns no row, One returns the error none; when none is nil, it returns
// nil and no error.
func One[T any](ctx context.Context, q Querier, scan Scan[T], none error, sql string, args ...any) (*T, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, none
	}
	v, err := scan(q.Codec(), rows)
	if err != nil {
		return nil, err
	}
	// Closing reports what went wrong after the first row (database/sql).
	if err := rows.Close(); err != nil {
		return nil, err
	}
	return v, nil
}

// Value runs a query and returns the single column of its first row, for
// a count or an ID. When the query returns no row, Value returns the error
// none; when none is nil, it returns the zero T and no error.
func Value[T any](ctx context.Context, q Querier, none error, sql string, args ...any) (T, error) {
	v, err := One(ctx, q, func(_ rowmap.Codec, s rowmap.Scanner) (*T, error) {
		var v T
		return &v, s.Scan(&v)
	}, nil, sql, args...)
	switch {
	case err != nil:
		var zero T
		return zero, err
	case v == nil:
		var zero T
		return zero, none
	}
	return *v, nil
}

// Exists reports whether a query returns a row.
func Exists(ctx context.Context, q Querier, sql string, args ...any) (bool, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	if rows.Next() {
		return true, rows.Close()
	}
	return false, rows.Err()
}

// Exec runs a statement. When it changes no row, Exec returns the error
// none (nothing when none is nil).
func Exec(ctx context.Context, q Querier, none error, sql string, args ...any) error {
	n, err := q.Exec(ctx, sql, args...)
	if err != nil {
		return err
	}
	if n == 0 {
		return none
	}
	return nil
}

// Runner runs an operation of a store: fn in a transaction or not, its
// errors named op. A store's tx, readTx and run methods are Runners.
type Runner func(ctx context.Context, op string, fn func(Querier) error) error

// Get runs fn with run and returns what fn returns: the way to read a
// value in an operation.
func Get[T any](ctx context.Context, run Runner, op string, fn func(Querier) (T, error)) (T, error) {
	var v T
	err := run(ctx, op, func(q Querier) (err error) {
		v, err = fn(q)
		return err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// Flow runs the operations of one store, each named once in its errors.
type Flow struct {
	// Store starts the message of every error the flow names:
	// "postgres", "sqlite".
	Store string
}

// Tx runs fn in the transaction begin starts, and commits it when fn
// returns nil; otherwise it rolls it back and returns fn's error. Errors
// name op (see Flow.fail).
func (f *Flow) Tx(ctx context.Context, op string, begin func(context.Context) (Tx, error), fn func(Querier) error) error {
	if tx, ok := f.unit(ctx); ok {
		return f.fail(op, fn(tx))
	}
	tx, err := begin(ctx)
	if err != nil {
		return f.fail(op, fmt.Errorf("begin: %w", err))
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		return f.fail(op, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return f.fail(op, fmt.Errorf("commit: %w", err))
	}
	return nil
}

// ReadTx runs fn in the transaction begin starts, a read-only one, so that
// its queries see one snapshot, and rolls it back. Errors name op.
func (f *Flow) ReadTx(ctx context.Context, op string, begin func(context.Context) (Tx, error), fn func(Querier) error) error {
	if tx, ok := f.unit(ctx); ok {
		return f.fail(op, fn(tx))
	}
	tx, err := begin(ctx)
	if err != nil {
		return f.fail(op, fmt.Errorf("begin: %w", err))
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	return f.fail(op, fn(tx))
}

// Run runs fn on q, outside a transaction: one statement, or statements
// that need not see one snapshot. Errors name op.
func (f *Flow) Run(ctx context.Context, op string, q Querier, fn func(Querier) error) error {
	if tx, ok := f.unit(ctx); ok {
		q = tx
	}
	return f.fail(op, fn(q))
}

// unitKey is the context key of the transaction of a unit of work of the
// flow f (Flow.Atomically).
type unitKey struct{ f *Flow }

// InUnit reports whether ctx runs in a unit of work of f
// (Flow.Atomically): a store that sends some writes its own way (a batch)
// sends them through the unit's transaction instead.
func (f *Flow) InUnit(ctx context.Context) bool {
	_, ok := f.unit(ctx)
	return ok
}

// unit returns the transaction of the unit of work ctx runs in, if any.
func (f *Flow) unit(ctx context.Context) (Tx, bool) {
	tx, ok := ctx.Value(unitKey{f}).(Tx)
	return tx, ok
}

// Atomically runs fn as one unit of work: in the transaction begin
// starts, committed when fn returns nil and rolled back otherwise. Every
// operation of this flow (Tx, ReadTx, Run) that fn runs with the context
// it is given joins that transaction instead of starting its own, so that
// they all take effect or none does: a change and its audit entry, say.
// Called within a unit, Atomically runs fn in it. fn's error is returned
// as it is (the operations named theirs); begin's and commit's are named
// "atomically".
//
// A unit holds its transaction while fn runs: fn does store work only,
// never a call to another service. A nil fn is a unit that does nothing;
// a panic in fn rolls the unit back and propagates.
func (f *Flow) Atomically(ctx context.Context, begin func(context.Context) (Tx, error), fn func(ctx context.Context) error) error {
	if fn == nil {
		return nil
	}
	if _, ok := f.unit(ctx); ok {
		return fn(ctx)
	}
	tx, err := begin(ctx)
	if err != nil {
		return f.fail("atomically", fmt.Errorf("begin: %w", err))
	}
	committed := false
	defer func() {
		if !committed {
			_ = tx.Rollback(context.WithoutCancel(ctx))
		}
	}()
	if err := fn(context.WithValue(ctx, unitKey{f}, tx)); err != nil {
		return err
	}
	committed = true
	if err := tx.Commit(ctx); err != nil {
		return f.fail("atomically", fmt.Errorf("commit: %w", err))
	}
	return nil
}

// fail names the store and op in err; nil stays nil. Every error of an
// operation passes here once, and only here: it is the one place to
// classify them. A *booking.Error passes unchanged: its code is the answer
// callers act on, and its message is for them.
func (f *Flow) fail(op string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := errors.AsType[*booking.Error](err); ok {
		return err
	}
	return fmt.Errorf("%s: %s: %w", f.Store, op, err)
}
