package sqlflow_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// logTx is a transaction that logs its statements and how it ended, and
// keeps the rows its writes "insert" (Exec "insert N") as a savepoint
// would: rolled back to the last SAVEPOINT on ROLLBACK TO.
type logTx struct {
	mu        *sync.Mutex
	log       *[]string
	rows      []string
	marks     []int
	commitErr error
	failOn    string // an Exec of this statement fails
}

func (x *logTx) Exec(_ context.Context, sql string, _ ...any) (int64, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	*x.log = append(*x.log, sql)
	if sql == x.failOn {
		return 0, errDriver
	}
	switch {
	case strings.HasPrefix(sql, "SAVEPOINT"):
		x.marks = append(x.marks, len(x.rows))
	case strings.HasPrefix(sql, "ROLLBACK TO"):
		x.rows = x.rows[:x.marks[len(x.marks)-1]]
	case strings.HasPrefix(sql, "RELEASE"):
		x.marks = x.marks[:len(x.marks)-1]
	case strings.HasPrefix(sql, "insert "):
		x.rows = append(x.rows, strings.TrimPrefix(sql, "insert "))
	}
	return 1, nil
}

func (x *logTx) Query(context.Context, string, ...any) (sqlflow.Rows, error) { return nil, errDriver }
func (x *logTx) Codec() rowmap.Codec                                         { return nil }

func (x *logTx) Commit(context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	*x.log = append(*x.log, "COMMIT")
	return x.commitErr
}

func (x *logTx) Rollback(context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	*x.log = append(*x.log, "ROLLBACK")
	x.rows = nil
	return nil
}

// groupDB begins logTxs one at a time (a store's one writer) and keeps the
// rows of those committed.
type groupDB struct {
	mu        sync.Mutex
	log       []string
	committed []string
	writer    sync.Mutex
	commitErr error
	failOn    string
	// gate, when set, holds the first transaction open until closed, so
	// that writes queue up behind it; began is closed when it has begun.
	gate, began chan struct{}
	txs         int
}

func (db *groupDB) begin(context.Context) (sqlflow.Tx, error) {
	db.writer.Lock()
	db.mu.Lock()
	db.txs++
	first := db.txs == 1
	db.log = append(db.log, "BEGIN")
	db.mu.Unlock()
	if first && db.gate != nil {
		close(db.began)
		<-db.gate
	}
	return &committing{db: db, logTx: &logTx{mu: &db.mu, log: &db.log, commitErr: db.commitErr, failOn: db.failOn}}, nil
}

// committing is a logTx that gives back the writer when it ends and
// keeps its rows when it commits.
type committing struct {
	db *groupDB
	*logTx
}

func (c *committing) Commit(ctx context.Context) error {
	err := c.logTx.Commit(ctx)
	if err == nil {
		c.db.mu.Lock()
		c.db.committed = append(c.db.committed, c.rows...)
		c.db.mu.Unlock()
	}
	c.db.writer.Unlock()
	return err
}

func (c *committing) Rollback(ctx context.Context) error {
	err := c.logTx.Rollback(ctx)
	c.db.writer.Unlock()
	return err
}

// insert is a write that inserts name, then fails with err (nil: none).
func insert(name string, err error) func(context.Context, sqlflow.Querier) error {
	return func(ctx context.Context, q sqlflow.Querier) error {
		if _, e := q.Exec(ctx, "insert "+name); e != nil {
			return e
		}
		return err
	}
}

// queued runs the writes of fns at once behind a first write that holds
// the writer until all of them wait, so that they commit as one group;
// it returns each write's error, what each one's call panicked with, and
// the first write's error.
func queued(t *testing.T, db *groupDB, g *sqlflow.Group, fns ...func(context.Context, sqlflow.Querier) error) (errs []error, panics []any, first error) {
	t.Helper()
	db.gate, db.began = make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { first = g.Tx(t.Context(), "first", insert("first", nil)) })
	<-db.began
	errs, panics = make([]error, len(fns)), make([]any, len(fns))
	for i, fn := range fns {
		wg.Go(func() {
			defer func() { panics[i] = recover() }()
			errs[i] = g.Tx(t.Context(), fmt.Sprint("write ", i), fn)
		})
	}
	for g.Waiting() < len(fns) {
		runtime.Gosched()
	}
	close(db.gate)
	wg.Wait()
	return errs, panics, first
}

// TestGroupEachWriteKeepsItsOutcome: writes that queued behind another
// commit in one transaction, each in its savepoint: a refused write is
// rolled back alone and returns its error as it is, the others are
// committed once.
func TestGroupEachWriteKeepsItsOutcome(t *testing.T) {
	db := &groupDB{}
	flow := sqlflow.Flow{Store: "teststore"}
	g := flow.Group(db.begin)
	errs, _, first := queued(t, db, g, insert("a", nil), insert("b", errNone), insert("c", nil))
	if first != nil || errs[0] != nil || errs[2] != nil {
		t.Fatalf("errors %v, %v: want none for the first, a and c", first, errs)
	}
	if errs[1] != errNone {
		t.Fatalf("b's error %v, want %v as it is", errs[1], errNone)
	}
	if got := slices.Sorted(slices.Values(db.committed)); !slices.Equal(got, []string{"a", "c", "first"}) {
		t.Fatalf("committed %v, want first, a, c", got)
	}
	if n := strings.Count(strings.Join(db.log, ";"), "COMMIT"); n != 2 {
		t.Errorf("%d commits for two groups: %v", n, db.log)
	}
}

// TestGroupCommitFailureFailsEveryWrite: a failed commit fails each write
// of its group (none is durable), and a failing savepoint statement the
// whole group.
func TestGroupCommitFailureFailsEveryWrite(t *testing.T) {
	for _, tt := range []struct {
		name string
		db   func() *groupDB
		want string
	}{
		{"commit", func() *groupDB { return &groupDB{commitErr: errDriver} }, "commit: driver failed"},
		{"savepoint", func() *groupDB { return &groupDB{failOn: "RELEASE staykit_group_write"} }, "release savepoint: driver failed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := tt.db()
			flow := sqlflow.Flow{Store: "teststore"}
			errs, _, first := queued(t, db, flow.Group(db.begin), insert("a", nil), insert("b", nil))
			if tt.name == "commit" && (first == nil || !strings.Contains(first.Error(), tt.want)) {
				t.Errorf("the first write: %v, want %q", first, tt.want)
			}
			for i, err := range errs {
				if !errors.Is(err, errDriver) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("write %d: %v, want %q", i, err, tt.want)
				}
			}
			if len(db.committed) != 0 && tt.name == "commit" {
				t.Errorf("committed %v after a failed commit", db.committed)
			}
		})
	}
}

// TestGroupPanicReraisedInItsGoroutine: a write that panics is rolled
// back alone; the panic reaches its own caller, the others commit.
func TestGroupPanicReraisedInItsGoroutine(t *testing.T) {
	db := &groupDB{}
	flow := sqlflow.Flow{Store: "teststore"}
	boom := func(ctx context.Context, q sqlflow.Querier) error {
		_, _ = q.Exec(ctx, "insert boom")
		panic("boom")
	}
	errs, panics, first := queued(t, db, flow.Group(db.begin), insert("a", nil), boom, insert("c", nil))
	if first != nil || errs[0] != nil || errs[2] != nil || panics[0] != nil || panics[2] != nil {
		t.Fatalf("the others: %v %v %v", first, errs, panics)
	}
	if panics[1] != "boom" {
		t.Fatalf("the panicking write's caller recovered %v, want boom", panics[1])
	}
	if got := slices.Sorted(slices.Values(db.committed)); !slices.Equal(got, []string{"a", "c", "first"}) {
		t.Fatalf("committed %v, want first, a, c", db.committed)
	}
}

// TestGroupCancelledBeforeItsTurn: a write whose context is done before
// its group runs does not run.
func TestGroupCancelledBeforeItsTurn(t *testing.T) {
	db := &groupDB{gate: make(chan struct{}), began: make(chan struct{})}
	flow := sqlflow.Flow{Store: "teststore"}
	g := flow.Group(db.begin)
	var wg sync.WaitGroup
	wg.Go(func() { _ = g.Tx(t.Context(), "first", insert("first", nil)) })
	<-db.began
	ctx, cancel := context.WithCancel(t.Context())
	var err error
	wg.Go(func() { err = g.Tx(ctx, "late", insert("late", nil)) })
	for g.Waiting() < 1 {
		runtime.Gosched()
	}
	cancel()
	close(db.gate)
	wg.Wait()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled write: %v, want context.Canceled", err)
	}
	if !slices.Equal(db.committed, []string{"first"}) {
		t.Fatalf("committed %v, want the first write alone", db.committed)
	}
}

// TestGroupManyWriters: writers racing (run with -race) all return, each
// write is committed exactly once, and no group is larger than Max.
func TestGroupManyWriters(t *testing.T) {
	db := &groupDB{}
	flow := sqlflow.Flow{Store: "teststore"}
	g := flow.Group(db.begin)
	g.Max = 4
	const n = 200
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if err := g.Tx(t.Context(), "write", insert(fmt.Sprint(i), nil)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if len(db.committed) != n {
		t.Fatalf("%d writes committed, want %d", len(db.committed), n)
	}
	seen := map[string]bool{}
	for _, r := range db.committed {
		if seen[r] {
			t.Fatalf("write %s committed twice", r)
		}
		seen[r] = true
	}
	size := 0
	for _, s := range db.log {
		switch {
		case s == "BEGIN":
			size = 0
		case strings.HasPrefix(s, "insert "):
			if size++; size > 4 {
				t.Fatalf("a group of more than Max writes: %v", db.log)
			}
		}
	}
}
