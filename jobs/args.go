package jobs

import (
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/staykit/staykit/jobs/enqueue"
)

// uniquePerRow makes a row's job unique among the jobs not finished yet:
// a second insert (the hook and the sweep, two replicas) is skipped, and
// a row that is due again after its job completed (a redelivery) gets a
// new one.
var uniquePerRow = river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
	rivertype.JobStateRetryable, rivertype.JobStateScheduled,
}}

// LedgerEntryArgs is the job of one pending payments-ledger entry.
type LedgerEntryArgs struct {
	BookingID int64 `json:"booking_id"`
	EntryID   int64 `json:"entry_id"`
}

// Kind is the job's kind in River.
func (LedgerEntryArgs) Kind() string { return "staykit.ledger_entry" }

// InsertOpts puts the job on QueueLedger, unique per entry.
func (LedgerEntryArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueLedger, UniqueOpts: uniquePerRow}
}

// OutboxEventArgs is the job that fans one outbox event out into its
// deliveries.
type OutboxEventArgs struct {
	EventID int64 `json:"event_id"`
}

// Kind is the job's kind in River.
func (OutboxEventArgs) Kind() string { return "staykit.outbox_event" }

// InsertOpts puts the job on QueueOutbox, unique per event.
func (OutboxEventArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueOutbox, UniqueOpts: uniquePerRow}
}

// DeliveryArgs is the job of one outbox delivery; EndpointID is its
// webhook endpoint (0 for an e-mail).
type DeliveryArgs struct {
	DeliveryID int64 `json:"delivery_id"`
	EndpointID int64 `json:"endpoint_id,omitempty"`
}

// Kind is the job's kind in River.
func (DeliveryArgs) Kind() string { return "staykit.outbox_delivery" }

// InsertOpts puts the job on QueueOutbox, unique per delivery.
func (DeliveryArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueOutbox, UniqueOpts: uniquePerRow}
}

// FeedPollArgs is the job of one iCal feed: it polls the feed whenever it
// is due, for as long as the feed is active.
type FeedPollArgs struct {
	OrgID  int64 `json:"org_id"`
	FeedID int64 `json:"feed_id"`
}

// Kind is the job's kind in River.
func (FeedPollArgs) Kind() string { return "staykit.feed_poll" }

// InsertOpts puts the job on QueueFeeds, unique per feed.
func (FeedPollArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueFeeds, UniqueOpts: uniquePerRow}
}

// The periodic tasks.
const (
	TaskExpireHolds       = "expire_holds"
	TaskPurgeHostRequests = "purge_host_requests"
	TaskReminders         = "reminders"
	// TaskPurgeCheckins deletes the check-ins past their keeping
	// (Options.Checkins).
	TaskPurgeCheckins = "purge_checkins"
	// TaskInvoices issues the invoices and credit notes owed
	// (invoice.Service.IssueDue).
	TaskInvoices = "invoices"
	// TaskMessages records the scheduled messages that are due
	// (notify.Worker.QueueMessages).
	TaskMessages = "messages"
	// TaskSweep enqueues the due rows that have no job.
	TaskSweep = "sweep"
)

// PeriodicArgs is the job of one run of a periodic task.
type PeriodicArgs struct {
	Task string `json:"task"`
}

// Kind is the job's kind in River.
func (PeriodicArgs) Kind() string { return "staykit.periodic" }

// InsertOpts puts the job on QueuePeriodic; a run is not retried (the
// next one comes soon).
func (PeriodicArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueuePeriodic, MaxAttempts: 1}
}

// argsOf is the job of a row; nil for an unknown kind.
func argsOf(w enqueue.Work) river.JobArgs {
	switch w.Kind {
	case enqueue.LedgerEntry:
		return LedgerEntryArgs{BookingID: w.Parent, EntryID: w.ID}
	case enqueue.OutboxEvent:
		return OutboxEventArgs{EventID: w.ID}
	case enqueue.OutboxDelivery:
		return DeliveryArgs{DeliveryID: w.ID, EndpointID: w.Parent}
	case enqueue.Feed:
		return FeedPollArgs{OrgID: w.Parent, FeedID: w.ID}
	}
	return nil
}
