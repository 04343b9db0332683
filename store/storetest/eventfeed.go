package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/outbox"
)

// readFeed reads an organisation's whole feed from after, page by page.
func readFeed(t *testing.T, f eventfeed.Store, orgID int64, after int64, limit int, unacked bool) ([]eventfeed.Entry, int64) {
	t.Helper()
	var all []eventfeed.Entry
	for {
		page, err := f.FeedEvents(t.Context(), orgID, after, limit, unacked)
		must(t, err)
		for _, e := range page {
			if e.ID <= after {
				t.Fatalf("event %d is not after the cursor %d", e.ID, after)
			}
			after = e.ID
		}
		all = append(all, page...)
		if len(page) < limit {
			return all, after
		}
	}
}

func keysOf(list []eventfeed.Entry) []string {
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.Key
	}
	return out
}

var eventFeedScenarios = []scenario{
	{"EventFeed/PagesAckReplay", func(t *testing.T, s Stores) {
		ctx := t.Context()
		f := s.eventStore(t)
		w := newWorld(t, s)
		other := newOrg(t, s, "other")
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		var keys []string
		for i := range 5 {
			key := fmt.Sprintf("e%d", i)
			keys = append(keys, key)
			_, err := s.RecordOutbox(ctx, []outbox.Event{outboxEvent(b, key)}, t0.Add(time.Duration(i)*time.Hour))
			must(t, err)
		}
		// Another organisation's event, and staykit's own of every kind
		// (outbox.InternalKinds), which no feed carries.
		internal := []outbox.Event{{Key: "theirs", Kind: "booking.confirmed", OrgID: other.ID}}
		for _, kind := range outbox.InternalKinds() {
			internal = append(internal, outbox.Event{Key: "internal-" + kind, Kind: kind, OrgID: w.org.ID, BookingID: b.ID})
		}
		stored, err := s.RecordOutbox(ctx, internal, t0)
		must(t, err)
		for _, ev := range stored[1:] {
			wantCode(t, f.AckFeedEvent(ctx, w.org.ID, ev.ID, t0), booking.CodeNotFound)
		}

		all, last := readFeed(t, f, w.org.ID, 0, 2, false)
		if got := fmt.Sprint(keysOf(all)); got != fmt.Sprint(keys) {
			t.Fatalf("feed = %s, want %v in order (no other organisation's, no pause)", got, keys)
		}
		if all[0].BookingID != b.ID || all[0].Kind != "booking.confirmed" || !all[0].CreatedAt.Equal(t0) || !all[0].AckedAt.IsZero() {
			t.Errorf("first entry %+v", all[0])
		}
		if rest, _ := readFeed(t, f, w.org.ID, last, 2, false); len(rest) != 0 {
			t.Errorf("after the last cursor: %v", keysOf(rest))
		}

		must(t, f.AckFeedEvent(ctx, w.org.ID, all[1].ID, t0.Add(time.Minute)))
		must(t, f.AckFeedEvent(ctx, w.org.ID, all[1].ID, t0.Add(time.Hour))) // keeps the first time
		wantCode(t, f.AckFeedEvent(ctx, other.ID, all[2].ID, t0), booking.CodeNotFound)
		wantCode(t, f.AckFeedEvent(ctx, w.org.ID, 1<<40, t0), booking.CodeNotFound)
		unacked, _ := readFeed(t, f, w.org.ID, 0, 10, true)
		if got := fmt.Sprint(keysOf(unacked)); got != "[e0 e2 e3 e4]" {
			t.Errorf("unacknowledged = %s, want [e0 e2 e3 e4]", got)
		}
		again, _ := readFeed(t, f, w.org.ID, 0, 10, false)
		if !again[1].AckedAt.Equal(t0.Add(time.Minute)) {
			t.Errorf("acked at %v, want the first ack's %v", again[1].AckedAt, t0.Add(time.Minute))
		}
		n, err := f.AckFeedEventsUpTo(ctx, w.org.ID, all[3].ID, t0.Add(2*time.Minute))
		must(t, err)
		if n != 3 {
			t.Errorf("acked up to e3: %d, want 3 (e0, e2, e3)", n)
		}
		if unacked, _ := readFeed(t, f, w.org.ID, 0, 10, true); fmt.Sprint(keysOf(unacked)) != "[e4]" {
			t.Errorf("unacknowledged after ack up to e3 = %v", keysOf(unacked))
		}

		// Replay of a time range: the endpoint's deliveries of the events
		// created in [t0+1h, t0+3h), delivered or failed, are due again.
		ep := outbox.Endpoint{OrgID: w.org.ID, URL: "https://hooks.example.com/x", Secret: outbox.NewSecret(), Active: true}
		must(t, s.SaveWebhookEndpoint(ctx, &ep))
		for _, e := range all {
			must(t, s.DispatchOutboxEvent(ctx, e.ID, []outbox.Delivery{{Channel: outbox.ChannelWebhook, EndpointID: ep.ID}}, t0))
		}
		ds, err := s.OutboxDeliveries(ctx, 0, ep.ID, 0, 0)
		must(t, err)
		later := t0.Add(10 * time.Hour)
		for i := range ds {
			ds[i].Status, ds[i].Attempts, ds[i].NextAttemptAt, ds[i].UpdatedAt = outbox.StatusDelivered, 1, t0, t0
			if i%2 == 0 {
				ds[i].Status, ds[i].LastError = outbox.StatusFailed, "HTTP 500"
			}
			must(t, s.UpdateOutboxDelivery(ctx, &ds[i]))
		}
		n, err = f.ReplayWebhookRange(ctx, w.org.ID, ep.ID, t0.Add(time.Hour), t0.Add(3*time.Hour), later)
		must(t, err)
		if n != 2 {
			t.Fatalf("replayed %d deliveries, want 2 (e1, e2)", n)
		}
		due, err := s.ClaimOutboxDeliveries(ctx, later, later.Add(time.Minute), 10)
		must(t, err)
		got := map[int64]bool{}
		for _, d := range due {
			got[d.EventID] = true
			if d.Attempts != 0 {
				t.Errorf("replayed delivery %d has %d attempts, want 0", d.ID, d.Attempts)
			}
		}
		if len(due) != 2 || !got[all[1].ID] || !got[all[2].ID] {
			t.Errorf("due after the replay: %+v, want the deliveries of e1 and e2", due)
		}
		_, err = f.ReplayWebhookRange(ctx, other.ID, ep.ID, t0, later, later)
		wantCode(t, err, booking.CodeNotFound)
	}},
	// A transaction that took an event id and has not committed yet holds
	// back the events written after it: a reader never gets past an event
	// that is still to commit, so it misses none.
	{"EventFeed/UncommittedEventHoldsBackLaterOnes", func(t *testing.T, s Stores) {
		ctx := t.Context()
		f := s.eventStore(t)
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		recorded, release, aDone := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			aDone <- s.Records.Atomically(ctx, func(ctx context.Context) error {
				if _, err := s.RecordOutbox(ctx, []outbox.Event{outboxEvent(b, "a")}, t0); err != nil {
					close(recorded)
					return err
				}
				close(recorded)
				<-release
				return nil
			})
		}()
		<-recorded
		bDone := make(chan error, 1)
		go func() {
			_, err := s.RecordOutbox(ctx, []outbox.Event{outboxEvent(b, "b")}, t0)
			bDone <- err
		}()
		// While a is uncommitted, b (committed, on a store that lets it
		// commit meanwhile) must not be served: a reader at b would skip a.
		after := 0
		for range 2000 {
			select {
			case err := <-bDone:
				must(t, err)
				bDone = nil
			default:
			}
			if bDone == nil {
				after++
			}
			// A store with one connection (SQLite in memory) cannot read
			// while a holds it: waiting is no gap.
			rctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			page, err := f.FeedEvents(rctx, w.org.ID, 0, 10, false)
			cancel()
			if rctx.Err() != nil {
				break
			}
			must(t, err)
			if len(page) > 0 {
				t.Fatalf("while a is uncommitted the feed serves %v", keysOf(page))
			}
			if after >= 5 {
				break
			}
		}
		close(release)
		must(t, <-aDone)
		if bDone != nil {
			must(t, <-bDone)
		}
		all, _ := readFeed(t, f, w.org.ID, 0, 1, false)
		if got := fmt.Sprint(keysOf(all)); got != "[a b]" {
			t.Errorf("feed = %s, want [a b]", got)
		}
	}},
	// Writers record events in transactions that stay open a while, at
	// once, while a reader pages through the feed from its last cursor:
	// the reader gets every event exactly once.
	{"EventFeed/RaceReaderGetsEveryEventOnce", func(t *testing.T, s Stores) {
		ctx := t.Context()
		f := s.eventStore(t)
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		const writers, perWriter = 6, 5
		var (
			mu      sync.Mutex
			seen    = map[string]int{}
			cursor  int64
			done    = make(chan struct{})
			readErr = make(chan error, 1)
		)
		read := func() error {
			page, err := f.FeedEvents(ctx, w.org.ID, cursor, 3, false)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			for _, e := range page {
				seen[e.Key]++
				cursor = e.ID
			}
			return nil
		}
		go func() {
			for {
				select {
				case <-done:
					readErr <- nil
					return
				default:
				}
				if err := read(); err != nil {
					readErr <- err
					return
				}
			}
		}()
		race(writers, func(i int) error {
			for j := range perWriter {
				err := s.Records.Atomically(ctx, func(ctx context.Context) error {
					// Two events per transaction, the id of the first
					// taken well before the commit.
					for k := range 2 {
						if _, err := s.RecordOutbox(ctx, []outbox.Event{outboxEvent(b, fmt.Sprintf("w%d-%d-%d", i, j, k))}, t0); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Error(err)
					return err
				}
			}
			return nil
		})
		close(done)
		must(t, <-readErr)
		// Every writer committed; on PostgreSQL a transaction of another
		// client of the server may still hold the feed back a moment.
		for deadline := time.Now().Add(5 * time.Second); len(seen) < writers*perWriter*2 && time.Now().Before(deadline); {
			must(t, read())
		}
		if len(seen) != writers*perWriter*2 {
			t.Errorf("the reader got %d events, want %d", len(seen), writers*perWriter*2)
		}
		for k, n := range seen {
			if n != 1 {
				t.Errorf("event %s read %d times", k, n)
			}
		}
	}},
}
