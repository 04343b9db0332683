package notify

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/outbox"
)

// DispatchEvent is the job engine's step for one outbox event (package
// jobs runs it): it fans the event out into its deliveries unless it is
// dispatched already. Dispatching twice adds nothing
// (DispatchOutboxEvent is idempotent). A missing event is not an error.
func (w *Worker) DispatchEvent(ctx context.Context, eventID int64) error {
	w.defaults()
	ev, err := w.Store.OutboxEvent(ctx, eventID)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		return nil
	case err != nil:
		return fmt.Errorf("dispatch event %d: %w", eventID, err)
	case !ev.DispatchedAt.IsZero():
		return nil
	}
	return w.dispatch(ctx, *ev)
}

// Deliver is the job engine's step for one delivery (package jobs runs
// it): when the delivery is pending and due it makes one attempt, bounded
// by AttemptTimeout, and saves the outcome as Process does. It returns
// when the delivery is due again: zero when nothing is left to do
// (delivered, failed for good, held, gone), its NextAttemptAt while it is
// pending (not due yet, or retried after outbox.Backoff). An error means
// the attempt's outcome could not be saved; the job is retried.
func (w *Worker) Deliver(ctx context.Context, deliveryID int64) (time.Time, error) {
	w.defaults()
	// One attempt of a delivery at a time in this process: the job and
	// a caller beside it (jobs.Workers.RunDue, the sandbox's step) may
	// run it at once, and the second must read what the first saved.
	unlock := w.inflight.lock(deliveryID)
	defer unlock()
	d, err := w.Store.OutboxDelivery(ctx, deliveryID)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, fmt.Errorf("delivery %d: %w", deliveryID, err)
	case d.Status != outbox.StatusPending:
		return time.Time{}, nil
	case d.NextAttemptAt.After(w.Clock.Now()):
		return d.NextAttemptAt, nil
	}
	attempt, cancel := context.WithTimeout(ctx, AttemptTimeout)
	defer cancel()
	if _, err := w.deliver(attempt, d); err != nil {
		return time.Time{}, err
	}
	if d.Status != outbox.StatusPending {
		return time.Time{}, nil
	}
	return d.NextAttemptAt, nil
}

// keyedLocks are mutexes by id, each kept while someone holds or awaits
// it.
type keyedLocks struct {
	mu sync.Mutex
	m  map[int64]*keyedLock
}

type keyedLock struct {
	sync.Mutex
	waiters int
}

// lock locks id's mutex and returns its unlock.
func (k *keyedLocks) lock(id int64) (unlock func()) {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[int64]*keyedLock{}
	}
	l := k.m[id]
	if l == nil {
		l = &keyedLock{}
		k.m[id] = l
	}
	l.waiters++
	k.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		k.mu.Lock()
		if l.waiters--; l.waiters == 0 {
			delete(k.m, id)
		}
		k.mu.Unlock()
	}
}
