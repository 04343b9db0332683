// Package gcpace paces the Go garbage collector of a busy server whose
// live heap is small.
//
// At Go's default pace (GOGC=100) the collector runs each time the heap
// has doubled since the last collection. The reference server's live heap
// is about 4 MiB, so under load it collected every 4 MiB allocated —
// every 30 ms, a tenth of its CPU (examples/loadtest). A Pacer gives the
// heap a fixed headroom instead while the server allocates fast: the
// collector runs once the heap has grown by Headroom (or by the live heap,
// if that is more) since the last collection. The memory this costs is
// that headroom, a fixed number of bytes: it does not grow with the live
// heap, as a larger GOGC would (a server holding 100 MiB of lists runs at
// GOGC=100 as before), and the runtime's soft memory limit (GOMEMLIMIT)
// still bounds the whole. While the server is idle the pace is the default
// one, so an idle server keeps no garbage.
//
// The pacer runs once per collection (a cleanup on an object that each
// collection frees) and once a second, reads the live heap and the
// allocation rate from runtime/metrics and sets GOGC with
// debug.SetGCPercent: a server gone idle is back at the default pace
// within a second, not at its next collection. The garbage
// collector's settings are the process's: one pacer per process, started
// by the program's main.
package gcpace

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Options configure a Pacer. The zero value of a field is its default.
type Options struct {
	// Headroom is how much the heap may grow between collections while
	// the server is busy. Default: an eighth of the soft memory limit,
	// 32 MiB at the reference server's 256 MiB.
	Headroom int64
	// BusyRate is the allocation rate, in bytes per second, from which
	// the server is busy. Default: Headroom per 10 s, so that a busy
	// server still collects at least every 10 s.
	BusyRate int64
	// Check is how often the pacer also reads the allocation rate between
	// collections: a server gone idle collects rarely, and should not
	// keep a busy server's headroom until it does. Default: 1 s.
	Check time.Duration
}

// minWindow is the shortest time over which the pacer measures the
// allocation rate: a collection just after a reading would measure a
// few bytes over a few microseconds.
const minWindow = 100 * time.Millisecond

// reading is what the pacer reads after a collection or at a check.
type reading struct {
	at     time.Time
	live   uint64 // live heap after the last collection, bytes
	allocs uint64 // bytes allocated since the program started
}

// Pacer sets GOGC after every collection and every second. Start one
// with Start.
type Pacer struct {
	headroom int64
	busyRate int64
	check    time.Duration
	// base is GOGC when the pacer started, the pace of an idle server.
	base int

	read  func() reading
	apply func(percent int)

	mu      sync.Mutex // one adjust or Stop at a time
	last    reading
	percent int // GOGC last applied
	stopped bool

	// The watch's: stop is closed by Stop, done when the watch ended;
	// nil when no watch runs.
	stop chan struct{}
	done chan struct{}
}

// Start starts pacing the collector and returns the pacer; Stop restores
// GOGC as it was.
func Start(o Options) *Pacer {
	p := newPacer(o, gcPercent(), debug.SetMemoryLimit(-1), readMetrics, func(percent int) { debug.SetGCPercent(percent) })
	p.last = p.read()
	p.arm()
	p.startWatch()
	return p
}

// newPacer returns a pacer with its defaults resolved; limit is the soft
// memory limit.
func newPacer(o Options, base int, limit int64, read func() reading, apply func(int)) *Pacer {
	p := &Pacer{headroom: o.Headroom, busyRate: o.BusyRate, check: o.Check, base: base, percent: base, read: read, apply: apply}
	if p.headroom <= 0 {
		p.headroom = limit / 8
	}
	if p.busyRate <= 0 {
		p.busyRate = p.headroom / 10
	}
	if p.check <= 0 {
		p.check = time.Second
	}
	return p
}

// sentinel is the object each collection frees, whose cleanup runs the
// pacer. It holds a pointer so that it is not a tiny allocation, whose
// cleanup could wait for its neighbours.
type sentinel struct{ _ *Pacer }

// arm makes the next collection run the pacer.
func (p *Pacer) arm() {
	runtime.AddCleanup(&sentinel{}, func(p *Pacer) { p.collected() }, p)
}

// startWatch starts adjusting GOGC every check until Stop.
func (p *Pacer) startWatch() {
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	go p.watch()
}

func (p *Pacer) watch() {
	defer close(p.done)
	t := time.NewTicker(p.check)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.adjust()
		}
	}
}

// collected runs after a collection: it sets GOGC for the next one and
// re-arms, until the pacer stops.
func (p *Pacer) collected() {
	if p.adjust() {
		p.arm()
	}
}

// adjust sets GOGC for the next collection from a new reading; it
// reports false, and does nothing, once the pacer stopped.
func (p *Pacer) adjust() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return false
	}
	now := p.read()
	elapsed := now.at.Sub(p.last.at)
	if elapsed < minWindow {
		// Too soon to tell a rate: the next reading measures from the
		// last one.
		return true
	}
	if now.allocs >= p.last.allocs {
		rate := float64(now.allocs-p.last.allocs) / elapsed.Seconds()
		if percent := paced(p.base, int64(now.live), p.headroom, rate >= float64(p.busyRate)); percent != p.percent {
			p.apply(percent)
			p.percent = percent
		}
	}
	p.last = now
	return true
}

// paced is GOGC for a live heap of live bytes: base when idle; when busy,
// the percentage of the live heap that Headroom is, if that is more.
// A live heap under 1 MiB counts as 1 MiB.
func paced(base int, live, headroom int64, busy bool) int {
	if !busy || base <= 0 {
		return base
	}
	live = max(live, 1<<20)
	return max(base, int((100*headroom+live-1)/live))
}

// Stop stops pacing and restores GOGC as it was when the pacer started.
func (p *Pacer) Stop() {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.stopped = true
	p.apply(p.base)
	p.mu.Unlock()
	if p.stop != nil {
		close(p.stop)
		<-p.done
	}
}

// readMetrics reads the live heap and the bytes allocated so far.
func readMetrics() reading {
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(samples)
	return reading{at: time.Now(), live: samples[0].Value.Uint64(), allocs: samples[1].Value.Uint64()}
}

// gcPercent returns GOGC as it is (-1: off), read the only way the
// runtime tells it exactly: by setting it, here to its own value again.
func gcPercent() int {
	percent := debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	return percent
}
