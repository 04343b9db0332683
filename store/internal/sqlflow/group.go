package sqlflow

import (
	"context"
	"fmt"
	"sync"
)

// Group commits together the write transactions that wait for a store's
// one writer (group commit): a SQLite database has one writer, and most
// of a small write's cost is its commit — the pages it touches written
// to the WAL, one system call each. While one group commits, the writes
// that arrive queue up; the next group takes them all (up to Max), runs
// each in a savepoint of one transaction and commits once, so that pages
// shared by the writes (an index's last leaf) are written once.
//
// Each write keeps its own outcome: one that fails is rolled back to its
// savepoint, alone, and returns its error; the others are committed, and
// none returns before the commit that makes it durable (a failed commit
// fails every write of the group). A write joins a unit of work
// (Flow.Atomically) rather than a group when it runs in one. A write
// whose context is done before its turn does not run; once it runs, its
// statements run to the end whatever its context (an interrupted
// statement can roll back the whole transaction, the others' writes
// with it), so fn must use the context it is given.
//
// The goroutine of the first write waiting leads: it runs the group its
// write is in, then hands the lead to the first write left waiting, if
// any, so that no writer commits the others' writes for ever.
type Group struct {
	flow  *Flow
	begin func(context.Context) (Tx, error)
	// Max is the most writes one transaction holds.
	Max int

	mu      sync.Mutex
	queue   []*groupWrite
	leading bool
}

// groupWrite is a write waiting for its group.
type groupWrite struct {
	ctx      context.Context
	op       string
	fn       func(context.Context, Querier) error
	err      error
	panicked any
	// wake is closed once: when the write is done, or when its goroutine
	// is to lead the next group (lead).
	wake chan struct{}
	lead bool
}

// Group returns a group commit of f's writes, in the transactions begin
// starts.
func (f *Flow) Group(begin func(context.Context) (Tx, error)) *Group {
	return &Group{flow: f, begin: begin, Max: 32}
}

// Tx runs fn in a transaction with the writes that wait with it (see
// Group), and returns fn's error, or the commit's. Errors name op. A
// panic in fn is re-raised in the caller's goroutine, after the others'
// writes are settled.
func (g *Group) Tx(ctx context.Context, op string, fn func(context.Context, Querier) error) error {
	if tx, ok := g.flow.unit(ctx); ok {
		return g.flow.fail(op, fn(ctx, tx))
	}
	w := &groupWrite{ctx: ctx, op: op, fn: fn, wake: make(chan struct{})}
	g.mu.Lock()
	g.queue = append(g.queue, w)
	lead := !g.leading
	g.leading = true
	g.mu.Unlock()
	if !lead {
		<-w.wake
		if !w.lead {
			return g.result(w)
		}
	}
	// w leads: it is first in the queue, so in the group it takes.
	g.mu.Lock()
	n := min(len(g.queue), max(g.Max, 1))
	group := g.queue[:n:n]
	g.queue = g.queue[n:]
	g.mu.Unlock()
	g.commit(group)
	g.mu.Lock()
	if len(g.queue) > 0 {
		next := g.queue[0]
		next.lead = true
		close(next.wake)
	} else {
		g.leading = false
	}
	g.mu.Unlock()
	for _, x := range group {
		if x != w {
			close(x.wake)
		}
	}
	return g.result(w)
}

// result is w's outcome in its goroutine.
func (g *Group) result(w *groupWrite) error {
	if w.panicked != nil {
		panic(w.panicked)
	}
	return g.flow.fail(w.op, w.err)
}

// savepoint is the name of a write's savepoint in its group.
const savepoint = "staykit_group_write"

// commit runs the writes of group in one transaction and commits it,
// setting each write's err.
func (g *Group) commit(group []*groupWrite) {
	ctx := context.WithoutCancel(group[0].ctx)
	tx, err := g.begin(ctx)
	if err != nil {
		for _, w := range group {
			w.err = fmt.Errorf("begin: %w", err)
		}
		return
	}
	alone := len(group) == 1
	// abort ends the transaction when it cannot go on: every write that
	// ran or waits fails with cause.
	abort := func(cause error) {
		_ = tx.Rollback(ctx)
		for _, w := range group {
			if w.err == nil && w.panicked == nil {
				w.err = cause
			}
		}
	}
	kept := 0
	for _, w := range group {
		if err := w.ctx.Err(); err != nil {
			w.err = err
			continue
		}
		if !alone {
			if _, err := tx.Exec(ctx, "SAVEPOINT "+savepoint); err != nil {
				abort(fmt.Errorf("savepoint: %w", err))
				return
			}
		}
		w.run(context.WithoutCancel(w.ctx), tx)
		if w.err == nil && w.panicked == nil {
			if !alone {
				if _, err := tx.Exec(ctx, "RELEASE "+savepoint); err != nil {
					abort(fmt.Errorf("release savepoint: %w", err))
					return
				}
			}
			kept++
			continue
		}
		if alone {
			_ = tx.Rollback(ctx)
			return
		}
		if _, err := tx.Exec(ctx, "ROLLBACK TO "+savepoint); err != nil {
			abort(fmt.Errorf("roll back to savepoint: %w", err))
			return
		}
		if _, err := tx.Exec(ctx, "RELEASE "+savepoint); err != nil {
			abort(fmt.Errorf("release savepoint: %w", err))
			return
		}
	}
	if kept == 0 {
		_ = tx.Rollback(ctx)
		return
	}
	if err := tx.Commit(ctx); err != nil {
		for _, w := range group {
			if w.err == nil && w.panicked == nil {
				w.err = fmt.Errorf("commit: %w", err)
			}
		}
	}
}

// run runs w's fn in q, its panic kept for its own goroutine.
func (w *groupWrite) run(ctx context.Context, q Querier) {
	defer func() {
		if p := recover(); p != nil {
			w.panicked = p
		}
	}()
	w.err = w.fn(ctx, q)
}
