package jobs

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/riverqueue/river"

	"github.com/staykit/staykit/jobs/enqueue"
	"github.com/staykit/staykit/notify"
)

// until turns a row's next due time into the job's result.
func TestUntil(t *testing.T) {
	now := time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)
	failed := errors.New("store down")
	for _, tc := range []struct {
		name   string
		next   time.Time
		err    error
		want   error
		snooze time.Duration
	}{
		{name: "done", want: nil},
		{name: "failure retried by River", err: failed, want: failed},
		{name: "failure wins over a time", next: now.Add(time.Hour), err: failed, want: failed},
		{name: "due later", next: now.Add(90 * time.Second), snooze: 90 * time.Second},
		{name: "due now waits the least", next: now, snooze: time.Second},
		{name: "overdue waits the least", next: now.Add(-time.Hour), snooze: time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := until(tc.next, tc.err, now, time.Second)
			var snooze *river.JobSnoozeError
			switch {
			case tc.snooze != 0:
				if !errors.As(got, &snooze) || snooze.Duration != tc.snooze {
					t.Errorf("until = %v, want a snooze of %v", got, tc.snooze)
				}
			case !errors.Is(got, tc.want) || (tc.want == nil && got != nil):
				t.Errorf("until = %v, want %v", got, tc.want)
			}
		})
	}
}

// The gate lets limit deliveries go to one endpoint at once; another waits
// gateWait for a place and gives up, unless one comes free meanwhile.
// Other endpoints are not held up.
func TestGateBoundsEachEndpoint(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		g := newGate(2)
		for range 2 {
			if !g.enter(ctx, 1, gateWait) {
				t.Fatal("a free place refused")
			}
		}
		start := time.Now()
		if g.enter(ctx, 1, gateWait) {
			t.Fatal("a third delivery to a busy endpoint entered")
		}
		if waited := time.Since(start); waited != gateWait {
			t.Errorf("gave up after %v, want %v", waited, gateWait)
		}
		if !g.enter(ctx, 2, gateWait) {
			t.Error("another endpoint held up by a busy one")
		}
		go func() {
			time.Sleep(gateWait / 2)
			g.leave(1)
		}()
		start = time.Now()
		if !g.enter(ctx, 1, gateWait) {
			t.Fatal("a place freed while waiting was not taken")
		}
		if waited := time.Since(start); waited != gateWait/2 {
			t.Errorf("entered after %v, want %v", waited, gateWait/2)
		}
	})
}

// Each row's job is scheduled at the row's due time; a ledger entry's no
// sooner than ledgerGrace (the service sends fresh entries itself), and
// rows of a capability these Workers do not run get no job.
func TestParamsScheduleRowsWhenDue(t *testing.T) {
	now := time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)
	clock := fixedClock(now)
	later := now.Add(time.Hour)
	for _, tc := range []struct {
		name   string
		outbox bool
		work   enqueue.Work
		want   river.JobArgs
		at     time.Time // zero: at once
		// wall is River's clock when it is not the Workers' (a sandbox
		// clock ahead of it).
		wall time.Time
	}{
		{name: "delivery due now", outbox: true, work: enqueue.Work{Kind: enqueue.OutboxDelivery, ID: 7, Parent: 3, At: now},
			want: DeliveryArgs{DeliveryID: 7, EndpointID: 3}},
		{name: "delivery due later", outbox: true, work: enqueue.Work{Kind: enqueue.OutboxDelivery, ID: 7, At: later},
			want: DeliveryArgs{DeliveryID: 7}, at: later},
		{name: "ledger entry due now", work: enqueue.Work{Kind: enqueue.LedgerEntry, ID: 5, Parent: 2, At: now},
			want: LedgerEntryArgs{BookingID: 2, EntryID: 5}, at: now.Add(ledgerGrace)},
		{name: "ledger entry due later", work: enqueue.Work{Kind: enqueue.LedgerEntry, ID: 5, Parent: 2, At: later},
			want: LedgerEntryArgs{BookingID: 2, EntryID: 5}, at: later},
		{name: "clock ahead of the wall", outbox: true, work: enqueue.Work{Kind: enqueue.OutboxDelivery, ID: 7, At: later},
			want: DeliveryArgs{DeliveryID: 7}, wall: now.Add(-30 * 24 * time.Hour), at: now.Add(-30 * 24 * time.Hour).Add(time.Hour)},
		{name: "event without an outbox", work: enqueue.Work{Kind: enqueue.OutboxEvent, ID: 1, At: now}},
		{name: "feed without a syncer", work: enqueue.Work{Kind: enqueue.Feed, ID: 1, Parent: 4, At: now}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{Clock: clock}
			if tc.outbox {
				o.Outbox = &notify.Worker{}
			}
			wall := now
			if !tc.wall.IsZero() {
				wall = tc.wall
			}
			params := (&Workers{opts: o, wall: func() time.Time { return wall }}).params([]enqueue.Work{tc.work})
			if tc.want == nil {
				if len(params) != 0 {
					t.Fatalf("params = %+v, want none", params)
				}
				return
			}
			if len(params) != 1 || params[0].Args != tc.want {
				t.Fatalf("params = %+v, want one job %+v", params, tc.want)
			}
			var at time.Time
			if params[0].InsertOpts != nil {
				at = params[0].InsertOpts.ScheduledAt
			}
			if !at.Equal(tc.at) {
				t.Errorf("scheduled at %v, want %v", at, tc.at)
			}
		})
	}
}

// fixedClock is a clock that stays at one time.
type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }
