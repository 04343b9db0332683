package notify_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/staykit/staykit/outbox"
)

// The job engine's steps: DispatchEvent fans an event out once, and
// Deliver attempts a due delivery, records the outcome on the row, and
// says when the row is due again (the row's schedule, outbox.Backoff).
func TestDispatchEventAndDeliver(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	var fail atomic.Bool
	fail.Store(true)
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		if fail.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	ep := e.addEndpoint(t, "demo", srv.URL)
	e.book(t, "demo", "fr")
	for id := int64(1); id <= 20; id++ { // the events recorded, and ids of none
		for range 2 {
			if err := e.worker.DispatchEvent(ctx, id); err != nil {
				t.Fatalf("dispatch event %d: %v", id, err)
			}
		}
	}
	ds, err := e.store.OutboxDeliveries(ctx, 0, ep.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) == 0 {
		t.Fatal("no webhook delivery after dispatching the booking's events")
	}
	d := ds[len(ds)-1]

	next, err := e.worker.Deliver(ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if latest := e.clock.Now().Add(outbox.Backoff(1)); next.After(latest) || next.Before(latest.Add(-outbox.Backoff(1)/10)) {
		t.Errorf("after a failed attempt Deliver = %v, want the backoff's %v less its jitter (a tenth at most)", next, latest)
	}
	row, err := e.store.OutboxDelivery(ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if row.Status != outbox.StatusPending || row.Attempts != 1 || row.LastError == "" || row.ResponseCode != http.StatusServiceUnavailable {
		t.Errorf("row after a failed attempt: %s, %d attempts, error %q, code %d; want pending, 1, an error, 503",
			row.Status, row.Attempts, row.LastError, row.ResponseCode)
	}

	// Not due yet: no attempt, the same time.
	if again, err := e.worker.Deliver(ctx, d.ID); err != nil || !again.Equal(next) || calls.Load() != 1 {
		t.Errorf("Deliver before the row is due = %v, %v after %d calls; want %v, no error, 1 call", again, err, calls.Load(), next)
	}

	fail.Store(false)
	e.clock.Set(next)
	if done, err := e.worker.Deliver(ctx, d.ID); err != nil || !done.IsZero() {
		t.Errorf("Deliver of a due delivery to a healthy endpoint = %v, %v; want zero, no error", done, err)
	}
	if row, _ := e.store.OutboxDelivery(ctx, d.ID); row.Status != outbox.StatusDelivered || row.Attempts != 2 {
		t.Errorf("row after delivery: %s after %d attempts, want delivered after 2", row.Status, row.Attempts)
	}
	// Settled: nothing left to do.
	if done, err := e.worker.Deliver(ctx, d.ID); err != nil || !done.IsZero() || calls.Load() != 2 {
		t.Errorf("Deliver of a delivered row = %v, %v after %d calls; want zero, no error, 2 calls", done, err, calls.Load())
	}
	if done, err := e.worker.Deliver(ctx, d.ID+1000); err != nil || !done.IsZero() {
		t.Errorf("Deliver of no delivery = %v, %v; want zero, no error", done, err)
	}
}

// Deliver run at once for one delivery in one process (its job and the
// sandbox's RunDue beside it) makes one attempt: the others wait and read
// the outcome saved.
func TestDeliverConcurrentlyAttemptsOnce(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	var calls atomic.Int32
	arrived, release := make(chan struct{}, 16), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		calls.Add(1)
		arrived <- struct{}{}
		<-release
	}))
	defer srv.Close()
	ep := e.addEndpoint(t, "demo", srv.URL)
	e.book(t, "demo", "fr")
	for id := int64(1); id <= 5; id++ {
		if err := e.worker.DispatchEvent(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := e.store.OutboxDeliveries(ctx, 0, ep.ID, 0, 0)
	if err != nil || len(ds) == 0 {
		t.Fatalf("webhook deliveries: %v, %v", ds, err)
	}
	id := ds[0].ID
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			<-start
			if _, err := e.worker.Deliver(ctx, id); err != nil {
				t.Errorf("deliver: %v", err)
			}
		})
	}
	close(start)
	<-arrived // one attempt is under way; the others are waiting or reading
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("%d attempts of one delivery run 8 times at once, want 1", n)
	}
}
