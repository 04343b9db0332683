package hostapi_test

import (
	"context"
	"database/sql"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/store/postgres"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// wantUnavailable fails the test unless r is a 503 service_unavailable
// with Retry-After.
func wantUnavailable(t *testing.T, r response) {
	t.Helper()
	want(t, r, http.StatusServiceUnavailable, "service_unavailable")
	if got := r.header.Get("Retry-After"); got != strconv.Itoa(httpapi.RetryAfterUnavailable) {
		t.Errorf("Retry-After = %q, want %d", got, httpapi.RetryAfterUnavailable)
	}
}

// TestDatabaseOutageIs503: when the database really fails — a SQLite file
// another process keeps locked, a PostgreSQL session killed with
// pg_terminate_backend, a pool closed — the host API and the public API
// answer 503 with Retry-After, not 500, and serve again once it is back.
func TestDatabaseOutageIs503(t *testing.T) {
	newCoupon := func(code string) req {
		return req{method: "POST", path: hostPath("villa", "/coupons"), body: map[string]any{"code": code, "kind": "fixed", "value": "5"}}
	}
	t.Run("sqlite locked by another process", func(t *testing.T) {
		path := sqlitetest.Path(t)
		db, err := sqlite.Open(t.Context(), path, sqlite.WithBusyTimeout(100*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		e := newEnv(t, []host.Stores{seamsOf(db)})
		other, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		conn, err := other.Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(t.Context(), "BEGIN IMMEDIATE"); err != nil {
			t.Fatal(err)
		}
		wantUnavailable(t, e.do("villa", newCoupon("LOCKED")))
		wantUnavailable(t, e.do("villa", req{method: "POST", path: "/api/v1/book/villa/checkout", body: map[string]any{
			"property_id": e.props["soleil"], "check_in": "2026-06-10", "check_out": "2026-06-13", "guests_count": 2,
			"guest_name": "Ada Lovelace", "guest_email": "ada@example.com", "guest_phone": "+33612345678"}}))
		if _, err := conn.ExecContext(t.Context(), "ROLLBACK"); err != nil {
			t.Fatal(err)
		}
		want(t, e.do("villa", newCoupon("UNLOCKED")), http.StatusCreated)
	})
	t.Run("postgres session terminated", func(t *testing.T) {
		url := testenv.PostgresURL(t)
		schema := testenv.PostgresSchema(t, "staykit_hostapi_")
		db, err := postgres.Open(t.Context(), url, postgres.WithSchema(schema))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		e := newEnv(t, []host.Stores{seamsOf(db)})
		// Another session locks the coupons, so that the request's query
		// waits there, on a backend this test can find and kill.
		ctx := t.Context()
		locker, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer locker.Close(context.Background())
		lock, err := locker.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		coupons := pgx.Identifier{schema, "coupons"}.Sanitize()
		if _, err := lock.Exec(ctx, `LOCK TABLE `+coupons+` IN ACCESS EXCLUSIVE MODE`); err != nil {
			t.Fatal(err)
		}
		// Watched from a session outside the locker's transaction, whose
		// view of pg_stat_activity would stay as it first saw it.
		watcher, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer watcher.Close(context.Background())
		answer := make(chan response, 1)
		go func() {
			answer <- e.do("villa", req{method: "GET", path: hostPath("villa", "/coupons")})
		}()
		var killed bool
		for deadline := time.Now().Add(10 * time.Second); !killed && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			err := watcher.QueryRow(ctx, `SELECT pg_terminate_backend(pid) FROM pg_locks
				WHERE relation = $1::regclass AND NOT granted`, coupons).Scan(&killed)
			if err != nil && err != pgx.ErrNoRows {
				t.Fatal(err)
			}
		}
		if !killed {
			t.Fatal("the request's session never waited on the lock")
		}
		wantUnavailable(t, <-answer)
		if err := lock.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
		// The pool replaces the dead session.
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", "/coupons")}), http.StatusOK)
	})
	t.Run("postgres pool closed", func(t *testing.T) {
		db := postgresStores(t, 1)[0]
		e := newEnv(t, []host.Stores{db})
		db.FeedStore.(*postgres.DB).Close()
		wantUnavailable(t, e.do("villa", req{method: "GET", path: hostPath("villa", "/bookings")}))
		wantUnavailable(t, e.do("villa", req{method: "GET", path: "/api/v1/book/villa/properties"}))
	})
}
