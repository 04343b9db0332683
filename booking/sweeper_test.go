package booking_test

import (
	"bytes"
	"context"
	"errors"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite"
)

// failingStore fails LapsedHolds a number of times before it works.
type failingStore struct {
	booking.BookingStore
	failures atomic.Int32
}

func (f *failingStore) LapsedHolds(ctx context.Context, now time.Time, limit int) ([]booking.Booking, error) {
	if f.failures.Add(-1) >= 0 {
		return nil, errors.New("database is down")
	}
	return f.BookingStore.LapsedHolds(ctx, now, limit)
}

// lockedBuffer is a log sink safe for the sweeper's goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestRunSweeper(t *testing.T) {
	tests := []struct {
		name     string
		failures int32 // sweeps that fail before the store answers
		wantLog  []string
	}{
		{"ExpiresLapsedHold", 0, []string{"expired holds", "count=1"}},
		{"KeepsGoingAfterErrors", 2, []string{"expire holds", "database is down", "expired holds"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			ctx := context.Background()
			res, err := e.svc.Checkout(ctx, "demo", e.order("demo"))
			if err != nil {
				t.Fatal(err)
			}
			store := &failingStore{BookingStore: e.store}
			store.failures.Store(tt.failures)
			stores := e.store.Stores()
			stores.BookingStore = store
			logs := &lockedBuffer{}
			svc := booking.NewService(booking.Options{
				Stores: stores, Payments: e.pay, Clock: e.clock, Notifier: e.notified,
				Logger: slog.New(slog.NewTextHandler(logs, nil)),
			})
			e.clock.Advance(31 * time.Minute) // past the 30-minute hold

			sweepCtx, stop := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() { done <- svc.RunSweeper(sweepCtx, 5*time.Millisecond) }()
			defer func() {
				stop()
				select {
				case err := <-done:
					if err != nil {
						t.Errorf("RunSweeper returned %v after its context ended, want nil", err)
					}
				case <-time.After(5 * time.Second):
					t.Fatal("RunSweeper still running after its context ended")
				}
			}()

			// Wait for the whole sweep of the booking: the status changes
			// first, then the release is sent and the host told.
			deadline := time.Now().Add(10 * time.Second)
			logged := func() bool {
				for _, w := range tt.wantLog {
					if !strings.Contains(logs.String(), w) {
						return false
					}
				}
				return true
			}
			for e.status(t, "demo", res.Booking.Token) != booking.StatusExpired || len(e.notified.Kinds(res.Booking.Token)) == 0 || !logged() {
				if time.Now().After(deadline) {
					t.Fatalf("booking still %s after 10 s of sweeping; log:\n%s", e.status(t, "demo", res.Booking.Token), logs.String())
				}
				time.Sleep(5 * time.Millisecond)
			}
			if got, want := e.notified.Kinds(res.Booking.Token), []string{booking.NotifyExpired}; !slices.Equal(got, want) {
				t.Errorf("notifications = %v, want %v", got, want)
			}
			if in, _ := e.pay.Intent(res.Booking.PaymentIntentID); in.Status != "canceled" {
				t.Errorf("intent of the expired hold = %s, want canceled", in.Status)
			}
			for _, w := range tt.wantLog {
				if !strings.Contains(logs.String(), w) {
					t.Errorf("log lacks %q:\n%s", w, logs.String())
				}
			}
		})
	}
}

// TestRunSweeperSendsOwedRefunds: a refund that could not be sent when the
// host cancelled is sent by the sweeper once the provider is back.
func TestRunSweeperSendsOwedRefunds(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.confirmed(t, e.order("demo"))
	e.pay.SetDown(true)
	if _, err := e.svc.Cancel(ctx, "demo", b.Token, true); err != nil {
		t.Fatal(err)
	}
	e.pay.SetDown(false)
	e.clock.Advance(time.Hour) // past the backoff

	sweepCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- e.svc.RunSweeper(sweepCtx, 5*time.Millisecond) }()
	defer func() { stop(); <-done }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		in, _ := e.pay.Intent(b.PaymentIntentID)
		if in.AmountRefunded == in.AmountReceived && in.AmountReceived > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("refunded %d of %d after 10 s of sweeping", in.AmountRefunded, in.AmountReceived)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRunSweeperReturnsNilWhenCancelled(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := e.svc.RunSweeper(ctx, time.Hour); err != nil {
		t.Errorf("RunSweeper on a cancelled context = %v, want nil", err)
	}
}

// A host runs the sweeper beside its HTTP server until it shuts down.
func ExampleService_RunSweeper() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	db, err := sqlite.Open(ctx, "staykit.db")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: paymenttest.New()})

	var wg sync.WaitGroup
	wg.Go(func() { svc.RunSweeper(ctx, time.Minute) })
	// ... serve httpapi.New(httpapi.Options{Service: svc}) until ctx ends ...
	<-ctx.Done()
	wg.Wait()
}

// TestRunSweeperPurgesHostRequests: each sweep deletes the host requests
// older than their idempotency window (their answers are never replayed
// again) and keeps the newer ones.
func TestRunSweeperPurgesHostRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		ctx := context.Background()
		org, err := e.store.OrganizationBySlug(ctx, "demo")
		if err != nil {
			t.Fatal(err)
		}
		reserve := func(key string) {
			now := e.clock.Now()
			if _, err := e.store.ReserveHostRequest(ctx, &host.Request{OrgID: org.ID, Key: key, RequestHash: "h", CreatedAt: now},
				now.Add(-booking.HostRequestWindow)); err != nil {
				t.Fatal(err)
			}
			if err := e.store.CompleteHostRequest(ctx, org.ID, key, 201, []byte(`{"key":"sk_host_secret"}`)); err != nil {
				t.Fatal(err)
			}
		}
		reserve("old")
		e.clock.Advance(booking.HostRequestWindow)
		reserve("recent")
		e.clock.Advance(time.Minute)

		sweepCtx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- e.svc.RunSweeper(sweepCtx, time.Minute) }()
		synctest.Wait() // the first sweep is done, the sweeper waits for its ticker
		stop()
		if err := <-done; err != nil {
			t.Fatal(err)
		}

		longAgo := e.clock.Now().Add(-30 * 24 * time.Hour)
		for key, kept := range map[string]bool{"old": false, "recent": true} {
			_, err := e.store.ReserveHostRequest(ctx, &host.Request{OrgID: org.ID, Key: key, RequestHash: "other", CreatedAt: e.clock.Now()}, longAgo)
			if got := booking.ErrorCode(err) == booking.CodeConflict; got != kept {
				t.Errorf("request %q kept = %v after a sweep, want %v (%v)", key, got, kept, err)
			}
		}
	})
}
