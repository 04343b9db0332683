// Command scale measures the booking API and the host calendar as an
// organisation grows: for each size it builds a fresh SQLite database of
// one organisation with that many properties and years of bookings, and
// times warm requests through the same stack as the reference server
// (httpapi over the read model, store/cache, over store/sqlite), in
// process, without the network:
//
//	go run ./examples/scale [-properties 1,1000,10000] [-bookings 100000] [-time 300ms] [-postgres URL]
//
// Each property gets bookings/properties confirmed stays of three nights
// (at most 1,000), back to back, the even-numbered properties' up to 30
// days from today, the odd ones' up to 30 days ago; the database is
// ANALYZEd. Routes, each warmed then repeated for -time: the search at
// dates free everywhere (whole, a page of 20, a page of 20 by price), at
// dates half the properties hold, the properties list (whole, a page of
// 50), one property's availability (12 months) and price (7 nights), and
// the host calendar of one property's last year. It prints the mean time
// per request, the body's size and the process's resident memory.
// Speed is reported, never asserted.
//
// With -postgres URL each dataset is built on PostgreSQL instead (through
// store/postgres), in a fresh schema scale_<size>_<pid> of that database,
// dropped at the end; the history is inserted in one statement and the
// tables ANALYZEd as on SQLite.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"
	_ "modernc.org/sqlite" // the bulk insert of the history

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/cache"
	"github.com/staykit/staykit/store/postgres"
	"github.com/staykit/staykit/store/sqlite"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

// errUsage is returned, after the flag package printed why, for bad flags.
var errUsage = errors.New("usage")

// options are the command's flags.
type options struct {
	sizes      []int
	bookings   int
	budget     time.Duration
	dir        string
	cpuProfile string
	postgres   string // PostgreSQL URL; empty: SQLite files in dir
}

// maxPerProperty bounds a property's stays (three nights each: eight
// years).
const maxPerProperty = 1000

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("scale", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizes := fs.String("properties", "1,1000,10000", "comma-separated numbers of properties, one dataset each")
	var o options
	fs.IntVar(&o.bookings, "bookings", 100_000, "bookings of each dataset, spread over its properties (at most 1,000 each)")
	fs.DurationVar(&o.budget, "time", 300*time.Millisecond, "how long each route is repeated")
	fs.StringVar(&o.dir, "dir", "", "directory of the databases (default: a temporary one, removed)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the timed requests to this file")
	fs.StringVar(&o.postgres, "postgres", "", "build the datasets on this PostgreSQL `URL` (a fresh schema each, dropped at the end) instead of SQLite")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "scale: -properties: %q is not a positive number\n", s)
			return errUsage
		}
		o.sizes = append(o.sizes, n)
	}
	if o.dir == "" {
		dir, err := os.MkdirTemp("", "staykit-scale-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		o.dir = dir
	}
	fmt.Fprintf(stdout, "staykit scale: %s, %d CPUs, GOMAXPROCS %d\n", runtime.Version(), runtime.NumCPU(), runtime.GOMAXPROCS(0))
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	for _, n := range o.sizes {
		if err := measure(ctx, o, n, stdout); err != nil {
			return fmt.Errorf("%d properties: %w", n, err)
		}
	}
	return nil
}

// store is what the command needs of a database: SQLite's or
// PostgreSQL's.
type store interface {
	booking.ReadModelStore
	Stores() booking.Stores
	HostStores() host.Stores
	Close() error
}

// dataset is a database of one organisation, and the stack over it.
type dataset struct {
	db       store
	org      *booking.Organization
	props    []int64
	bookings int
	handler  http.Handler
	host     *host.Service
	today    civil.Date
	// template is the booking the history statement copies its columns
	// from, then deletes.
	template int64
}

// measure builds the dataset of n properties and prints its figures.
func measure(ctx context.Context, o options, n int, w io.Writer) error {
	start := time.Now()
	d, err := build(ctx, o, n)
	if err != nil {
		return err
	}
	defer d.db.Close()
	kind := "SQLite"
	if o.postgres != "" {
		kind = "PostgreSQL"
	}
	fmt.Fprintf(w, "\n%d properties, %d bookings, %s (built in %s)\n", n, d.bookings, kind, time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(w, "%-40s %10s %10s %10s\n", "route", "mean", "median", "bytes")
	stay := func(from, nights int) string {
		return "check_in=" + d.today.AddDays(from).String() + "&check_out=" + d.today.AddDays(from+nights).String() + "&guests_count=2"
	}
	base := "/api/v1/book/scale"
	one := strconv.FormatInt(d.props[len(d.props)/2], 10)
	routes := []struct{ name, path string }{
		{"search, all free, whole list", base + "/properties?" + stay(45, 3)},
		{"search, all free, page of 20", base + "/properties?" + stay(45, 3) + "&limit=20"},
		{"search, all free, by price, page of 20", base + "/properties?" + stay(45, 3) + "&limit=20&sort=price"},
		{"search, half held, whole list", base + "/properties?" + stay(10, 3)},
		{"search, half held, page of 20", base + "/properties?" + stay(10, 3) + "&limit=20"},
		{"properties list, whole", base + "/properties"},
		{"properties list, page of 50", base + "/properties?limit=50"},
		{"availability, 12 months", base + "/properties/" + one + "/availability"},
		{"price, 7 nights", base + "/properties/" + one + "/price?" + stay(45, 7)},
	}
	for _, r := range routes {
		per, size, err := timeGet(ctx, d.handler, r.path, o.budget)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		fmt.Fprintf(w, "%-40s %10s %10s %10d\n", r.name, fmtDur(per.mean), fmtDur(per.median), size)
	}
	per, days, err := timeCalendar(ctx, d, o.budget)
	if err != nil {
		return fmt.Errorf("host calendar: %w", err)
	}
	fmt.Fprintf(w, "%-40s %10s %10s %10s\n", "host calendar, one property's year", fmtDur(per.mean), fmtDur(per.median), strconv.Itoa(days)+" days")
	fmt.Fprintf(w, "resident memory of this process: %s\n", rss())
	return nil
}

// build creates the database of n properties and its stack.
func build(ctx context.Context, o options, n int) (*dataset, error) {
	var (
		db     store
		fill   func(ctx context.Context, d *dataset, per int) error
		closer func() error
	)
	if o.postgres != "" {
		schema := fmt.Sprintf("scale_%d_%d", n, os.Getpid())
		pg, err := postgres.Open(ctx, o.postgres, postgres.WithSchema(schema))
		if err != nil {
			return nil, err
		}
		db = pg
		fill = func(ctx context.Context, d *dataset, per int) error {
			return fillHistoryPostgres(ctx, o.postgres, schema, d, per)
		}
		closer = func() error {
			err := pg.Close()
			if derr := dropSchema(context.WithoutCancel(ctx), o.postgres, schema); derr != nil && err == nil {
				err = derr
			}
			return err
		}
	} else {
		path := filepath.Join(o.dir, "scale-"+strconv.Itoa(n)+".db")
		_ = os.Remove(path)
		lite, err := sqlite.Open(ctx, path)
		if err != nil {
			return nil, err
		}
		db = lite
		fill = func(ctx context.Context, d *dataset, per int) error { return fillHistory(ctx, path, d, per) }
		closer = lite.Close
	}
	d := &dataset{db: closeWith{db, closer}}
	ok := false
	defer func() {
		if !ok {
			d.db.Close()
		}
	}()
	stores := db.Stores()
	d.org = &booking.Organization{Slug: "scale", Name: "Scale", PaymentMode: pricing.ModeFull, DefaultLocale: "en",
		Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48, PublicEngineEnabled: true}
	if err := stores.CreateOrganization(ctx, d.org); err != nil {
		return nil, err
	}
	for i := range n {
		weekend := decimal.NewFromInt(int64(110 + i%50))
		p := &booking.Property{OrgID: d.org.ID, Name: fmt.Sprintf("House %05d", (i*7919)%100_000),
			Description: "A house by the sea, with a garden.", City: "Nice", Country: "FR", MaxGuests: 2 + i%4,
			Bedrooms: 1 + i%3, Active: true, Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(int64(80 + i%70)),
				WeekendRate: &weekend, WeekendNights: []time.Weekday{time.Friday, time.Saturday}},
			Fees: pricing.Fees{Cleaning: decimal.NewFromInt(40)}}
		if err := stores.CreateProperty(ctx, p); err != nil {
			return nil, err
		}
		d.props = append(d.props, p.ID)
	}
	d.today = civil.Today(time.Now(), d.org.Location())
	per := min(o.bookings/n, maxPerProperty)
	if per > 0 {
		if err := createTemplate(ctx, stores, d); err != nil {
			return nil, err
		}
		if err := fill(ctx, d, per); err != nil {
			return nil, err
		}
	}
	d.bookings = per * n
	rm := cache.New(db.Stores(), db, cache.Options{})
	pay := paymenttest.New()
	svc := booking.NewService(booking.Options{Stores: rm.Stores(), Payments: pay, Logger: slog.New(slog.DiscardHandler)})
	mon := money.New(svc, money.Options{Store: rm.Stores(), Payments: pay})
	d.handler = httpapi.New(httpapi.Options{Service: svc, Money: mon, Logger: slog.New(slog.DiscardHandler)})
	d.host = host.New(host.Options{Stores: db.HostStores(), Bookings: svc, Logger: slog.New(slog.DiscardHandler)})
	ok = true
	return d, nil
}

// closeWith is a store whose Close is another function (closing it and
// dropping its schema).
type closeWith struct {
	store
	close func() error
}

func (c closeWith) Close() error { return c.close() }

// createTemplate stores the template of the history: a booking in the
// past, expired at once.
func createTemplate(ctx context.Context, stores booking.Stores, d *dataset) error {
	in := d.today
	q := pricing.Quote{CheckIn: in, CheckOut: in.AddDays(3), Nights: 3, Guests: 2, Currency: "EUR",
		Accommodation: decimal.NewFromInt(240), Total: decimal.NewFromInt(280), Mode: pricing.ModeFull,
		Charge: decimal.NewFromInt(280), CouponBase: decimal.NewFromInt(240),
		Fees: []pricing.Line{{Code: pricing.LineCleaningFee, Label: "Cleaning", Amount: decimal.NewFromInt(40)}}}
	for i := range 3 {
		q.NightsDetail = append(q.NightsDetail, pricing.Night{Date: in.AddDays(i), Price: decimal.NewFromInt(80)})
	}
	past := time.Now().Add(-time.Hour)
	t := &booking.Booking{OrgID: d.org.ID, PropertyID: d.props[0], Token: "template", Status: booking.StatusPending,
		CheckIn: in.AddDays(-4000), CheckOut: in.AddDays(-3997), Guests: 2, Currency: "EUR", PaymentMode: pricing.ModeFull,
		TotalAmount: q.Total, ChargeAmount: q.Total, Quote: q, ExpiresAt: past}
	if err := stores.CreateBooking(ctx, t, booking.CreateOptions{Now: past.Add(-time.Minute)}); err != nil {
		return fmt.Errorf("template booking: %w", err)
	}
	d.template = t.ID
	return nil
}

// fillHistory inserts per confirmed stays of three nights for each
// property in one statement — the even-numbered properties' last stay
// ending 30 days from today, the odd ones' 30 days ago — copying the
// template's columns, then deletes the template and runs ANALYZE.
func fillHistory(ctx context.Context, path string, d *dataset, per int) error {
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer raw.Close()
	first := d.today.AddDays(30 - 60 - 3*per).String() // the odd properties' first stay
	_, err = raw.ExecContext(ctx, `
		WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
		INSERT INTO bookings (org_id, property_id, token, status, check_in, check_out, guests,
			currency, payment_mode, total_amount, charge_amount, paid_amount, balance_amount,
			quote, created_at, updated_at)
		SELECT t.org_id, p.id, 'h-' || p.id || '-' || n.i, 'confirmed',
			date(?2, '+' || (3 * n.i + 60 * (1 - p.id % 2)) || ' days'),
			date(?2, '+' || (3 * n.i + 3 + 60 * (1 - p.id % 2)) || ' days'), t.guests,
			t.currency, t.payment_mode, t.total_amount, t.charge_amount, t.total_amount, '0',
			t.quote, t.created_at, t.updated_at
		FROM n, bookings t JOIN properties p ON p.org_id = t.org_id
		WHERE t.id = ?3 ORDER BY n.i, p.id`, per, first, d.template)
	if err != nil {
		return fmt.Errorf("fill history: %w", err)
	}
	if _, err := raw.ExecContext(ctx, `DELETE FROM bookings WHERE id = ?`, d.template); err != nil {
		return fmt.Errorf("delete template: %w", err)
	}
	if _, err := raw.ExecContext(ctx, `ANALYZE`); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	return nil
}

// fillHistoryPostgres is fillHistory on PostgreSQL, in schema: the
// confirmed stays claim their nights (blocking), as the store's own
// writes would.
func fillHistoryPostgres(ctx context.Context, url, schema string, d *dataset, per int) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SELECT set_config('search_path', $1, false)`, pgx.Identifier{schema}.Sanitize()+", public"); err != nil {
		return err
	}
	first := d.today.AddDays(30 - 60 - 3*per).String() // the odd properties' first stay
	_, err = conn.Exec(ctx, `
		INSERT INTO bookings (org_id, property_id, token, status, check_in, check_out, guests,
			currency, payment_mode, total_amount, charge_amount, paid_amount, balance_amount,
			quote, created_at, updated_at, blocking)
		SELECT t.org_id, p.id, 'h-' || p.id || '-' || n.i, 'confirmed',
			$2::date + (3 * n.i + 60 * (1 - p.id % 2))::int,
			$2::date + (3 * n.i + 3 + 60 * (1 - p.id % 2))::int, t.guests,
			t.currency, t.payment_mode, t.total_amount, t.charge_amount, t.total_amount, 0,
			t.quote, t.created_at, t.updated_at, true
		FROM generate_series(0, $1::int - 1) AS n(i), bookings t JOIN properties p ON p.org_id = t.org_id
		WHERE t.id = $3 ORDER BY n.i, p.id`, per, first, d.template)
	if err != nil {
		return fmt.Errorf("fill history: %w", err)
	}
	if _, err := conn.Exec(ctx, `DELETE FROM bookings WHERE id = $1`, d.template); err != nil {
		return fmt.Errorf("delete template: %w", err)
	}
	if _, err := conn.Exec(ctx, `ANALYZE`); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	return nil
}

// dropSchema drops a dataset's schema and everything in it.
func dropSchema(ctx context.Context, url, schema string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{schema}.Sanitize()+` CASCADE`)
	return err
}

// timeGet warms path up and repeats it for budget (at least 3 times),
// returning the times per request and the body's size.
func timeGet(ctx context.Context, h http.Handler, path string, budget time.Duration) (timing, int, error) {
	size := 0
	t, err := repeat(budget, func() error {
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, path, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			return fmt.Errorf("GET %s: %d %.300s", path, rec.Code, rec.Body)
		}
		size = rec.Body.Len()
		return nil
	})
	return t, size, err
}

// timing is the mean and median time of repeated requests.
type timing struct{ mean, median time.Duration }

// repeat runs fn twice to warm up, then for budget (at least 3 times).
func repeat(budget time.Duration, fn func() error) (timing, error) {
	for range 2 {
		if err := fn(); err != nil {
			return timing{}, err
		}
	}
	var each []time.Duration
	start := time.Now()
	for len(each) < 3 || time.Since(start) < budget {
		t0 := time.Now()
		if err := fn(); err != nil {
			return timing{}, err
		}
		each = append(each, time.Since(t0))
	}
	slices.Sort(each)
	return timing{mean: time.Since(start) / time.Duration(len(each)), median: each[len(each)/2]}, nil
}

// timeCalendar times the host calendar of the middle property over the
// year up to 30 days from today.
func timeCalendar(ctx context.Context, d *dataset, budget time.Duration) (timing, int, error) {
	id := d.props[len(d.props)/2]
	from, to := d.today.AddDays(-335), d.today.AddDays(30)
	var days []host.Day
	t, err := repeat(budget, func() error {
		var err error
		days, err = d.host.Calendar(ctx, d.org, id, from, to)
		return err
	})
	return t, len(days), err
}

func fmtDur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return strconv.FormatFloat(float64(d)/float64(time.Microsecond), 'f', 1, 64) + " µs"
	default:
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + " ms"
	}
}

// rss is the process's VmRSS (Linux), or "unknown".
func rss() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
