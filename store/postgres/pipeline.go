package postgres

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pipeline commits together the one-statement writes that wait for a
// free lane (group commit, as sqlflow.Group does for SQLite): while its
// lanes are busy, the writes that arrive queue up, and the next free lane
// sends them all (up to max) to the server in one pgx batch — one round
// trip, and one transaction: the extended protocol's implicit transaction
// up to the batch's Sync, committed once. A checkout's write is one call
// of staykit_create_booking, and most of its cost apart from its
// statements was its own round trip, transaction and commit.
//
// Each write keeps its own outcome. A write must not fail on its own
// (staykit_create_booking returns a refusal as its row): any error of
// the server aborts the batch's transaction, and then each of its writes
// is sent again alone, so that only the one at fault fails and the
// others' outcomes are their own. An error that leaves a write's fate
// unknown (the connection lost) is every write's. A write whose context
// is done before its turn is not sent; once sent, it runs to the end.
//
// The writes of a batch take their row locks in the order of their
// order key (a property id), and so do two lanes' batches: they cannot
// deadlock each other on those locks. A deadlock with another writer
// (linked properties locked together) aborts the batch like any error,
// and its writes are sent again alone.
type pipeline struct {
	pool  *pgxpool.Pool
	max   int // writes per batch
	lanes int // batches in flight at once

	mu      sync.Mutex
	queue   []*pipedWrite
	running int // lanes busy

	// posting holds a token per write posted and not yet settled (post).
	posting chan struct{}
}

// maxPosted is how many posted writes a pipeline lets wait at once.
const maxPosted = 256

// pipedWrite is one write of a pipeline.
type pipedWrite struct {
	ctx   context.Context
	order int64
	sql   string
	args  []any
	// scan reads the write's one row; it may be called again when the
	// write is sent again alone.
	scan func(pgx.Row) error
	err  error
	// done is closed when the write is settled, or when its goroutine is
	// to send batch.
	done  chan struct{}
	batch []*pipedWrite
}

// newPipeline returns a pipeline on pool with batches of up to max writes
// and lanes batches at once.
func newPipeline(pool *pgxpool.Pool, max, lanes int) *pipeline {
	return &pipeline{pool: pool, max: max, lanes: lanes, posting: make(chan struct{}, maxPosted)}
}

// write sends sql with args, whose one row scan reads, in the next batch,
// and returns once the batch's transaction is committed (or the write
// failed). order is the key the batch's writes are sorted by.
func (p *pipeline) write(ctx context.Context, order int64, sql string, args []any, scan func(pgx.Row) error) error {
	w := &pipedWrite{ctx: ctx, order: order, sql: sql, args: args, scan: scan, done: make(chan struct{})}
	p.mu.Lock()
	if p.running < p.lanes {
		// A lane is free, so nothing waits (writes queue only while every
		// lane is busy): w goes alone, now.
		p.running++
		w.batch = []*pipedWrite{w}
		close(w.done)
	} else {
		p.queue = append(p.queue, w)
	}
	p.mu.Unlock()
	<-w.done
	if w.batch == nil {
		return w.err // settled by another write's goroutine
	}
	p.send(w.batch)
	p.mu.Lock()
	var next *pipedWrite
	if len(p.queue) > 0 {
		// Hand the lane over to the first write waiting, so that no
		// goroutine sends the others' writes for ever.
		n := min(len(p.queue), p.max)
		next = p.queue[0]
		next.batch = p.queue[:n:n]
		p.queue = p.queue[n:]
	} else {
		p.running--
	}
	p.mu.Unlock()
	for _, x := range w.batch {
		if x != w {
			close(x.done)
		}
	}
	if next != nil {
		close(next.done)
	}
	return w.err
}

// post sends sql with args as write does, without waiting for its
// batch: failed is called with its error, if it fails. Up to maxPosted
// writes posted wait at once, each in a goroutine of its own; past that,
// post waits for its write as write does, so that a database slow to take
// them slows the callers down rather than piling up goroutines. ctx's
// cancellation is ignored: a write posted is sent.
func (p *pipeline) post(ctx context.Context, order int64, sql string, args []any, scan func(pgx.Row) error, failed func(error)) {
	ctx = context.WithoutCancel(ctx)
	send := func() {
		if err := p.write(ctx, order, sql, args, scan); err != nil {
			failed(err)
		}
	}
	select {
	case p.posting <- struct{}{}:
		go func() {
			defer func() { <-p.posting }()
			send()
		}()
	default:
		send()
	}
}

// settle returns once every write posted so far is settled: it holds
// every token once (meanwhile a post waits for its write, as when the
// tokens are all taken).
func (p *pipeline) settle() {
	for range maxPosted {
		p.posting <- struct{}{}
	}
	for range maxPosted {
		<-p.posting
	}
}

// send runs batch and sets each write's err.
func (p *pipeline) send(batch []*pipedWrite) {
	live := batch[:0:0]
	for _, w := range batch {
		if err := w.ctx.Err(); err != nil {
			w.err = err
			continue
		}
		live = append(live, w)
	}
	if len(live) == 0 {
		return
	}
	slices.SortStableFunc(live, func(a, b *pipedWrite) int { return cmp.Compare(a.order, b.order) })
	err := p.sendBatch(live)
	if err == nil {
		return
	}
	if _, refused := errors.AsType[*pgconn.PgError](err); !refused || len(live) == 1 || unreachable(err) {
		for _, w := range live {
			w.err = check(p.pool, err)
		}
		return
	}
	// The server refused one of them and rolled the batch back: each goes
	// again alone.
	for _, w := range live {
		w.err = check(p.pool, p.sendBatch([]*pipedWrite{w}))
	}
}

// sendBatch sends writes in one batch (one implicit transaction) and
// scans their rows. It returns nil only once the transaction committed.
func (p *pipeline) sendBatch(writes []*pipedWrite) error {
	ctx := context.WithoutCancel(writes[0].ctx)
	b := &pgx.Batch{}
	for _, w := range writes {
		b.Queue(w.sql, w.args...)
	}
	br := p.pool.SendBatch(ctx, b)
	var first error
	for _, w := range writes {
		if err := w.scan(br.QueryRow()); err != nil && first == nil {
			first = err
		}
	}
	if err := br.Close(); err != nil && first == nil {
		first = err
	}
	return first
}
