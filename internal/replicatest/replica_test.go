package replicatest_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/ratelimit/redislimit"
	"github.com/staykit/staykit/store/postgres"
)

// start is the replicas' clock: Friday 1 May 2026, noon in Paris.
var start = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

// cluster is two replicas of the public API on one PostgreSQL schema and
// one Redis key prefix, with an organisation "villa" and its property.
type cluster struct {
	servers  [2]*httptest.Server
	store    *postgres.DB // replica 0's pool, for fixtures and checks
	pay      *paymenttest.Provider
	org      *booking.Organization
	property int64
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	pgURL := testenv.PostgresURL(t)
	redisAddr := testenv.RedisAddr(t)
	suffix := strings.ToLower(rand.Text()[:12])
	schema := "staykit_replicas_" + suffix
	prefix := "staykit:replicatest:" + suffix + ":"
	// Cleanups run last first: servers and pools close, then these run.
	t.Cleanup(func() { dropSchema(t, pgURL, schema) })
	t.Cleanup(func() { deleteKeys(t, redisAddr, prefix) })

	c := &cluster{pay: paymenttest.New(paymenttest.WithClock(func() time.Time { return start }))}
	proxies := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	for i := range c.servers {
		// Each replica has its own pool, Redis client, Services and clock;
		// they share only the database, Redis and the payment provider.
		db, err := postgres.Open(t.Context(), pgURL, postgres.WithSchema(schema))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		rdb := redis.NewClient(&redis.Options{Addr: redisAddr})
		t.Cleanup(func() { rdb.Close() })
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		clock := bookingtest.NewClock(start)
		svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: c.pay, Clock: clock, Logger: logger})
		pay := money.New(svc, money.Options{Store: db.Stores(), Payments: c.pay, Clock: clock, Logger: logger})
		h := httpapi.New(httpapi.Options{Service: svc, Money: pay, Logger: logger,
			Limiter: redislimit.New(rdb, redislimit.WithPrefix(prefix)), TrustedProxies: proxies})
		c.servers[i] = httptest.NewServer(h)
		t.Cleanup(c.servers[i].Close)
		if i == 0 {
			c.store = db
		}
	}

	org := booking.Organization{Slug: "villa", Name: "Villa Soleil", PublicEngineEnabled: true}.WithDefaults()
	if err := c.store.CreateOrganization(t.Context(), &org); err != nil {
		t.Fatal(err)
	}
	p := booking.Property{OrgID: org.ID, Name: "Soleil", MaxGuests: 4, Active: true,
		Rates: pricing.RatePlan{BaseRate: decimal.RequireFromString("100")},
		Fees:  pricing.Fees{Cleaning: decimal.RequireFromString("50")}}
	if err := c.store.CreateProperty(t.Context(), &p); err != nil {
		t.Fatal(err)
	}
	c.org, c.property = &org, p.ID
	return c
}

// dropSchema drops a test schema with everything in it.
func dropSchema(t *testing.T, url, schema string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Errorf("drop schema: %v", err)
		return
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{schema}.Sanitize()+` CASCADE`); err != nil {
		t.Errorf("drop schema: %v", err)
	}
}

// deleteKeys deletes the rate-limit keys under a prefix.
func deleteKeys(t *testing.T, addr, prefix string) {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	keys, err := rdb.Keys(ctx, "rate:"+prefix+"*").Result()
	if err != nil {
		t.Errorf("list rate-limit keys: %v", err)
		return
	}
	if len(keys) > 0 {
		if err := rdb.Del(ctx, keys...).Err(); err != nil {
			t.Errorf("delete rate-limit keys: %v", err)
		}
	}
}

// result is what a checkout answered.
type result struct {
	status     int
	code       string
	token      string
	retryAfter string
}

// checkout posts a checkout of [in, out) to replica i, as the client at
// address client behind the replica's (trusted) proxy.
func (c *cluster) checkout(t *testing.T, i int, client string, in, out civil.Date) result {
	t.Helper()
	body, err := json.Marshal(map[string]any{
		"property_id": c.property, "check_in": in.String(), "check_out": out.String(), "guests_count": 2,
		"guest_name": "Camille Martin", "guest_email": "camille@example.com", "guest_phone": "+33612345678",
	})
	if err != nil {
		t.Error(err)
		return result{}
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost,
		c.servers[i].URL+"/api/v1/book/"+c.org.Slug+"/checkout", bytes.NewReader(body))
	if err != nil {
		t.Error(err)
		return result{}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", client)
	resp, err := c.servers[i].Client().Do(req)
	if err != nil {
		t.Error(err)
		return result{}
	}
	defer resp.Body.Close()
	var env struct {
		Code string `json:"code"`
		Data struct {
			Token string `json:"booking_token"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		t.Errorf("replica %d: decode %d response: %v", i, resp.StatusCode, err)
	}
	return result{status: resp.StatusCode, code: env.Code, token: env.Data.Token,
		retryAfter: resp.Header.Get("Retry-After")}
}

// TestConcurrentCheckoutsOneWinner sends 40 checkouts of the same nights at
// once, spread over both replicas, from 40 clients: one books, the 39 others
// learn the dates are taken, the database holds one booking, and no payment
// intent but the winner's is left open at the provider.
func TestConcurrentCheckoutsOneWinner(t *testing.T) {
	c := newCluster(t)
	const n = 40
	in, out := civil.MustParse("2026-06-10"), civil.MustParse("2026-06-13")
	var (
		mu      sync.Mutex
		results []result
		wg      sync.WaitGroup
		ready   = make(chan struct{})
	)
	for i := range n {
		wg.Go(func() {
			<-ready
			// Distinct clients (documentation range), so the rate limit
			// stays out of the way.
			r := c.checkout(t, i%2, fmt.Sprintf("203.0.113.%d", i+1), in, out)
			mu.Lock()
			results = append(results, r)
			mu.Unlock()
		})
	}
	began := time.Now()
	close(ready)
	wg.Wait()
	t.Logf("%d concurrent checkouts over 2 replicas answered in %v", n, time.Since(began).Round(time.Millisecond))

	counts := map[string]int{}
	var winner string
	for _, r := range results {
		counts[fmt.Sprintf("%d %s", r.status, r.code)]++
		if r.status == http.StatusCreated {
			winner = r.token
		}
	}
	want := map[string]int{"201 ": 1, "422 unavailable": n - 1}
	if len(counts) != len(want) || counts["201 "] != 1 || counts["422 unavailable"] != n-1 {
		t.Fatalf("answers %v, want %v", counts, want)
	}
	list, err := c.store.Bookings(t.Context(), c.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Token != winner || list[0].Status != booking.StatusPending {
		t.Errorf("database holds %d bookings (%+v), want only the winner's, pending", len(list), list)
	}
	// A checkout creates its payment intent before its one write (issue
	// #31), so the losers reached the provider too; each cancelled its
	// intent when the write refused the dates. One intent is left open:
	// the winner's, the one its booking names.
	var open []string
	for _, in := range c.pay.Intents() {
		if in.Status != payment.StatusCanceled {
			open = append(open, in.ID)
		}
	}
	if len(open) != 1 || open[0] != list[0].PaymentIntentID {
		t.Errorf("intents left open %v, want only the winner's %q", open, list[0].PaymentIntentID)
	}
}

// TestRateLimitSharedByReplicas sends one client's checkouts to both
// replicas in turn: the ten the limit allows go through, the eleventh is
// refused by whichever replica it reaches.
func TestRateLimitSharedByReplicas(t *testing.T) {
	c := newCluster(t)
	const client = "198.51.100.7"
	first := civil.MustParse("2026-07-01")
	for i := range 10 {
		// Distinct stays: each checkout books.
		in := first.AddDays(3 * i)
		r := c.checkout(t, i%2, client, in, in.AddDays(2))
		if r.status != http.StatusCreated {
			t.Fatalf("checkout %d on replica %d: %d %s, want 201", i+1, i%2, r.status, r.code)
		}
	}
	for i := range 2 {
		in := first.AddDays(60 + 3*i)
		r := c.checkout(t, i, client, in, in.AddDays(2))
		if r.status != http.StatusTooManyRequests || r.code != "rate_limited" || r.retryAfter == "" {
			t.Errorf("checkout over the limit on replica %d: %d %q Retry-After %q, want 429 rate_limited with Retry-After",
				i, r.status, r.code, r.retryAfter)
		}
	}
	// Another client of the same organisation is not held back.
	in := first.AddDays(90)
	if r := c.checkout(t, 1, "198.51.100.8", in, in.AddDays(2)); r.status != http.StatusCreated {
		t.Errorf("other client: %d %s, want 201", r.status, r.code)
	}
	list, err := c.store.Bookings(t.Context(), c.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 11 {
		t.Errorf("database holds %d bookings, want 11 (the refused checkouts book nothing)", len(list))
	}
}
