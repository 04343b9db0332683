package booking

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// reconcile brings a booking in line with its payment intent's current
// state, read from the provider by the caller. It is the one place where a
// payment moves a booking: confirm, payment events, the sweeper and approve
// all come here, so a lost response, a duplicate or late event, or a crash
// between two steps ends the same way whichever path sees the intent
// first:
//
//   - money (or, in request mode, an authorisation) for a pending booking,
//     or for one whose unpaid hold lapsed: confirmed (requested) if the
//     dates are free, else the money goes back (CodePaymentLate);
//   - a captured intent of a requested booking: confirmed (a capture whose
//     response was lost);
//   - a voided intent of a pending or requested booking: expired;
//   - money or an authorisation for a booking that ended (expired,
//     declined, cancelled): a refund or release in the ledger, never kept.
//
// No booking is ever confirmed on an intent whose money was refunded,
// wholly or partly. Errors: CodePaymentNotConfirmed, CodePaymentProcessing,
// CodePaymentLate, CodeBookingClosed, or a store error.
func (s *Service) reconcile(ctx context.Context, org *Organization, b *Booking, in *payment.Intent, now time.Time) (*Booking, error) {
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	paid := in.Status == payment.StatusSucceeded
	held := paid || in.Status == payment.StatusAuthorized
	switch b.Status {
	case StatusPending, StatusExpired:
		switch {
		case b.Status == StatusExpired && held && !ledger.Revivable(entries):
			return nil, s.returnMoney(ctx, org, b, in, entries, ledger.ReasonClosed, now)
		case held && (in.Refunded() || ledger.Returned(entries)):
			// Money went back (from the dashboard, or by the late-payment
			// rule): never confirmed; whatever is left goes back too.
			return nil, s.closeAndReturn(ctx, org, b, in, entries, now)
		case held:
			return s.applyIntent(ctx, org, b, in, now)
		case in.Status == payment.StatusProcessing && b.Status == StatusPending:
			return nil, s.keepProcessingHold(ctx, org, b, now)
		case in.Status == payment.StatusCanceled && b.Status == StatusPending:
			return nil, s.expireVoided(ctx, org, b, now)
		}
		return nil, errNotPaid(b)
	case StatusRequested:
		switch in.Status {
		case payment.StatusSucceeded:
			return s.confirmCaptured(ctx, org, b, in, now)
		case payment.StatusCanceled:
			return nil, s.expireVoided(ctx, org, b, now)
		}
		return b, nil
	case StatusDeclined, StatusCancelled:
		if held {
			return nil, s.returnMoney(ctx, org, b, in, entries, ledger.ReasonClosed, now)
		}
		return nil, errClosedNow(b)
	}
	return b, nil // confirmed: refunds and disputes come as their own events
}

func errClosedNow(b *Booking) error {
	return &Error{Code: CodeBookingClosed, Message: "This booking was " + string(b.Status) + " and can no longer be confirmed.",
		Params: map[string]string{"status": string(b.Status)}}
}

// keepProcessingHold extends the hold of a booking whose payment the
// provider is still working on, so the dates are not given away meanwhile.
// A hold that lapsed before anyone saw the payment processing gave its
// dates away: it takes them again as a checkout would (the store checks
// overlaps, preparation days and closed nights), or not at all, and then
// the payment, if it goes through, is returned as a late one (applyIntent).
func (s *Service) keepProcessingHold(ctx context.Context, org *Organization, b *Booking, now time.Time) error {
	expires := now.Add(time.Duration(org.HoldMinutes) * time.Minute)
	if expires.After(b.ExpiresAt) {
		t := Transition{From: []Status{StatusPending}, To: StatusPending, At: now, ExpiresAt: &expires}
		if !b.ExpiresAt.After(now) {
			g, err := s.claimGuard(ctx, b)
			if err != nil {
				return err
			}
			t.ClaimDates, t.DateGuard = true, g
		}
		_, err := s.store.Transition(ctx, b.ID, t)
		switch {
		case err == nil, ErrorCode(err) == CodeConflict:
		case ErrorCode(err) == CodeUnavailable:
			return &Error{Code: CodePaymentProcessing, Message: "The payment is still being processed, but the hold lapsed and the dates were booked meanwhile: if the payment goes through, it will be refunded."}
		default:
			return fmt.Errorf("extend hold of booking %d: %w", b.ID, err)
		}
	}
	return &Error{Code: CodePaymentProcessing, Message: "The payment is still being processed; the dates stay held meanwhile. Please check again in a moment."}
}

// expireVoided expires a pending or requested booking whose intent was
// voided at the provider (an authorisation that lapsed, a cancellation from
// the dashboard): nothing is left to release.
func (s *Service) expireVoided(ctx context.Context, org *Organization, b *Booking, now time.Time) error {
	updated, err := s.store.Transition(ctx, b.ID, Transition{From: []Status{b.Status}, To: StatusExpired, At: now, ExpiresAt: &time.Time{}, Outbox: tell(NotifyExpired, b)})
	switch {
	case err == nil:
		s.notify(ctx, NotifyExpired, org, updated)
		return errClosedNow(updated)
	case ErrorCode(err) == CodeConflict:
		return errClosedNow(b)
	}
	return fmt.Errorf("expire booking %d with a voided payment: %w", b.ID, err)
}

// confirmCaptured confirms a requested booking whose authorisation was
// captured, recording the capture in the ledger with the status change.
// When the booking ended meanwhile, the money goes back.
func (s *Service) confirmCaptured(ctx context.Context, org *Organization, b *Booking, in *payment.Intent, now time.Time) (*Booking, error) {
	// A capture takes the whole authorisation, which matched the charge
	// when the request was made.
	paid := b.ChargeAmount
	jobs, err := s.jobsOnConfirm(ctx, org, b, now)
	if err != nil {
		return nil, err
	}
	updated, err := s.store.Transition(ctx, b.ID, Transition{
		From: []Status{StatusRequested}, To: StatusConfirmed, At: now,
		Confirmed: true, PaidAmount: &paid, ExpiresAt: &time.Time{},
		Record: append([]ledger.Entry{{Kind: ledger.KindCapture, IntentID: in.ID, Amount: in.Amount, Currency: b.Currency,
			Key: captureKey(in.ID), Reason: ledger.ReasonApproved, Status: ledger.StatusSucceeded}}, jobs...),
		Outbox: tell(NotifyConfirmed, b),
	})
	if err == nil {
		s.notify(ctx, NotifyConfirmed, org, updated)
		return updated, nil
	}
	if ErrorCode(err) != CodeConflict {
		return nil, fmt.Errorf("confirm captured booking %d: %w", b.ID, err)
	}
	current, rerr := s.store.BookingByID(ctx, b.ID)
	if rerr != nil {
		return nil, fmt.Errorf("re-read booking %d: %w", b.ID, rerr)
	}
	if current.Status == StatusConfirmed {
		return current, nil
	}
	entries, lerr := s.store.LedgerEntries(ctx, b.ID)
	if lerr != nil {
		return nil, fmt.Errorf("read ledger of booking %d: %w", b.ID, lerr)
	}
	return nil, s.returnMoney(ctx, org, current, in, entries, ledger.ReasonClosed, now)
}

// returnMoney makes sure that what the guest paid or authorised for a
// booking that will not happen goes back: a refund of what is neither
// refunded nor on its way back, or a release of an authorisation, written
// to the ledger (once, by key) and sent at once; the worker retries it
// until the provider has it. It returns the booking's closed error
// (CodePaymentLate for a late payment).
func (s *Service) returnMoney(ctx context.Context, org *Organization, b *Booking, in *payment.Intent, entries []ledger.Entry, reason string, now time.Time) error {
	var e ledger.Entry
	if in.Status == payment.StatusSucceeded {
		owed := in.AmountReceived - in.AmountRefunded - unsettledRefunds(entries)
		if owed > 0 {
			e = ledger.Entry{Kind: ledger.KindRefund, IntentID: in.ID, Amount: owed, Currency: b.Currency,
				Key: refundKey(in.ID, reason), Reason: reason, Status: ledger.StatusPending}
		}
	} else {
		e = releaseEntry(b, in.ID, reason)
	}
	if e.Kind != "" {
		e.BookingID = b.ID
		recorded, err := s.store.RecordLedger(context.WithoutCancel(ctx), []ledger.Entry{e}, now)
		if err != nil {
			return fmt.Errorf("record return of booking %d's payment: %w", b.ID, err)
		}
		s.sendNow(ctx, recorded)
	}
	if reason == ledger.ReasonLatePayment {
		return &Error{Code: CodePaymentLate, Message: "The payment arrived after the hold on these dates lapsed, and they have been booked since. The payment is being returned."}
	}
	return errClosedNow(b)
}

// closeAndReturn expires a pending booking that can no longer be confirmed
// on its payment, and returns what is left of the money.
func (s *Service) closeAndReturn(ctx context.Context, org *Organization, b *Booking, in *payment.Intent, entries []ledger.Entry, now time.Time) error {
	if b.Status == StatusPending {
		updated, err := s.store.Transition(ctx, b.ID, Transition{From: []Status{StatusPending}, To: StatusExpired, At: now, ExpiresAt: &time.Time{},
			Outbox: tell(NotifyExpired, b)})
		switch {
		case err == nil:
			s.notify(ctx, NotifyExpired, org, updated)
			b = updated
		case ErrorCode(err) != CodeConflict:
			return fmt.Errorf("expire booking %d paid with refunded money: %w", b.ID, err)
		}
	}
	return s.returnMoney(ctx, org, b, in, entries, ledger.ReasonClosed, now)
}

// unsettledRefunds is what the ledger is sending back that the provider may
// not count yet: pending refunds. (Submitted and succeeded ones are in the
// intent's refunded amount.)
func unsettledRefunds(entries []ledger.Entry) int64 {
	var n int64
	for _, e := range entries {
		if e.Kind == ledger.KindRefund && e.Status == ledger.StatusPending {
			n += e.Amount
		}
	}
	return n
}

// releaseEntry is the ledger entry that voids a booking's intent. One per
// intent: its key is derived from the intent, so every path that closes
// the booking writes the same entry.
func releaseEntry(b *Booking, intentID, reason string) ledger.Entry {
	return ledger.Entry{BookingID: b.ID, Kind: ledger.KindRelease, IntentID: intentID, Currency: b.Currency,
		Key: "release:" + intentID, Reason: reason, Status: ledger.StatusPending}
}

// Idempotency keys of provider calls, derived from stored state so that a
// retry by staykit, by the host or by another replica is applied once.
func captureKey(intentID string) string        { return "capture:" + intentID }
func refundKey(intentID, reason string) string { return "refund:" + intentID + ":" + reason }

// chargeMatches reports whether an intent is the booking's and for the
// amount and currency it must pay now.
func chargeMatches(b *Booking, in *payment.Intent) (bool, error) {
	want, err := pricing.ToMinor(b.ChargeAmount, b.Currency)
	if err != nil {
		return false, fmt.Errorf("convert charge of booking %d: %w", b.ID, err)
	}
	return in.ID == b.PaymentIntentID && in.Amount == want && strings.EqualFold(in.Currency, b.Currency), nil
}

// checkChargeable asks the provider, when it can tell (payment.AmountChecker),
// whether the amount due now can be charged, so that a quote says so
// before the guest fills in the form. Errors: CodeAmountNotChargeable.
func (s *Service) checkChargeable(q pricing.Quote) error {
	checker, ok := s.payments.(payment.AmountChecker)
	if !ok || !q.Charge.IsPositive() {
		return nil
	}
	amount, err := pricing.ToMinor(q.Charge, q.Currency)
	if err != nil {
		return fmt.Errorf("convert charge: %w", err)
	}
	if err := checker.CheckAmount(amount, q.Currency); err != nil {
		return errNotChargeable(err)
	}
	return nil
}

// chargeDecimals is how many decimals of the currency the payment provider
// can charge, when fewer than its minor units; nil otherwise.
func (s *Service) chargeDecimals(currency string) *int32 {
	if p, ok := s.payments.(payment.ChargePrecision); ok {
		if d, fewer := p.ChargeDecimals(currency); fewer {
			return &d
		}
	}
	return nil
}
