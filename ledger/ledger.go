// Package ledger is the record of every movement of a booking's money at
// the payment provider: captures, releases of unpaid intents, refunds and
// disputes, each a stored entry with its kind, amount, idempotency key,
// provider id and status.
//
// An entry that staykit must carry out (a release or a refund) is written
// pending, in the same transaction as the status change that needs it, and
// sent by a worker that retries with the entry's own idempotency key until
// the provider has it. So no money is kept for a booking that ended, even
// when the provider is unreachable, a response is lost or the process dies
// between the two steps. What a booking paid, got back or has disputed is
// summed from its entries.
//
// The package holds the types and the pure rules; booking.LedgerStore keeps the
// entries and booking.Service acts on them.
package ledger

import (
	"time"
)

// Kind is what an entry records.
type Kind string

// Entry kinds.
const (
	// KindCharge: the guest's payment at checkout went through (full or
	// deposit mode). Recorded with the confirmation, or when money arrives
	// for a booking that can no longer keep it, so that every amount the
	// provider received is in the ledger.
	KindCharge Kind = "charge"
	// KindDecision: what a booking that closed (cancelled, declined,
	// expired) keeps of the money it received, in Amount. Written once,
	// in the transaction that closes the booking; afterwards nothing
	// refunds below it, and money received beyond it goes back. A closed
	// booking without one keeps nothing.
	KindDecision Kind = "decision"
	// KindCapture: an authorised amount was taken (request mode, on
	// approval). Recorded as it happens.
	KindCapture Kind = "capture"
	// KindRelease: an intent that must not be paid is to be cancelled
	// (an unpaid hold that lapsed, a declined or cancelled request). Should
	// it turn out paid, the worker returns the money instead.
	KindRelease Kind = "release"
	// KindRefund: money is to go back to the guest, or went back from the
	// provider's dashboard.
	KindRefund Kind = "refund"
	// KindDispute: the guest disputed the charge with their bank.
	KindDispute Kind = "dispute"
	// KindBalance: the balance of a deposit-mode booking is to be charged
	// off session on the saved card, from NextAttemptAt (the due date).
	// IntentID is the deposit's intent (whose card is charged); ProviderID
	// becomes the balance's own intent, created once with the entry's
	// key and only read or retried after that.
	KindBalance Kind = "balance"
	// KindDepositHold: a security deposit is to be held (authorised, not
	// taken) on the saved card from NextAttemptAt; ProviderID becomes the
	// hold's intent.
	KindDepositHold Kind = "deposit_hold"
	// KindDepositRelease: a held security deposit is to be released from
	// NextAttemptAt unless the host claimed it. IntentID is the hold.
	KindDepositRelease Kind = "deposit_release"
	// KindDepositClaim: the host took part or all of a held security
	// deposit. Recorded as it happens.
	KindDepositClaim Kind = "deposit_claim"
	// KindChangeCharge: what a guest's change of dates or party costs
	// more than the booking holds, to be charged from NextAttemptAt on
	// the card of the booking's first payment (IntentID), off session
	// when the card was saved, else completed by the guest on the
	// booking page. Written pending with the change's request, before
	// the new dates are taken: the change is applied (the dates swapped)
	// in the write that settles it succeeded, or voided when the guest
	// does not complete it in time. ProviderID becomes its own intent,
	// created once with the entry's key and only read after that.
	KindChangeCharge Kind = "change_charge"
)

// Status is where an entry stands.
type Status string

// Entry statuses.
const (
	// StatusPending: to be sent to the provider (again).
	StatusPending Status = "pending"
	// StatusSubmitted: the provider has it and has not settled it yet (a
	// refund answered "pending").
	StatusSubmitted Status = "submitted"
	// StatusSucceeded: done at the provider.
	StatusSucceeded Status = "succeeded"
	// StatusFailed: the provider refused it for good; the host is told.
	StatusFailed Status = "failed"
	// StatusSkipped: nothing was left to do (a release of an intent the
	// guest paid meanwhile, settled by the late-payment rule).
	StatusSkipped Status = "skipped"
)

// Reasons an entry was written, for the host and for the rules that read
// the ledger.
const (
	ReasonHoldLapsed    = "hold_lapsed"    // a pending hold ran out unpaid
	ReasonRequestLapsed = "request_lapsed" // the host did not answer a request in time
	ReasonDeclined      = "declined"       // the host declined a request
	ReasonCancelled     = "cancelled"      // the host cancelled
	ReasonLatePayment   = "late_payment"   // paid after the hold lapsed, dates taken since
	ReasonClosed        = "booking_closed" // paid for a booking that had ended
	ReasonApproved      = "approved"       // captured on approval
	ReasonPaid          = "paid"           // the guest paid at checkout
	ReasonDashboard     = "dashboard"      // refunded at the provider, outside staykit
	ReasonDispute       = "dispute"
	ReasonBalanceDue    = "balance_due"      // the balance of a deposit is due
	ReasonSecurity      = "security_deposit" // a security deposit's hold, release or claim
	ReasonGuestCancel   = "guest_cancelled"  // the guest cancelled under the booking's policy
	ReasonDateChange    = "date_change"      // the guest changed dates or party (package datechange)
	// ReasonChangeRefused: a change's charge went through but its dates
	// could not be taken (another guest's checkout won them): the charge
	// goes back in full.
	ReasonChangeRefused = "date_change_refused"
)

// Entry is one movement of money of a booking.
type Entry struct {
	ID        int64
	BookingID int64
	Kind      Kind
	IntentID  string
	// Amount is in the currency's minor units; 0 for a release.
	Amount   int64
	Currency string
	// Key is the idempotency key sent to the provider; unique across the
	// ledger, so writing an entry twice stores it once.
	Key    string
	Reason string
	Status Status
	// ProviderID is the provider's id of the refund or dispute.
	ProviderID string
	// Attempts counts the sends so far; NextAttemptAt is when the worker
	// may send it (again); LastError is the provider's last refusal.
	Attempts      int
	NextAttemptAt time.Time
	LastError     string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Summary is what a booking's entries add up to, in minor units.
type Summary struct {
	// Refunded is what went back to the guest.
	Refunded int64
	// RefundPending is what is on its way back (pending or submitted).
	RefundPending int64
	// Disputed is what the guest contests with their bank.
	Disputed int64
	// Failed counts entries the provider refused for good.
	Failed int
}

// Summarize adds up entries.
func Summarize(entries []Entry) Summary {
	var s Summary
	for _, e := range entries {
		switch {
		case e.Status == StatusFailed:
			s.Failed++
		case e.Kind == KindRefund && e.Status == StatusSucceeded:
			s.Refunded += e.Amount
		case e.Kind == KindRefund && (e.Status == StatusPending || e.Status == StatusSubmitted):
			s.RefundPending += e.Amount
		case e.Kind == KindDispute:
			s.Disputed += e.Amount
		}
	}
	return s
}

// Returned reports whether any of the booking's money was or is being given
// back: a booking with such an entry is never confirmed again.
func Returned(entries []Entry) bool {
	for _, e := range entries {
		if e.Kind == KindRefund && e.Status != StatusFailed {
			return true
		}
	}
	return false
}

// Revivable reports whether a booking that expired may still be confirmed
// by a late payment: only a pending hold that lapsed may, never a request
// the host let lapse, declined or cancelled, and never once money went
// back.
func Revivable(entries []Entry) bool {
	for _, e := range entries {
		if e.Kind == KindRelease && e.Reason != ReasonHoldLapsed {
			return false
		}
	}
	return !Returned(entries)
}

// Backoff is how long the worker waits before sending an entry again after
// attempts failures: 30 s doubling, at most an hour. It retries forever:
// the money is owed.
func Backoff(attempts int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempts && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}
