package jobs

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
)

// Minimum waits before a row's job looks at it again, however soon the row
// says it is due: a row whose outcome could not move its due time (a
// record that failed) must not spin its job.
const (
	minWait     = time.Second
	minFeedWait = time.Minute
	// gateWait is how long a delivery waits for its endpoint's turn
	// before it gives its worker back, and busyWait when it tries again.
	gateWait = 250 * time.Millisecond
	busyWait = time.Second
)

// until is a job's result for a row due again at next: done (zero next),
// a retry through River's backoff (err), or a snooze until next.
func until(next time.Time, err error, now time.Time, least time.Duration) error {
	switch {
	case err != nil:
		return err
	case next.IsZero():
		return nil
	}
	return river.JobSnooze(max(next.Sub(now), least))
}

// ledgerWorker sends one ledger entry.
type ledgerWorker struct {
	river.WorkerDefaults[LedgerEntryArgs]
	money *money.Service
	clock booking.Clock
}

func (w *ledgerWorker) Work(ctx context.Context, job *river.Job[LedgerEntryArgs]) error {
	next, err := w.money.SendLedgerEntry(ctx, job.Args.BookingID, job.Args.EntryID)
	return until(next, err, w.clock.Now(), minWait)
}

// Timeout bounds one send: a provider call with its retries.
func (w *ledgerWorker) Timeout(*river.Job[LedgerEntryArgs]) time.Duration { return 2 * time.Minute }

// eventWorker fans one outbox event out.
type eventWorker struct {
	river.WorkerDefaults[OutboxEventArgs]
	w *notify.Worker
}

func (w *eventWorker) Work(ctx context.Context, job *river.Job[OutboxEventArgs]) error {
	if w.w == nil {
		return nil
	}
	return w.w.DispatchEvent(ctx, job.Args.EventID)
}

// deliveryWorker makes one delivery, at most gate's limit at a time to one
// webhook endpoint.
type deliveryWorker struct {
	river.WorkerDefaults[DeliveryArgs]
	w     *notify.Worker
	clock booking.Clock
	gate  *gate
}

func (w *deliveryWorker) Work(ctx context.Context, job *river.Job[DeliveryArgs]) error {
	if w.w == nil {
		return nil
	}
	if ep := job.Args.EndpointID; ep != 0 {
		if !w.gate.enter(ctx, ep, gateWait) {
			return river.JobSnooze(busyWait)
		}
		defer w.gate.leave(ep)
	}
	next, err := w.w.Deliver(ctx, job.Args.DeliveryID)
	return until(next, err, w.clock.Now(), minWait)
}

// Timeout leaves an attempt its notify.AttemptTimeout and the time to
// save its outcome.
func (w *deliveryWorker) Timeout(*river.Job[DeliveryArgs]) time.Duration { return notify.DeliveryLease }

// feedWorker polls one feed whenever it is due.
type feedWorker struct {
	river.WorkerDefaults[FeedPollArgs]
	s     *icalsync.Syncer
	clock booking.Clock
}

func (w *feedWorker) Work(ctx context.Context, job *river.Job[FeedPollArgs]) error {
	if w.s == nil {
		return nil
	}
	next, err := w.s.PollFeed(ctx, job.Args.OrgID, job.Args.FeedID)
	return until(next, err, w.clock.Now(), minFeedWait)
}

// Timeout bounds a poll: a fetch with its timeout, and the sync.
func (w *feedWorker) Timeout(*river.Job[FeedPollArgs]) time.Duration { return icalsync.DefaultLease }

// periodicWorker runs one periodic task.
type periodicWorker struct {
	river.WorkerDefaults[PeriodicArgs]
	w *Workers
}

func (p *periodicWorker) Work(ctx context.Context, job *river.Job[PeriodicArgs]) error {
	return p.w.runTask(ctx, job.Args.Task)
}

// runTask runs a periodic task once and logs what it did.
func (w *Workers) runTask(ctx context.Context, task string) error {
	log := w.opts.Logger
	switch task {
	case TaskExpireHolds:
		n, err := w.opts.Bookings.ExpireHolds(ctx)
		if err != nil {
			return fmt.Errorf("expire holds: %w", err)
		}
		if n > 0 {
			log.InfoContext(ctx, "expired holds", "count", n)
		}
	case TaskPurgeHostRequests:
		n, err := w.opts.Bookings.PurgeHostRequests(ctx)
		if err != nil {
			return fmt.Errorf("purge host requests: %w", err)
		}
		if n > 0 {
			log.InfoContext(ctx, "purged host requests", "count", n)
		}
	case TaskReminders:
		if w.opts.Outbox != nil && w.opts.Outbox.Reminders != nil {
			if err := w.opts.Outbox.Reminders(ctx); err != nil {
				return fmt.Errorf("queue reminders: %w", err)
			}
		}
	case TaskPurgeCheckins:
		if w.opts.Checkins == nil {
			return nil
		}
		n, err := w.opts.Checkins.PurgeCheckins(ctx)
		if err != nil {
			return fmt.Errorf("purge check-ins: %w", err)
		}
		if n > 0 {
			log.InfoContext(ctx, "deleted check-ins past their keeping period", "count", n)
		}
	case TaskInvoices:
		if w.opts.Invoices != nil {
			n, err := w.opts.Invoices.IssueDue(ctx)
			if n > 0 {
				log.InfoContext(ctx, "issued invoices", "count", n)
			}
			if err != nil {
				return fmt.Errorf("issue invoices: %w", err)
			}
		}
	case TaskMessages:
		if w.opts.Outbox != nil && w.opts.Outbox.QueueMessages != nil {
			if err := w.opts.Outbox.QueueMessages(ctx); err != nil {
				return fmt.Errorf("queue scheduled messages: %w", err)
			}
		}
	case TaskSweep:
		return w.sweep(ctx)
	default:
		return fmt.Errorf("jobs: unknown periodic task %q", task)
	}
	return nil
}

// sweep enqueues the due rows that have no job: rows written before the
// engine ran, by a store without the hook, or made due again in bulk (an
// endpoint resumed). Rows that have their job are skipped (unique jobs).
func (w *Workers) sweep(ctx context.Context) error {
	work, err := w.store.DueWork(ctx, w.opts.Clock.Now(), sweepLimit)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	n, err := w.insert(ctx, work)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	if n > 0 {
		w.opts.Logger.InfoContext(ctx, "sweep enqueued due rows that had no job", "count", n)
	}
	return nil
}

// gate bounds the deliveries in flight to each webhook endpoint in this
// process.
type gate struct {
	mu    sync.Mutex
	limit int
	slots map[int64]chan struct{}
}

func newGate(limit int) *gate { return &gate{limit: limit, slots: map[int64]chan struct{}{}} }

// enter takes a place for endpoint, waiting up to wait for one; false when
// none came free (the endpoint is slow: the caller tries later, leaving
// its worker to other endpoints) or ctx ended.
func (g *gate) enter(ctx context.Context, endpoint int64, wait time.Duration) bool {
	g.mu.Lock()
	slots, ok := g.slots[endpoint]
	if !ok {
		slots = make(chan struct{}, g.limit)
		g.slots[endpoint] = slots
	}
	g.mu.Unlock()
	select {
	case slots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case slots <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// leave gives back a place.
func (g *gate) leave(endpoint int64) {
	g.mu.Lock()
	slots := g.slots[endpoint]
	g.mu.Unlock()
	<-slots
}
