package money_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/sqlite"
)

// TestMoneyFuzz is the money's randomised property test (issue #23):
// seeded random sequences drive booking.Service and money.Service over
// the SQLite store, the fake provider and a fake clock through checkouts
// in the three payment modes, payments (paid, declined, 3-D Secure, processing),
// balances and security deposits, off-session declines and
// authentications, provider outages, failures and answers lost after the
// provider applied a call, crashes before any store write and after any
// provider call, refund events racing the refund call, duplicate and
// reordered webhooks, time passing with sweeps, approvals, declines,
// guest and host cancellations under every refund rule, deposit claims,
// dashboard refunds and refunds failing later. Then everything settles
// and these invariants are checked:
//
//	(a) per booking, the provider's money (received, refunded, on every
//	    intent of the booking) is the ledger's, and what the guest's page
//	    and the host's payments list show;
//	(b) a closed booking keeps exactly what its decision (ledger.KindDecision)
//	    kept, nothing when never confirmed, and what its cancellation
//	    promised; no authorisation outlives a closed booking;
//	(c) no confirmed booking without its charge (free stays excepted);
//	(d) never more refunded than received, per intent;
//	(e) every owed entry reaches the provider: none left pending, no
//	    failed refund left unsent;
//	(f) no two live stays of a unit overlap;
//	(g) no money or authorisation at the provider outside the bookings;
//	(h) every stay is priced as the unit it holds: its accommodation is
//	    the sum of that unit's nightly prices (its own where it has them,
//	    unitWorld), whatever raced for the cheap unit.
//
// It runs a fixed list of regression cases, then as many random
// sequences as STAYKIT_MONEY_FUZZ_DURATION allows (3s by default). A failing sequence is
// shrunk to a minimal one, printed with its seed and the command that
// replays it; STAYKIT_MONEY_FUZZ_SEED replays one seed with its op log
// (and STAYKIT_MONEY_FUZZ_OPS keeps only the listed ops of it).
func TestMoneyFuzz(t *testing.T) {
	cfg := fuzzConfigFromEnv(t)
	r := &fuzzRunner{t: t, dir: t.TempDir()}
	if cfg.replay {
		r.replay(cfg)
		return
	}
	began := time.Now()
	failing := map[string]*fuzzFailure{}
	var kinds []string
	var sequences, failed, ops, jobSends, violations int
	record := func(seed uint64, units bool, seq []op, out *fuzzOutcome) {
		sequences++
		ops += out.executed
		jobSends += out.jobSends
		if len(out.violations) == 0 {
			return
		}
		failed++
		violations += len(out.violations)
		for _, v := range out.violations {
			f := failing[v.kind]
			if f == nil {
				f = &fuzzFailure{kind: v.kind, inv: v.inv, seed: seed, units: units, ops: seq, example: v.detail}
				failing[v.kind] = f
				kinds = append(kinds, v.kind)
			}
			if !slices.Contains(f.seeds, seed) {
				f.seeds = append(f.seeds, seed)
			}
		}
	}
	for _, reg := range moneyFuzzRegressions {
		seq := reg.sequence()
		record(reg.seed, false, seq, r.run(seq, false, false))
	}
	for _, reg := range moneyFuzzUnitRegressions {
		seq := reg.sequence()
		record(reg.seed, true, seq, r.run(seq, true, false))
	}
	random := time.Now() // the time box is the random seeds'
	first := uint64(random.UnixNano())
	seed := first
	for ; time.Since(random) < cfg.duration; seed++ {
		seq := generate(seed)
		record(seed, unitWorld(seed), seq, r.run(seq, unitWorld(seed), false))
	}
	seeds := "no random seed"
	if seed > first {
		seeds = fmt.Sprintf("random seeds %d to %d", first, seed-1)
	}
	t.Logf("money fuzz: %d sequences (%d regression cases, %s), %d ops executed, %d ledger sends by SendLedgerEntry, %d sequences failed with %d violations of %d kinds, in %s",
		sequences, len(moneyFuzzRegressions), seeds, ops, jobSends, failed, violations, len(kinds), time.Since(began).Round(time.Millisecond))
	slices.SortFunc(kinds, func(a, b string) int { return strings.Compare(failing[a].inv+a, failing[b].inv+b) })
	// The shrinking time is shared among the kinds of failure.
	for i, kind := range kinds {
		r.report(failing[kind], time.Now().Add(cfg.shrink/time.Duration(len(kinds)-i)))
	}
}

// fuzzRegression is a sequence that broke an invariant once: the ops of
// a seed's sequence it keeps (its minimal sequence; all when none is
// listed).
type fuzzRegression struct {
	seed uint64
	keep []int
}

func (reg fuzzRegression) sequence() []op {
	ops := generate(reg.seed)
	if reg.keep != nil {
		ops = slices.DeleteFunc(ops, func(o op) bool { return !slices.Contains(reg.keep, o.N) })
	}
	return ops
}

// moneyFuzzUnitRegressions are the regression cases of the world of
// units priced on their own (unitWorld), run after moneyFuzzRegressions,
// which run in the one-unit world they were found in.
var moneyFuzzUnitRegressions = []fuzzRegression{}

// moneyFuzzRegressions run on every test run, before the random seeds:
// the minimal sequences of the bugs the fuzz found on 723ee4a (numbers
// are issue #23's findings).
var moneyFuzzRegressions = []fuzzRegression{
	// The checkout's charge has no ledger entry (ledger.KindCharge).
	{1795549602162321313, []int{36, 38}},
	// A confirmed booking is cancelled without a decision (ledger.KindDecision).
	{1795549441776294110, []int{1, 3, 7, 8, 35}},
	// #1: the payment's late event refunds what the host's cancellation kept.
	{1795549441776294114, []int{0, 4, 9, 20}},
	// #2: charge.refunded arriving during the refund call is recorded as a
	// second, dashboard refund.
	{1795549602162321313, []int{24, 36, 38, 41, 46, 48}},
	// #3: sendBalance panics when a retry meets a provider error.
	{1795549441776294228, []int{6, 31, 34, 54}},
	// #4: the balance is charged, the answer lost, the booking cancelled:
	// the charge is kept, recorded nowhere.
	{1795549441776294252, []int{21, 22, 23, 44, 45, 46}},
	// #5: a refund that fails at the provider is never sent again.
	{1795549602162321703, []int{0, 1, 2, 22, 42}},
	// #8: a balance waiting for 3-D Secure is polled forever.
	{1795549602162321313, []int{25, 33, 34}},
	// #8: 3-D Secure completed after the cancellation: the balance is kept.
	{1795549441776294117, []int{3, 9, 10, 36, 39, 42, 43, 50}},
	// #9: a deposit hold placed just before a crash stays on the card after
	// the cancellation.
	{1795549441776294140, []int{0, 1, 3, 4, 8, 12, 24}},
	// #9: a deposit claim captured just before a crash is never recorded.
	{1795549702341397288, []int{0, 2, 10, 14, 16, 24, 27, 32, 33}},
	// #9: the host claims the security deposit of a cancelled booking.
	{1795549602162321477, []int{0, 1, 2, 6, 7, 13, 14, 21}},
	// A dashboard refund of a balance intent is never recorded.
	{1795549602162321567, []int{14, 18, 20, 21, 25}},
	// A dashboard refund of a claimed security deposit is never recorded.
	{1795549441776294725, []int{1, 25, 29, 32, 33, 41, 48}},
	// A dashboard refund the ledger does not know yet: the cancellation's
	// refund fails, and the dashboard refund is recorded short.
	{1795549602162322131, []int{40, 44, 46, 47, 58, 60}},
	// A paid booking cancelled before its confirmation: the guest's page
	// shows 0 paid and the refund.
	{1795549441776294117, []int{14, 18, 28}},
	// A balance paid by 3-D Secure, the process killed before its entry
	// was saved, then cancelled under a policy: the decision forgot the
	// balance and returned it.
	{1795555490519715101, []int{1, 5, 6, 12, 17, 19, 20, 38}},
	// A balance charged by its job, the process killed before its entry
	// was saved, then cancelled under a policy: the preview offered a
	// refund on the ledger without the balance, the cancellation (having
	// learnt it) refunded what the policy gives of all that was paid.
	{1795565151453313006, []int{1, 5, 11, 15, 17, 19, 28, 31, 32, 35}},
	// A cancelled booking's refund failed at the provider, and the process
	// was killed after the failure was saved but before the refund was owed
	// again: the money stayed with the host for good.
	{1795565151453317932, []int{1, 7, 8, 11, 29, 34, 51, 53, 55, 67, 68, 72, 73}},
	{1795565653647502028, []int{22, 26, 36, 39, 55, 61, 71, 72}},
	// A balance charged with its answer lost, then partly refunded from
	// the dashboard before its job found the intent: the refund's event
	// matched no entry, and the ledger never learnt the refund.
	{1795569325445018951, []int{22, 32, 37, 38, 39, 51}},
	// A balance charged, then a panic before the booking recorded it
	// (recovered as an outcome to retry): the attempt had marked its entry
	// succeeded, and the entry was saved so. The ledger counted the balance
	// the booking did not, and a cancellation without refund kept it
	// though the host was shown the deposit alone.
	{1795901768208966553, []int{1, 2, 3, 6, 8, 12, 13, 25}},
	// A change of dates that cost less, its refund sent while the
	// provider was down and the host had refunded most of the charge from
	// its dashboard: the refund promised more than the intent held, and a
	// full cancellation decided to keep less than nothing, owing it for
	// ever. Now a decision keeps nothing at least, and a refund a live
	// booking's provider refused is owed again only as far as it is owed.
	{1795902672315614843, []int{2, 4, 6, 7, 27, 66, 67, 30}},
	// A change whose charge was refused and given back, then a guest's
	// cancellation: the refused charge was never part of what was paid.
	{1795902672315612002, []int{0, 9, 18, 24, 101, 102, 42, 47, 50, 52, 66}},
}

// fuzzConfig is the test's environment.
type fuzzConfig struct {
	duration time.Duration // STAYKIT_MONEY_FUZZ_DURATION
	shrink   time.Duration // STAYKIT_MONEY_FUZZ_SHRINK: the time spent shrinking failures
	replay   bool
	seed     uint64 // STAYKIT_MONEY_FUZZ_SEED
	keep     []int  // STAYKIT_MONEY_FUZZ_OPS: the ops of the seed to run, by N
}

func fuzzConfigFromEnv(t *testing.T) fuzzConfig {
	cfg := fuzzConfig{duration: 3 * time.Second, shrink: 30 * time.Second}
	for _, d := range []struct {
		name string
		to   *time.Duration
	}{{"STAYKIT_MONEY_FUZZ_DURATION", &cfg.duration}, {"STAYKIT_MONEY_FUZZ_SHRINK", &cfg.shrink}} {
		if v := os.Getenv(d.name); v != "" {
			var err error
			if *d.to, err = time.ParseDuration(v); err != nil {
				t.Fatalf("%s=%q: %v", d.name, v, err)
			}
		}
	}
	if v := os.Getenv("STAYKIT_MONEY_FUZZ_SEED"); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("STAYKIT_MONEY_FUZZ_SEED=%q: %v", v, err)
		}
		cfg.replay, cfg.seed = true, seed
	}
	if v := os.Getenv("STAYKIT_MONEY_FUZZ_OPS"); v != "" {
		for f := range strings.SplitSeq(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				t.Fatalf("STAYKIT_MONEY_FUZZ_OPS=%q: %v", v, err)
			}
			cfg.keep = append(cfg.keep, n)
		}
	}
	return cfg
}

// fuzzFailure is the first sequence that broke an invariant in one way
// (its kind), and the other seeds that did.
type fuzzFailure struct {
	kind, inv string
	seed      uint64
	units     bool // in the world of units priced on their own
	ops       []op
	example   string
	seeds     []uint64
}

// fuzzRunner runs sequences, each on a new database: a copy of a
// template made once per world, with newEnv's organisations.
type fuzzRunner struct {
	t     *testing.T
	dir   string
	world [2]*fuzzTemplate // one-unit, units priced on their own
	runs  int
}

// fuzzTemplate is the database a world's sequences start from.
type fuzzTemplate struct {
	path     string
	property map[string]int64
	// unitPrices are the units' own prices (unit → night → price); none
	// in the one-unit world.
	unitPrices map[int64]map[civil.Date]decimal.Decimal
}

// unitWorld reports whether a random seed's sequence runs in the world
// of units priced on their own: every other seed. In that world each
// villa has a second unit at 80 a night from 5 to 11 June (the villa's
// nights cost 100, 120 at the weekend), so a checkout is priced and held
// on the cheap unit while it is free, on the other after.
func unitWorld(seed uint64) bool { return seed%2 == 1 }

// fuzzOutcome is what a sequence came to.
type fuzzOutcome struct {
	violations []violation
	executed   int
	jobSends   int // ledger entries sent by their job (SendLedgerEntry)
	log        []string
}

// violation is a broken invariant: inv is its letter, kind says how it
// broke (the same words for the same bug), detail names the booking and
// the numbers.
type violation struct {
	inv, kind, detail string
}

func (v violation) String() string { return fmt.Sprintf("(%s) %s: %s", v.inv, v.kind, v.detail) }

// run runs ops from a new database, settles and checks; with log it keeps
// the op log.
func (r *fuzzRunner) run(ops []op, units bool, log bool) *fuzzOutcome {
	i := 0
	if units {
		i = 1
	}
	if r.world[i] == nil {
		r.world[i] = r.makeTemplate(units)
	}
	tpl := r.world[i]
	r.runs++
	path := filepath.Join(r.dir, fmt.Sprintf("seq%d.db", r.runs))
	if err := copyFile(tpl.path, path); err != nil {
		r.t.Fatal(err)
	}
	w := newFuzzWorld(r.t, path, tpl.property, log)
	w.unitPrices = tpl.unitPrices
	defer func() {
		w.env.store.Close()
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(path + suffix)
		}
	}()
	for _, o := range ops {
		w.do(o)
	}
	w.settle()
	w.check()
	return &fuzzOutcome{violations: w.violations, executed: len(ops), jobSends: w.jobSends, log: w.log}
}

// replay runs one seed (only the ops cfg.keep lists, if any) with its op
// log, and shrinks it if it fails.
func (r *fuzzRunner) replay(cfg fuzzConfig) {
	t := r.t
	units := unitWorld(cfg.seed)
	for _, reg := range moneyFuzzRegressions {
		if reg.seed == cfg.seed {
			units = false
		}
	}
	for _, reg := range moneyFuzzUnitRegressions {
		if reg.seed == cfg.seed {
			units = true
		}
	}
	ops := fuzzRegression{seed: cfg.seed, keep: cfg.keep}.sequence()
	out := r.run(ops, units, true)
	for _, line := range out.log {
		t.Log(line)
	}
	if len(out.violations) == 0 {
		t.Logf("seed %d: %d ops, no violation", cfg.seed, len(ops))
		return
	}
	for _, v := range out.violations {
		t.Errorf("seed %d: %s", cfg.seed, v)
	}
	if cfg.keep == nil {
		v := out.violations[0]
		r.report(&fuzzFailure{kind: v.kind, inv: v.inv, seed: cfg.seed, units: units, ops: ops, example: v.detail, seeds: []uint64{cfg.seed}},
			time.Now().Add(cfg.shrink))
	}
}

// report shrinks a failure's sequence, as long as the deadline allows, and
// reports it with the seed, the minimal sequence's op log and the command
// that replays it.
func (r *fuzzRunner) report(f *fuzzFailure, deadline time.Time) {
	ops, minimal := r.shrink(f.ops, f.kind, f.units, deadline)
	out := r.run(ops, f.units, true)
	var b strings.Builder
	fmt.Fprintf(&b, "(%s) %s\n  in %d sequence(s), first seed %d", f.inv, f.kind, len(f.seeds), f.seed)
	if f.units {
		b.WriteString(" (units priced on their own)")
	}
	if len(f.seeds) > 1 {
		fmt.Fprintf(&b, " (also %s)", joinSeeds(f.seeds[1:min(len(f.seeds), 6)]))
	}
	if minimal {
		fmt.Fprintf(&b, "\n  minimal sequence, %d of %d ops:\n", len(ops), len(f.ops))
	} else {
		fmt.Fprintf(&b, "\n  sequence shrunk to %d of %d ops when STAYKIT_MONEY_FUZZ_SHRINK ran out:\n", len(ops), len(f.ops))
	}
	for _, line := range out.log {
		fmt.Fprintf(&b, "    %s\n", line)
	}
	shown := 0
	for _, v := range out.violations {
		if v.kind == f.kind && shown < 3 {
			fmt.Fprintf(&b, "  violation: %s\n", indent(v.detail))
			shown++
		}
	}
	if shown == 0 {
		fmt.Fprintf(&b, "  violation (of the whole sequence): %s\n", indent(f.example))
	}
	keep := make([]string, len(ops))
	for i, o := range ops {
		keep[i] = strconv.Itoa(o.N)
	}
	fmt.Fprintf(&b, "  replay: STAYKIT_MONEY_FUZZ_SEED=%d STAYKIT_MONEY_FUZZ_OPS=%s go test ./money -run 'TestMoneyFuzz$' -v\n", f.seed, strings.Join(keep, ","))
	fmt.Fprintf(&b, "  replay the whole sequence: STAYKIT_MONEY_FUZZ_SEED=%d go test ./money -run 'TestMoneyFuzz$' -v", f.seed)
	r.t.Error(b.String())
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n  ") }

func joinSeeds(seeds []uint64) string {
	s := make([]string, len(seeds))
	for i, seed := range seeds {
		s[i] = strconv.FormatUint(seed, 10)
	}
	return strings.Join(s, ", ")
}

// shrink makes ops a shorter sequence that still breaks an invariant the
// same way (kind), re-running from scratch for each try, until no op can
// go (minimal) or the deadline passes: first whole bookings go (a
// checkout and the ops aimed at it), then whole kinds of op, then delta
// debugging removes chunks of ops, halving their size down to single ops.
func (r *fuzzRunner) shrink(ops []op, kind string, units bool, deadline time.Time) (_ []op, minimal bool) {
	fails := func(candidate []op) bool {
		for _, v := range r.run(candidate, units, false).violations {
			if v.kind == kind {
				return true
			}
		}
		return false
	}
	without := func(drop func(op) bool) {
		if candidate := slices.DeleteFunc(slices.Clone(ops), drop); len(candidate) < len(ops) && time.Now().Before(deadline) && fails(candidate) {
			ops = candidate
		}
	}
	for _, o := range slices.Clone(ops) {
		if o.Kind == opCheckout {
			without(func(x op) bool { return x.N == o.N || x.targets() && x.Ref == o.N })
		}
	}
	for k := range opKind(len(opFuncs)) {
		without(func(x op) bool { return x.Kind == k })
	}
	n := 2
	for len(ops) >= 2 && time.Now().Before(deadline) {
		chunk := (len(ops) + n - 1) / n
		removed := false
		for start := 0; start < len(ops) && time.Now().Before(deadline); start += chunk {
			candidate := slices.Concat(ops[:start], ops[min(start+chunk, len(ops)):])
			if fails(candidate) {
				ops, removed = candidate, true
				n = max(n-1, 2)
				break
			}
		}
		switch {
		case removed:
		case chunk == 1:
			return ops, true
		default:
			n = min(n*2, len(ops))
		}
	}
	return ops, len(ops) < 2
}

// fuzzWorld is one sequence: the engine over a wrapped store and provider,
// and what the test knows of it.
type fuzzWorld struct {
	t   testing.TB
	ctx context.Context
	env *env
	sw  *crashSwitch
	svc *booking.Service
	// money moves svc's money (money.New over svc).
	money *money.Service
	// changes are the guests' changes of dates (datechange.New).
	changes *datechange.Service
	// store and provider are what the Service is given: env's, wrapped.
	store    *crashStore
	provider *faultProvider
	orgIDs   []int64 // by fuzzOrgs

	bookings  []fuzzBooking
	queue     []payment.Event // the provider's events still to arrive
	delivered []payment.Event // for redeliveries
	attempts  map[string]int  // deliveries of each event the engine refused

	sweeps    int       // sweeps run: every other one sends the ledger by jobs
	jobSends  int       // ledger entries sent by SendLedgerEntry
	downNext  bool      // the provider is down during the next op
	crashNext crashPlan // the next op crashes
	reentrant bool      // refund events arrive during the refund call

	// promised is what a cancellation of a confirmed booking promised it
	// keeps, by booking id; pending is the promise of the op under way.
	promised  map[int64]int64
	pending   *promise
	dashboard map[int64]bool // bookings refunded from the provider's dashboard
	// unitPrices are the units' own prices of the world (fuzzTemplate).
	unitPrices map[int64]map[civil.Date]decimal.Decimal

	violations []violation
	logging    bool
	log        []string
	statuses   map[int64]booking.Status // for the log
}

// fuzzBooking is a booking the sequence made, labelled B1, B2… in the
// order they were made; serial is the N of the checkout op that made it.
type fuzzBooking struct {
	label  string
	serial int
	id     int64
	slug   string
	token  string
}

type crashPlan struct {
	where string
	k     int
}

// makeTemplate makes the database every sequence of a world starts
// from: newEnv's three organisations, migrated once; with units, each
// villa gets a second unit priced on its own (unitWorld).
func (r *fuzzRunner) makeTemplate(units bool) *fuzzTemplate {
	ctx := context.Background()
	path := filepath.Join(r.dir, fmt.Sprintf("template-%v.db", units))
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		r.t.Fatal(err)
	}
	e := &env{store: db, property: map[string]int64{}}
	e.addOrg(r.t, "demo", pricing.ModeFull)
	e.addOrg(r.t, "demo-deposit", pricing.ModeDeposit)
	e.addOrg(r.t, "demo-request", pricing.ModeRequest)
	tpl := &fuzzTemplate{path: path, property: e.property}
	if units {
		tpl.unitPrices = map[int64]map[civil.Date]decimal.Decimal{}
		for _, slug := range fuzzOrgs {
			org, err := db.OrganizationBySlug(ctx, slug)
			if err != nil {
				r.t.Fatal(err)
			}
			u := &booking.Unit{Name: "2"}
			if err := db.AddUnit(ctx, org.ID, e.property[slug], u, start); err != nil {
				r.t.Fatal(err)
			}
			own := map[civil.Date]decimal.Decimal{}
			var days []booking.UnitPriceDay
			for night, end := d("2026-06-05"), d("2026-06-12"); night.Before(end); night = night.AddDays(1) {
				price := decimal.NewFromInt(80)
				own[night] = price
				days = append(days, booking.UnitPriceDay{Date: night, Price: &price})
			}
			if _, err := db.SetUnitPrices(ctx, org.ID, u.ID, days); err != nil {
				r.t.Fatal(err)
			}
			tpl.unitPrices[u.ID] = own
		}
	}
	if err := db.Close(); err != nil {
		r.t.Fatal(err)
	}
	return tpl
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o600)
}

func newFuzzWorld(t testing.TB, path string, property map[string]int64, logging bool) *fuzzWorld {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	clock := bookingtest.NewClock(start)
	e := &env{store: db, pay: paymenttest.New(paymenttest.WithClock(clock.Now)), clock: clock,
		notified: &bookingtest.Notifier{}, property: property}
	w := &fuzzWorld{t: t, ctx: ctx, env: e, sw: &crashSwitch{}, attempts: map[string]int{},
		promised: map[int64]int64{}, dashboard: map[int64]bool{}, logging: logging, statuses: map[int64]booking.Status{}}
	w.store = newCrashStore(db, w.sw)
	w.provider = &faultProvider{fake: e.pay, sw: w.sw, event: w.providerEvent}
	for _, slug := range fuzzOrgs {
		org, err := db.OrganizationBySlug(ctx, slug)
		if err != nil {
			t.Fatal(err)
		}
		w.orgIDs = append(w.orgIDs, org.ID)
	}
	w.restart()
	return w
}

// restart starts a new Service over the same store and provider, as a
// process restarted after a crash.
func (w *fuzzWorld) restart() {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	w.svc = booking.NewService(booking.Options{Stores: w.store.seams(), Payments: w.provider, Clock: w.env.clock,
		Notifier: w.env.notified, Logger: logger})
	w.money = money.New(w.svc, money.Options{Store: w.store.seams(), Payments: w.provider, Clock: w.env.clock,
		Notifier: w.env.notified, Logger: logger})
	w.changes = datechange.New(datechange.Options{Bookings: w.svc, Store: crashChanges{crashStore: w.store, db: w.env.store},
		Money: w.money, Clock: w.env.clock, Logger: logger})
}

// opFuncs are the op functions by kind.
var opFuncs = [...]func(*fuzzWorld, op) string{
	opSettings: (*fuzzWorld).settings, opCheckout: (*fuzzWorld).checkout, opGuestPays: (*fuzzWorld).guestPays,
	opConfirm: (*fuzzWorld).confirm, opBalanceAuth: (*fuzzWorld).balanceAuth, opOffSession: (*fuzzWorld).offSession,
	opProviderDown: (*fuzzWorld).providerDown, opProviderFails: (*fuzzWorld).providerFails, opLoseResponse: (*fuzzWorld).loseResponse,
	opCrashStore: (*fuzzWorld).crashStore, opCrashProvider: (*fuzzWorld).crashProvider, opRefundEvents: (*fuzzWorld).refundEvents,
	opWebhook: (*fuzzWorld).webhook, opDeliver: (*fuzzWorld).deliverQueued, opAdvance: (*fuzzWorld).advance,
	opSweep: (*fuzzWorld).sweep, opApprove: (*fuzzWorld).approve, opDecline: (*fuzzWorld).decline,
	opGuestCancel: (*fuzzWorld).guestCancel, opHostCancel: (*fuzzWorld).hostCancel, opClaimDeposit: (*fuzzWorld).claimDeposit,
	opDashboardRefund: (*fuzzWorld).dashboardRefund, opRefundPendingNext: (*fuzzWorld).refundPendingNext,
	opSettleRefund: (*fuzzWorld).settleRefund, opDateChange: (*fuzzWorld).dateChange, opChangePays: (*fuzzWorld).changePays,
}

// TestMoneyFuzzOpKinds checks that every op kind has a function, a
// description and a weight, so that none is left out of the sequences.
func TestMoneyFuzzOpKinds(t *testing.T) {
	for k := range opKind(len(opFuncs)) {
		if opFuncs[k] == nil {
			t.Errorf("op kind %d has no function in opFuncs", k)
		}
		if s := (op{Kind: k}).String(); strings.HasPrefix(s, "op kind") {
			t.Errorf("op kind %d has no description", k)
		}
		if !slices.ContainsFunc(opWeights, func(w weightedKind) bool { return w.kind == k && w.weight > 0 }) && !slices.Contains(dateChangeKinds, k) {
			t.Errorf("op kind %d (%s) is never drawn", k, op{Kind: k})
		}
	}
	if want := int(opChangePays) + 1; len(opFuncs) != want {
		t.Errorf("opFuncs has %d kinds, want %d", len(opFuncs), want)
	}
}

// arming reports whether an op only arms something for later, and so does
// not use up what the previous ops armed for the next one.
func arming(k opKind) bool {
	switch k {
	case opOffSession, opProviderDown, opProviderFails, opLoseResponse, opCrashStore, opCrashProvider, opRefundEvents, opRefundPendingNext:
		return true
	}
	return false
}

// do runs one op with the faults armed for it, then what follows every
// op: the bookings it made are noted, and a cancellation's promise
// recorded.
func (w *fuzzWorld) do(o op) {
	armed := ""
	if !arming(o.Kind) {
		w.env.pay.SetDown(w.downNext)
		w.sw.arm(w.crashNext.where, w.crashNext.k)
		if w.downNext {
			armed += "[provider down] "
		}
		switch w.crashNext.where {
		case crashBeforeWrite:
			armed += fmt.Sprintf("[crash before store write %d] ", w.crashNext.k)
		case crashAfterCall:
			armed += fmt.Sprintf("[crash after provider call %d] ", w.crashNext.k)
		}
	}
	mark := len(w.log) // what happens during the op is logged under it
	out := w.run(o)
	if !arming(o.Kind) {
		w.env.pay.SetDown(false)
		w.sw.disarm()
		w.downNext, w.crashNext = false, crashPlan{}
	}
	if o.Kind == opCheckout {
		out += w.discover(o)
	}
	w.keepPromise()
	if w.logging {
		w.log = slices.Insert(w.log, mark, fmt.Sprintf("#%d %s%s → %s%s", o.N, armed, w.resolved(o), out, w.statusChanges()))
	}
}

// statusChanges lists the bookings whose status changed since it was last
// called, for the op log.
func (w *fuzzWorld) statusChanges() string {
	var changes []string
	for _, fb := range w.bookings {
		b, err := w.env.store.BookingByID(w.ctx, fb.id)
		if err != nil {
			continue
		}
		if was, ok := w.statuses[fb.id]; !ok || was != b.Status {
			if ok {
				changes = append(changes, fmt.Sprintf("%s %s→%s", fb.label, was, b.Status))
			}
			w.statuses[fb.id] = b.Status
		}
	}
	if len(changes) == 0 {
		return ""
	}
	return " {" + strings.Join(changes, ", ") + "}"
}

// run runs an op, recovering a crash (the process died: a new Service
// goes on) and any other panic (the engine's: a failure, after which the
// process restarts too).
func (w *fuzzWorld) run(o op) string {
	return w.guard(o.String(), func() string { return opFuncs[o.Kind](w, o) })
}

func (w *fuzzWorld) guard(what string, f func() string) (out string) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		w.restart()
		if c, ok := p.(crash); ok {
			out = "CRASH " + c.at
			return
		}
		where := panicSite()
		w.violate("panic", fmt.Sprintf("the engine panics in %s: %v", where, p), "during %s", what)
		out = fmt.Sprintf("PANIC in %s: %v", where, p)
	}()
	return f()
}

// panicSite is the staykit function a recovered panic started in.
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if strings.Contains(f.Function, "staykit/") {
			name := strings.TrimPrefix(f.Function, "github.com/staykit/staykit/")
			if strings.HasSuffix(f.File, "_test.go") {
				return "the money fuzz itself, " + name
			}
			return name
		}
		if !more {
			return "unknown"
		}
	}
}

// discover notes the bookings a checkout op made, crashed or not.
func (w *fuzzWorld) discover(o op) string {
	bs, err := w.env.store.Bookings(w.ctx, w.orgIDs[o.Org])
	if err != nil {
		w.t.Fatal(err)
	}
	var found []booking.Booking
	for _, b := range bs {
		if !slices.ContainsFunc(w.bookings, func(fb fuzzBooking) bool { return fb.id == b.ID }) {
			found = append(found, b)
		}
	}
	slices.SortFunc(found, func(a, b booking.Booking) int { return int(a.ID - b.ID) })
	var labels []string
	for _, b := range found {
		fb := fuzzBooking{label: fmt.Sprintf("B%d", len(w.bookings)+1), serial: o.N, id: b.ID, slug: fuzzOrgs[o.Org], token: b.Token}
		w.bookings = append(w.bookings, fb)
		labels = append(labels, fb.label)
	}
	if len(labels) == 0 {
		return ""
	}
	return " [" + strings.Join(labels, ", ") + "]"
}

// target is the booking an op acts on, as stored now: the one made by
// the checkout op ref, or the latest made before it; nil when none.
func (w *fuzzWorld) target(ref int) *booking.Booking {
	fb := w.ref(ref)
	if fb == nil {
		return nil
	}
	b, err := w.env.store.BookingByID(w.ctx, fb.id)
	if err != nil {
		return nil
	}
	return b
}

func (w *fuzzWorld) ref(ref int) *fuzzBooking {
	var found *fuzzBooking
	for i := range w.bookings {
		if w.bookings[i].serial <= ref {
			found = &w.bookings[i]
		}
	}
	return found
}

// resolved is an op's text with its booking named by its label.
func (w *fuzzWorld) resolved(o op) string {
	s := o.String()
	if fb := w.ref(o.Ref); fb != nil {
		s = strings.Replace(s, fmt.Sprintf("booking(#%d)", o.Ref), fb.label, 1)
	}
	return s
}

func (w *fuzzWorld) label(id int64) string {
	for _, fb := range w.bookings {
		if fb.id == id {
			return fb.label
		}
	}
	return fmt.Sprintf("booking id %d", id)
}

func (w *fuzzWorld) slug(b *booking.Booking) string {
	return fuzzOrgs[slices.Index(w.orgIDs, b.OrgID)]
}

// intentsOf are the intents the provider holds for a booking, by the
// booking token in their metadata, in the order they were made: what the
// provider sends events about, whether or not the engine recorded them.
func (w *fuzzWorld) intentsOf(b *booking.Booking) []payment.Intent {
	var out []payment.Intent
	for _, in := range w.env.pay.Intents() {
		if in.Metadata["booking_token"] == b.Token {
			out = append(out, in)
		}
	}
	return out
}

// providerEvent receives the events of the provider's calls: a refund's
// arrives during the call when the sequence says so, every other one
// later.
func (w *fuzzWorld) providerEvent(ev payment.Event, refund bool) {
	if refund && w.reentrant {
		w.logf("    during the refund call: %s: %s", describeEvent(ev), w.deliver(ev))
		return
	}
	w.queue = append(w.queue, ev)
}

// providerSends queues the event the provider sends about an intent the
// guest acted on.
func (w *fuzzWorld) providerSends(in payment.Intent) {
	if typ, ok := eventFor(in); ok {
		if ev, err := w.env.pay.Event(typ, in.ID); err == nil {
			w.queue = append(w.queue, *ev)
		}
	}
}

// deliver hands an event to the engine. One it refuses, or whose handling
// crashed (the provider got no answer), comes again later, up to eight
// times.
func (w *fuzzWorld) deliver(ev payment.Event) string {
	again := func() bool {
		w.attempts[ev.ID]++
		if w.attempts[ev.ID] < 8 {
			w.queue = append(w.queue, ev)
			return true
		}
		return false
	}
	returned := false
	defer func() {
		if !returned { // panicking: the process died handling it
			again()
		}
	}()
	err := w.money.HandlePaymentEvent(w.ctx, ev)
	returned = true
	if err == nil {
		w.delivered = append(w.delivered, ev)
		return "applied"
	}
	if again() {
		return "refused, sent again later: " + firstLine(err)
	}
	return "refused for good: " + firstLine(err)
}

// promise is what a cancellation about to be made of a confirmed booking
// promises the booking keeps: what it was paid, less what went back
// before and what the cancellation refunds (all of it, for a full
// refund). Bookings refunded from the dashboard are left out: what the
// host did there is not the engine's to decide.
type promise struct {
	id   int64
	keep int64
}

func (w *fuzzWorld) promise(b *booking.Booking, refund decimal.Decimal) {
	w.pending = nil
	if b.Status != booking.StatusConfirmed || w.dashboard[b.ID] {
		return
	}
	ob := w.own(w.bookings[slices.IndexFunc(w.bookings, func(fb fuzzBooking) bool { return fb.id == b.ID })])
	// What went or is going back already (a change of dates' refund, on
	// its way) is not kept. A refused change's charge, given back whole,
	// was never part of what the booking was paid.
	refunded := ledger.PositionOf(ob.entries).Returned()
	for _, e := range ob.entries {
		if e.Refunding() && e.Reason == ledger.ReasonChangeRefused {
			refunded -= e.Amount
		}
	}
	w.pending = &promise{id: b.ID, keep: max(0, toMinor(b.PaidAmount)-refunded-toMinor(pricing.Round(refund, "EUR")))}
}

// keepPromise records the promise of the op that just ran if it did
// cancel the booking (answer lost, or crashed after, included).
func (w *fuzzWorld) keepPromise() {
	p := w.pending
	w.pending = nil
	if p == nil {
		return
	}
	if b, err := w.env.store.BookingByID(w.ctx, p.id); err == nil && b.Status == booking.StatusCancelled {
		w.promised[p.id] = p.keep
	}
}

// violate records a broken invariant once.
func (w *fuzzWorld) violate(inv, kind, format string, args ...any) {
	v := violation{inv: inv, kind: kind, detail: fmt.Sprintf(format, args...)}
	if !slices.Contains(w.violations, v) {
		w.violations = append(w.violations, v)
		head, _, _ := strings.Cut(v.detail, "\n")
		w.logf("    VIOLATION (%s) %s: %s", v.inv, v.kind, head)
	}
}

func (w *fuzzWorld) logf(format string, args ...any) {
	if w.logging {
		w.log = append(w.log, fmt.Sprintf(format, args...))
	}
}
