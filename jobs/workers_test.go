package jobs

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/riverqueue/river"
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
