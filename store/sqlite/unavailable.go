package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"reflect"

	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/staykit/staykit/booking"
)

// The store's pools open their connections through connector, which wraps
// each connection, statement, transaction and result set of the driver so
// that every error SQLite returns goes through classify: an error saying
// the database cannot serve now is marked with booking.ErrStoreUnavailable
// (the HTTP layers answer it with 503 and Retry-After); any other error,
// and the driver's signals (io.EOF at the end of rows, driver.ErrSkip,
// driver.ErrBadConn), are returned as they are. The methods of DB need not
// think about it.

// classify marks err when it is an outage (see unreachable).
func classify(err error) error {
	if unreachable(err) {
		return booking.StoreUnavailable(err)
	}
	return err
}

// unreachable reports whether err is an SQLite error of the moment rather
// than of the request: the database stayed locked past the busy timeout
// (another process holds it), the disk is full, an I/O error, the file
// cannot be opened, or memory ran out.
func unreachable(err error) bool {
	var se *sqlitedrv.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN,
		sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_PROTOCOL:
		return true
	}
	return false
}

// connector opens the driver's connections through dsn, wrapped.
type connector struct{ driver.Connector }

// newConnector returns the connector of dsn.
func newConnector(dsn string) (driver.Connector, error) {
	c, err := sqlitedrv.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return connector{c}, nil
}

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	cn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, classify(err)
	}
	return &driverConn{cn: cn}, nil
}

// driverConn is a connection of the driver. The driver's connections implement
// every interface below (BeginTx and PrepareContext are required); for an
// optional one it would lack, driverConn answers as database/sql does without it.
type driverConn struct{ cn driver.Conn }

var (
	_ driver.ConnBeginTx        = (*driverConn)(nil)
	_ driver.ConnPrepareContext = (*driverConn)(nil)
	_ driver.ExecerContext      = (*driverConn)(nil)
	_ driver.QueryerContext     = (*driverConn)(nil)
	_ driver.Pinger             = (*driverConn)(nil)
	_ driver.SessionResetter    = (*driverConn)(nil)
	_ driver.Validator          = (*driverConn)(nil)
)

func (c *driverConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *driverConn) Close() error { return c.cn.Close() }

func (c *driverConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *driverConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	t, err := c.cn.(driver.ConnBeginTx).BeginTx(ctx, opts)
	if err != nil {
		return nil, classify(err)
	}
	return tx{t}, nil
}

func (c *driverConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	s, err := c.cn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
	if err != nil {
		return nil, classify(err)
	}
	return &stmt{st: s}, nil
}

func (c *driverConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.cn.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	r, err := e.ExecContext(ctx, query, args)
	return r, pass(err)
}

func (c *driverConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.cn.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	r, err := q.QueryContext(ctx, query, args)
	if err != nil {
		return nil, pass(err)
	}
	return &rows{rs: r}, nil
}

func (c *driverConn) Ping(ctx context.Context) error {
	if p, ok := c.cn.(driver.Pinger); ok {
		return classify(p.Ping(ctx))
	}
	return nil
}

func (c *driverConn) ResetSession(ctx context.Context) error {
	if r, ok := c.cn.(driver.SessionResetter); ok {
		return pass(r.ResetSession(ctx))
	}
	return nil
}

func (c *driverConn) IsValid() bool {
	v, ok := c.cn.(driver.Validator)
	return !ok || v.IsValid()
}

// pass classifies err unless it is a signal to database/sql.
func pass(err error) error {
	if err == nil || errors.Is(err, driver.ErrSkip) || errors.Is(err, driver.ErrBadConn) {
		return err
	}
	return classify(err)
}

// tx is a transaction of the driver: a commit may fail on a full disk.
type tx struct{ t driver.Tx }

func (t tx) Commit() error   { return classify(t.t.Commit()) }
func (t tx) Rollback() error { return classify(t.t.Rollback()) }

// stmt is a prepared statement of the driver.
type stmt struct{ st driver.Stmt }

var (
	_ driver.StmtExecContext  = (*stmt)(nil)
	_ driver.StmtQueryContext = (*stmt)(nil)
)

func (s *stmt) Close() error  { return s.st.Close() }
func (s *stmt) NumInput() int { return s.st.NumInput() }

// Exec and Query complete driver.Stmt; database/sql calls the context
// forms, which the driver implements, so these go through them too.
func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

// named gives positional values their ordinals, as database/sql does.
func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, v := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return out
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	r, err := s.st.(driver.StmtExecContext).ExecContext(ctx, args)
	return r, pass(err)
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	r, err := s.st.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		return nil, pass(err)
	}
	return &rows{rs: r}, nil
}

// rows are a result set of the driver; Next's io.EOF passes as it is.
type rows struct{ rs driver.Rows }

var (
	_ driver.RowsColumnTypeDatabaseTypeName = (*rows)(nil)
	_ driver.RowsColumnTypeLength           = (*rows)(nil)
	_ driver.RowsColumnTypeNullable         = (*rows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*rows)(nil)
	_ driver.RowsColumnTypeScanType         = (*rows)(nil)
)

func (r *rows) Columns() []string { return r.rs.Columns() }
func (r *rows) Close() error      { return classify(r.rs.Close()) }

func (r *rows) Next(dest []driver.Value) error {
	err := r.rs.Next(dest)
	if err == nil || err == io.EOF {
		return err
	}
	return classify(err)
}

func (r *rows) ColumnTypeDatabaseTypeName(i int) string {
	return r.rs.(driver.RowsColumnTypeDatabaseTypeName).ColumnTypeDatabaseTypeName(i)
}

func (r *rows) ColumnTypeLength(i int) (int64, bool) {
	return r.rs.(driver.RowsColumnTypeLength).ColumnTypeLength(i)
}

func (r *rows) ColumnTypeNullable(i int) (bool, bool) {
	return r.rs.(driver.RowsColumnTypeNullable).ColumnTypeNullable(i)
}

func (r *rows) ColumnTypePrecisionScale(i int) (int64, int64, bool) {
	return r.rs.(driver.RowsColumnTypePrecisionScale).ColumnTypePrecisionScale(i)
}

func (r *rows) ColumnTypeScanType(i int) reflect.Type {
	return r.rs.(driver.RowsColumnTypeScanType).ColumnTypeScanType(i)
}
