package booking_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
)

// TestMoneyInvariantsUnderRandomFailures drives the engine through seeded
// random sequences of checkouts, payments, lost responses, provider
// outages, duplicate and reordered events, sweeps, approvals, declines and
// cancellations, then lets the workers settle and checks the three
// invariants of the payment lifecycle on every booking:
//
//  1. no money without a booking: an intent of a booking that ended keeps
//     no money and no authorisation (unless the host cancelled a confirmed
//     booking without a refund, which is the host's choice);
//  2. no booking without money: a confirmed booking's intent succeeded for
//     its charge and nothing of it was refunded;
//  3. idempotency: no intent is refunded more than it received, and no
//     ledger entry is left pending.
func TestMoneyInvariantsUnderRandomFailures(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			runMoneyScenario(t, seed, 160)
		})
	}
}

type moneyWorld struct {
	t        *testing.T
	e        *env
	rng      *rand.Rand
	slugs    map[int64]string // booking ID → organisation slug
	bookings []int64
	events   []payment.Event
	// keptByHost are bookings the host cancelled, confirmed, without a
	// refund: the money stays, by the host's choice.
	keptByHost map[int64]bool
}

// stays are few and overlapping, so guests compete for dates.
var moneyStays = [][2]string{
	{"2026-06-08", "2026-06-11"}, {"2026-06-09", "2026-06-12"}, {"2026-06-12", "2026-06-15"}, {"2026-06-08", "2026-06-15"},
}

func runMoneyScenario(t *testing.T, seed uint64, steps int) {
	e := newEnv(t)
	w := &moneyWorld{t: t, e: e, rng: rand.New(rand.NewPCG(seed, 0x5eed)), slugs: map[int64]string{}, keptByHost: map[int64]bool{}}
	ctx := context.Background()
	for range steps {
		w.step(ctx)
	}
	// Let everything settle: the provider comes back, every event is
	// delivered, every hold and authorisation lapses, the workers run.
	e.pay.SetDown(false)
	for _, ev := range w.events {
		_ = e.svc.HandlePaymentEvent(ctx, ev)
	}
	for range 3 {
		e.clock.Advance(8 * 24 * time.Hour)
		_, _ = e.svc.ExpireHolds(ctx)
		e.drain(t)
	}
	w.check(ctx)
}

func (w *moneyWorld) pick() (int64, string, bool) {
	if len(w.bookings) == 0 {
		return 0, "", false
	}
	id := w.bookings[w.rng.IntN(len(w.bookings))]
	return id, w.slugs[id], true
}

func (w *moneyWorld) step(ctx context.Context) {
	e, rng := w.e, w.rng
	// Faults armed for this step only.
	down := rng.IntN(10) == 0
	e.pay.SetDown(down)
	defer e.pay.SetDown(false)
	if rng.IntN(8) == 0 {
		e.pay.LoseNextResponse([]string{paymenttest.OpCapture, paymenttest.OpCancel, paymenttest.OpRefund, paymenttest.OpCreate}[rng.IntN(4)])
	}
	switch rng.IntN(11) {
	case 0, 1: // a guest checks out
		slug := []string{"demo", "demo-deposit", "demo-request"}[rng.IntN(3)]
		st := moneyStays[rng.IntN(len(moneyStays))]
		r := e.order(slug)
		r.CheckIn, r.CheckOut = civil.MustParse(st[0]), civil.MustParse(st[1])
		if res, err := e.svc.Checkout(ctx, slug, r); err == nil {
			w.bookings = append(w.bookings, res.Booking.ID)
			w.slugs[res.Booking.ID] = slug
		}
	case 2: // a guest pays (authorises, in request mode)
		if id, _, ok := w.pick(); ok {
			if b := e.booking(w.t, id); b.PaymentIntentID != "" {
				_, _ = e.pay.SimulatePaid(b.PaymentIntentID)
			}
		}
	case 3: // the page confirms
		if id, slug, ok := w.pick(); ok {
			_, _ = e.svc.Confirm(ctx, slug, e.booking(w.t, id).Token, booking.ConfirmRequest{})
		}
	case 4: // the provider sends an event, now or later, maybe twice
		if id, _, ok := w.pick(); ok {
			if b := e.booking(w.t, id); b.PaymentIntentID != "" {
				typ := []payment.EventType{payment.EventSucceeded, payment.EventAuthorized, payment.EventCanceled}[rng.IntN(3)]
				if ev, err := e.pay.Event(typ, b.PaymentIntentID); err == nil {
					w.events = append(w.events, *ev, *ev)
				}
			}
		}
	case 5: // queued events arrive, in any order
		rng.Shuffle(len(w.events), func(i, j int) { w.events[i], w.events[j] = w.events[j], w.events[i] })
		n := rng.IntN(len(w.events) + 1)
		for _, ev := range w.events[:n] {
			_ = e.svc.HandlePaymentEvent(ctx, ev)
		}
		w.events = w.events[n:]
	case 6: // time passes
		e.clock.Advance(time.Duration(rng.IntN(120)) * time.Minute)
	case 7: // the sweeper and the ledger worker run
		_, _ = e.svc.ExpireHolds(ctx)
		_, _ = e.svc.ProcessPayments(ctx)
	case 8: // the host approves
		if id, slug, ok := w.pick(); ok {
			if rng.IntN(3) == 0 {
				e.pay.FailNext(paymenttest.OpGet, nil)
			}
			_, _ = e.svc.Approve(ctx, slug, e.booking(w.t, id).Token)
		}
	case 9: // the host declines
		if id, slug, ok := w.pick(); ok {
			_, _ = e.svc.Decline(ctx, slug, e.booking(w.t, id).Token)
		}
	case 10: // the host cancels, refunding or not
		if id, slug, ok := w.pick(); ok {
			before := e.booking(w.t, id)
			refund := rng.IntN(2) == 0
			if b, err := e.svc.Cancel(ctx, slug, before.Token, refund); err == nil && before.Status == booking.StatusConfirmed && !refund {
				w.keptByHost[b.ID] = true
			}
		}
	}
}

func (w *moneyWorld) check(ctx context.Context) {
	t, e := w.t, w.e
	byIntent := map[string]*booking.Booking{}
	// Deposit-mode bookings also own the intent their balance was charged
	// on, named by their balance ledger entry.
	balanceIntent := map[string]bool{}
	var confirmed []*booking.Booking
	for _, id := range w.bookings {
		b := e.booking(t, id)
		if b.PaymentIntentID != "" {
			byIntent[b.PaymentIntentID] = b
		}
		if b.Status == booking.StatusConfirmed {
			confirmed = append(confirmed, b)
		}
		for _, en := range e.ledger(t, b) {
			if en.Kind == ledger.KindBalance && en.ProviderID != "" {
				byIntent[en.ProviderID], balanceIntent[en.ProviderID] = b, true
			}
			if en.Status == ledger.StatusPending {
				t.Errorf("booking %d: ledger entry %s %s still pending after the workers settled", b.ID, en.Kind, en.Key)
			}
		}
	}
	for _, in := range e.pay.Intents() {
		kept := in.AmountReceived - in.AmountRefunded
		if in.AmountRefunded > in.AmountReceived {
			t.Errorf("intent %s refunded %d of %d received", in.ID, in.AmountRefunded, in.AmountReceived)
		}
		b := byIntent[in.ID]
		if b == nil {
			if kept > 0 || in.Status == payment.StatusAuthorized {
				t.Errorf("intent %s holds money (%d, %s) and has no booking", in.ID, kept, in.Status)
			}
			continue
		}
		switch b.Status {
		case booking.StatusConfirmed:
			want, _ := pricing.ToMinor(b.ChargeAmount, b.Currency)
			if balanceIntent[in.ID] {
				want, _ = pricing.ToMinor(b.BalanceAmount, b.Currency)
			}
			if in.Status != payment.StatusSucceeded || in.AmountRefunded != 0 || in.AmountReceived != want {
				t.Errorf("booking %d confirmed on intent %s %s received %d refunded %d, want %d kept", b.ID, in.ID, in.Status, in.AmountReceived, in.AmountRefunded, want)
			}
		case booking.StatusExpired, booking.StatusDeclined, booking.StatusCancelled:
			if w.keptByHost[b.ID] {
				continue
			}
			if kept != 0 || in.Status == payment.StatusAuthorized {
				t.Errorf("booking %d is %s but its intent %s keeps %d (%s)", b.ID, b.Status, in.ID, kept, in.Status)
			}
		default:
			t.Errorf("booking %d still %s after every hold lapsed", b.ID, b.Status)
		}
	}
	statuses := map[booking.Status]int{}
	for _, id := range w.bookings {
		statuses[e.booking(t, id).Status]++
	}
	refunds := 0
	for _, in := range e.pay.Intents() {
		refunds += len(e.pay.Refunds(in.ID))
	}
	t.Logf("bookings by status %v, %d refunds, %d kept by the host", statuses, refunds, len(w.keptByHost))
	for i, a := range confirmed {
		for _, b := range confirmed[i+1:] {
			if a.PropertyID == b.PropertyID && a.Range().Overlaps(b.Range()) {
				t.Errorf("confirmed bookings %d and %d overlap", a.ID, b.ID)
			}
		}
	}
}
