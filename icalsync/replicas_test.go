package icalsync_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/store/postgres"
)

// openPostgresPair opens two handles (two replicas) on one fresh schema,
// dropped when the test ends.
func openPostgresPair(t *testing.T) (testDB, testDB) {
	t.Helper()
	url := testenv.PostgresURL(t)
	schema := testenv.PostgresSchema(t, "staykit_ical_")
	open := func() testDB {
		db, err := postgres.Open(t.Context(), url, postgres.WithSchema(schema))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return seams(db)
	}
	return open(), open()
}

// TestTwoPollersNeverFetchAFeedAtOnce: two Syncers (two replicas) poll
// the same feeds at the same moment: each feed is fetched once, never by
// both at once, and all are fetched.
func TestTwoPollersNeverFetchAFeedAtOnce(t *testing.T) {
	stores := map[string]func(t *testing.T) (testDB, testDB){
		"SQLite":     func(t *testing.T) (testDB, testDB) { s := openSQLite(t); return s, s },
		"PostgreSQL": openPostgresPair,
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			first, second := open(t)
			e := newEnvOn(t, first)
			var (
				mu       sync.Mutex
				inFlight = map[string]int{}
				fetches  = map[string]int{}
				overlap  []string
			)
			const feeds = 6
			for i := range feeds {
				path := fmt.Sprintf("f%d", i)
				e.feeds.handle(path, func(w http.ResponseWriter, _ *http.Request) {
					mu.Lock()
					inFlight[path]++
					fetches[path]++
					if inFlight[path] > 1 {
						overlap = append(overlap, path)
					}
					mu.Unlock()
					time.Sleep(50 * time.Millisecond) // both pollers are at work now
					_, _ = w.Write([]byte(strings.ReplaceAll(calendar("-//x//EN",
						event("u"+path, fmt.Sprintf("202607%02d", 1+2*i), fmt.Sprintf("202607%02d", 2+2*i), "Reserved")), "\n", "\r\n")))
					mu.Lock()
					inFlight[path]--
					mu.Unlock()
				})
				e.addFeed(t, "Feed "+path, path)
			}
			fetcher := &icalsync.Fetcher{Policy: e.feeds.policy(), Timeout: 5 * time.Second}
			pollers := []*icalsync.Syncer{
				icalsync.New(icalsync.Options{Store: first, Clock: e.clock, Fetcher: fetcher, Batch: 2}),
				icalsync.New(icalsync.Options{Store: second, Clock: e.clock, Fetcher: fetcher, Batch: 2}),
			}
			var (
				wg     sync.WaitGroup
				synced [2]int
				begin  = make(chan struct{})
			)
			for i, p := range pollers {
				wg.Go(func() {
					<-begin
					n, err := p.Poll(t.Context())
					if err != nil {
						t.Error(err)
					}
					synced[i] = n
				})
			}
			close(begin)
			wg.Wait()
			if len(overlap) > 0 {
				t.Errorf("feeds fetched by both pollers at once: %v", overlap)
			}
			for i := range feeds {
				if n := fetches[fmt.Sprintf("f%d", i)]; n != 1 {
					t.Errorf("feed f%d fetched %d times, want once", i, n)
				}
			}
			if synced[0]+synced[1] != feeds {
				t.Errorf("pollers synced %d + %d feeds, want %d in all", synced[0], synced[1], feeds)
			}
			if got := e.unavailableNights(t, "2026-07-01", "2026-07-31"); len(got) != feeds {
				t.Errorf("unavailable nights %v, want %d", got, feeds)
			}
		})
	}
}
