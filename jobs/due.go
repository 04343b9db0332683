package jobs

import (
	"context"
	"errors"
	"fmt"

	"github.com/staykit/staykit/jobs/enqueue"
)

// dueRounds bounds RunDue's passes: each pass does what the previous one
// made due (a sent balance's event, the event's deliveries).
const dueRounds = 8

// RunDue does now, in this goroutine, the work due at the Workers' clock:
// the periodic tasks (hold expiry, host request purge, reminders, check-in
// retention, scheduled messages) once,
// then each due ledger entry, outbox event and delivery, pass after pass
// until a pass finds nothing due (at most a few passes), and last the
// invoices and credit notes owed (TaskInvoices). It is the
// sandbox's step after its clock moved (package sandbox): River schedules
// jobs on the wall clock, so the jobs of rows due at the sandbox's time
// would wait for real time to catch up. Each row is worked through the
// same step as its job (money.Service.SendLedgerEntry,
// notify.Worker.DispatchEvent and Deliver), so a job that later finds the
// row settled does nothing. iCal feeds are not polled. Errors of the
// rows are joined; the rows stay due for their jobs.
func (w *Workers) RunDue(ctx context.Context) error {
	var errs []error
	for _, task := range []string{TaskExpireHolds, TaskPurgeHostRequests, TaskReminders, TaskPurgeCheckins, TaskMessages} {
		if err := w.runTask(ctx, task); err != nil {
			errs = append(errs, err)
		}
	}
	tried := map[enqueue.Work]int{}
	for range dueRounds {
		work, err := w.store.DueWork(ctx, w.opts.Clock.Now(), sweepLimit)
		if err != nil {
			return errors.Join(append(errs, fmt.Errorf("due work: %w", err))...)
		}
		progress := false
		for _, wk := range work {
			key := enqueue.Work{Kind: wk.Kind, ID: wk.ID}
			if wk.Kind == enqueue.Feed || tried[key] >= 2 {
				continue
			}
			tried[key]++
			progress = true
			if err := w.runRow(ctx, wk); err != nil {
				errs = append(errs, err)
			}
		}
		if !progress {
			break
		}
	}
	// Last, the invoices owed, the credit notes of the refunds just
	// sent included.
	if err := w.runTask(ctx, TaskInvoices); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// runRow works one due row as its job would.
func (w *Workers) runRow(ctx context.Context, wk enqueue.Work) error {
	switch wk.Kind {
	case enqueue.LedgerEntry:
		if _, err := w.opts.Money.SendLedgerEntry(ctx, wk.Parent, wk.ID); err != nil {
			return fmt.Errorf("ledger entry %d: %w", wk.ID, err)
		}
	case enqueue.OutboxEvent:
		if w.opts.Outbox != nil {
			if err := w.opts.Outbox.DispatchEvent(ctx, wk.ID); err != nil {
				return fmt.Errorf("outbox event %d: %w", wk.ID, err)
			}
		}
	case enqueue.OutboxDelivery:
		if w.opts.Outbox != nil {
			if _, err := w.opts.Outbox.Deliver(ctx, wk.ID); err != nil {
				return fmt.Errorf("delivery %d: %w", wk.ID, err)
			}
		}
	}
	return nil
}
