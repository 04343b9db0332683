package host_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// keyRecords is a store of the host's records with one API key, which
// counts the writes of its use.
type keyRecords struct {
	host.Store
	mu      sync.Mutex
	key     host.APIKey
	touches []time.Time
	// fail makes the next TouchAPIKey fail.
	fail bool
}

func (r *keyRecords) APIKeyByHash(ctx context.Context, hash string) (*host.APIKey, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if hash != r.key.Hash {
		return nil, booking.Errorf(booking.CodeNotFound, "No such key.")
	}
	k := r.key
	return &k, nil
}

func (r *keyRecords) TouchAPIKey(ctx context.Context, id int64, at time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail {
		r.fail = false
		return errors.New("database away")
	}
	r.touches = append(r.touches, at)
	if at.After(r.key.LastUsedAt) {
		r.key.LastUsedAt = at
	}
	return nil
}

// TestAuthenticateWritesUseOncePerMinute: a key used many times writes its
// LastUsedAt at most once per TouchEvery, and a failed write is tried
// again at the next use.
func TestAuthenticateWritesUseOncePerMinute(t *testing.T) {
	const secret = host.KeyPrefix + "0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		// uses are the offsets from t0 of the requests; failAt, if
		// not negative, is the use whose write fails.
		uses   []time.Duration
		failAt int
		want   []time.Duration
	}{
		{"first use", []time.Duration{0}, -1, []time.Duration{0}},
		{"a burst", []time.Duration{0, time.Second, 30 * time.Second, 59 * time.Second}, -1, []time.Duration{0}},
		{"a minute later", []time.Duration{0, 59 * time.Second, time.Minute, 90 * time.Second, 2 * time.Minute},
			-1, []time.Duration{0, time.Minute, 2 * time.Minute}},
		{"a failed write is retried", []time.Duration{0, time.Second, 2 * time.Second}, 0, []time.Duration{time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			records := &keyRecords{key: host.APIKey{ID: 7, OrgID: 1, Hash: host.HashKey(secret), CreatedAt: t0.Add(-time.Hour)}}
			clock := bookingtest.NewClock(t0)
			svc := host.New(host.Options{Stores: host.Stores{Records: records}, Clock: clock, Logger: slog.New(slog.DiscardHandler),
				Bookings: booking.NewService(booking.Options{Stores: booking.Stores{CatalogStore: noCatalog{}}, Payments: paymenttest.New()})})
			for i, d := range tc.uses {
				clock.Set(t0.Add(d))
				records.fail = i == tc.failAt
				k, err := svc.Authenticate(t.Context(), secret)
				if err != nil {
					t.Fatalf("use %d: %v", i, err)
				}
				if k.ID != 7 {
					t.Fatalf("use %d: key %d, want 7", i, k.ID)
				}
			}
			var got []time.Duration
			for _, at := range records.touches {
				got = append(got, at.Sub(t0))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("writes at %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("writes at %v, want %v", got, tc.want)
					break
				}
			}
		})
	}
}

// TestAuthenticateConcurrentUsesWriteOnce: requests that all read the key
// before any writes its use write it once.
func TestAuthenticateConcurrentUsesWriteOnce(t *testing.T) {
	const secret = host.KeyPrefix + "0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	records := &keyRecords{key: host.APIKey{ID: 7, OrgID: 1, Hash: host.HashKey(secret)}}
	svc := host.New(host.Options{Stores: host.Stores{Records: records}, Clock: bookingtest.NewClock(t0),
		Bookings: booking.NewService(booking.Options{Stores: booking.Stores{CatalogStore: noCatalog{}}, Payments: paymenttest.New()})})
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			<-start
			if _, err := svc.Authenticate(context.Background(), secret); err != nil {
				t.Error(err)
			}
		})
	}
	close(start)
	wg.Wait()
	if len(records.touches) != 1 {
		t.Errorf("%d writes of the key's use, want 1", len(records.touches))
	}
}

// BenchmarkAuthenticate: a host API request's authentication on SQLite,
// the wall clock running.
func BenchmarkAuthenticate(b *testing.B) {
	ctx := context.Background()
	db := sqlitetest.Open(b)
	org := booking.Organization{Slug: "villa", Name: "Villa"}.WithDefaults()
	if err := db.CreateOrganization(ctx, &org); err != nil {
		b.Fatal(err)
	}
	hs := host.New(host.Options{Stores: db.HostStores(),
		Bookings: booking.NewService(booking.Options{Stores: db.Stores(), Payments: paymenttest.New()})})
	secret, _, err := hs.CreateAPIKey(ctx, &org, "bench", host.Actor{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := hs.Authenticate(ctx, secret); err != nil {
			b.Fatal(err)
		}
	}
}
