package money_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// The money fuzz's end: everything settles, then the invariants are
// checked on every booking and every intent at the provider.

// settle lets the sequence end as the real world would: the provider
// comes back, no fault is armed any more (one-shot failures and lost
// answers still queued at the fake are used up by the first calls, which
// the engine retries), payments still processing go through, every
// event is delivered, and time passes past every hold, due date and
// authorisation window while the sweeper and the ledger worker run.
// Authorisations are checked early, a few hours in, once the returns the
// outage held up went through, before the fake's card networks let them
// lapse on their own.
func (w *fuzzWorld) settle() {
	w.logf("settle: provider up, faults disarmed")
	w.sw.disarm()
	w.env.pay.SetDown(false)
	w.downNext, w.crashNext, w.reentrant = false, crashPlan{}, false
	for _, in := range w.env.pay.Intents() {
		if in.Status == payment.StatusProcessing {
			if paid, err := w.env.pay.SimulatePaid(in.ID); err == nil {
				w.providerSends(*paid)
			}
		}
	}
	w.deliverAll()
	for round := 0; round < 4 || round < 12 && w.returnsPending(); round++ {
		w.env.clock.Advance(time.Hour)
		w.settleRound()
	}
	w.logf("settle: the workers ran until %s%s", w.env.clock.Now().UTC().Format("2006-01-02 15:04Z"), w.statusChanges())
	w.checkAuthorisations("a few hours into settling")
	w.checkOverlaps()
	// From one due date to the next; after a few rounds at least half a
	// day, then two days at a time, so that an entry polled every few
	// hours (a balance waiting for 3-D Secure) does not keep the others
	// from coming due.
	rounds := 0
	for ; rounds < 40; rounds++ {
		next, ok := w.nextDue()
		if !ok || next.After(settleUntil) {
			break
		}
		now := w.env.clock.Now()
		switch {
		case rounds >= 20:
			next = later(next, now.Add(48*time.Hour))
		case rounds >= 10:
			next = later(next, now.Add(12*time.Hour))
		}
		w.env.clock.Set(later(next, now.Add(time.Minute)))
		w.settleRound()
	}
	w.env.clock.Advance(8 * 24 * time.Hour) // past every authorisation window
	w.settleRound()
	w.settleRound()
	w.logf("settled at %s after %d more rounds of the workers%s", w.env.clock.Now().UTC().Format("2006-01-02 15:04Z"), rounds, w.statusChanges())
}

// returnsPending reports whether money or an authorisation is still on
// its way back: a release, refund or deposit release pending. The
// authorisations are checked once none is.
func (w *fuzzWorld) returnsPending() bool {
	for _, fb := range w.bookings {
		entries, _ := w.env.store.LedgerEntries(w.ctx, fb.id)
		for _, e := range entries {
			if e.Status == ledger.StatusPending && (e.Kind == ledger.KindRelease || e.Kind == ledger.KindRefund || e.Kind == ledger.KindDepositRelease) &&
				!e.NextAttemptAt.After(w.env.clock.Now().Add(time.Hour)) {
				return true
			}
		}
	}
	return false
}

// settleUntil bounds the settling: a month after the last stay.
var settleUntil = time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC)

// settleRound runs the workers, lets the provider settle the refunds it
// left pending (succeeded) and delivers the events all this gave rise to.
func (w *fuzzWorld) settleRound() {
	w.run(op{N: -1, Kind: opSweep})
	for _, in := range w.env.pay.Intents() {
		for _, r := range w.env.pay.Refunds(in.ID) {
			if r.Status == payment.RefundPending {
				w.settleProviderRefund(r, payment.RefundSucceeded)
			}
		}
	}
	w.deliverAll()
}

// deliverAll delivers the queued events until none is left; an event the
// engine refuses is delivered again, a few times, as a provider does.
func (w *fuzzWorld) deliverAll() {
	for i := 0; len(w.queue) > 0 && i < 1000; i++ {
		ev := w.queue[0]
		w.queue = w.queue[1:]
		w.guard("delivering "+describeEvent(ev), func() string { return w.deliver(ev) })
	}
}

// nextDue is the earliest time something is due: a pending ledger entry's
// next attempt, or the end of a hold.
func (w *fuzzWorld) nextDue() (time.Time, bool) {
	var next time.Time
	found := false
	consider := func(t time.Time) {
		if !t.IsZero() && (!found || t.Before(next)) {
			next, found = t, true
		}
	}
	holds, _ := w.env.store.LapsedHolds(w.ctx, settleUntil, 0)
	for _, b := range holds {
		consider(b.ExpiresAt)
	}
	for _, fb := range w.bookings {
		entries, _ := w.env.store.LedgerEntries(w.ctx, fb.id)
		for _, e := range entries {
			if e.Status == ledger.StatusPending {
				consider(e.NextAttemptAt)
			}
		}
	}
	return next, found
}

// intentRole is what an intent is to its booking.
type intentRole string

const (
	roleCharge  intentRole = "charge"  // the checkout's payment, or one returned
	roleBalance intentRole = "balance" // a balance charged off session
	roleDeposit intentRole = "deposit" // a security deposit hold
	roleChange  intentRole = "change"  // a change of dates' charge
)

// ownedIntent is an intent at the provider with its role.
type ownedIntent struct {
	payment.Intent
	role intentRole
}

// ownedBooking is a booking with everything the invariants read: its
// ledger, its terms and its intents as the provider has them. A booking's
// intents are its payment intent and those its ledger entries and terms
// name (IntentID, ProviderID).
type ownedBooking struct {
	fb      fuzzBooking
	b       *booking.Booking
	entries []ledger.Entry
	terms   *booking.Terms
	intents []ownedIntent
}

func (w *fuzzWorld) own(fb fuzzBooking) *ownedBooking {
	b, err := w.env.store.BookingByID(w.ctx, fb.id)
	if err != nil {
		return nil
	}
	ob := &ownedBooking{fb: fb, b: b}
	ob.entries, _ = w.env.store.LedgerEntries(w.ctx, b.ID)
	if t, err := w.env.store.Terms(w.ctx, b.ID); err == nil {
		ob.terms = t
	}
	roles := map[string]intentRole{}
	var order []string
	add := func(id string, role intentRole) {
		if id == "" {
			return
		}
		if _, ok := roles[id]; !ok {
			order = append(order, id)
			roles[id] = role
		} else if role != roleCharge {
			roles[id] = role
		}
	}
	add(b.PaymentIntentID, roleCharge)
	if t := ob.terms; t != nil {
		add(t.BalanceIntentID, roleBalance)
		add(t.DepositIntentID, roleDeposit)
	}
	for _, e := range ob.entries {
		switch e.Kind {
		case ledger.KindBalance: // IntentID is the card's first payment
			add(e.ProviderID, roleBalance)
		case ledger.KindDepositHold:
			add(e.ProviderID, roleDeposit)
		case ledger.KindChangeCharge: // IntentID is the card's first payment
			add(e.ProviderID, roleChange)
		case ledger.KindDepositRelease, ledger.KindDepositClaim:
			add(e.IntentID, roleDeposit)
		default:
			add(e.IntentID, roleCharge)
		}
	}
	// An intent an entry created at the provider, its answer lost before
	// the entry learnt its id, is the booking's too: it carries the
	// entry's key in its metadata, which is how the engine finds it.
	keys := map[string]intentRole{}
	for _, e := range ob.entries {
		switch e.Kind {
		case ledger.KindBalance:
			keys[e.Key] = roleBalance
		case ledger.KindDepositHold:
			keys[e.Key] = roleDeposit
		case ledger.KindChangeCharge:
			keys[e.Key] = roleChange
		}
	}
	for _, in := range w.env.pay.Intents() {
		if role, ok := keys[in.Metadata[payment.MetadataKey]]; ok {
			add(in.ID, role)
		}
	}
	for _, id := range order {
		if in, ok := w.env.pay.Intent(id); ok {
			ob.intents = append(ob.intents, ownedIntent{Intent: in, role: roles[id]})
		}
	}
	return ob
}

// owned reads every booking, and which booking each intent belongs to.
func (w *fuzzWorld) owned() ([]*ownedBooking, map[string]*ownedBooking) {
	var all []*ownedBooking
	owner := map[string]*ownedBooking{}
	for _, fb := range w.bookings {
		ob := w.own(fb)
		if ob == nil {
			continue
		}
		all = append(all, ob)
		for _, in := range ob.intents {
			if other, ok := owner[in.ID]; ok && other != ob {
				w.violate("g", "an intent belongs to two bookings", "intent %s belongs to %s and %s", in.ID, other.name(), ob.name())
			}
			owner[in.ID] = ob
		}
	}
	return all, owner
}

// role is the role of one of the booking's intents.
func (ob *ownedBooking) role(intentID string) intentRole {
	for _, in := range ob.intents {
		if in.ID == intentID {
			return in.role
		}
	}
	return roleCharge
}

func (ob *ownedBooking) name() string {
	return fmt.Sprintf("%s (id %d, %s %s→%s, %s)", ob.fb.label, ob.b.ID, ob.fb.slug, ob.b.CheckIn, ob.b.CheckOut, ob.b.Status)
}

// providerMoney is what the provider received and refunded on the
// booking's intents of the given roles (all when none is given).
func (ob *ownedBooking) providerMoney(roles ...intentRole) (received, refunded int64) {
	for _, in := range ob.intents {
		if len(roles) == 0 || containsRole(roles, in.role) {
			received += in.AmountReceived
			refunded += in.AmountRefunded
		}
	}
	return received, refunded
}

func containsRole(roles []intentRole, r intentRole) bool {
	for _, x := range roles {
		if x == r {
			return true
		}
	}
	return false
}

// describeIntents lists the booking's intents with their money.
func (ob *ownedBooking) describeIntents() string {
	var parts []string
	for _, in := range ob.intents {
		parts = append(parts, fmt.Sprintf("%s %s %s received %s refunded %s", in.role, in.ID, in.Status, minor(in.AmountReceived), minor(in.AmountRefunded)))
	}
	if len(parts) == 0 {
		return "no intent"
	}
	return strings.Join(parts, "; ")
}

// ledgerMoney is what entries say was received (succeeded charges,
// captures, balances, deposit claims and change charges) and refunded (succeeded or
// submitted refunds).
func ledgerMoney(entries []ledger.Entry) (received, refunded int64) {
	for _, e := range entries {
		switch {
		case e.Status == ledger.StatusSucceeded && (e.Kind == ledger.KindCharge || e.Kind == ledger.KindCapture ||
			e.Kind == ledger.KindBalance || e.Kind == ledger.KindDepositClaim || e.Kind == ledger.KindChangeCharge):
			received += e.Amount
		case e.Kind == ledger.KindRefund && (e.Status == ledger.StatusSucceeded || e.Status == ledger.StatusSubmitted):
			refunded += e.Amount
		}
	}
	return received, refunded
}

// ledgerMoneyOf is ledgerMoney for one intent: the one an entry charged
// (a balance's own intent, ProviderID; the others' IntentID) or refunded.
func ledgerMoneyOf(entries []ledger.Entry, intentID string) (received, refunded int64) {
	var mine []ledger.Entry
	for _, e := range entries {
		id := e.IntentID
		if e.Kind == ledger.KindBalance || e.Kind == ledger.KindChangeCharge {
			id = e.ProviderID
		}
		if id == intentID {
			mine = append(mine, e)
		}
	}
	return ledgerMoney(mine)
}

func describeEntries(entries []ledger.Entry) string {
	var parts []string
	for _, e := range entries {
		s := fmt.Sprintf("%s %s %s", e.Kind, e.Status, minor(e.Amount))
		if e.Reason != "" {
			s += " (" + e.Reason + ")"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no entry"
	}
	return strings.Join(parts, "; ")
}

// check checks every invariant after settling.
func (w *fuzzWorld) check() {
	all, owner := w.owned()
	for _, ob := range all {
		w.checkMoneyAgrees(ob)
		w.checkDecision(ob)
		w.checkCharged(ob)
		w.checkRefundCaps(ob)
		w.checkOwed(ob)
	}
	w.checkOverlaps()
	w.checkUnitPrices()
	w.checkOrphans(owner)
	w.checkAuthorisations("after settling")
}

// checkMoneyAgrees is invariant (a): the provider's money of a booking is
// what its ledger says, received and refunded, intent by intent, and what
// the guest's booking page and the host's payments list show. The kind
// of a mismatch names the intent's role, so that a missing balance or
// deposit claim is not hidden behind a missing checkout charge.
func (w *fuzzWorld) checkMoneyAgrees(ob *ownedBooking) {
	for _, in := range ob.intents {
		lRecv, lRef := ledgerMoneyOf(ob.entries, in.ID)
		detail := fmt.Sprintf("\n    intents: %s\n    ledger: %s", ob.describeIntents(), describeEntries(ob.entries))
		switch {
		case in.AmountReceived > lRecv:
			w.violate("a", fmt.Sprintf("the ledger misses money a %s intent received", in.role), "%s: %s intent %s received %s, the ledger records %s received%s",
				ob.name(), in.role, in.ID, minor(in.AmountReceived), minor(lRecv), detail)
		case in.AmountReceived < lRecv:
			w.violate("a", fmt.Sprintf("the ledger records money a %s intent never received", in.role), "%s: %s intent %s received %s, the ledger records %s received%s",
				ob.name(), in.role, in.ID, minor(in.AmountReceived), minor(lRecv), detail)
		}
		switch {
		case lRef > in.AmountRefunded:
			w.violate("a", fmt.Sprintf("the ledger counts refunds a %s intent never made", in.role), "%s: %s intent %s refunded %s, the ledger records %s refunded%s",
				ob.name(), in.role, in.ID, minor(in.AmountRefunded), minor(lRef), detail)
		case lRef < in.AmountRefunded:
			w.violate("a", fmt.Sprintf("the ledger misses refunds a %s intent made", in.role), "%s: %s intent %s refunded %s, the ledger records %s refunded%s",
				ob.name(), in.role, in.ID, minor(in.AmountRefunded), minor(lRef), detail)
		}
	}
	pRecv, pRef := ob.providerMoney()
	lRecv, lRef := ledgerMoney(ob.entries)
	held := pRecv - pRef
	// The guest's page: what was paid (deposit claims included) less
	// what went back or is on its way back.
	d, err := w.svc.Booking(w.ctx, ob.fb.slug, ob.b.Token)
	if err != nil {
		w.violate("a", "the guest's booking page fails", "%s: %v", ob.name(), err)
	} else {
		claimed := booking.Money{}
		if d.Terms != nil {
			claimed = d.Terms.DepositClaimed
		}
		shown := toMinor(d.Booking.PaidAmount) + toMinor(claimed) - toMinor(d.Refunded) - toMinor(d.RefundPending)
		if shown != held {
			w.violate("a", "the guest's booking page shows other money than the provider holds",
				"%s: the page shows paid %s, deposit claimed %s, refunded %s, refund pending %s (net %s); the provider holds %s\n    intents: %s",
				ob.name(), d.Booking.PaidAmount, claimed, d.Refunded, d.RefundPending, minor(shown), minor(held), ob.describeIntents())
		}
	}
	// The host's payments list, unless it only repeats a ledger already
	// reported above.
	entries, err := w.svc.Payments(w.ctx, ob.b)
	if err != nil {
		w.violate("a", "the host's payments list fails", "%s: %v", ob.name(), err)
		return
	}
	hRecv, hRef := ledgerMoney(entries)
	if hRecv-hRef != held && hRecv-hRef != lRecv-lRef {
		w.violate("a", "the host's payments list shows other money than the provider holds", "%s: the list nets %s, the provider holds %s\n    list: %s",
			ob.name(), minor(hRecv-hRef), minor(held), describeEntries(entries))
	}
}

// checkDecision is invariant (b): a closed booking keeps, on its charge
// and balance intents, exactly what its decision kept, and nothing when
// it never had one because it was never confirmed; and what a
// cancellation promised (the refund asked for, or the policy's refund the
// guest was shown) is what the decision kept.
func (w *fuzzWorld) checkDecision(ob *ownedBooking) {
	if !closed(ob.b.Status) {
		return
	}
	recv, ref := ob.providerMoney(roleCharge, roleBalance, roleChange)
	kept := recv - ref
	var decisions []ledger.Entry
	for _, e := range ob.entries {
		if e.Kind == ledger.KindDecision && e.Status != ledger.StatusFailed {
			decisions = append(decisions, e)
		}
	}
	detail := func() string {
		return fmt.Sprintf("\n    intents: %s\n    ledger: %s", ob.describeIntents(), describeEntries(ob.entries))
	}
	promised, hasPromise := w.promised[ob.b.ID]
	switch {
	case len(decisions) > 1:
		w.violate("b", "a closed booking has more than one decision", "%s has %d decisions%s", ob.name(), len(decisions), detail())
	case len(decisions) == 1:
		// What the host refunded in the provider's dashboard is the
		// host's own choice.
		var dashboard int64
		for _, e := range ob.entries {
			if e.Kind == ledger.KindRefund && e.Reason == ledger.ReasonDashboard &&
				(e.Status == ledger.StatusSucceeded || e.Status == ledger.StatusSubmitted) && ob.role(e.IntentID) != roleDeposit {
				dashboard += e.Amount
			}
		}
		// Without them it keeps exactly its decision; with them, between
		// the decision less what the host refunded there and the
		// decision: the host's refunds count toward what the guest is
		// owed, and the engine never sends beyond it.
		if d := decisions[0].Amount; kept > d || kept < d-dashboard {
			w.violate("b", "a closed booking keeps "+moreOrLess(kept, d)+" than its decision", "%s keeps %s, its decision kept %s (%s refunded from the dashboard)%s",
				ob.name(), minor(kept), minor(d), minor(dashboard), detail())
		}
		if hasPromise && decisions[0].Amount != promised {
			w.violate("b", "a cancellation's decision is not what it promised", "%s: the decision keeps %s, the cancellation promised to keep %s%s",
				ob.name(), minor(decisions[0].Amount), minor(promised), detail())
		}
	case ob.b.ConfirmedAt.IsZero():
		if kept != 0 {
			w.violate("b", "a closed booking never confirmed keeps money", "%s was never confirmed and keeps %s%s", ob.name(), minor(kept), detail())
		}
	default:
		w.violate("b", "a booking closed after its confirmation has no decision", "%s keeps %s and has no decision%s", ob.name(), minor(kept), detail())
		if hasPromise && kept != promised {
			w.violate("b", "a cancelled booking keeps "+moreOrLess(kept, promised)+" than its cancellation promised",
				"%s keeps %s, its cancellation promised to keep %s%s", ob.name(), minor(kept), minor(promised), detail())
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func withArticle(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

func moreOrLess(have, want int64) string {
	if have > want {
		return "more"
	}
	return "less"
}

// checkAuthorisations is the rest of invariant (b), and of (g): no
// authorisation is held but a live request's and a confirmed booking's
// security deposit hold.
func (w *fuzzWorld) checkAuthorisations(when string) {
	_, owner := w.owned()
	for _, in := range w.env.pay.Intents() {
		if in.Status != payment.StatusAuthorized {
			continue
		}
		ob := owner[in.ID]
		if ob == nil {
			w.violate("g", "an authorisation belongs to no booking", "%s: intent %s (%s) holds %s authorised and no booking names it",
				when, in.ID, w.intentOrigin(in), minor(in.Amount))
			continue
		}
		role := roleCharge
		for _, oi := range ob.intents {
			if oi.ID == in.ID {
				role = oi.role
			}
		}
		switch {
		case role == roleCharge && in.ID == ob.b.PaymentIntentID && ob.b.Status == booking.StatusRequested:
		case role == roleDeposit && ob.b.Status == booking.StatusConfirmed:
		default:
			w.violate("b", fmt.Sprintf("an authorisation survives on %s booking", withArticle(string(ob.b.Status))), "%s: %s's %s intent %s holds %s authorised\n    ledger: %s",
				when, ob.name(), role, in.ID, minor(in.Amount), describeEntries(ob.entries))
		}
	}
}

// checkCharged is invariant (c): a confirmed booking's first intent
// received its charge (free stays excepted).
func (w *fuzzWorld) checkCharged(ob *ownedBooking) {
	if ob.b.Status != booking.StatusConfirmed || !ob.b.ChargeAmount.IsPositive() {
		return
	}
	want := toMinor(ob.b.ChargeAmount)
	for _, in := range ob.intents {
		if in.ID == ob.b.PaymentIntentID && in.AmountReceived == want {
			return
		}
	}
	w.violate("c", "a confirmed booking lacks its charge", "%s: charge %s, intents: %s", ob.name(), ob.b.ChargeAmount, ob.describeIntents())
}

// checkRefundCaps is invariant (d): no intent refunded more than it
// received, at the provider or in the ledger.
func (w *fuzzWorld) checkRefundCaps(ob *ownedBooking) {
	for _, in := range ob.intents {
		var ledgerRefunded int64
		for _, e := range ob.entries {
			if e.Kind == ledger.KindRefund && e.IntentID == in.ID && (e.Status == ledger.StatusSucceeded || e.Status == ledger.StatusSubmitted) {
				ledgerRefunded += e.Amount
			}
		}
		if in.AmountRefunded > in.AmountReceived {
			w.violate("d", "the provider refunded more than received", "%s: intent %s received %s, refunded %s", ob.name(), in.ID, minor(in.AmountReceived), minor(in.AmountRefunded))
		}
		if ledgerRefunded > in.AmountReceived {
			w.violate("d", "the ledger refunds more than the intent received", "%s: intent %s received %s, the ledger refunds %s of it\n    ledger: %s",
				ob.name(), in.ID, minor(in.AmountReceived), minor(ledgerRefunded), describeEntries(ob.entries))
		}
	}
}

// checkOwed is invariant (e): after settling nothing is left pending, and
// a refund the provider failed was sent again until one went through.
func (w *fuzzWorld) checkOwed(ob *ownedBooking) {
	for _, e := range ob.entries {
		if e.Status == ledger.StatusPending {
			w.violate("e", fmt.Sprintf("a %s entry is still pending after settling", e.Kind), "%s: entry %d %s %s (%s) %d attempts, next %s, last error %q",
				ob.name(), e.ID, e.Kind, minor(e.Amount), e.Reason, e.Attempts, e.NextAttemptAt.UTC().Format(time.RFC3339), e.LastError)
		}
	}
	// A refund the provider failed leaves its money owed: after settling,
	// a closed booking owes nothing (its refunds, replacements included,
	// went through).
	if closed(ob.b.Status) {
		if owed := ledger.PositionOf(ob.entries).Owed(); owed > 0 {
			w.violate("e", "a closed booking still owes money after settling", "%s owes %s\n    ledger: %s",
				ob.name(), minor(owed), describeEntries(ob.entries))
		}
	}
}

// checkOverlaps is invariant (f): no two live stays (confirmed,
// requested) of a unit overlap.
func (w *fuzzWorld) checkOverlaps() {
	for i, slug := range fuzzOrgs {
		live, err := w.env.store.Bookings(w.ctx, w.orgIDs[i], booking.StatusConfirmed, booking.StatusRequested)
		if err != nil {
			continue
		}
		for x := range live {
			for y := x + 1; y < len(live); y++ {
				a, b := live[x], live[y]
				if a.PropertyID == b.PropertyID && a.UnitID == b.UnitID && a.Range().Overlaps(b.Range()) {
					w.violate("f", "two live stays overlap", "%s: %s %s→%s (%s) and %s %s→%s (%s)", slug,
						w.label(a.ID), a.CheckIn, a.CheckOut, a.Status, w.label(b.ID), b.CheckIn, b.CheckOut, b.Status)
				}
			}
		}
	}
}

// checkUnitPrices is invariant (h): every booking's accommodation is the
// sum of the nightly prices of the unit it holds — its own price where
// it has one (the world's unitPrices), the villa's otherwise. A checkout
// priced at the cheap unit that lost it to another guest must have been
// refused, not given the dear unit at the cheap price; a late payment
// must take back the cheap unit or one priced alike.
func (w *fuzzWorld) checkUnitPrices() {
	for i, slug := range fuzzOrgs {
		list, err := w.env.store.Bookings(w.ctx, w.orgIDs[i])
		if err != nil {
			w.violate("h", "bookings unreadable", "%s: %v", slug, err)
			continue
		}
		p, err := w.env.store.Property(w.ctx, w.orgIDs[i], w.env.property[slug])
		if err != nil {
			w.violate("h", "property unreadable", "%s: %v", slug, err)
			continue
		}
		for _, b := range list {
			if b.Quote.Nights == 0 {
				continue
			}
			want := decimal.Zero
			for night := b.CheckIn; night.Before(b.CheckOut); night = night.AddDays(1) {
				price, own := w.unitPrices[b.UnitID][night]
				if !own {
					price = p.Rates.NightPrice(night)
				}
				want = want.Add(price)
			}
			if !b.Quote.Accommodation.Equal(want) {
				w.violate("h", "a stay priced as another unit", "%s: %s %s→%s (%s) on unit %d: accommodation %s, the unit's nights cost %s",
					slug, w.label(b.ID), b.CheckIn, b.CheckOut, b.Status, b.UnitID, b.Quote.Accommodation, want)
			}
		}
	}
}

// checkOrphans is invariant (g): no money at the provider outside the
// bookings.
func (w *fuzzWorld) checkOrphans(owner map[string]*ownedBooking) {
	for _, in := range w.env.pay.Intents() {
		if owner[in.ID] == nil && in.AmountReceived > in.AmountRefunded {
			w.violate("g", "an intent holding money belongs to no booking", "intent %s (%s) %s keeps %s (received %s, refunded %s) and no booking names it",
				in.ID, w.intentOrigin(in), in.Status, minor(in.AmountReceived-in.AmountRefunded), minor(in.AmountReceived), minor(in.AmountRefunded))
		}
	}
}

// intentOrigin says which booking an intent was made for, by its
// metadata, for a report.
func (w *fuzzWorld) intentOrigin(in payment.Intent) string {
	purpose := in.Metadata["purpose"]
	if purpose == "" {
		purpose = "checkout"
	}
	for _, fb := range w.bookings {
		if fb.token == in.Metadata["booking_token"] {
			return purpose + " of " + fb.label
		}
	}
	return purpose + " of no known booking"
}

func toMinor(m booking.Money) int64 {
	n, err := pricing.ToMinor(m, "EUR")
	if err != nil {
		panic(err)
	}
	return n
}
