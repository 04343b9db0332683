package money

import (
	"context"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/pricing"
)

// ReasonBalanceNotScheduled is the reason (booking.ParamReason) of a
// balance the guest cannot pay early: none is scheduled on a saved card
// (paid already, collected by the host, or none owed).
const ReasonBalanceNotScheduled = "balance_not_scheduled"

// earlyMargin is how long before its due date a scheduled balance can
// still be moved to now: closer than that, its job may be sending it, and
// it is sent as it is (the key keeps it one charge).
const earlyMargin = time.Minute

// PayBalanceNow charges the scheduled balance of b now, at the guest's
// request: the same ledger entry, with the same key, that the job would
// send on the due date is made due now and sent, so that whichever of the
// two runs first charges it and the other finds it settled (the
// provider's idempotency covers two sends at once). The outcome is the
// balance's, as for a scheduled charge: paid, or waiting for the guest's
// 3-D Secure (booking.Service.BalancePayment then gives the page its
// client secret), or declined and retried. Errors:
// booking.CodeBookingClosed (not confirmed; or reason
// ReasonBalanceNotScheduled). A balance paid already is no error.
func (s *Service) PayBalanceNow(ctx context.Context, b *booking.Booking) error {
	if b.Status != booking.StatusConfirmed {
		return &booking.Error{Code: booking.CodeBookingClosed, Message: "Only a confirmed booking's balance can be paid.",
			Params: map[string]string{booking.ParamReason: "balance_not_confirmed"}}
	}
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	now := s.clock.Now()
	for i := range entries {
		e := &entries[i]
		if e.Kind != ledger.KindBalance || e.Status != ledger.StatusPending {
			continue
		}
		if e.Attempts == 0 && e.NextAttemptAt.After(now.Add(earlyMargin)) {
			e.NextAttemptAt, e.UpdatedAt = now, now
			if err := s.store.UpdateLedgerEntry(ctx, e); err != nil {
				return fmt.Errorf("bring balance of booking %d forward: %w", b.ID, err)
			}
		}
		if !e.NextAttemptAt.After(now) {
			if _, err := s.send(ctx, e); err != nil {
				s.logger.WarnContext(ctx, "pay a balance early; the worker retries", "booking_id", b.ID, "err", err)
			}
		}
		return nil
	}
	for _, e := range entries {
		if e.Kind == ledger.KindBalance && e.Status == ledger.StatusSucceeded {
			return nil // paid already (by its job, or a request a moment ago)
		}
	}
	return &booking.Error{Code: booking.CodeBookingClosed, Message: "No balance is waiting to be charged to the saved card.",
		Params: map[string]string{booking.ParamReason: ReasonBalanceNotScheduled}}
}

// Payment is one line of a guest's payment schedule.
type Payment struct {
	// Kind is what the line is: "charge" (the payment at checkout, or a
	// capture), "balance", "change_charge" (a change of dates), "refund",
	// "deposit_claim".
	Kind string
	// Status: "paid" (or "refunded" for a refund), "pending" (under way),
	// "scheduled" (due later), "failed".
	Status string
	// Amount in the booking's currency.
	Amount booking.Money
	// At is when it was paid or refunded, or when it is due.
	At time.Time
}

// Schedule is a booking's payments: what was paid and refunded, and what
// is due when, from its ledger, oldest first; the balance the host
// collects (no saved card) comes last, due on its date.
func Schedule(b *booking.Booking, t *booking.Terms, entries []ledger.Entry, loc *time.Location) []Payment {
	var out []Payment
	for _, e := range entries {
		p := Payment{Kind: string(e.Kind), Amount: pricing.FromMinor(e.Amount, b.Currency), At: e.UpdatedAt}
		switch e.Kind {
		case ledger.KindCharge, ledger.KindCapture:
			p.Kind = "charge"
		case ledger.KindBalance, ledger.KindChangeCharge, ledger.KindRefund, ledger.KindDepositClaim:
		default:
			continue
		}
		switch e.Status {
		case ledger.StatusSucceeded:
			p.Status = "paid"
			if e.Kind == ledger.KindRefund {
				p.Status = "refunded"
			}
		case ledger.StatusSkipped:
			continue
		case ledger.StatusFailed:
			p.Status = "failed"
		case ledger.StatusPending:
			p.Status = "pending"
			if e.Attempts == 0 && e.NextAttemptAt.After(e.CreatedAt) {
				p.Status, p.At = "scheduled", e.NextAttemptAt
			}
		default:
			p.Status = "pending"
		}
		out = append(out, p)
	}
	if t != nil && t.BalanceStatus == booking.BalanceManual && b.BalanceAmount.IsPositive() ||
		t == nil && b.BalanceAmount.IsPositive() {
		out = append(out, Payment{Kind: "balance", Status: "scheduled", Amount: b.BalanceAmount, At: b.BalanceDueDate.In(loc)})
	}
	return out
}
