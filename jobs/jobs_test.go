package jobs

import (
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
)

// A store with Workers inserts the job of each event it records in the
// transaction that records it: committed with the event, and gone with a
// transaction that fails.
func TestStoreInsertsJobsInItsTransaction(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d driver) {
		s := d.open(t, d.database(t))
		w, err := d.workers(s, options(s, time.Second))
		if err != nil {
			t.Fatal(err)
		}
		org := addOrg(t, s, "demo", "http://127.0.0.1:1/hook")
		events(t, s, 2, org)
		if n := jobCount(t, w, OutboxEventArgs{}.Kind()); n != 2 {
			t.Fatalf("%d event jobs after recording 2 events, want 2", n)
		}
		// An event of an organisation that does not exist fails its
		// transaction, with the job of the event recorded before it.
		_, err = s.RecordOutbox(t.Context(), []outbox.Event{
			{Key: "ok", Kind: booking.NotifyConfirmed, OrgID: org},
			{Key: "bad", Kind: booking.NotifyConfirmed, OrgID: org + 1000}}, time.Now())
		if booking.ErrorCode(err) != booking.CodeNotFound {
			t.Fatalf("recording an event of no organisation: %v, want CodeNotFound", err)
		}
		if n := jobCount(t, w, OutboxEventArgs{}.Kind()); n != 2 {
			t.Errorf("%d event jobs after a failed transaction, want still 2", n)
		}
		// Recording an event again adds no job (unique per row).
		events(t, s, 2, org)
		if n := jobCount(t, w, OutboxEventArgs{}.Kind()); n != 2 {
			t.Errorf("%d event jobs after recording the same events again, want 2", n)
		}
	})
}

// The sweep enqueues the due rows written before the engine ran (by a
// store without the hook), once.
func TestSweepEnqueuesRowsWithoutJobs(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d driver) {
		path := d.database(t)
		s := d.open(t, path)
		org := addOrg(t, s, "demo", "http://127.0.0.1:1/hook")
		events(t, s, 3, org) // no hook yet
		w, err := d.workers(s, options(s, time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if n := jobCount(t, w, OutboxEventArgs{}.Kind()); n != 0 {
			t.Fatalf("%d event jobs before the sweep, want 0", n)
		}
		for range 2 {
			if err := w.runTask(t.Context(), TaskSweep); err != nil {
				t.Fatal(err)
			}
		}
		if n := jobCount(t, w, OutboxEventArgs{}.Kind()); n != 3 {
			t.Errorf("%d event jobs after two sweeps, want 3", n)
		}
	})
}

// One endpoint that times out does not delay the deliveries to another
// organisation's endpoint: they run concurrently. The test reports the
// healthy endpoint's latency, from the events' recording to each arrival;
// on the serial worker this replaced (notify.Worker.Process, one delivery
// at a time) the same setup measured a median of 6.0 s and a maximum of
// 10.1 s, about one timeout per delivery queued ahead.
func TestHealthyEndpointLatencyWhileAnotherTimesOut(t *testing.T) {
	const n, timeout = 10, time.Second
	forEachDriver(t, func(t *testing.T, d driver) {
		s := d.open(t, d.database(t))
		healthy, healthyURL := newReceiver(t)
		slowOrg := addOrg(t, s, "slow", slowReceiver(t))
		fastOrg := addOrg(t, s, "fast", healthyURL)
		start(t, d, s, options(s, timeout))
		t0 := time.Now()
		recorded := events(t, s, n, slowOrg, fastOrg)
		healthy.wait(t, n)
		var lat []time.Duration
		healthy.mu.Lock()
		for i := range recorded {
			if recorded[i].OrgID == fastOrg {
				lat = append(lat, healthy.first[notify.MessageID(&recorded[i])].Sub(t0))
			}
		}
		healthy.mu.Unlock()
		slices.Sort(lat)
		t.Logf("healthy endpoint latency with %d deliveries to an endpoint that times out after %v: median %v, max %v",
			n, timeout, lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
	})
}

// Two replicas (two stores, each with its Workers, on one database)
// deliver each webhook exactly once: River claims each job for one of
// them.
func TestReplicasDeliverEachWebhookOnce(t *testing.T) {
	const n = 30
	forEachDriver(t, func(t *testing.T, d driver) {
		database := d.database(t)
		a, b := d.open(t, database), d.open(t, database)
		recv, url := newReceiver(t)
		org := addOrg(t, a, "demo", url)
		wa, wb := start(t, d, a, options(a, 5*time.Second)), start(t, d, b, options(b, 5*time.Second))
		events(t, a, n, org)
		recv.wait(t, n)
		for _, w := range []*Workers{wa, wb} {
			if err := w.Stop(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		recv.mu.Lock()
		defer recv.mu.Unlock()
		for id, c := range recv.count {
			if c != 1 {
				t.Errorf("webhook %s delivered %d times, want once", id, c)
			}
		}
		ds, err := a.OutboxDeliveries(t.Context(), 0, 0, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, dl := range ds {
			if dl.Status != outbox.StatusDelivered || dl.Attempts != 1 {
				t.Errorf("delivery %d: %s after %d attempts, want delivered after 1", dl.ID, dl.Status, dl.Attempts)
			}
		}
	})
}
