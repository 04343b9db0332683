package postgres_test

import (
	"context"
	"crypto/rand"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/postgres"
	"github.com/staykit/staykit/store/postgres/pgtest"
	"github.com/staykit/staykit/store/storetest"
)

// testURL returns the database the tests may use (see internal/testenv).
func testURL(t *testing.T) string {
	t.Helper()
	return testenv.PostgresURL(t)
}

// newSchema returns the name of a schema of this test's own, dropped with
// everything in it when the test ends.
func newSchema(t *testing.T) string {
	t.Helper()
	return testenv.PostgresSchema(t, "staykit_test_")
}

// openIn opens the database in schema and closes it when the test ends
// (before the schema is dropped).
func openIn(t *testing.T, schema string, opts ...postgres.Option) *postgres.DB {
	t.Helper()
	return pgtest.OpenIn(t, schema, opts...)
}

// open opens a fresh database in a schema of the test's own.
func open(t *testing.T) *postgres.DB {
	t.Helper()
	return openIn(t, newSchema(t))
}

// rawConn connects to the test database with schema first on the search
// path, to write what the store never would.
func rawConn(t *testing.T, schema string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(testURL(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["search_path"] = pgx.Identifier{schema}.Sanitize() + ", public"
	conn, err := pgx.ConnectConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func TestStore(t *testing.T) {
	var pool pgtest.Pool
	t.Cleanup(func() {
		if err := pool.Close(); err != nil {
			t.Error(err)
		}
	})
	storetest.Run(t, func(t *testing.T) storetest.Stores { return seams(pool.Open(t)) })
}

// TestFreshDatabaseHasNoPlantsTable: the plant store keeps its own schema
// (plantstore/plantpostgres); a booking database is only the booking
// store's.
func TestFreshDatabaseHasNoPlantsTable(t *testing.T) {
	schema := newSchema(t)
	openIn(t, schema)
	var n int
	if err := rawConn(t, schema).QueryRow(t.Context(), `SELECT count(*) FROM pg_tables
		WHERE schemaname = $1 AND tablename LIKE '%plant%'`, schema).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("a fresh booking schema has %d plant tables, want 0", n)
	}
}

// now is the tests' current time.
var now = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// newCabin stores an organisation with one property.
func newCabin(t *testing.T, db *postgres.DB) (*booking.Organization, *booking.Property) {
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

// hold stores a pending booking of prop for [in, out) held until expires,
// created at created.
func hold(t *testing.T, db *postgres.DB, prop *booking.Property, in, out string, created, expires time.Time) *booking.Booking {
	t.Helper()
	b := stay(prop, "t-"+strings.ToLower(rand.Text()[:10]), in, out, expires)
	if err := db.CreateBooking(t.Context(), b, booking.CreateOptions{Now: created}); err != nil {
		t.Fatal(err)
	}
	return b
}

// stay is an unsaved pending booking of prop for [in, out).
func stay(prop *booking.Property, token, in, out string, expires time.Time) *booking.Booking {
	return &booking.Booking{OrgID: prop.OrgID, PropertyID: prop.ID, Token: token,
		CheckIn: civil.MustParse(in), CheckOut: civil.MustParse(out), Guests: 1, Currency: "EUR",
		PaymentMode: pricing.ModeFull, TotalAmount: decimal.RequireFromString("240.50"), ExpiresAt: expires}
}

// sqlState returns err's SQLSTATE.
func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// insertRaw inserts a booking row straight with SQL, bypassing every check
// of the store.
func insertRaw(t *testing.T, conn *pgx.Conn, prop *booking.Property, token, status, in, out string, blocking bool) error {
	t.Helper()
	_, err := conn.Exec(t.Context(), `INSERT INTO bookings (org_id, property_id, token, status,
		check_in, check_out, guests, currency, payment_mode, total_amount, charge_amount,
		paid_amount, balance_amount, quote, created_at, updated_at, blocking)
		VALUES ($1, $2, $3, $4, $5, $6, 1, 'EUR', 'full', 100, 100, 0, 0, '{}', $7, $7, $8)`,
		prop.OrgID, prop.ID, token, status, in, out, now, blocking)
	return err
}

func TestDatabaseRefusesOverlapWrittenInSQL(t *testing.T) {
	schema := newSchema(t)
	db := openIn(t, schema)
	conn := rawConn(t, schema)
	_, prop := newCabin(t, db)
	_, other := newCabin2(t, db)
	hold(t, db, prop, "2026-05-10", "2026-05-15", now, now.Add(time.Hour))

	tests := []struct {
		name     string
		prop     *booking.Property
		status   string
		in, out  string
		blocking bool
		want     string // SQLSTATE, "" for accepted
	}{
		{"confirmedOverlapping", prop, "confirmed", "2026-05-14", "2026-05-16", true, "23P01"},
		{"pendingInside", prop, "pending", "2026-05-11", "2026-05-12", true, "23P01"},
		{"requestedAround", prop, "requested", "2026-05-01", "2026-05-30", true, "23P01"},
		{"adjacentAfter", prop, "confirmed", "2026-05-15", "2026-05-17", true, ""},
		{"adjacentBefore", prop, "confirmed", "2026-05-08", "2026-05-10", true, ""},
		{"otherProperty", other, "confirmed", "2026-05-10", "2026-05-15", true, ""},
		{"cancelledNotBlocking", prop, "cancelled", "2026-05-10", "2026-05-15", false, ""},
		{"cancelledClaimingInvalid", prop, "cancelled", "2026-06-10", "2026-06-15", true, "23514"},
	}
	for i, tt := range tests {
		err := insertRaw(t, conn, tt.prop, "raw"+strconv.Itoa(i), tt.status, tt.in, tt.out, tt.blocking)
		if got := sqlState(err); got != tt.want {
			t.Errorf("%s: SQLSTATE %q (%v), want %q", tt.name, got, err, tt.want)
		}
	}

	// Claiming the nights of a cancelled booking back by hand is refused
	// too: the constraint holds for updates as well as inserts.
	_, err := conn.Exec(t.Context(), `UPDATE bookings SET status = 'confirmed', blocking = true
		WHERE token = 'raw6'`)
	if got := sqlState(err); got != "23P01" {
		t.Errorf("update back to confirmed: SQLSTATE %q (%v), want 23P01", got, err)
	}
}

// TestDatabaseRefusesOverlapPerUnit: the exclusion constraint is per unit
// (migration 0030): two units of a property may hold the same nights, one
// unit may not hold them twice, and a row's unit must be one of its
// property's; a row written without a unit gets the property's first.
func TestDatabaseRefusesOverlapPerUnit(t *testing.T) {
	schema := newSchema(t)
	db := openIn(t, schema)
	conn := rawConn(t, schema)
	org, _ := newCabin(t, db)
	prop := &booking.Property{OrgID: org.ID, Name: "Studios", MaxGuests: 2,
		Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(80)}, Units: []booking.Unit{{Name: "A"}, {Name: "B"}}}
	if err := db.CreateProperty(t.Context(), prop); err != nil {
		t.Fatal(err)
	}
	_, other := newCabin2(t, db)
	a, b := prop.Units[0].ID, prop.Units[1].ID
	insert := func(token string, unit int64, in, out string) error {
		var u any
		if unit != 0 {
			u = unit
		}
		_, err := conn.Exec(t.Context(), `INSERT INTO bookings (org_id, property_id, token, status,
			check_in, check_out, guests, currency, payment_mode, total_amount, charge_amount,
			paid_amount, balance_amount, quote, created_at, updated_at, blocking, unit_id)
			VALUES ($1, $2, $3, 'confirmed', $4, $5, 1, 'EUR', 'full', 100, 100, 0, 0, '{}', $6, $6, true, $7)`,
			prop.OrgID, prop.ID, token, in, out, now, u)
		return err
	}
	for _, tt := range []struct {
		name    string
		unit    int64
		in, out string
		want    string
	}{
		{"first on A", a, "2026-05-10", "2026-05-15", ""},
		{"same nights on B", b, "2026-05-10", "2026-05-15", ""},
		{"overlapping on A", a, "2026-05-14", "2026-05-16", "23P01"},
		{"overlapping on B", b, "2026-05-09", "2026-05-11", "23P01"},
		{"no unit: the first, A, overlapping", 0, "2026-05-12", "2026-05-13", "23P01"},
		{"no unit: the first, A, free", 0, "2026-05-20", "2026-05-21", ""},
		{"another property's unit", other.Units[0].ID, "2026-07-01", "2026-07-02", "23503"},
	} {
		if got := sqlState(insert(strings.ReplaceAll(tt.name, " ", "-"), tt.unit, tt.in, tt.out)); got != tt.want {
			t.Errorf("%s: SQLSTATE %q, want %q", tt.name, got, tt.want)
		}
	}
	var unit int64
	if err := conn.QueryRow(t.Context(), `SELECT unit_id FROM bookings WHERE token = 'no-unit:-the-first,-A,-free'`).Scan(&unit); err != nil || unit != a {
		t.Errorf("a row without a unit got unit %d (%v), want A %d", unit, err, a)
	}
}

// newCabin2 stores a second organisation with one property.
func newCabin2(t *testing.T, db *postgres.DB) (*booking.Organization, *booking.Property) {
	t.Helper()
	org := &booking.Organization{Slug: "barn", Name: "Barn", PaymentMode: pricing.ModeFull,
		DefaultLocale: "fr", Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48}
	if err := db.CreateOrganization(t.Context(), org); err != nil {
		t.Fatal(err)
	}
	prop := &booking.Property{OrgID: org.ID, Name: "Barn", MaxGuests: 2,
		Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(80)}}
	if err := db.CreateProperty(t.Context(), prop); err != nil {
		t.Fatal(err)
	}
	return org, prop
}

// blocking reads the blocking column of a booking.
func blocking(t *testing.T, conn *pgx.Conn, id int64) bool {
	t.Helper()
	var b bool
	if err := conn.QueryRow(t.Context(), `SELECT blocking FROM bookings WHERE id = $1`, id).Scan(&b); err != nil {
		t.Fatal(err)
	}
	return b
}

func TestLapsedHoldGivesWayButStaysPending(t *testing.T) {
	schema := newSchema(t)
	db := openIn(t, schema)
	conn := rawConn(t, schema)
	_, prop := newCabin(t, db)
	expires := now.Add(30 * time.Minute)
	lapsed := hold(t, db, prop, "2026-05-10", "2026-05-15", now, expires)
	untouched := hold(t, db, prop, "2026-06-10", "2026-06-15", now, expires)

	// One millisecond before the expiry the hold still blocks.
	early := stay(prop, "early", "2026-05-12", "2026-05-17", expires.Add(time.Hour))
	if got := booking.ErrorCode(db.CreateBooking(t.Context(), early, booking.CreateOptions{Now: expires.Add(-time.Millisecond)})); got != booking.CodeUnavailable {
		t.Fatalf("create before expiry: code %q, want unavailable", got)
	}
	if !blocking(t, conn, lapsed.ID) {
		t.Fatal("refused create released the hold")
	}

	// At its expiry it gives way, and only its claim on the nights goes.
	late := stay(prop, "late", "2026-05-12", "2026-05-17", expires.Add(time.Hour))
	if err := db.CreateBooking(t.Context(), late, booking.CreateOptions{Now: expires}); err != nil {
		t.Fatalf("create at expiry: %v", err)
	}
	got, err := db.BookingByID(t.Context(), lapsed.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != booking.StatusPending || blocking(t, conn, lapsed.ID) {
		t.Errorf("lapsed hold: status %q blocking %v, want pending, not blocking", got.Status, blocking(t, conn, lapsed.ID))
	}
	if !blocking(t, conn, late.ID) || !blocking(t, conn, untouched.ID) {
		t.Error("new booking or the hold on other nights does not block")
	}

	// The sweeper still finds it and expires it.
	list, err := db.LapsedHolds(t.Context(), expires, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ids := bookingIDs(list); !slices.Contains(ids, lapsed.ID) {
		t.Errorf("lapsed holds %v, want %d among them", ids, lapsed.ID)
	}
	if _, err := db.Transition(t.Context(), lapsed.ID, booking.Transition{From: []booking.Status{booking.StatusPending},
		To: booking.StatusExpired, At: expires, OnlyExpired: true}); err != nil {
		t.Fatalf("expire: %v", err)
	}

	// Its late payment cannot take the nights back, claimed or not.
	for _, claim := range []bool{true, false} {
		_, err = db.Transition(t.Context(), lapsed.ID, booking.Transition{From: []booking.Status{booking.StatusExpired},
			To: booking.StatusConfirmed, At: expires.Add(time.Minute), ClaimDates: claim, Confirmed: true})
		if got := booking.ErrorCode(err); got != booking.CodeUnavailable {
			t.Errorf("late confirm (ClaimDates %v): code %q (%v), want unavailable", claim, got, err)
		}
	}
}

// TestConfirmWithoutClaimRefusedByConstraint shows the constraint as the
// last guard: a lapsed pending hold, released by a newer booking, is
// confirmed without ClaimDates (no Go check at all), and the database
// refuses.
func TestConfirmWithoutClaimRefusedByConstraint(t *testing.T) {
	db := open(t)
	_, prop := newCabin(t, db)
	expires := now.Add(time.Minute)
	first := hold(t, db, prop, "2026-05-10", "2026-05-15", now, expires)
	hold(t, db, prop, "2026-05-14", "2026-05-16", expires, expires.Add(time.Hour))
	_, err := db.Transition(t.Context(), first.ID, booking.Transition{From: []booking.Status{booking.StatusPending},
		To: booking.StatusConfirmed, At: expires.Add(time.Second), Confirmed: true})
	if got := booking.ErrorCode(err); got != booking.CodeUnavailable {
		t.Fatalf("confirm: code %q (%v), want unavailable", got, err)
	}
	got, err := db.BookingByID(t.Context(), first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != booking.StatusPending {
		t.Errorf("status %q after refused confirm, want pending", got.Status)
	}
}

func bookingIDs(list []booking.Booking) []int64 {
	var ids []int64
	for _, b := range list {
		ids = append(ids, b.ID)
	}
	return ids
}

// TestTwoPoolsOneWinner races checkouts through two pools on one schema, as
// two replicas would: exactly one wins.
func TestTwoPoolsOneWinner(t *testing.T) {
	schema := newSchema(t)
	a, b := openIn(t, schema), openIn(t, schema)
	_, prop := newCabin(t, a)
	const n = 40
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
			in := civil.MustParse("2026-05-10").AddDays(-(i % 3))
			out := civil.MustParse("2026-05-11").AddDays(i % 4)
			bk := stay(prop, "t"+strconv.Itoa(i), in.String(), out.String(), now.Add(time.Hour))
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

// TestConcurrentOpenMigratesOnce opens one schema from several replicas at
// once: every Open succeeds and each migration is recorded once.
func TestConcurrentOpenMigratesOnce(t *testing.T) {
	schema := newSchema(t)
	const n = 4
	dbs := make([]*postgres.DB, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			dbs[i], errs[i] = postgres.Open(t.Context(), testURL(t), postgres.WithSchema(schema), postgres.WithMaxConns(2))
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Errorf("open #%d: %v", i, errs[i])
			continue
		}
		dbs[i].Close()
	}
	conn := rawConn(t, schema)
	var names []string
	rows, err := conn.Query(t.Context(), `SELECT name FROM schema_migrations ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want, err := filepath.Glob("migrations/*.sql")
	if err != nil || len(want) == 0 {
		t.Fatalf("list migrations: %v %v", want, err)
	}
	for i := range want {
		want[i] = filepath.Base(want[i])
	}
	if !slices.Equal(names, want) {
		t.Errorf("migrations = %v, want each of %v once", names, want)
	}
}

func TestReopenKeepsData(t *testing.T) {
	schema := newSchema(t)
	db, err := postgres.Open(t.Context(), testURL(t), postgres.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	org, _ := newCabin(t, db)
	db.Close()

	db = openIn(t, schema)
	if err := db.Ping(t.Context()); err != nil {
		t.Fatalf("ping after reopen: %v", err)
	}
	got, err := db.OrganizationBySlug(t.Context(), "villa")
	if err != nil {
		t.Fatalf("organization after reopen: %v", err)
	}
	if got.ID != org.ID {
		t.Errorf("organization ID = %d, want %d", got.ID, org.ID)
	}
}

func TestOpenBadURLFails(t *testing.T) {
	if _, err := postgres.Open(t.Context(), "postgres://%zz"); err == nil {
		t.Fatal("Open accepted a malformed URL")
	}
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
}

// seams is db as every seam the conformance suite checks.
func seams(db *postgres.DB) storetest.Stores {
	return storetest.Stores{Stores: db.Stores(), FeedStore: db, ReadModelStore: db, Connect: db, Records: db}
}
