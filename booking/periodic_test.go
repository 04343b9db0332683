package booking_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/money"
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

// ExpireHolds is the periodic job's step for lapsed holds (package jobs
// runs it every Options.Every): it expires a lapsed hold, releases its
// intent and tells the host; when the store fails, it says so and the next
// run (River's retry, or the next period) does the work.
func TestExpireHoldsPeriodically(t *testing.T) {
	tests := []struct {
		name     string
		failures int32 // runs that fail before the store answers
	}{
		{"ExpiresLapsedHold", 0},
		{"KeepsGoingAfterErrors", 2},
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
			svc := booking.NewService(booking.Options{
				Stores: stores, Payments: e.pay, Clock: e.clock, Notifier: e.notified,
				Logger: slog.New(slog.DiscardHandler),
			})
			money.New(svc, money.Options{Store: stores, Payments: e.pay, Clock: e.clock, Notifier: e.notified,
				Logger: slog.New(slog.DiscardHandler)})
			e.clock.Advance(31 * time.Minute) // past the 30-minute hold

			for run := range tt.failures {
				if n, err := svc.ExpireHolds(ctx); err == nil || !strings.Contains(err.Error(), "database is down") || n != 0 {
					t.Fatalf("run %d: ExpireHolds = %d, %v; want the store's failure", run+1, n, err)
				}
			}
			if n, err := svc.ExpireHolds(ctx); err != nil || n != 1 {
				t.Fatalf("ExpireHolds = %d, %v; want 1 expired", n, err)
			}
			if got := e.status(t, "demo", res.Booking.Token); got != booking.StatusExpired {
				t.Errorf("booking %s, want expired", got)
			}
			if got, want := e.notified.Kinds(res.Booking.Token), []string{booking.NotifyExpired}; !slices.Equal(got, want) {
				t.Errorf("notifications = %v, want %v", got, want)
			}
			if in, _ := e.pay.Intent(res.Booking.PaymentIntentID); in.Status != "canceled" {
				t.Errorf("intent of the expired hold = %s, want canceled", in.Status)
			}
		})
	}
}

// TestLedgerJobSendsOwedRefunds: a refund that could not be sent when the
// host cancelled is sent by its ledger job (SendLedgerEntry) once the
// provider is back and the entry due.
func TestLedgerJobSendsOwedRefunds(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.confirmed(t, e.order("demo"))
	e.pay.SetDown(true)
	if _, err := e.svc.Cancel(ctx, "demo", b.Token, true); err != nil {
		t.Fatal(err)
	}
	e.pay.SetDown(false)
	e.clock.Advance(time.Hour) // past the backoff

	entries, err := e.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		if next, err := e.money.SendLedgerEntry(ctx, b.ID, en.ID); err != nil || !next.IsZero() {
			t.Fatalf("SendLedgerEntry(%d) = %v, %v; want settled", en.ID, next, err)
		}
	}
	if in, _ := e.pay.Intent(b.PaymentIntentID); in.AmountRefunded != in.AmountReceived || in.AmountReceived == 0 {
		t.Fatalf("refunded %d of %d after the ledger's jobs ran", in.AmountRefunded, in.AmountReceived)
	}
}

// TestPurgeHostRequests: each periodic purge (package jobs) deletes the
// host requests older than their idempotency window (their answers are
// never replayed again) and keeps the newer ones.
func TestPurgeHostRequests(t *testing.T) {
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
			if err := e.store.CompleteHostRequest(ctx, org.ID, key, 201, []byte(`{"key":"sk_host_secret"}`), 0); err != nil {
				t.Fatal(err)
			}
		}
		reserve("old")
		e.clock.Advance(booking.HostRequestWindow)
		reserve("recent")
		e.clock.Advance(time.Minute)

		if n, err := e.svc.PurgeHostRequests(ctx); err != nil || n != 1 {
			t.Fatalf("PurgeHostRequests = %d, %v; want 1 purged", n, err)
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
