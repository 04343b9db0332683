package money_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite"
)

// The guests' changes of dates or party (package datechange) in the money
// fuzz. They are inserted into a seed's sequence by a generator of their
// own (insertDateChanges), so that the sequences of the seeds found
// before they existed, the regressions, stay what they were; inserted
// ops are numbered after the generated ones.

// hostActor is the host of the fuzz's approvals.
var hostActor = host.Actor{Kind: "user", ID: 1, Name: "Host"}

// dateChangeKinds are the op kinds insertDateChanges adds, not drawn by
// opWeights.
var dateChangeKinds = []opKind{opDateChange, opChangePays}

// insertDateChanges inserts into ops, the sequence of seed, changes of
// dates: after about a third of the checkouts, a change a few ops later
// (to another of fuzzStays, sometimes with another party, sometimes
// needing the host's approval), often preceded by a fault armed for it,
// and often followed by the guest paying what it costs on the booking
// page (3-D Secure or a card); an unpaid change is left to lapse.
func insertDateChanges(seed uint64, ops []op) []op {
	rng := rand.New(rand.NewPCG(seed, 0x6461746563686e67))
	next := len(ops)
	add := func(at int, o op) {
		o.N = next
		next++
		at = min(at, len(ops))
		ops = slices.Insert(ops, at, o)
	}
	var checkouts []op
	for _, o := range ops {
		if o.Kind == opCheckout {
			checkouts = append(checkouts, o)
		}
	}
	for _, c := range checkouts {
		if rng.IntN(3) != 0 {
			continue
		}
		at := slices.IndexFunc(ops, func(o op) bool { return o.N == c.N }) + 8 + rng.IntN(24)
		ch := op{Kind: opDateChange, Ref: c.N, Stay: rng.IntN(len(fuzzStays)), Guests: 1 + rng.IntN(4)}
		if rng.IntN(6) == 0 {
			ch.Approval = 1 + rng.IntN(2)
		}
		var fault *op
		switch r := rng.IntN(12); {
		case r < 2:
			fault = &op{Kind: opCrashStore, K: 1 + rng.IntN(4)}
		case r < 4:
			fault = &op{Kind: opCrashProvider, K: 1 + rng.IntN(3)}
		case r < 6:
			fault = &op{Kind: opLoseResponse, ProviderOp: []string{paymenttest.OpCreate, paymenttest.OpChargeSaved, paymenttest.OpRefund}[rng.IntN(3)]}
		case r < 7:
			fault = &op{Kind: opProviderDown}
		case r < 8:
			fault = &op{Kind: opProviderFails, ProviderOp: []string{paymenttest.OpCreate, paymenttest.OpChargeSaved, paymenttest.OpCustomer, paymenttest.OpRefund}[rng.IntN(4)]}
		case r < 9:
			fault = &op{Kind: opOffSession, Outcomes: []string{[]string{paymenttest.OffSessionAuthenticates, paymenttest.OffSessionDeclined}[rng.IntN(2)]}}
		}
		if fault != nil {
			add(at, *fault)
			at++
		}
		add(at, ch)
		if rng.IntN(3) > 0 {
			add(at+1+rng.IntN(6), op{Kind: opChangePays, Ref: c.N, Pay: []payOutcome{payPaid, payPaid, payPaid, payDeclined}[rng.IntN(4)], Page: rng.IntN(2) == 0})
		}
	}
	return ops
}

// dateChange is a guest changing their stay from the booking page, after
// reading its quote: Approval 1 or 2 makes the host approve changes first,
// then approve (1) or decline (2) it.
func (w *fuzzWorld) dateChange(o op) string {
	b := w.target(o.Ref)
	if b == nil {
		return "no booking"
	}
	slug := w.slug(b)
	org, err := w.svc.Organization(w.ctx, slug)
	if err != nil {
		return result(err)
	}
	if err := w.changes.SetApproval(w.ctx, org, o.Approval > 0, hostActor); err != nil {
		return "approval: " + result(err)
	}
	r := datechange.Request{CheckIn: fuzzStays[o.Stay].Start, CheckOut: fuzzStays[o.Stay].End, Guests: o.Guests}
	q, err := w.changes.Quote(w.ctx, slug, b.Token, r)
	if err != nil {
		return "quote: " + result(err) + " (" + firstLine(err) + ")"
	}
	v, err := w.changes.Accept(w.ctx, slug, b.Token, r)
	if err != nil {
		return fmt.Sprintf("quoted %s (charge %s, refund %s); accept: %s", q.Total, q.Charge, q.Refund, result(err))
	}
	out := fmt.Sprintf("%s, total %s, charge %s, refund %s", v.Change.Status, v.Change.Offer.Total, v.Change.Offer.Charge, v.Change.Offer.Refund)
	switch {
	case v.Change.Status != datechange.StatusRequested:
	case o.Approval == 1:
		av, err := w.changes.Approve(w.ctx, org, v.Change.ID, hostActor)
		if err != nil {
			return out + "; approve: " + result(err)
		}
		out += "; approved: " + string(av.Change.Status)
	default:
		if _, err := w.changes.Decline(w.ctx, org, v.Change.ID, "", hostActor); err != nil {
			return out + "; decline: " + result(err)
		}
		out += "; declined"
	}
	return out
}

// changePays is the guest paying a change's charge on the booking page
// (3-D Secure, or a card), then, with Page, the page asking the engine
// for the change's state (which settles it); otherwise its webhook and
// the sweeps settle it.
func (w *fuzzWorld) changePays(o op) string {
	b := w.target(o.Ref)
	if b == nil {
		return "no booking"
	}
	var target *payment.Intent
	for _, in := range w.intentsOf(b) {
		if in.Metadata["purpose"] == "date_change" && (in.Status == payment.StatusRequiresAction || in.Status == payment.StatusRequiresPayment) {
			target = &in
		}
	}
	out := "no change intent waiting"
	if target != nil {
		pay := w.env.pay.SimulatePaid
		if o.Pay == payDeclined {
			pay = w.env.pay.SimulateDeclined
		}
		if in, err := pay(target.ID); err != nil {
			out = "change intent: " + result(err)
		} else {
			w.providerSends(*in)
			out = "change intent " + string(in.Status)
		}
	}
	if o.Page {
		v, err := w.changes.Current(w.ctx, w.slug(b), b.Token)
		switch {
		case err != nil:
			out += "; page: " + result(err)
		case v == nil:
			out += "; page: no change"
		default:
			out += "; page: change " + string(v.Change.Status)
		}
	}
	return out
}

// crashChanges is the date changes' store over the fuzz's SQLite
// database: its writes may crash the process before they happen, as
// crashStore's.
type crashChanges struct {
	*crashStore
	db *sqlite.DB
}

var _ datechange.Store = crashChanges{}

func (s crashChanges) SaveDateChange(ctx context.Context, c *datechange.Change, from []datechange.Status, record []ledger.Entry, events []outbox.Event, at time.Time) error {
	s.write("SaveDateChange")
	return s.db.SaveDateChange(ctx, c, from, record, events, at)
}

func (s crashChanges) ApplyDateChange(ctx context.Context, a datechange.Apply) (*booking.Booking, error) {
	s.write("ApplyDateChange")
	return s.db.ApplyDateChange(ctx, a)
}

func (s crashChanges) CloseDateChange(ctx context.Context, c datechange.Close) (*datechange.Change, error) {
	s.write("CloseDateChange")
	return s.db.CloseDateChange(ctx, c)
}

func (s crashChanges) SetDateChangeApproval(ctx context.Context, orgID int64, required bool) error {
	return s.db.SetDateChangeApproval(ctx, orgID, required) // the fuzz's own setting: never crashed
}

func (s crashChanges) DateChange(ctx context.Context, orgID, id int64) (*datechange.Change, error) {
	return s.db.DateChange(ctx, orgID, id)
}

func (s crashChanges) DateChangeByEntry(ctx context.Context, key string) (*datechange.Change, error) {
	return s.db.DateChangeByEntry(ctx, key)
}

func (s crashChanges) DateChanges(ctx context.Context, bookingID int64) ([]datechange.Change, error) {
	return s.db.DateChanges(ctx, bookingID)
}

func (s crashChanges) DateChangeApproval(ctx context.Context, orgID int64) (bool, error) {
	return s.db.DateChangeApproval(ctx, orgID)
}
