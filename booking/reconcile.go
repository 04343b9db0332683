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

// Reconcile brings a booking in line with its payment intent's current
// state, read from the provider by the caller. It is the one place where a
// payment moves a booking: confirm, the payment events and a release that
// finds its intent paid (package money), the periodic jobs and approve all
// come here, so a lost response, a duplicate or late event, or a crash
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
func (s *Service) Reconcile(ctx context.Context, org *Organization, b *Booking, in *payment.Intent, now time.Time) (*Booking, error) {
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
			return nil, s.returnMoney(ctx, b, in, ledger.ReasonClosed, now)
		case held && (in.Refunded() || ledger.Returned(entries)):
			// Money went back (from the dashboard, or by the late-payment
			// rule): never confirmed; whatever is left goes back too.
			return nil, s.closeAndReturn(ctx, org, b, in, now)
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
			return nil, s.returnMoney(ctx, b, in, ledger.ReasonClosed, now)
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
	captured := in.AmountReceived
	if captured == 0 {
		// A provider that does not say (the host commands' detached fake)
		// took the authorisation, which was the charge.
		var err error
		if captured, err = pricing.ToMinor(paid, b.Currency); err != nil {
			return nil, fmt.Errorf("convert charge of booking %d: %w", b.ID, err)
		}
	}
	jobs, err := s.jobsOnConfirm(ctx, org, b, now)
	if err != nil {
		return nil, err
	}
	updated, err := s.store.Transition(ctx, b.ID, Transition{
		From: []Status{StatusRequested}, To: StatusConfirmed, At: now,
		Confirmed: true, PaidAmount: &paid, ExpiresAt: &time.Time{},
		Record: append([]ledger.Entry{{Kind: ledger.KindCapture, IntentID: in.ID, Amount: captured, Currency: b.Currency,
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
	return nil, s.returnMoney(ctx, current, in, ledger.ReasonClosed, now)
}

// closeAndReturn expires a pending booking that can no longer be confirmed
// on its payment, and returns what is left of the money (returnMoney).
func (s *Service) closeAndReturn(ctx context.Context, org *Organization, b *Booking, in *payment.Intent, now time.Time) error {
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
	return s.returnMoney(ctx, b, in, ledger.ReasonClosed, now)
}

// ReceiptEntry records that intent in received its money for booking b:
// one per intent (its key is derived from the intent), whichever path
// finds it first.
func ReceiptEntry(b *Booking, in *payment.Intent, reason string) ledger.Entry {
	return ledger.Entry{BookingID: b.ID, Kind: ledger.KindCharge, IntentID: in.ID, Amount: in.AmountReceived, Currency: b.Currency,
		Key: "charge:" + in.ID, Reason: reason, Status: ledger.StatusSucceeded}
}

// ledgerOf is a booking's ledger as the money rules read it (LedgerOf).
func (s *Service) ledgerOf(ctx context.Context, b *Booking) ([]ledger.Entry, error) {
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	return LedgerOf(b, entries)
}

// LedgerOf is a booking's ledger, its stored entries, as the money rules
// read it. A booking confirmed before the ledger recorded charges has no
// receipt of its first payment: one is read from its paid amount (not
// stored), so that a cancellation refunds what it paid.
func LedgerOf(b *Booking, entries []ledger.Entry) ([]ledger.Entry, error) {
	if b.ConfirmedAt.IsZero() || b.PaymentIntentID == "" || b.PaymentMode == pricing.ModeRequest {
		return entries, nil
	}
	p := ledger.PositionOf(entries)
	if _, ok := p.Received[b.PaymentIntentID]; ok {
		return entries, nil
	}
	paid, err := pricing.ToMinor(b.PaidAmount, b.Currency)
	if err != nil {
		return nil, fmt.Errorf("convert paid amount of booking %d: %w", b.ID, err)
	}
	paid -= p.Charged()
	if paid <= 0 {
		return entries, nil
	}
	legacy := ReceiptEntry(b, &payment.Intent{ID: b.PaymentIntentID, AmountReceived: paid}, ledger.ReasonPaid)
	return append([]ledger.Entry{legacy}, entries...), nil
}

// ReleaseEntry is the ledger entry that voids a booking's intent. One per
// intent: its key is derived from the intent, so every path that closes
// the booking (and the money service) writes the same entry.
func ReleaseEntry(b *Booking, intentID, reason string) ledger.Entry {
	return ledger.Entry{BookingID: b.ID, Kind: ledger.KindRelease, IntentID: intentID, Currency: b.Currency,
		Key: "release:" + intentID, Reason: reason, Status: ledger.StatusPending}
}

// Idempotency keys of provider calls, derived from stored state so that a
// retry by staykit, by the host or by another replica is applied once.
func captureKey(intentID string) string { return "capture:" + intentID }

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
