package postgres

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/internal/testenv"
)

// Publish does not wait for its message to be sent (every lane of the
// publisher is busy when it is called); Close leaves no message unsettled,
// and another replica hears them all.
func TestPublishReturnsAtOnceAndCloseSendsWhatIsLeft(t *testing.T) {
	url := testenv.PostgresURL(t)
	schema := testenv.PostgresSchema(t, "staykit_notify_")
	var dbs [2]*DB
	for i := range dbs {
		db, err := Open(t.Context(), url, WithSchema(schema))
		if err != nil {
			t.Fatal(err)
		}
		dbs[i] = db
	}
	t.Cleanup(func() { dbs[1].Close() })
	ctx, cancel := context.WithCancel(t.Context())
	ready := make(chan struct{})
	var mu sync.Mutex
	var heard []string
	listened := make(chan error, 1)
	go func() {
		listened <- dbs[1].Listen(ctx, func() { close(ready) }, func(msg string) {
			mu.Lock()
			heard = append(heard, msg)
			mu.Unlock()
		})
	}()
	t.Cleanup(func() { cancel(); <-listened })
	<-ready

	// Every lane of the publisher is busy: a Publish that waited for its
	// message would never return.
	release, lanes := blockLanes(t, dbs[0].notices)
	for _, msg := range []string{"one", "two", "three"} {
		if err := dbs[0].Publish(t.Context(), msg); err != nil {
			t.Fatal(err)
		}
	}
	release()
	lanes()
	if err := dbs[0].Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(dbs[0].notices.posting); n != 0 {
		t.Errorf("Close returned with %d messages posted and not settled", n)
	}
	for {
		mu.Lock()
		got := slices.Clone(heard)
		mu.Unlock()
		slices.Sort(got)
		if slices.Equal(got, []string{"one", "three", "two"}) {
			return
		}
		select {
		case <-t.Context().Done():
			t.Fatalf("the other replica heard %q, want one, two and three", got)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
