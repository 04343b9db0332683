package ledger

import (
	"slices"
	"strconv"
	"time"
)

// ReceivedOn is the intent whose money e records as received, and whether
// e is such a receipt: a succeeded charge, capture, balance or deposit
// claim or change charge. A balance's or change charge's intent is its
// own (ProviderID); the others name theirs in IntentID.
func (e *Entry) ReceivedOn() (string, bool) {
	if e.Status != StatusSucceeded {
		return "", false
	}
	switch e.Kind {
	case KindCharge, KindCapture, KindDepositClaim:
		return e.IntentID, e.IntentID != ""
	case KindBalance, KindChangeCharge:
		return e.ProviderID, e.ProviderID != ""
	}
	return "", false
}

// Refunding reports whether e is a refund that reached, or is on its way
// to, the provider: anything but a failed one. A failed refund gave
// nothing back, and what it owed is owed again (see Corrections).
func (e *Entry) Refunding() bool { return e.Kind == KindRefund && e.Status != StatusFailed }

// Position is what a booking's entries say the provider holds for it, per
// intent, in minor units.
type Position struct {
	// Received is what each intent received. Several entries may record
	// the receipt of one intent (its balance entry, and a charge recorded
	// when money was found on an intent that was to be voided): an intent
	// received what its largest receipt says.
	Received map[string]int64
	// Refunded is what went, or is going, back per intent (Refunding).
	Refunded map[string]int64
	// Disputed is what the guest's bank took back per intent.
	Disputed map[string]int64
	// Claimed are the intents of security deposits the host claimed:
	// their money is the host's, never part of a decision or a refund.
	Claimed map[string]bool
	// Kept is the amount the booking's decision keeps (KindDecision), and
	// Decided whether it has one.
	Kept    int64
	Decided bool
}

// PositionOf adds up a booking's entries.
func PositionOf(entries []Entry) Position {
	p := Position{Received: map[string]int64{}, Refunded: map[string]int64{}, Disputed: map[string]int64{}, Claimed: map[string]bool{}}
	for i := range entries {
		e := &entries[i]
		if in, ok := e.ReceivedOn(); ok {
			p.Received[in] = max(p.Received[in], e.Amount)
			if e.Kind == KindDepositClaim {
				p.Claimed[in] = true
			}
		}
		switch {
		case e.Refunding():
			p.Refunded[e.IntentID] += e.Amount
		case e.Kind == KindDispute:
			p.Disputed[e.IntentID] += e.Amount
		case e.Kind == KindDecision && !p.Decided:
			p.Kept, p.Decided = e.Amount, true
		}
	}
	return p
}

// Charged is what the booking received for the stay: every intent but the
// security deposits the host claimed. A decision keeps part of it.
func (p Position) Charged() int64 { return p.stay(p.Received) }

// Returned is what went, or is going, back of the stay's money.
func (p Position) Returned() int64 { return p.stay(p.Refunded) }

// stay adds up amounts per intent of the stay's intents: all but the
// security deposits the host claimed.
func (p Position) stay(perIntent map[string]int64) int64 {
	var n int64
	for in, v := range perIntent {
		if !p.Claimed[in] {
			n += v
		}
	}
	return n
}

// Net is what the provider holds for the booking: received less refunded,
// every intent.
func (p Position) Net() int64 {
	var n int64
	for in, v := range p.Received {
		n += v - p.Refunded[in]
	}
	return n
}

// Refundable is what can still be refunded of an intent: received, less
// refunded and disputed.
func (p Position) Refundable(intent string) int64 {
	return max(0, p.Received[intent]-p.Refunded[intent]-p.Disputed[intent])
}

// Owed is what a closed booking must still give back: what it received for
// the stay beyond what its decision keeps (nothing kept without one), less
// what went or is going back already.
func (p Position) Owed() int64 {
	return max(0, p.Charged()-p.Kept-p.Returned())
}

// Refunds are the refund entries that give back amount of the stay's money
// of a booking, from the intents that can still refund it: the intents
// charged last (balances) first, then the checkout's, each capped at what
// it can still refund. Every key is derived from the intent, the reason
// and how many refunds the intent had already, so that two workers
// computing the same refund from the same ledger write it once.
func (p Position) Refunds(entries []Entry, bookingID int64, currency, reason string, amount int64) []Entry {
	var intents []string
	for in := range p.Received {
		if !p.Claimed[in] {
			intents = append(intents, in)
		}
	}
	order := map[string]int{}
	for i, e := range entries {
		if in, ok := e.ReceivedOn(); ok {
			if _, seen := order[in]; !seen {
				order[in] = i
			}
		}
	}
	slices.SortFunc(intents, func(a, b string) int { return order[b] - order[a] })
	prior := map[string]int{}
	for _, e := range entries {
		if e.Kind == KindRefund {
			prior[e.IntentID]++
		}
	}
	var out []Entry
	for _, in := range intents {
		n := min(p.Refundable(in), amount)
		if n <= 0 {
			continue
		}
		key := "refund:" + in + ":" + reason
		if prior[in] > 0 {
			key += ":" + strconv.Itoa(prior[in])
		}
		out = append(out, Entry{BookingID: bookingID, Kind: KindRefund, IntentID: in, Amount: n, Currency: currency,
			Key: key, Reason: reason, Status: StatusPending})
		amount -= n
	}
	return out
}

// Corrections are the refunds that bring a closed booking's money to its
// decision: what it owes (Owed), from the intents that can refund it. A
// refund that failed is owed again here, under a new key, due after
// RefundRetry of the failures so far.
func Corrections(entries []Entry, bookingID int64, currency, reason string, now time.Time) []Entry {
	p := PositionOf(entries)
	out := p.Refunds(entries, bookingID, currency, reason, p.Owed())
	failed := 0
	for _, e := range entries {
		if e.Kind == KindRefund && e.Status == StatusFailed {
			failed++
		}
	}
	if failed > 0 {
		for i := range out {
			out[i].NextAttemptAt = now.Add(RefundRetry(failed))
		}
	}
	return out
}

// Decide is the decision of a booking that closes now, refunding refund of
// what it holds: its KindDecision entry (what it keeps) and the refunds
// that give the rest back, capped at what can still be refunded. Written
// in the transaction that closes the booking, it is final: afterwards
// Corrections only ever give back money received beyond it.
func Decide(entries []Entry, bookingID int64, currency, reason string, refund int64) []Entry {
	p := PositionOf(entries)
	refund = min(max(refund, 0), p.RefundableTotal())
	// Refunds on their way may promise more than an intent can still
	// give (a change of dates' refund sent while the host refunded from
	// the provider's dashboard): the excess fails at the provider, and
	// the booking keeps nothing rather than less than nothing.
	decision := Entry{BookingID: bookingID, Kind: KindDecision, Amount: max(0, p.Charged()-p.Returned()-refund), Currency: currency,
		Key: "decision:" + strconv.FormatInt(bookingID, 10), Reason: reason, Status: StatusSucceeded}
	return append([]Entry{decision}, p.Refunds(entries, bookingID, currency, reason, refund)...)
}

// RefundableTotal is what can still be refunded of the stay's money,
// every intent but claimed security deposits.
func (p Position) RefundableTotal() int64 {
	var n int64
	for in := range p.Received {
		if !p.Claimed[in] {
			n += p.Refundable(in)
		}
	}
	return n
}

// RefundRetry is how long a refund that failed failures times waits before
// it is sent again under a new key: an hour doubling, at most a day. The
// money stays owed; the host is told of each failure.
func RefundRetry(failures int) time.Duration {
	d := time.Hour
	for i := 1; i < failures && d < 24*time.Hour; i++ {
		d *= 2
	}
	return min(d, 24*time.Hour)
}

// Reissue is the refund that owes again what failed, a refund the
// provider refused of a booking that stays live: the same amount, capped
// at owed (what the booking still owes its guest, the caller's to say)
// and at what its intents can still refund, under a new key, due after
// RefundRetry of the failures so far.
func Reissue(entries []Entry, bookingID int64, currency string, failed *Entry, owed int64, now time.Time) []Entry {
	p := PositionOf(entries)
	n := 0
	for _, e := range entries {
		if e.Kind == KindRefund && e.Status == StatusFailed && e.Reason == failed.Reason {
			n++
		}
	}
	out := p.Refunds(entries, bookingID, currency, failed.Reason, min(failed.Amount, owed, p.RefundableTotal()))
	for i := range out {
		out[i].NextAttemptAt = now.Add(RefundRetry(max(n, 1)))
	}
	return out
}
