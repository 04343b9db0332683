package money_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/pricing"
)

// The money fuzz's operations. A sequence is a list of op values generated
// from a seed, so that it can be replayed, and shrunk by removing ops.

// opKind is what an op does.
type opKind uint8

// Operation kinds: the guest's, the host's, the provider's, time's, and
// the faults'.
const (
	opSettings          opKind = iota // the host sets the villa's policy and security deposit
	opCheckout                        // a guest checks out
	opGuestPays                       // the guest pays: paid, declined, 3-D Secure, processing
	opConfirm                         // the booking page confirms
	opBalanceAuth                     // the guest completes 3-D Secure on the balance
	opOffSession                      // the guest's bank answers the next off-session charges so
	opProviderDown                    // the provider is down during the next op
	opProviderFails                   // the provider's next call of one kind fails
	opLoseResponse                    // the provider's next answer of one kind is lost, the call applied
	opCrashStore                      // the next op dies before its k-th store write
	opCrashProvider                   // the next op dies after its k-th provider call
	opRefundEvents                    // refund events from now on: during the refund call, or later
	opWebhook                         // the provider sends an event about one of the booking's intents
	opDeliver                         // queued events arrive, shuffled
	opAdvance                         // time passes
	opSweep                           // the sweeper and the ledger worker run
	opApprove                         // the host approves a request
	opDecline                         // the host declines a request
	opGuestCancel                     // the guest cancels under the booking's policy
	opHostCancel                      // the host cancels, refunding by a rule
	opClaimDeposit                    // the host claims part of the security deposit
	opDashboardRefund                 // the host refunds from the provider's dashboard
	opRefundPendingNext               // the provider answers the next refund "pending"
	opSettleRefund                    // a pending refund settles at the provider: succeeded or failed
	opDateChange                      // the guest changes dates or party (insertDateChanges)
	opChangePays                      // the guest pays a change's charge on the page (insertDateChanges)
)

// payOutcome is what a guest's payment attempt comes to.
type payOutcome uint8

const (
	payPaid payOutcome = iota // paid (authorised, in request mode)
	payDeclined
	pay3DS // the bank asks for 3-D Secure
	payProcessing
)

func (p payOutcome) String() string {
	return [...]string{"paid", "declined", "3-D Secure asked", "processing"}[p]
}

// delivery is when the provider's event of a webhook op arrives.
type delivery uint8

const (
	deliverNow    delivery = iota
	deliverLater           // queued
	deliverTwice           // now, and again later (same event id)
	deliverReplay          // an event delivered before arrives again
)

func (d delivery) String() string {
	return [...]string{"now", "later", "now and again later", "replayed"}[d]
}

// op is one step of a sequence. Only the fields its Kind uses are set.
type op struct {
	// N is the op's place in the sequence generated from the seed; it
	// stays when shrinking removes other ops, and names the op in replays.
	N    int
	Kind opKind
	// Ref is the booking acted on: the one made by the checkout op N=Ref,
	// or the latest made before it (that checkout failed or was removed).
	Ref int

	Org, Stay  int    // checkout and settings: fuzzOrgs and fuzzStays indexes
	Coupon     string // checkout
	Pay        payOutcome
	Outcomes   []string // off-session outcomes
	ProviderOp string   // opProviderFails, opLoseResponse
	K          int      // crash: the k-th write or call of the next op
	Rule       booking.RefundRule
	Permille   int // share of an amount (refund, claim), in thousandths
	Policy     string
	Deposit    int // security deposit in euros; 0 for none
	HoldDays   int
	Release    int
	Dur        time.Duration
	Which      int // which of the booking's intents (or delivered events)
	When       delivery
	Reentrant  bool   // opRefundEvents
	Fail       bool   // opSettleRefund
	Page       bool   // opBalanceAuth: the guest's page asks the engine too
	Quarters   int    // opDeliver: how much of the queue arrives, in quarters
	Shuffle    uint64 // opDeliver: the order they arrive in
	Guests     int    // opDateChange: the new party
	Approval   int    // opDateChange: 0 none, 1 the host approves, 2 the host declines
}

// fuzzOrgs are newEnv's organisations: full payment, deposit with a
// balance due 3 days before arrival, and request.
var fuzzOrgs = []string{"demo", "demo-deposit", "demo-request"}

// fuzzStays overlap so that guests compete for dates; arrivals from 4 to
// 12 June put the balance of a deposit (due 3 days before) and the
// security deposit hold (0–6 days before) within a sequence's days.
var fuzzStays = []civil.Range{
	{Start: d("2026-06-04"), End: d("2026-06-06")},
	{Start: d("2026-06-05"), End: d("2026-06-08")},
	{Start: d("2026-06-06"), End: d("2026-06-09")},
	{Start: d("2026-06-07"), End: d("2026-06-10")},
	{Start: d("2026-06-08"), End: d("2026-06-11")},
	{Start: d("2026-06-09"), End: d("2026-06-12")},
	{Start: d("2026-06-10"), End: d("2026-06-14")},
	{Start: d("2026-06-12"), End: d("2026-06-15")},
}

// targets reports whether the op acts on a booking (its Ref).
func (o op) targets() bool {
	switch o.Kind {
	case opGuestPays, opConfirm, opBalanceAuth, opApprove, opDecline, opGuestCancel, opHostCancel,
		opClaimDeposit, opDashboardRefund, opSettleRefund, opDateChange, opChangePays:
		return true
	case opWebhook:
		return o.When != deliverReplay
	}
	return false
}

func (o op) String() string {
	b := fmt.Sprintf("booking(#%d)", o.Ref)
	switch o.Kind {
	case opSettings:
		dep := "no security deposit"
		if o.Deposit > 0 {
			dep = fmt.Sprintf("security deposit %d held %d days before, released %d days after", o.Deposit, o.HoldDays, o.Release)
		}
		return fmt.Sprintf("host sets %s villa: policy %s, %s", fuzzOrgs[o.Org], o.Policy, dep)
	case opCheckout:
		s := fmt.Sprintf("checkout %s %s→%s", fuzzOrgs[o.Org], fuzzStays[o.Stay].Start, fuzzStays[o.Stay].End)
		if o.Coupon != "" {
			s += " coupon " + o.Coupon
		}
		return s
	case opGuestPays:
		return fmt.Sprintf("guest of %s pays: %s", b, o.Pay)
	case opConfirm:
		return "page confirms " + b
	case opBalanceAuth:
		s := "guest completes 3-D Secure of the balance of " + b
		if o.Page {
			s += " on the booking page"
		}
		return s
	case opOffSession:
		return "bank answers the next off-session charges: " + strings.Join(o.Outcomes, ", ")
	case opProviderDown:
		return "provider down during the next op"
	case opProviderFails:
		return "provider fails the next " + o.ProviderOp
	case opLoseResponse:
		return "provider applies the next " + o.ProviderOp + " and its answer is lost"
	case opCrashStore:
		return fmt.Sprintf("next op crashes before its store write %d", o.K)
	case opCrashProvider:
		return fmt.Sprintf("next op crashes after its provider call %d", o.K)
	case opRefundEvents:
		if o.Reentrant {
			return "refund events arrive during the refund call"
		}
		return "refund events arrive later"
	case opWebhook:
		if o.When == deliverReplay {
			return fmt.Sprintf("provider redelivers event %d", o.Which)
		}
		return fmt.Sprintf("provider sends an event about intent %d of %s, %s", o.Which, b, o.When)
	case opDeliver:
		return fmt.Sprintf("%d/4 of the queued events arrive, shuffled (%d)", o.Quarters, o.Shuffle)
	case opAdvance:
		return "clock +" + o.Dur.String()
	case opSweep:
		return "sweep: ExpireHolds, then the ledger (ProcessPayments, or every other sweep one SendLedgerEntry job per due entry)"
	case opApprove:
		return "host approves " + b
	case opDecline:
		return "host declines " + b
	case opGuestCancel:
		return "guest cancels " + b
	case opHostCancel:
		s := fmt.Sprintf("host cancels %s, refund %s", b, o.Rule)
		if o.Rule == booking.RefundAmount {
			s += fmt.Sprintf(" %d‰ of paid", o.Permille)
		}
		return s
	case opClaimDeposit:
		return fmt.Sprintf("host claims %d‰ of the security deposit of %s", o.Permille, b)
	case opDashboardRefund:
		return fmt.Sprintf("host refunds %d‰ of what is left on intent %d of %s from the dashboard", o.Permille, o.Which, b)
	case opRefundPendingNext:
		return "provider answers the next refund pending"
	case opSettleRefund:
		outcome := "succeeds"
		if o.Fail {
			outcome = "fails"
		}
		return fmt.Sprintf("a pending refund of %s %s at the provider", b, outcome)
	case opDateChange:
		s := fmt.Sprintf("guest of %s changes to %s→%s for %d", b, fuzzStays[o.Stay].Start, fuzzStays[o.Stay].End, o.Guests)
		switch o.Approval {
		case 1:
			s += ", the host approving it"
		case 2:
			s += ", the host declining it"
		}
		return s
	case opChangePays:
		s := fmt.Sprintf("guest of %s pays the change's charge: %s", b, o.Pay)
		if o.Page {
			s += ", then the page asks"
		}
		return s
	}
	return fmt.Sprintf("op kind %d", o.Kind)
}

// weightedKind is how often a kind of op is drawn.
type weightedKind struct {
	kind   opKind
	weight int
}

// opWeights is how often each kind is drawn.
var opWeights = []weightedKind{
	{opCheckout, 10}, {opGuestPays, 5}, {opConfirm, 3}, {opBalanceAuth, 2}, {opOffSession, 4},
	{opProviderDown, 3}, {opProviderFails, 3}, {opLoseResponse, 5}, {opCrashStore, 4}, {opCrashProvider, 4},
	{opRefundEvents, 2}, {opWebhook, 7}, {opDeliver, 6}, {opAdvance, 8}, {opSweep, 7},
	{opApprove, 2}, {opDecline, 1}, {opGuestCancel, 3}, {opHostCancel, 3}, {opClaimDeposit, 3},
	{opDashboardRefund, 2}, {opRefundPendingNext, 2}, {opSettleRefund, 2}, {opSettings, 1},
}

// generate returns the sequence of a seed: settings for some villas,
// then 30–100 operations. A checkout schedules what its guest and host
// are likely to do next (pay, confirm, approve, cancel) a few ops later,
// so that bookings get somewhere; everything else is drawn by opWeights.
func generate(seed uint64) []op {
	return insertDateChanges(seed, generateBase(seed))
}

// generateBase is the sequence of a seed before insertDateChanges.
func generateBase(seed uint64) []op {
	g := &generator{rng: rand.New(rand.NewPCG(seed, 0x6d6f6e6579))}
	for org := range fuzzOrgs {
		if g.rng.IntN(2) == 0 {
			g.add(g.settings(org))
		}
	}
	total := 0
	for _, w := range opWeights {
		total += w.weight
	}
	n := len(g.ops) + 30 + g.rng.IntN(71)
	for len(g.ops) < n {
		if i := slices.IndexFunc(g.later, func(s scheduled) bool { return s.at <= len(g.ops) }); i >= 0 {
			g.add(g.later[i].o)
			g.later = slices.Delete(g.later, i, i+1)
			continue
		}
		pick := g.rng.IntN(total)
		for _, w := range opWeights {
			if pick < w.weight {
				g.draw(w.kind)
				break
			}
			pick -= w.weight
		}
	}
	return g.ops
}

type generator struct {
	rng       *rand.Rand
	ops       []op
	checkouts []int       // N of the checkout ops so far
	later     []scheduled // ops a checkout scheduled
}

// scheduled is an op to add once the sequence is at least at long.
type scheduled struct {
	at int
	o  op
}

func (g *generator) add(o op) {
	o.N = len(g.ops)
	if o.Kind == opCheckout {
		g.checkouts = append(g.checkouts, o.N)
	}
	g.ops = append(g.ops, o)
}

// schedule adds o in a few ops' time: between lo and hi ops from now.
func (g *generator) schedule(lo, hi int, o op) {
	g.later = append(g.later, scheduled{at: len(g.ops) + lo + g.rng.IntN(hi-lo+1), o: o})
}

// ref picks a booking, mostly a recent one.
func (g *generator) ref() int {
	return g.checkouts[len(g.checkouts)-1-g.rng.IntN(min(len(g.checkouts), 5))]
}

func (g *generator) settings(org int) op {
	o := op{Kind: opSettings, Org: org, Policy: policy.Presets()[g.rng.IntN(len(policy.Presets()))]}
	if g.rng.IntN(3) > 0 {
		o.Deposit, o.HoldDays, o.Release = 50*(1+g.rng.IntN(6)), 2+g.rng.IntN(booking.MaxDepositHoldDays-1), g.rng.IntN(booking.MaxDepositReleaseDays+1)
	}
	return o
}

// story schedules what the guest and the host of the booking of checkout
// c likely do next.
func (g *generator) story(c op) {
	rng, ref := g.rng, c.N
	if rng.IntN(5) > 0 {
		first := []payOutcome{payPaid, payPaid, payPaid, payPaid, payPaid, payPaid, pay3DS, pay3DS, payProcessing, payDeclined}[rng.IntN(10)]
		g.schedule(0, 3, op{Kind: opGuestPays, Ref: ref, Pay: first})
		if first != payPaid && rng.IntN(5) < 3 {
			g.schedule(4, 8, op{Kind: opGuestPays, Ref: ref, Pay: payPaid})
		}
	}
	if rng.IntN(20) < 13 {
		g.schedule(1, 9, op{Kind: opConfirm, Ref: ref})
	}
	if fuzzOrgs[c.Org] == "demo-request" {
		switch r := rng.IntN(20); {
		case r < 12:
			g.schedule(4, 14, op{Kind: opApprove, Ref: ref})
		case r < 15:
			g.schedule(4, 14, op{Kind: opDecline, Ref: ref})
		}
	}
	if fuzzOrgs[c.Org] == "demo-deposit" && rng.IntN(10) < 3 {
		g.schedule(0, 10, op{Kind: opOffSession, Outcomes: []string{paymenttest.OffSessionAuthenticates}})
		g.schedule(10, 40, op{Kind: opBalanceAuth, Ref: ref, Page: rng.IntN(3) > 0})
	}
	if fuzzOrgs[c.Org] != "demo-request" && rng.IntN(4) == 0 {
		g.schedule(15, 45, op{Kind: opClaimDeposit, Ref: ref, Permille: 1 + rng.IntN(1000)})
	}
	switch r := rng.IntN(20); {
	case r < 3:
		g.schedule(6, 40, op{Kind: opGuestCancel, Ref: ref})
	case r < 6:
		g.schedule(6, 40, g.hostCancel(ref))
	}
}

func (g *generator) hostCancel(ref int) op {
	rules := []booking.RefundRule{booking.RefundPolicy, booking.RefundFull, booking.RefundNone, booking.RefundAmount}
	return op{Kind: opHostCancel, Ref: ref, Rule: rules[g.rng.IntN(len(rules))], Permille: 1 + g.rng.IntN(1000)}
}

func (g *generator) draw(kind opKind) {
	rng := g.rng
	if len(g.checkouts) == 0 && kind != opSettings {
		kind = opCheckout
	}
	o := op{Kind: kind}
	switch kind {
	case opSettings:
		o = g.settings(rng.IntN(len(fuzzOrgs)))
	case opCheckout:
		o.Org, o.Stay = rng.IntN(len(fuzzOrgs)), rng.IntN(len(fuzzStays))
		if rng.IntN(10) == 0 {
			o.Coupon = []string{"WELCOME10", "FREE100", "LAST1"}[rng.IntN(3)]
		}
		g.add(o)
		g.story(g.ops[len(g.ops)-1])
		return
	case opGuestPays:
		o.Ref = g.ref()
		o.Pay = []payOutcome{payPaid, payPaid, payPaid, payPaid, payDeclined, pay3DS, pay3DS, payProcessing}[rng.IntN(8)]
	case opConfirm, opApprove, opDecline, opGuestCancel:
		o.Ref = g.ref()
	case opBalanceAuth:
		o.Ref, o.Page = g.ref(), rng.IntN(3) > 0
	case opOffSession:
		outcomes := []string{paymenttest.OffSessionSucceeds, paymenttest.OffSessionDeclined, paymenttest.OffSessionAuthenticates}
		for range 1 + rng.IntN(3) {
			o.Outcomes = append(o.Outcomes, outcomes[rng.IntN(len(outcomes))])
		}
	case opProviderFails:
		ops := []string{paymenttest.OpCreate, paymenttest.OpGet, paymenttest.OpCapture, paymenttest.OpCancel, paymenttest.OpRefund,
			paymenttest.OpCustomer, paymenttest.OpChargeSaved, paymenttest.OpConfirmSaved, paymenttest.OpCaptureAmount}
		o.ProviderOp = ops[rng.IntN(len(ops))]
	case opLoseResponse:
		ops := []string{paymenttest.OpCreate, paymenttest.OpCapture, paymenttest.OpCancel, paymenttest.OpRefund,
			paymenttest.OpChargeSaved, paymenttest.OpCaptureAmount}
		o.ProviderOp = ops[rng.IntN(len(ops))]
	case opCrashStore:
		o.K = 1 + rng.IntN(6)
	case opCrashProvider:
		o.K = 1 + rng.IntN(3)
	case opRefundEvents:
		o.Reentrant = rng.IntN(3) > 0
	case opWebhook:
		o.Ref, o.Which, o.When = g.ref(), rng.IntN(4), delivery(rng.IntN(4))
		if o.When == deliverReplay {
			o.Which = rng.IntN(64)
		}
	case opDeliver:
		o.Quarters, o.Shuffle = 1+rng.IntN(4), rng.Uint64()
	case opAdvance:
		switch r := rng.IntN(20); {
		case r < 8:
			o.Dur = time.Duration(1+rng.IntN(59)) * time.Minute
		case r < 15:
			o.Dur = time.Duration(1+rng.IntN(12)) * time.Hour
		default:
			o.Dur = time.Duration(24+rng.IntN(48)) * time.Hour
		}
		g.add(o)
		if rng.IntN(10) < 7 {
			g.add(op{Kind: opSweep})
		}
		return
	case opHostCancel:
		o = g.hostCancel(g.ref())
	case opClaimDeposit:
		o.Ref, o.Permille = g.ref(), 1+rng.IntN(1000)
	case opDashboardRefund:
		o.Ref, o.Which, o.Permille = g.ref(), rng.IntN(4), 1+rng.IntN(1000)
	case opSettleRefund:
		o.Ref, o.Fail = g.ref(), rng.IntN(3) > 0
	}
	g.add(o)
}

// The op functions. Each returns what happened, for the op log; a fault
// of the engine shows in the invariants, not here.

func (w *fuzzWorld) settings(o op) string {
	st := booking.Settings{PropertyID: w.env.property[fuzzOrgs[o.Org]], SecurityDeposit: decimal.NewFromInt(int64(o.Deposit)),
		DepositHoldDays: o.HoldDays, DepositReleaseDays: o.Release}
	p, err := policy.Preset(o.Policy)
	if err != nil {
		return "bad policy: " + err.Error()
	}
	st.Policy = &p
	return result(w.svc.SaveSettings(w.ctx, fuzzOrgs[o.Org], st))
}

func (w *fuzzWorld) checkout(o op) string {
	slug := fuzzOrgs[o.Org]
	r := w.env.order(slug)
	r.CheckIn, r.CheckOut, r.CouponCode = fuzzStays[o.Stay].Start, fuzzStays[o.Stay].End, o.Coupon
	res, err := w.svc.Checkout(w.ctx, slug, r)
	if err != nil {
		return result(err)
	}
	return fmt.Sprintf("booking id %d %s, charge %s, balance %s", res.Booking.ID, res.Booking.Status, res.Booking.ChargeAmount, res.Booking.BalanceAmount)
}

func (w *fuzzWorld) guestPays(o op) string {
	b := w.target(o.Ref)
	if b == nil || b.PaymentIntentID == "" {
		return "no intent"
	}
	pay := w.env.pay.SimulatePaid
	switch o.Pay {
	case payDeclined:
		pay = w.env.pay.SimulateDeclined
	case pay3DS:
		pay = w.env.pay.SimulateRequiresAction
	case payProcessing:
		pay = w.env.pay.SimulateProcessing
	}
	in, err := pay(b.PaymentIntentID)
	if err != nil {
		return result(err)
	}
	w.providerSends(*in)
	return "intent " + string(in.Status)
}

func (w *fuzzWorld) confirm(o op) string {
	b := w.target(o.Ref)
	if b == nil {
		return "no booking"
	}
	d, err := w.svc.Confirm(w.ctx, w.slug(b), b.Token, booking.ConfirmRequest{})
	if err != nil {
		return result(err)
	}
	return string(d.Booking.Status)
}

func (w *fuzzWorld) balanceAuth(o op) string {
	b := w.target(o.Ref)
	if b == nil {
		return "no booking"
	}
	t, err := w.env.store.Terms(w.ctx, b.ID)
	if err != nil || t.BalanceIntentID == "" {
		return "no balance intent"
	}
	out := "balance intent "
	if in, err := w.env.pay.SimulatePaid(t.BalanceIntentID); err != nil {
		out += result(err)
	} else {
		w.providerSends(*in)
		out += string(in.Status)
	}
	if o.Page {
		st, err := w.svc.BalancePayment(w.ctx, w.slug(b), b.Token)
		if err != nil {
			return out + "; page: " + result(err)
		}
		out += "; page: balance " + string(st.Status)
	}
	return out
}

func (w *fuzzWorld) offSession(o op) string {
	w.env.pay.NextOffSession(o.Outcomes...)
	return "queued"
}

func (w *fuzzWorld) providerDown(op) string { w.downNext = true; return "armed" }

func (w *fuzzWorld) providerFails(o op) string {
	w.env.pay.FailNext(o.ProviderOp, nil)
	return "armed"
}

func (w *fuzzWorld) loseResponse(o op) string {
	w.env.pay.LoseNextResponse(o.ProviderOp)
	return "armed"
}

func (w *fuzzWorld) crashStore(o op) string {
	w.crashNext = crashPlan{where: crashBeforeWrite, k: o.K}
	return "armed"
}

func (w *fuzzWorld) crashProvider(o op) string {
	w.crashNext = crashPlan{where: crashAfterCall, k: o.K}
	return "armed"
}

func (w *fuzzWorld) refundEvents(o op) string {
	w.reentrant = o.Reentrant
	return "set"
}

func (w *fuzzWorld) webhook(o op) string {
	if o.When == deliverReplay {
		if len(w.delivered) == 0 {
			return "nothing delivered yet"
		}
		ev := w.delivered[o.Which%len(w.delivered)]
		return describeEvent(ev) + ": " + w.deliver(ev)
	}
	b := w.target(o.Ref)
	if b == nil {
		return "no booking"
	}
	ins := w.intentsOf(b)
	if len(ins) == 0 {
		return "no intent"
	}
	in := ins[o.Which%len(ins)]
	typ, ok := eventFor(in)
	if !ok {
		typ = payment.EventFailed // a stale or contradictory event
	}
	ev, err := w.env.pay.Event(typ, in.ID)
	if err != nil {
		return result(err)
	}
	out := describeEvent(*ev)
	if o.When == deliverNow || o.When == deliverTwice {
		out += ": " + w.deliver(*ev)
	}
	if o.When == deliverLater || o.When == deliverTwice {
		w.queue = append(w.queue, *ev)
		out += "; queued"
	}
	return out
}

func (w *fuzzWorld) deliverQueued(o op) string {
	rng := rand.New(rand.NewPCG(o.Shuffle, 0))
	rng.Shuffle(len(w.queue), func(i, j int) { w.queue[i], w.queue[j] = w.queue[j], w.queue[i] })
	// One at a time from the front, so that a crash leaves the rest queued;
	// events refused or given rise to go to the back.
	var outs []string
	for range (len(w.queue)*o.Quarters + 3) / 4 {
		ev := w.queue[0]
		w.queue = w.queue[1:]
		outs = append(outs, describeEvent(ev)+": "+w.deliver(ev))
	}
	if len(outs) == 0 {
		return "none queued"
	}
	return strings.Join(outs, "; ")
}

func (w *fuzzWorld) advance(o op) string {
	w.env.clock.Advance(o.Dur)
	return w.env.clock.Now().UTC().Format("2006-01-02 15:04Z")
}

func (w *fuzzWorld) sweep(op) string {
	n, err := w.svc.ExpireHolds(w.ctx)
	out := fmt.Sprintf("expired %d", n)
	if err != nil {
		out += " (" + firstLine(err) + ")"
	}
	// Every other sweep sends the ledger as River does in production,
	// one job per due entry (SendLedgerEntry); the others do it all at
	// once (ProcessPayments).
	w.sweeps++
	if w.sweeps%2 == 0 {
		return out + ", jobs: " + w.ledgerJobs()
	}
	m, err := w.money.ProcessPayments(w.ctx)
	out += fmt.Sprintf(", settled %d entries", m)
	if err != nil {
		out += " (" + firstLine(err) + ")"
	}
	return out
}

// ledgerJobs runs the job of each due pending entry of the ledger, as
// package jobs does: SendLedgerEntry, entry by entry.
func (w *fuzzWorld) ledgerJobs() string {
	now := w.env.clock.Now()
	sent, settled := 0, 0
	var errs []string
	for _, b := range w.bookings {
		entries, err := w.store.LedgerEntries(w.ctx, b.id)
		if err != nil {
			errs = append(errs, firstLine(err))
			continue
		}
		for _, e := range entries {
			if e.Status != ledger.StatusPending || e.NextAttemptAt.After(now) {
				continue
			}
			sent++
			w.jobSends++
			next, err := w.money.SendLedgerEntry(w.ctx, b.id, e.ID)
			switch {
			case err != nil:
				errs = append(errs, firstLine(err))
			case next.IsZero():
				settled++
			}
		}
	}
	out := fmt.Sprintf("sent %d entries, settled %d", sent, settled)
	if len(errs) > 0 {
		out += " (" + strings.Join(errs, "; ") + ")"
	}
	return out
}

func (w *fuzzWorld) approve(o op) string {
	b := w.target(o.Ref)
	if b == nil {
		return "no booking"
	}
	got, err := w.svc.Approve(w.ctx, w.slug(b), b.Token)
	if err != nil {
		return result(err)
	}
	return string(got.Status)
}

func (w *fuzzWorld) decline(o op) string {
	b := w.target(o.Ref)
	if b == nil {
		return "no booking"
	}
	got, err := w.svc.Decline(w.ctx, w.slug(b), b.Token)
	if err != nil {
		return result(err)
	}
	return string(got.Status)
}

// guestCancel cancels under the booking's policy, after reading the
// preview the guest is shown: what the cancellation promises to keep.
func (w *fuzzWorld) guestCancel(o op) string {
	b := w.target(o.Ref)
	if b == nil {
		return "no booking"
	}
	pv, err := w.svc.CancellationPreview(w.ctx, w.slug(b), b.Token)
	if err != nil {
		return "preview: " + result(err)
	}
	w.promise(b, pv.Refund)
	d, err := w.svc.CancelByGuest(w.ctx, w.slug(b), b.Token)
	if err != nil {
		return result(err)
	}
	return fmt.Sprintf("%s, refund %s", d.Booking.Status, pv.Refund)
}

func (w *fuzzWorld) hostCancel(o op) string {
	b := w.target(o.Ref)
	if b == nil {
		return "no booking"
	}
	opts := booking.CancelOptions{Refund: o.Rule}
	var refund decimal.Decimal
	switch o.Rule {
	case booking.RefundPolicy:
		pv, err := w.svc.CancellationPreview(w.ctx, w.slug(b), b.Token)
		if err != nil {
			return "preview: " + result(err)
		}
		refund = pv.Refund
	case booking.RefundFull:
		refund = b.PaidAmount // everything not refunded yet: nothing is kept
	case booking.RefundAmount:
		opts.Amount = permille(b.PaidAmount, o.Permille)
		refund = opts.Amount
	}
	w.promise(b, refund)
	got, err := w.svc.CancelWithOptions(w.ctx, w.slug(b), b.Token, opts)
	if err != nil {
		return result(err)
	}
	return string(got.Status)
}

func (w *fuzzWorld) claimDeposit(o op) string {
	b := w.target(o.Ref)
	if b == nil {
		return "no booking"
	}
	held := dec("50")
	if t, err := w.env.store.Terms(w.ctx, b.ID); err == nil && t.Deposit.IsPositive() {
		held = t.Deposit
	}
	amount := permille(held, o.Permille)
	t, err := w.svc.ClaimDeposit(w.ctx, w.slug(b), b.Token, amount)
	if err != nil {
		return result(err)
	}
	if closed(b.Status) {
		w.violate("b", "a security deposit was claimed on a closed booking", "%s (%s) let the host claim %s of its security deposit",
			w.label(b.ID), b.Status, amount)
	}
	return fmt.Sprintf("claimed %s, deposit %s", t.DepositClaimed, t.DepositStatus)
}

// dashboardRefund refunds from the provider's dashboard, which only a
// booking still under way can see decided later: a closed booking's
// decision stands whatever the host does outside staykit.
func (w *fuzzWorld) dashboardRefund(o op) string {
	b := w.target(o.Ref)
	if b == nil || closed(b.Status) {
		return "no live booking"
	}
	var withMoney []payment.Intent
	for _, in := range w.intentsOf(b) {
		if in.Status == payment.StatusSucceeded && in.AmountReceived > in.AmountRefunded {
			withMoney = append(withMoney, in)
		}
	}
	if len(withMoney) == 0 {
		return "no money to refund"
	}
	in := withMoney[o.Which%len(withMoney)]
	amount := max(1, (in.AmountReceived-in.AmountRefunded)*int64(o.Permille)/1000)
	r, err := w.env.pay.SimulateDashboardRefund(in.ID, amount)
	if err != nil {
		return result(err)
	}
	w.dashboard[b.ID] = true
	if ev, err := w.env.pay.Event(payment.EventRefunded, in.ID); err == nil {
		ev.Refund = r
		w.queue = append(w.queue, *ev)
	}
	return "refunded " + minor(amount) + " of " + in.ID
}

func (w *fuzzWorld) refundPendingNext(op) string {
	w.env.pay.LeaveNextRefundPending()
	return "armed"
}

func (w *fuzzWorld) settleRefund(o op) string {
	b := w.target(o.Ref)
	if b == nil {
		return "no booking"
	}
	status := payment.RefundSucceeded
	if o.Fail {
		status = payment.RefundFailed
	}
	for _, in := range w.intentsOf(b) {
		for _, r := range w.env.pay.Refunds(in.ID) {
			if r.Status == payment.RefundPending {
				return w.settleProviderRefund(r, status)
			}
		}
	}
	return "no pending refund"
}

// settleProviderRefund settles a pending refund at the provider and
// queues the event that says so.
func (w *fuzzWorld) settleProviderRefund(r payment.Refund, status payment.RefundStatus) string {
	settled, err := w.env.pay.SettleRefund(r.ID, status)
	if err != nil {
		return result(err)
	}
	w.queue = append(w.queue, payment.Event{ID: fmt.Sprintf("evt_settle_%s_%s", r.ID, status), Type: payment.EventRefundUpdated, Refund: settled})
	return fmt.Sprintf("refund %s of %s %s", minor(r.Amount), r.IntentID, status)
}

// permille is n thousandths of amount in cents, at least a cent.
func permille(amount decimal.Decimal, n int) decimal.Decimal {
	out := pricing.Round(amount.Mul(decimal.NewFromInt(int64(n))).Div(decimal.NewFromInt(1000)), "EUR")
	if !out.IsPositive() {
		return dec("0.01")
	}
	return out
}

func closed(s booking.Status) bool {
	return s == booking.StatusExpired || s == booking.StatusDeclined || s == booking.StatusCancelled
}

// result is an engine call's outcome for the op log.
func result(err error) string {
	if err == nil {
		return "ok"
	}
	if code := booking.ErrorCode(err); code != "" && code != booking.CodeInternal {
		return code
	}
	return "error: " + firstLine(err)
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

func describeEvent(ev payment.Event) string {
	switch {
	case ev.Refund != nil:
		return fmt.Sprintf("%s %s (%s of %s, %s)", ev.ID, ev.Type, minor(ev.Refund.Amount), ev.Refund.IntentID, ev.Refund.Status)
	case ev.Intent != nil:
		return fmt.Sprintf("%s %s (%s)", ev.ID, ev.Type, ev.Intent.ID)
	}
	return fmt.Sprintf("%s %s", ev.ID, ev.Type)
}

// minor formats minor units of EUR.
func minor(n int64) string { return pricing.FromMinor(n, "EUR").StringFixed(2) }
