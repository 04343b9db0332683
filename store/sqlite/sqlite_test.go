package sqlite_test

import (
	"database/sql"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
	"github.com/staykit/staykit/store/storetest"
)

// openAt opens the database file path and closes it when the test ends.
func openAt(t *testing.T, path string, opts ...sqlite.Option) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(t.Context(), path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

// open opens a fresh database file in a temporary directory.
func open(t *testing.T) *sqlite.DB {
	t.Helper()
	return openAt(t, sqlitetest.Path(t))
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Stores { return seams(open(t)) })
}

func TestStoreInMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Stores {
		return seams(openAt(t, ":memory:", sqlite.WithImage(sqlitetest.Image(t))))
	})
}

// TestFreshDatabaseHasNoPlantsTable: the plant store keeps its own schema
// (plantstore/plantsqlite); a booking database is only the booking store's.
func TestFreshDatabaseHasNoPlantsTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "staykit.db")
	if _, err := sqlite.Open(t.Context(), path); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var n int
	if err := raw.QueryRowContext(t.Context(),
		`SELECT count(*) FROM sqlite_schema WHERE name LIKE '%plant%'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("a fresh booking database has %d plant tables or indexes, want 0", n)
	}
}

// migrations reads the schema_migrations table of a database file.
func migrations(t *testing.T, path string) []string {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.QueryContext(t.Context(), `SELECT name, applied_at FROM schema_migrations ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var list []string
	for rows.Next() {
		var (
			name string
			at   int64
		)
		if err := rows.Scan(&name, &at); err != nil {
			t.Fatal(err)
		}
		list = append(list, name+"@"+strconv.FormatInt(at, 10))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return list
}

// now is the tests' current time.
var now = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// newCabin stores an organisation with one property.
func newCabin(t *testing.T, db *sqlite.DB) (*booking.Organization, *booking.Property) {
	t.Helper()
	org := &booking.Organization{Slug: "villa", Name: "Villa", PaymentMode: pricing.ModeFull,
		DefaultLocale: "fr", Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48}
	if err := db.CreateOrganization(t.Context(), org); err != nil {
		t.Fatal(err)
	}
	prop := &booking.Property{OrgID: org.ID, Name: "Cabin", MaxGuests: 2,
		Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(80)}}
	if err := db.CreateProperty(t.Context(), prop); err != nil {
		t.Fatal(err)
	}
	return org, prop
}

func TestEmptyBlocksInvalid(t *testing.T) {
	db := open(t)
	org, prop := newCabin(t, db)
	empty := booking.Block{Start: civil.MustParse("2026-05-10"), End: civil.MustParse("2026-05-10")}
	if got := booking.ErrorCode(db.AddBlock(t.Context(), prop.ID, &empty, now)); got != booking.CodeInvalid {
		t.Errorf("AddBlock: code %q, want invalid", got)
	}
	withBlock := &booking.Property{OrgID: org.ID, Name: "Barn", MaxGuests: 2, Blocks: []booking.Block{empty}}
	if got := booking.ErrorCode(db.CreateProperty(t.Context(), withBlock)); got != booking.CodeInvalid {
		t.Errorf("CreateProperty: code %q, want invalid", got)
	}
	prop.Blocks = []booking.Block{empty}
	if got := booking.ErrorCode(db.UpdateProperty(t.Context(), prop)); got != booking.CodeInvalid {
		t.Errorf("UpdateProperty: code %q, want invalid", got)
	}
}

func TestLapsedHoldsWithoutLimitReturnsAll(t *testing.T) {
	db := open(t)
	org, prop := newCabin(t, db)
	for i := range 3 {
		in := civil.MustParse("2026-05-01").AddDays(2 * i)
		b := &booking.Booking{OrgID: org.ID, PropertyID: prop.ID, Token: "t" + strconv.Itoa(i),
			CheckIn: in, CheckOut: in.AddDays(1), Guests: 1, Currency: "EUR", PaymentMode: pricing.ModeFull,
			ExpiresAt: now.Add(time.Duration(3-i) * time.Minute)}
		if err := db.CreateBooking(t.Context(), b, booking.CreateOptions{Now: now}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := db.LapsedHolds(t.Context(), now.Add(time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].Token != "t2" || list[2].Token != "t0" {
		t.Errorf("lapsed holds = %d, first %v, want 3 oldest expiry first", len(list), list)
	}
}

func TestReopenKeepsDataAndMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "staykit.db")
	db, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	org := &booking.Organization{Slug: "villa", Name: "Villa", PaymentMode: pricing.ModeFull,
		DefaultLocale: "fr", Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48}
	if err := db.CreateOrganization(t.Context(), org); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before := migrations(t, path)
	if len(before) == 0 {
		t.Fatal("no migration recorded")
	}

	// Let the clock move so that a re-applied migration would show.
	time.Sleep(2 * time.Millisecond)
	db = openAt(t, path)
	if got := migrations(t, path); !slices.Equal(got, before) {
		t.Errorf("migrations after reopen = %v, want %v", got, before)
	}
	got, err := db.OrganizationBySlug(t.Context(), "villa")
	if err != nil {
		t.Fatalf("organization after reopen: %v", err)
	}
	if got.ID != org.ID {
		t.Errorf("organization ID = %d, want %d", got.ID, org.ID)
	}
}

func TestConnectionPragmas(t *testing.T) {
	db := open(t)
	for _, tt := range []struct {
		pool  string
		write bool
		name  string
		want  string
	}{
		{"write", true, "journal_mode", "wal"},
		{"read", false, "journal_mode", "wal"},
		{"write", true, "foreign_keys", "1"},
		{"read", false, "foreign_keys", "1"},
		{"write", true, "synchronous", "1"}, // NORMAL
		{"read", false, "synchronous", "1"},
		{"write", true, "busy_timeout", "10000"},
		{"read", false, "busy_timeout", "10000"},
		{"write", true, "wal_autocheckpoint", "16384"},
		{"read", false, "wal_autocheckpoint", "1000"}, // SQLite's: readers never commit
		{"write", true, "query_only", "0"},
		{"read", false, "query_only", "1"},
	} {
		got, err := sqlite.PragmaForTest(t.Context(), db, tt.write, tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s pool: %s = %q, want %q", tt.pool, tt.name, got, tt.want)
		}
	}
}

func TestBusyTimeoutOption(t *testing.T) {
	db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "x.db"), sqlite.WithBusyTimeout(1500*time.Millisecond), sqlite.WithReadConns(2))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := sqlite.PragmaForTest(t.Context(), db, false, "busy_timeout")
	if err != nil {
		t.Fatal(err)
	}
	if got != "1500" {
		t.Errorf("busy_timeout = %s, want 1500", got)
	}
}

func TestOpenPathWithQuestionMarkFails(t *testing.T) {
	if _, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "a?b.db")); err == nil {
		t.Fatal("Open accepted a path with '?'")
	}
}

// TestTwoHandlesOneWinner races checkouts through two DB handles on one
// file, as two processes would: no Go-level queue serialises them, only
// BEGIN IMMEDIATE and busy_timeout, and still exactly one wins and no one
// sees SQLITE_BUSY.
func TestTwoHandlesOneWinner(t *testing.T) {
	path := sqlitetest.Path(t)
	a, b := openAt(t, path), openAt(t, path)
	org, prop := newCabin(t, a)
	const n = 30
	var (
		mu     sync.Mutex
		counts = map[string]int{}
		wg     sync.WaitGroup
		start  = make(chan struct{})
	)
	for i := range n {
		store := a
		if i%2 == 1 {
			store = b
		}
		wg.Go(func() {
			<-start
			bk := &booking.Booking{OrgID: org.ID, PropertyID: prop.ID, Token: "t" + strconv.Itoa(i),
				CheckIn:  civil.MustParse("2026-05-10").AddDays(-(i % 3)),
				CheckOut: civil.MustParse("2026-05-11").AddDays(i % 4),
				Guests:   1, Currency: "EUR", PaymentMode: pricing.ModeFull, ExpiresAt: now.Add(time.Hour)}
			err := store.CreateBooking(t.Context(), bk, booking.CreateOptions{Now: now})
			code := booking.ErrorCode(err)
			if code == booking.CodeInternal {
				t.Errorf("create: %v", err)
			}
			mu.Lock()
			counts[code]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	if counts[""] != 1 || counts[booking.CodeUnavailable] != n-1 {
		t.Errorf("outcome %v, want 1 success and %d unavailable", counts, n-1)
	}
}

// TestOutageIsStoreUnavailable: SQLite's errors of the moment — the file
// locked by another process past the busy timeout, a full disk — wrap
// booking.ErrStoreUnavailable, whatever method meets them, in a
// transaction or not; an error of the request (a duplicate) does not, and
// the driver's own error stays reachable.
func TestOutageIsStoreUnavailable(t *testing.T) {
	t.Run("locked", func(t *testing.T) {
		path := sqlitetest.Path(t)
		db, err := sqlite.Open(t.Context(), path, sqlite.WithBusyTimeout(50*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		org, _ := newCabin(t, db)
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
		err = db.CreateOrganization(t.Context(), &booking.Organization{Slug: "barn", Name: "Barn", PaymentMode: pricing.ModeFull,
			DefaultLocale: "fr", Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48})
		wantUnavailable(t, "CreateOrganization while locked", err)
		wantUnavailable(t, "TouchAPIKey while locked", db.TouchAPIKey(t.Context(), 1, now))
		if _, err := conn.ExecContext(t.Context(), "ROLLBACK"); err != nil {
			t.Fatal(err)
		}
		dup := *org
		dup.ID = 0
		err = db.CreateOrganization(t.Context(), &dup)
		if err == nil || errors.Is(err, booking.ErrStoreUnavailable) || booking.ErrorCode(err) != booking.CodeConflict {
			t.Errorf("duplicate slug: %v, want a conflict that is no outage", err)
		}
		if err := db.Ping(t.Context()); err != nil {
			t.Errorf("Ping: %v", err)
		}
	})
	t.Run("disk full", func(t *testing.T) {
		db := open(t)
		org, _ := newCabin(t, db)
		pages, err := sqlite.PragmaForTest(t.Context(), db, true, "page_count")
		if err != nil {
			t.Fatal(err)
		}
		// The file may not grow: the next page it needs is a full disk.
		if _, err := sqlite.PragmaForTest(t.Context(), db, true, "max_page_count = "+pages); err != nil {
			t.Fatal(err)
		}
		var full error
		for i := 0; i < 1000 && full == nil; i++ {
			p := &booking.Property{OrgID: org.ID, Name: strings.Repeat("Barn ", 100) + strconv.Itoa(i), MaxGuests: 2,
				Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(80)}}
			full = db.CreateProperty(t.Context(), p)
		}
		wantUnavailable(t, "CreateProperty on a full disk", full)
		var se *sqlitedrv.Error
		if !errors.As(full, &se) || se.Code()&0xff != sqlite3.SQLITE_FULL {
			t.Errorf("the driver's error is not reachable: %v", full)
		}
	})
}

// wantUnavailable fails unless err wraps booking.ErrStoreUnavailable.
func wantUnavailable(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, booking.ErrStoreUnavailable) {
		t.Errorf("%s: %v, want an error wrapping booking.ErrStoreUnavailable", what, err)
	}
}

// seams is db as every seam the conformance suite checks.
func seams(db *sqlite.DB) storetest.Stores {
	return storetest.Stores{Stores: db.Stores(), FeedStore: db, ReadModelStore: db, Connect: db, Records: db}
}
