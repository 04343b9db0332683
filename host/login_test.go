package host_test

import (
	"context"
	"os"
	"runtime"
	"testing"
	"testing/synctest"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/payment/paymenttest"
)

// allocatedAtLoad is what the test binary had allocated when the tests
// started: the package's initialisation included.
var allocatedAtLoad uint64

func TestMain(m *testing.M) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	allocatedAtLoad = ms.TotalAlloc
	os.Exit(m.Run())
}

// TestNoPasswordHashAtLoad: loading the package hashes nothing (a hash
// takes 64 MiB and a good fraction of a second, which every program
// importing it would pay).
func TestNoPasswordHashAtLoad(t *testing.T) {
	if allocatedAtLoad >= 32<<20 {
		t.Errorf("%d MiB allocated before the first test: a password was hashed at load", allocatedAtLoad>>20)
	}
}

// blockedUsers is a store of the host's records whose user lookups wait
// for release.
type blockedUsers struct {
	host.Store
	release chan struct{}
}

// noCatalog is a catalogue the test never reaches.
type noCatalog struct{ booking.CatalogStore }

func (b *blockedUsers) HostUserByEmail(ctx context.Context, email string) (*host.User, error) {
	<-b.release
	return nil, booking.Errorf(booking.CodeNotFound, "No such user.")
}

// TestLoginBoundsConcurrentHashes: with MaxConcurrentHashes logins under
// way, one more is refused at once with CodeBusy instead of hashing in 64
// MiB more; once they end, logins run again.
func TestLoginBoundsConcurrentHashes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := &blockedUsers{release: make(chan struct{})}
		svc := host.New(host.Options{Stores: host.Stores{Records: store}, MaxConcurrentHashes: 2,
			Bookings: booking.NewService(booking.Options{Stores: booking.Stores{CatalogStore: noCatalog{}}, Payments: paymenttest.New()})})
		results := make(chan error, 3)
		login := func() {
			_, _, err := svc.Login(context.Background(), "host@example.com", "a long enough password")
			results <- err
		}
		go login()
		go login()
		synctest.Wait() // both hold a slot, waiting for the store
		go login()
		synctest.Wait()
		select {
		case err := <-results:
			if booking.ErrorCode(err) != booking.CodeBusy {
				t.Errorf("third login = %v, want CodeBusy", err)
			}
		default:
			t.Error("a third login waits instead of being refused at once")
		}
		close(store.release)
		for range 2 {
			if err := <-results; booking.ErrorCode(err) != booking.CodeUnauthorized {
				t.Errorf("login under way = %v, want CodeUnauthorized", err)
			}
		}
		go login()
		if err := <-results; booking.ErrorCode(err) != booking.CodeUnauthorized {
			t.Errorf("login after the others ended = %v, want CodeUnauthorized", err)
		}
	})
}
