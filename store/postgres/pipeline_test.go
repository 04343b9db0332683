package postgres

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/staykit/staykit/internal/testenv"
)

// pipelineEnv is a pool on a schema of its own with a table t (v unique)
// that the tests' writes insert into, returning their transaction's id
// and the order they ran in.
func pipelineEnv(t *testing.T) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(testenv.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	schema := testenv.PostgresSchema(t, "staykit_pipeline_")
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := pool.Exec(t.Context(), `CREATE SCHEMA `+pgx.Identifier{schema}.Sanitize()+`;
		CREATE TABLE t (v int UNIQUE, seq bigserial)`); err != nil {
		t.Fatal(err)
	}
	return pool
}

// qInsert inserts $1 and returns its transaction and its place in line.
const qInsert = `INSERT INTO t (v) VALUES ($1) RETURNING txid_current(), seq`

// written is what one write of qInsert returned.
type written struct {
	v        int
	tx, seq  int64
	err      error
	finished bool
}

// blockLanes makes p's every lane busy with a write that waits for the
// advisory lock 42, which the returned connection holds until release
// is called; it returns once the lanes are taken.
func blockLanes(t *testing.T, p *pipeline) (release func(), wait func()) {
	t.Helper()
	holder, err := p.pool.Acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := holder.Exec(t.Context(), `SELECT pg_advisory_lock(42)`); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range p.lanes {
		wg.Go(func() {
			var one int
			if err := p.write(context.Background(), 0, `SELECT 1 FROM pg_advisory_xact_lock(42)`, nil, func(r pgx.Row) error { return r.Scan(&one) }); err != nil {
				t.Error(err)
			}
		})
	}
	waitFor(t, p, func() bool { return p.running == p.lanes })
	return func() {
		if _, err := holder.Exec(t.Context(), `SELECT pg_advisory_unlock(42)`); err != nil {
			t.Error(err)
		}
		holder.Release()
	}, wg.Wait
}

// waitFor polls p's state under its lock until cond holds.
func waitFor(t *testing.T, p *pipeline, cond func() bool) {
	t.Helper()
	for range 50_000_000 {
		p.mu.Lock()
		ok := cond()
		p.mu.Unlock()
		if ok {
			return
		}
		// Let the writers' goroutines run.
		if err := t.Context().Err(); err != nil {
			t.Fatal(err)
		}
		runtime.Gosched()
	}
	t.Fatal("the pipeline never reached the state waited for")
}

// queueWrites starts a write of qInsert per value (order key: the value)
// and returns, once they all wait, a function that waits for them and
// returns their outcomes in values' order.
func queueWrites(t *testing.T, p *pipeline, ctx context.Context, values ...int) func() []written {
	t.Helper()
	out := make([]written, len(values))
	var wg sync.WaitGroup
	p.mu.Lock()
	before := len(p.queue)
	p.mu.Unlock()
	for i, v := range values {
		wg.Go(func() {
			w := written{v: v}
			w.err = p.write(ctx, int64(v), qInsert, []any{v}, func(r pgx.Row) error { return r.Scan(&w.tx, &w.seq) })
			w.finished = true
			out[i] = w
		})
	}
	waitFor(t, p, func() bool { return len(p.queue) == before+len(values) })
	return func() []written {
		wg.Wait()
		return out
	}
}

func TestPipelineSendsTheWritesThatWaitInOneTransaction(t *testing.T) {
	p := newPipeline(pipelineEnv(t), 32, 1)
	release, lanes := blockLanes(t, p)
	done := queueWrites(t, p, context.Background(), 5, 3, 9, 1, 7)
	release()
	lanes()
	got := done()
	for _, w := range got {
		if w.err != nil {
			t.Fatalf("write %d: %v", w.v, w.err)
		}
		if w.tx != got[0].tx {
			t.Errorf("write %d in transaction %d, write %d in %d: want one transaction", w.v, w.tx, got[0].v, got[0].tx)
		}
	}
	// Within the batch, the writes ran in the order of their keys.
	byKey := slices.Clone(got)
	slices.SortFunc(byKey, func(a, b written) int { return a.v - b.v })
	for i := 1; i < len(byKey); i++ {
		if byKey[i].seq <= byKey[i-1].seq {
			t.Errorf("write %d ran before write %d: want the order of their keys", byKey[i].v, byKey[i-1].v)
		}
	}
}

func TestPipelineBatchesAtMostMax(t *testing.T) {
	p := newPipeline(pipelineEnv(t), 3, 1)
	release, lanes := blockLanes(t, p)
	done := queueWrites(t, p, context.Background(), 1, 2, 3, 4, 5, 6, 7)
	release()
	lanes()
	txs := map[int64]int{}
	for _, w := range done() {
		if w.err != nil {
			t.Fatalf("write %d: %v", w.v, w.err)
		}
		txs[w.tx]++
	}
	if len(txs) != 3 {
		t.Errorf("7 writes in %d transactions (%v), want 3 of at most 3", len(txs), txs)
	}
	for tx, n := range txs {
		if n > 3 {
			t.Errorf("transaction %d holds %d writes, want at most 3", tx, n)
		}
	}
}

func TestPipelineSendsEachWriteAloneWhenOneFails(t *testing.T) {
	pool := pipelineEnv(t)
	if _, err := pool.Exec(t.Context(), `INSERT INTO t (v) VALUES (4)`); err != nil {
		t.Fatal(err)
	}
	p := newPipeline(pool, 32, 1)
	release, lanes := blockLanes(t, p)
	done := queueWrites(t, p, context.Background(), 1, 2, 4, 5)
	release()
	lanes()
	got := done()
	txs := map[int64]bool{}
	for _, w := range got {
		switch {
		case w.v == 4:
			if pe, ok := errors.AsType[*pgconn.PgError](w.err); !ok || pe.Code != uniqueViolation {
				t.Errorf("write 4: %v, want its unique violation", w.err)
			}
		case w.err != nil:
			t.Errorf("write %d: %v, want it written despite write 4", w.v, w.err)
		default:
			txs[w.tx] = true
		}
	}
	if len(txs) != 3 {
		t.Errorf("the 3 good writes in %d transactions, want each alone after the batch failed", len(txs))
	}
	if values := tableValues(t, pool); !slices.Equal(values, []int{1, 2, 4, 5}) {
		t.Errorf("table holds %v, want [1 2 4 5]: each good write once", values)
	}
}

func TestPipelineSkipsAWriteWhoseContextEndedBeforeItsTurn(t *testing.T) {
	pool := pipelineEnv(t)
	p := newPipeline(pool, 32, 1)
	release, lanes := blockLanes(t, p)
	ctx, cancel := context.WithCancel(context.Background())
	gone := queueWrites(t, p, ctx, 8)
	kept := queueWrites(t, p, context.Background(), 9)
	cancel()
	release()
	lanes()
	if w := gone()[0]; !errors.Is(w.err, context.Canceled) {
		t.Errorf("cancelled write: %v, want context.Canceled", w.err)
	}
	if w := kept()[0]; w.err != nil {
		t.Errorf("the other write: %v", w.err)
	}
	var n int
	if err := pool.QueryRow(t.Context(), `SELECT count(*) FROM t WHERE v = 8`).Scan(&n); err != nil || n != 0 {
		t.Errorf("cancelled write's row: %d, %v; want none", n, err)
	}
}

// tableValues returns the values of table t in order.
func tableValues(t *testing.T, pool *pgxpool.Pool) []int {
	t.Helper()
	rows, err := pool.Query(t.Context(), `SELECT v FROM t ORDER BY v`)
	if err != nil {
		t.Fatal(err)
	}
	values, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		t.Fatal(err)
	}
	return values
}

// postInsert posts a write of qInsert of v, whose error goes to failed.
func postInsert(ctx context.Context, p *pipeline, v int, failed func(error)) {
	p.post(ctx, int64(v), qInsert, []any{v}, func(r pgx.Row) error {
		var tx, seq int64
		return r.Scan(&tx, &seq)
	}, failed)
}

// A posted write returns before it is sent, is sent with the writes that
// wait with it, even when its context ends first, and settle waits for it.
func TestPipelinePostReturnsAtOnceAndSettleSendsIt(t *testing.T) {
	pool := pipelineEnv(t)
	p := newPipeline(pool, 32, 1)
	release, lanes := blockLanes(t, p)
	ctx, cancel := context.WithCancel(context.Background())
	var failures sync.Map
	for _, v := range []int{3, 1, 2} {
		postInsert(ctx, p, v, func(err error) { failures.Store(v, err) })
	}
	cancel()
	waitFor(t, p, func() bool { return len(p.queue) == 3 })
	if got := tableValues(t, pool); len(got) != 0 {
		t.Fatalf("table holds %v while the lanes are busy, want nothing yet", got)
	}
	release()
	lanes()
	p.settle()
	if got := tableValues(t, pool); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("after settle the table holds %v, want [1 2 3]", got)
	}
	failures.Range(func(v, err any) bool {
		t.Errorf("write %d failed: %v", v, err)
		return true
	})
}

// A posted write that fails reports its error; the others are written.
func TestPipelinePostReportsItsFailure(t *testing.T) {
	pool := pipelineEnv(t)
	if _, err := pool.Exec(t.Context(), `INSERT INTO t (v) VALUES (4)`); err != nil {
		t.Fatal(err)
	}
	p := newPipeline(pool, 32, 1)
	release, lanes := blockLanes(t, p)
	var failures sync.Map
	for _, v := range []int{4, 5} {
		postInsert(context.Background(), p, v, func(err error) { failures.Store(v, err) })
	}
	waitFor(t, p, func() bool { return len(p.queue) == 2 })
	release()
	lanes()
	p.settle()
	err, _ := failures.Load(4)
	if pe, ok := errors.AsType[*pgconn.PgError](asError(err)); !ok || pe.Code != uniqueViolation {
		t.Errorf("write 4 reported %v, want its unique violation", err)
	}
	if err, ok := failures.Load(5); ok {
		t.Errorf("write 5 reported %v, want it written", err)
	}
	if got := tableValues(t, pool); !slices.Equal(got, []int{4, 5}) {
		t.Errorf("table holds %v, want [4 5]", got)
	}
}

// asError is v as an error (nil when v is not one).
func asError(v any) error {
	err, _ := v.(error)
	return err
}

// Past maxPosted writes posted and waiting, post waits for its own write.
func TestPipelinePostWaitsPastMaxPosted(t *testing.T) {
	pool := pipelineEnv(t)
	p := newPipeline(pool, 1000, 1)
	release, lanes := blockLanes(t, p)
	fail := func(err error) { t.Error(err) }
	for v := range maxPosted {
		postInsert(context.Background(), p, v, fail)
	}
	waitFor(t, p, func() bool { return len(p.queue) == maxPosted })
	var returned atomic.Bool
	last := make(chan struct{})
	go func() {
		defer close(last)
		postInsert(context.Background(), p, maxPosted, fail)
		returned.Store(true)
	}()
	waitFor(t, p, func() bool { return len(p.queue) == maxPosted+1 })
	if returned.Load() {
		t.Fatal("post returned with maxPosted writes waiting, want it to wait for its write")
	}
	if got := tableValues(t, pool); len(got) != 0 {
		t.Fatalf("table holds %d rows while the lanes are busy, want none", len(got))
	}
	release()
	lanes()
	<-last
	// The last write waited for its own batch: it is in the table now,
	// before settle.
	var n int
	if err := pool.QueryRow(t.Context(), `SELECT count(*) FROM t WHERE v = $1`, maxPosted).Scan(&n); err != nil || n != 1 {
		t.Errorf("the write that waited: %d rows, %v; want it written when post returned", n, err)
	}
	p.settle()
	if got := tableValues(t, pool); len(got) != maxPosted+1 {
		t.Errorf("table holds %d rows after settle, want %d", len(got), maxPosted+1)
	}
}

func TestPipelineUnderRace(t *testing.T) {
	pool := pipelineEnv(t)
	p := newPipeline(pool, 8, 2)
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make([]error, 200)
	for i := range errs {
		wg.Go(func() {
			<-start
			var tx, seq int64
			errs[i] = p.write(context.Background(), int64(i%7), qInsert, []any{i}, func(r pgx.Row) error { return r.Scan(&tx, &seq) })
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	var n int
	if err := pool.QueryRow(t.Context(), `SELECT count(DISTINCT v) FROM t`).Scan(&n); err != nil || n != 200 {
		t.Errorf("%d rows, %v; want the 200 writes once each", n, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running != 0 || len(p.queue) != 0 {
		t.Errorf("after the race: %d lanes busy, %d writes queued; want none", p.running, len(p.queue))
	}
}
