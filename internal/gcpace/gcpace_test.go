package gcpace

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

const mib = 1 << 20

func TestPaced(t *testing.T) {
	cases := []struct {
		name     string
		base     int
		live     int64
		headroom int64
		busy     bool
		want     int
	}{
		{"idle: the base pace", 100, 4 * mib, 32 * mib, false, 100},
		{"busy, small heap: the headroom", 100, 4 * mib, 32 * mib, true, 800},
		{"busy, rounded up", 100, 3 * mib, 32 * mib, true, 1067},
		{"busy, heap as large as the headroom", 100, 32 * mib, 32 * mib, true, 100},
		{"busy, heap larger than the headroom", 100, 100 * mib, 32 * mib, true, 100},
		{"busy, a larger base wins", 400, 16 * mib, 32 * mib, true, 400},
		{"busy, a heap under 1 MiB counts as 1 MiB", 100, 1000, 32 * mib, true, 3200},
		{"collector off stays off", -1, 4 * mib, 32 * mib, true, -1},
	}
	for _, c := range cases {
		if got := paced(c.base, c.live, c.headroom, c.busy); got != c.want {
			t.Errorf("%s: paced(%d, %d, %d, %v) = %d, want %d", c.name, c.base, c.live, c.headroom, c.busy, got, c.want)
		}
	}
}

func TestDefaults(t *testing.T) {
	p := newPacer(Options{}, 100, 256*mib, nil, nil)
	if p.headroom != 32*mib || p.busyRate != 32*mib/10 || p.check != time.Second {
		t.Errorf("defaults at a 256 MiB limit: headroom %d, busy rate %d, check %s; want 32 MiB, 3.2 MiB/s and 1s", p.headroom, p.busyRate, p.check)
	}
	p = newPacer(Options{Headroom: 8 * mib, BusyRate: 1}, 100, 256*mib, nil, nil)
	if p.headroom != 8*mib || p.busyRate != 1 {
		t.Errorf("options given: headroom %d, busy rate %d", p.headroom, p.busyRate)
	}
}

// fedPacer returns a pacer with a 32 MiB headroom at GOGC 100 whose
// readings are *next and whose settings of GOGC are appended to *applied;
// its last reading is at start, with a 4 MiB live heap.
func fedPacer(start time.Time) (p *Pacer, next *reading, applied *[]int) {
	next, applied = new(reading), new([]int)
	p = newPacer(Options{Headroom: 32 * mib}, 100, 256*mib, func() reading { return *next },
		func(percent int) { *applied = append(*applied, percent) })
	p.last = reading{at: start, live: 4 * mib}
	return p, next, applied
}

// TestPacerFollowsTheAllocationRate drives a pacer with readings: it
// sets GOGC when the rate crosses the busy rate, not on every
// collection, and nothing after Stop but the base.
func TestPacerFollowsTheAllocationRate(t *testing.T) {
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	p, next, applied := fedPacer(start)

	steps := []struct {
		after  time.Duration
		allocs uint64 // since the previous reading
		live   uint64
		want   []int // applied so far
	}{
		{time.Second, 1 * mib, 4 * mib, nil},               // 1 MiB/s: idle
		{time.Second, 100 * mib, 4 * mib, []int{800}},      // busy
		{time.Second, 100 * mib, 4 * mib, []int{800}},      // still busy: nothing to set
		{time.Second, 100 * mib, 8 * mib, []int{800, 400}}, // the live heap doubled
		{time.Second, 100 * mib, 64 * mib, []int{800, 400, 100}},
		{time.Minute, 10 * mib, 4 * mib, []int{800, 400, 100}}, // idle again, at the base already
	}
	at, allocs := start, uint64(0)
	for i, s := range steps {
		at, allocs = at.Add(s.after), allocs+s.allocs
		*next = reading{at: at, live: s.live, allocs: allocs}
		p.adjust()
		if !slices.Equal(*applied, s.want) {
			t.Fatalf("step %d: applied %v, want %v", i, *applied, s.want)
		}
	}
	*next = reading{at: at.Add(time.Second), live: 4 * mib, allocs: allocs + 100*mib}
	p.adjust()
	p.Stop()
	p.Stop()
	*next = reading{at: at.Add(2 * time.Second), live: 4 * mib, allocs: allocs + 200*mib}
	p.adjust()
	if want := []int{800, 400, 100, 800, 100}; !slices.Equal(*applied, want) {
		t.Fatalf("after Stop: applied %v, want %v (the base, once, and nothing after)", *applied, want)
	}
}

// TestStartPacesTheCollector runs a pacer on the real collector: once
// the program allocates fast, GOGC rises above 100; Stop puts it back.
func TestStartPacesTheCollector(t *testing.T) {
	if gcPercent() != 100 {
		t.Fatalf("GOGC is %d: this test needs the default, 100", gcPercent())
	}
	defer debug.SetGCPercent(100)
	p := Start(Options{Headroom: 256 * mib, BusyRate: 1})
	var keep [][]byte
	for i := 0; i < 1000 && runtimePercent() <= 100; i++ {
		keep = append(keep[:0], make([]byte, 64<<10))
		runtime.GC()
		runtime.Gosched()
	}
	if got := runtimePercent(); got <= 100 {
		t.Fatalf("GOGC %d after 1,000 collections of a busy program, want more than 100", got)
	}
	p.Stop()
	if got := runtimePercent(); got != 100 {
		t.Fatalf("GOGC %d after Stop, want 100", got)
	}
	runtime.KeepAlive(keep)
}

// runtimePercent is GOGC as runtime/metrics reports it.
func runtimePercent() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestTooShortAWindowMeasuresNothing: a reading soon after the last one
// changes nothing, and the next one measures from the last one kept.
func TestTooShortAWindowMeasuresNothing(t *testing.T) {
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	p, next, applied := fedPacer(start)
	// 1 MiB in 1 ms would be 1 GiB/s: not measured.
	*next = reading{at: start.Add(time.Millisecond), live: 4 * mib, allocs: 1 * mib}
	p.adjust()
	if *applied != nil {
		t.Fatalf("applied %v after 1 ms, want nothing", *applied)
	}
	// Over the whole second since the last reading kept: 1 MiB/s, idle.
	*next = reading{at: start.Add(time.Second), live: 4 * mib, allocs: 1 * mib}
	p.adjust()
	if *applied != nil {
		t.Fatalf("applied %v at 1 MiB/s, want nothing", *applied)
	}
}

// TestIdlePacerReturnsToTheBasePace: between collections the pacer
// checks the allocation rate every second, so that a server gone idle,
// which collects rarely, does not keep a busy server's headroom.
func TestIdlePacerReturnsToTheBasePace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var allocs uint64
		var applied []int
		read := func() reading {
			mu.Lock()
			defer mu.Unlock()
			return reading{at: time.Now(), live: 4 * mib, allocs: allocs}
		}
		p := newPacer(Options{Headroom: 32 * mib}, 100, 256*mib, read, func(percent int) { applied = append(applied, percent) })
		p.last = read()
		p.startWatch()

		busy := func(bytesPerSecond uint64, seconds int) {
			for range seconds {
				mu.Lock()
				allocs += bytesPerSecond
				mu.Unlock()
				time.Sleep(time.Second)
				synctest.Wait()
			}
		}
		busy(100*mib, 2) // busy, with no collection
		if want := []int{800}; !slices.Equal(applied, want) {
			t.Fatalf("busy: applied %v, want %v", applied, want)
		}
		busy(0, 2) // idle, with no collection
		if want := []int{800, 100}; !slices.Equal(applied, want) {
			t.Fatalf("idle: applied %v, want %v", applied, want)
		}
		p.Stop()
	})
}
