package sqlflow_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// fakeDB is a Querier over canned rows of one int64 column, and a Tx that
// records how it ended.
type fakeDB struct {
	rows      []int64
	queryErr  error // returned by Query and Exec
	rowsErr   error // returned by Rows.Err after the rows
	changed   int64
	commitErr error
	ended     string // "commit" or "rollback"
	closed    int
}

func (f *fakeDB) Exec(context.Context, string, ...any) (int64, error) {
	return f.changed, f.queryErr
}

func (f *fakeDB) Query(context.Context, string, ...any) (sqlflow.Rows, error) {
	if f.queryErr != nil {
		return nil, f.queryErr
	}
	return &fakeRows{db: f, next: -1}, nil
}

func (f *fakeDB) Codec() rowmap.Codec { return nil }

func (f *fakeDB) Commit(context.Context) error {
	f.ended = "commit"
	return f.commitErr
}

func (f *fakeDB) Rollback(context.Context) error {
	f.ended = "rollback"
	return nil
}

type fakeRows struct {
	db   *fakeDB
	next int
}

func (r *fakeRows) Next() bool {
	r.next++
	return r.next < len(r.db.rows)
}

func (r *fakeRows) Scan(dest ...any) error {
	*dest[0].(*int64) = r.db.rows[r.next]
	return nil
}

func (r *fakeRows) Err() error   { return r.db.rowsErr }
func (r *fakeRows) Close() error { r.db.closed++; return nil }

func scanInt(_ rowmap.Codec, s rowmap.Scanner) (*int64, error) {
	var n int64
	return &n, s.Scan(&n)
}

var (
	errDriver = errors.New("driver failed")
	errNone   = booking.Errorf(booking.CodeNotFound, "Nothing here.")
)

func TestAll(t *testing.T) {
	tests := []struct {
		name    string
		db      fakeDB
		want    []int64
		wantErr error
	}{
		{name: "OK", db: fakeDB{rows: []int64{1, 2, 3}}, want: []int64{1, 2, 3}},
		{name: "OKNone", db: fakeDB{}, want: nil},
		{name: "ErrQuery", db: fakeDB{queryErr: errDriver}, wantErr: errDriver},
		{name: "ErrRows", db: fakeDB{rows: []int64{1}, rowsErr: errDriver}, wantErr: errDriver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sqlflow.All(t.Context(), &tt.db, scanInt, "q")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr != nil && got != nil {
				t.Errorf("rows = %v with an error, want nil", got)
			}
			if len(got) != len(tt.want) || (got == nil) != (tt.want == nil) {
				t.Fatalf("rows = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("rows = %v, want %v", got, tt.want)
				}
			}
			if tt.db.queryErr == nil && tt.db.closed == 0 {
				t.Error("rows not closed")
			}
		})
	}
}

func TestOneAndValue(t *testing.T) {
	tests := []struct {
		name    string
		db      fakeDB
		none    error
		want    int64
		wantNil bool
		wantErr error
	}{
		{name: "OKFirstRow", db: fakeDB{rows: []int64{7, 8}}, none: errNone, want: 7},
		{name: "ErrNone", db: fakeDB{}, none: errNone, wantNil: true, wantErr: errNone},
		{name: "OKNoneNil", db: fakeDB{}, wantNil: true},
		{name: "ErrQuery", db: fakeDB{queryErr: errDriver}, none: errNone, wantNil: true, wantErr: errDriver},
		{name: "ErrRowsNotNone", db: fakeDB{rowsErr: errDriver}, none: errNone, wantNil: true, wantErr: errDriver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := tt.db
			got, err := sqlflow.One(t.Context(), &db, scanInt, tt.none, "q")
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("One: err = %v, want %v", err, tt.wantErr)
			}
			if (got == nil) != tt.wantNil || (got != nil && *got != tt.want) {
				t.Errorf("One = %v, want %d (nil: %v)", got, tt.want, tt.wantNil)
			}
			db = tt.db
			v, err := sqlflow.Value[int64](t.Context(), &db, tt.none, "q")
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("Value: err = %v, want %v", err, tt.wantErr)
			}
			if got, want := v, tt.want; got != want {
				t.Errorf("Value = %d, want %d", got, want)
			}
		})
	}
}

func TestExistsAndExec(t *testing.T) {
	ctx := t.Context()
	if found, err := sqlflow.Exists(ctx, &fakeDB{rows: []int64{1}}, "q"); err != nil || !found {
		t.Errorf("Exists with a row = %v, %v; want true", found, err)
	}
	if found, err := sqlflow.Exists(ctx, &fakeDB{}, "q"); err != nil || found {
		t.Errorf("Exists without a row = %v, %v; want false", found, err)
	}
	if _, err := sqlflow.Exists(ctx, &fakeDB{queryErr: errDriver}, "q"); !errors.Is(err, errDriver) {
		t.Errorf("Exists: err = %v, want %v", err, errDriver)
	}
	if err := sqlflow.Exec(ctx, &fakeDB{changed: 1}, errNone, "q"); err != nil {
		t.Errorf("Exec changing a row: %v", err)
	}
	if err := sqlflow.Exec(ctx, &fakeDB{}, errNone, "q"); err != errNone {
		t.Errorf("Exec changing none: err = %v, want %v", err, errNone)
	}
	if err := sqlflow.Exec(ctx, &fakeDB{}, nil, "q"); err != nil {
		t.Errorf("Exec changing none, no error wanted: %v", err)
	}
	if err := sqlflow.Exec(ctx, &fakeDB{changed: 1, queryErr: errDriver}, errNone, "q"); !errors.Is(err, errDriver) {
		t.Errorf("Exec: err = %v, want %v", err, errDriver)
	}
}

// TestFlow: the flow commits what succeeds, rolls back what fails, names
// the store and the operation once, and lets a *booking.Error through as it
// is.
func TestFlow(t *testing.T) {
	flow := sqlflow.Flow{Store: "teststore"}
	tests := []struct {
		name      string
		db        fakeDB
		beginErr  error
		fn        error
		wantEnd   string
		wantErr   error
		wantExact bool // the error is returned as it is
		wantMsg   string
	}{
		{name: "OK", wantEnd: "commit"},
		{name: "ErrFn", fn: errDriver, wantEnd: "rollback", wantErr: errDriver, wantMsg: "teststore: do it: driver failed"},
		{name: "ErrBookingUnchanged", fn: errNone, wantEnd: "rollback", wantErr: errNone, wantExact: true},
		{name: "ErrCommit", db: fakeDB{commitErr: errDriver}, wantEnd: "commit", wantErr: errDriver,
			wantMsg: "teststore: do it: commit: driver failed"},
		{name: "ErrBegin", beginErr: errDriver, wantErr: errDriver, wantMsg: "teststore: do it: begin: driver failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			begin := func(context.Context) (sqlflow.Tx, error) {
				if tt.beginErr != nil {
					return nil, tt.beginErr
				}
				return &tt.db, nil
			}
			err := flow.Tx(t.Context(), "do it", begin, func(q sqlflow.Querier) error {
				if q != &tt.db {
					t.Error("fn does not run in the transaction")
				}
				return tt.fn
			})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantExact && err != tt.wantErr {
				t.Errorf("err = %v, want %v unwrapped", err, tt.wantErr)
			}
			if tt.wantMsg != "" && err.Error() != tt.wantMsg {
				t.Errorf("err = %q, want %q", err, tt.wantMsg)
			}
			if got, want := tt.db.ended, tt.wantEnd; got != want {
				t.Errorf("transaction ended with %q, want %q", got, want)
			}
		})
	}
}

// TestFlowReadTxAndRun: a read transaction always rolls back; outside a
// transaction, fn runs on the querier given. Both name their errors once.
func TestFlowReadTxAndRun(t *testing.T) {
	flow := sqlflow.Flow{Store: "teststore"}
	db := &fakeDB{}
	begin := func(context.Context) (sqlflow.Tx, error) { return db, nil }
	if err := flow.ReadTx(t.Context(), "read", begin, func(sqlflow.Querier) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if got, want := db.ended, "rollback"; got != want {
		t.Errorf("read transaction ended with %q, want %q", got, want)
	}
	err := flow.ReadTx(t.Context(), "read", begin, func(sqlflow.Querier) error { return errDriver })
	if got, want := err.Error(), "teststore: read: driver failed"; got != want {
		t.Errorf("ReadTx: err = %q, want %q", got, want)
	}
	err = flow.Run(t.Context(), "run", db, func(q sqlflow.Querier) error {
		if q != db {
			t.Error("fn does not run on the querier given")
		}
		return errDriver
	})
	if got, want := err.Error(), "teststore: run: driver failed"; got != want {
		t.Errorf("Run: err = %q, want %q", got, want)
	}
	if strings.Count(err.Error(), "teststore") != 1 {
		t.Errorf("Run: err = %q names the store more than once", err)
	}
	if err := flow.Run(t.Context(), "run", db, func(sqlflow.Querier) error { return errNone }); err != errNone {
		t.Errorf("Run: err = %v, want %v unwrapped", err, errNone)
	}
}

// TestGet: Get returns what fn read, and nothing but the error when the
// operation fails, even if fn read something first.
func TestGet(t *testing.T) {
	flow := sqlflow.Flow{Store: "teststore"}
	db := &fakeDB{rows: []int64{5}}
	run := func(ctx context.Context, op string, fn func(sqlflow.Querier) error) error {
		return flow.Run(ctx, op, db, fn)
	}
	got, err := sqlflow.Get(t.Context(), run, "get", func(q sqlflow.Querier) (int64, error) {
		return sqlflow.Value[int64](t.Context(), q, nil, "q")
	})
	if err != nil || got != 5 {
		t.Errorf("Get = %d, %v; want 5", got, err)
	}
	got, err = sqlflow.Get(t.Context(), run, "get", func(q sqlflow.Querier) (int64, error) {
		return 5, errDriver
	})
	if !errors.Is(err, errDriver) || got != 0 {
		t.Errorf("Get = %d, %v; want 0, %v", got, err, errDriver)
	}
}
