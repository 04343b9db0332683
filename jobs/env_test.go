package jobs

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbound"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/postgres"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// store is a store the job engine runs on (a *sqlite.DB or *postgres.DB)
// as its seams.
type store struct {
	booking.Stores
	DueWorkStore
	host  host.Stores
	holds booking.ReadModelStore
	db    any
}

// storeOf is db as a store.
func storeOf(db interface {
	Stores() booking.Stores
	HostStores() host.Stores
	booking.ReadModelStore
	DueWorkStore
}) store {
	return store{Stores: db.Stores(), DueWorkStore: db, host: db.HostStores(), holds: db, db: db}
}

// driver opens stores of one kind on one database and builds their
// Workers.
type driver struct {
	name string
	// database returns a new database's name, shared by the stores
	// open opens on it.
	database func(t *testing.T) string
	open     func(t *testing.T, database string) store
	workers  func(s store, o Options) (*Workers, error)
}

// drivers are SQLite (always) and PostgreSQL (when
// STAYKIT_TEST_POSTGRES_URL is set; its subtests skip otherwise).
var drivers = []driver{
	{
		name:     "sqlite",
		database: func(t *testing.T) string { return sqlitetest.Path(t) },
		open: func(t *testing.T, path string) store {
			db, err := sqlite.Open(t.Context(), path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return storeOf(db)
		},
		workers: func(s store, o Options) (*Workers, error) { return NewSQLite(s.db.(*sqlite.DB), o) },
	},
	{
		name:     "postgres",
		database: func(t *testing.T) string { return testenv.PostgresSchema(t, "staykit_jobs_") },
		open: func(t *testing.T, schema string) store {
			db, err := postgres.Open(t.Context(), testenv.PostgresURL(t), postgres.WithSchema(schema))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return storeOf(db)
		},
		workers: func(s store, o Options) (*Workers, error) { return NewPostgres(s.db.(*postgres.DB), o) },
	},
}

// forEachDriver runs test once per driver.
func forEachDriver(t *testing.T, test func(t *testing.T, d driver)) {
	for _, d := range drivers {
		t.Run(d.name, func(t *testing.T) { test(t, d) })
	}
}

// options are the Workers options of a store: the fake payment provider,
// an outbox worker whose webhooks time out after timeout and may go to
// loopback, and a syncer.
func options(s store, timeout time.Duration) Options {
	pay := paymenttest.New()
	svc := booking.NewService(booking.Options{Stores: s.Stores, Payments: pay})
	return Options{Bookings: svc, Money: money.New(svc, money.Options{Store: s.Stores, Payments: pay}),
		Outbox: &notify.Worker{Store: s.Stores, Webhooks: notify.NewWebhookClient(notify.WebhookOptions{Timeout: timeout,
			Policy: outbound.Policy{AllowPrivate: true}})},
		Feeds: icalsync.New(icalsync.Options{Store: s.host})}
}

// start builds the Workers of s, starts them, and stops them when the
// test ends.
func start(t *testing.T, d driver, s store, o Options) *Workers {
	t.Helper()
	w, err := d.workers(s, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := w.Stop(ctx); err != nil {
			t.Error(err)
		}
	})
	return w
}

// addOrg creates an organisation with a webhook endpoint at url.
func addOrg(t *testing.T, s store, slug, url string) int64 {
	t.Helper()
	org := booking.Organization{Slug: slug, Name: "Gîtes " + slug, PublicEngineEnabled: true}.WithDefaults()
	if err := s.CreateOrganization(t.Context(), &org); err != nil {
		t.Fatal(err)
	}
	ep := outbox.Endpoint{OrgID: org.ID, URL: url, Secret: outbox.NewSecret(), Active: true}
	if err := s.SaveWebhookEndpoint(t.Context(), &ep); err != nil {
		t.Fatal(err)
	}
	return org.ID
}

// events records n events of each organisation, interleaved.
func events(t *testing.T, s store, n int, orgs ...int64) []outbox.Event {
	t.Helper()
	var evs []outbox.Event
	for i := range n {
		for _, org := range orgs {
			evs = append(evs, outbox.Event{Key: fmt.Sprint("test:", org, ":", i), Kind: booking.NotifyConfirmed, OrgID: org})
		}
	}
	recorded, err := s.RecordOutbox(t.Context(), evs, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return recorded
}

// receiver records when each webhook id arrives, and how often.
type receiver struct {
	mu       sync.Mutex
	first    map[string]time.Time
	count    map[string]int
	arrivals chan string
}

func newReceiver(t *testing.T) (*receiver, string) {
	r := &receiver{first: map[string]time.Time{}, count: map[string]int{}, arrivals: make(chan string, 1000)}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return r, srv.URL
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	id := req.Header.Get("webhook-id")
	r.mu.Lock()
	if r.count[id] == 0 {
		r.first[id] = time.Now()
	}
	r.count[id]++
	r.mu.Unlock()
	r.arrivals <- id
}

// wait waits for n distinct arrivals, for a minute at most.
func (r *receiver) wait(t *testing.T, n int) {
	t.Helper()
	seen := map[string]bool{}
	deadline := time.After(time.Minute)
	for len(seen) < n {
		select {
		case id := <-r.arrivals:
			seen[id] = true
		case <-deadline:
			t.Fatalf("%d of %d webhooks arrived in a minute", len(seen), n)
		}
	}
}

// slowReceiver never answers: every delivery to it times out.
func slowReceiver(t *testing.T) string {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, req *http.Request) {
		select {
		case <-req.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() {
		close(release)
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL
}

// jobCount counts the jobs of kind in River's table.
func jobCount(t *testing.T, w *Workers, kind string) int {
	t.Helper()
	params := river.NewJobListParams().Kinds(kind).First(1000)
	var n int
	if w.sqlite != nil {
		res, err := w.sqlite.JobList(t.Context(), params)
		if err != nil {
			t.Fatal(err)
		}
		n = len(res.Jobs)
	} else {
		res, err := w.postgres.JobList(t.Context(), params)
		if err != nil {
			t.Fatal(err)
		}
		n = len(res.Jobs)
	}
	return n
}
