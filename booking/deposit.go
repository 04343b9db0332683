package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// A security deposit is held (authorised, not taken) on the guest's saved
// card DepositHoldDays before arrival, and released DepositReleaseDays
// after check-out unless the host claims part or all of it first. Card
// authorisations lapse after about seven days, so the hold is placed close
// to arrival, never at checkout; a stay whose hold, nights and release
// days exceed that relies on the host claiming before the lapse.

// sendDepositHold places the hold, once, with the entry's key.
func (s *Service) sendDepositHold(ctx context.Context, e *ledger.Entry, now time.Time) error {
	b, err := s.store.BookingByID(ctx, e.BookingID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	if b.Status != StatusConfirmed {
		e.Status = ledger.StatusSkipped
		_, err := s.updateTerms(ctx, b.ID, now, func(t *Terms) { t.DepositStatus = DepositCancelled })
		return err
	}
	t, err := s.store.Terms(ctx, b.ID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	saved, card, err := s.savedCard(ctx, e)
	if err != nil {
		return err
	}
	var in *payment.Intent
	if e.ProviderID == "" {
		in, err = saved.ChargeSaved(ctx, payment.SavedChargeParams{Customer: t.Customer, PaymentMethod: card,
			Amount: e.Amount, Currency: e.Currency, ManualCapture: true, IdempotencyKey: e.Key,
			Metadata: map[string]string{"booking_token": b.Token, "purpose": "security_deposit"}})
	} else {
		pay, err := s.bookingPayments(ctx, e.BookingID)
		if err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		in, err = pay.GetIntent(ctx, e.ProviderID)
	}
	switch {
	case errors.Is(err, payment.ErrUnavailable):
		return fmt.Errorf("%w: %w", errRetry, err)
	case err != nil:
		return err
	}
	e.ProviderID = in.ID
	if in.Status != payment.StatusAuthorized {
		if _, err := s.updateTerms(ctx, b.ID, now, func(t *Terms) { t.DepositStatus, t.DepositIntentID = DepositFailed, in.ID }); err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		return fmt.Errorf("the security deposit could not be held: the intent is %s (%s)", in.Status, in.LastPaymentError)
	}
	org, err := s.organizationByID(ctx, b.OrgID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	release := ledger.Entry{BookingID: b.ID, Kind: ledger.KindDepositRelease, IntentID: in.ID, Currency: b.Currency,
		Key: "deposit-release:" + in.ID, Reason: ledger.ReasonSecurity, Status: ledger.StatusPending,
		NextAttemptAt: b.CheckOut.AddDays(t.DepositReleaseDays).In(s.location(org))}
	if _, err := s.store.RecordLedger(context.WithoutCancel(ctx), []ledger.Entry{release}, now); err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	if _, err := s.updateTerms(ctx, b.ID, now, func(t *Terms) { t.DepositStatus, t.DepositIntentID = DepositHeld, in.ID }); err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	e.Status = ledger.StatusSucceeded
	return nil
}

// sendDepositRelease voids the hold unless the host claimed it.
func (s *Service) sendDepositRelease(ctx context.Context, e *ledger.Entry, now time.Time) error {
	pay, err := s.bookingPayments(ctx, e.BookingID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	_, err = pay.CancelIntent(ctx, e.IntentID, e.Key)
	switch {
	case err == nil:
	case errors.Is(err, payment.ErrUnavailable):
		return fmt.Errorf("%w: %w", errRetry, err)
	case errors.Is(err, payment.ErrState):
		in, gerr := pay.GetIntent(ctx, e.IntentID)
		if gerr != nil {
			return fmt.Errorf("%w: %w", errRetry, gerr)
		}
		switch in.Status {
		case payment.StatusCanceled: // released already, or lapsed
		case payment.StatusSucceeded:
			e.Status = ledger.StatusSkipped // claimed by the host
			return nil
		default:
			return fmt.Errorf("%w: cannot release a hold that is %s", errRetry, in.Status)
		}
	default:
		return err
	}
	if _, err := s.updateTerms(ctx, e.BookingID, now, func(t *Terms) {
		if t.DepositStatus == DepositHeld {
			t.DepositStatus = DepositReleased
		}
	}); err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	e.Status = ledger.StatusSucceeded
	return nil
}

// ClaimDeposit takes amount of a booking's held security deposit for the
// host (damage); the rest is released at once. The capture carries a key
// derived from the hold, so a retry after a lost answer claims once.
// Errors: CodeNotFound, CodeInvalid (amount not positive or above the
// deposit), CodeBookingClosed (no deposit held: not yet placed, released,
// or claimed), CodePaymentUnavailable.
func (s *Service) ClaimDeposit(ctx context.Context, slug, token string, amount Money) (*Terms, error) {
	org, b, err := s.hostBooking(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	t, err := s.bookingTerms(ctx, b)
	if err != nil {
		return nil, err
	}
	if t == nil || t.DepositStatus != DepositHeld {
		status := DepositNone
		if t != nil {
			status = t.DepositStatus
		}
		return nil, &Error{Code: CodeBookingClosed, Message: "No security deposit is held on this booking (" + string(status) + ").",
			Params: map[string]string{"status": string(status)}}
	}
	if !amount.IsPositive() || amount.GreaterThan(t.Deposit) {
		f := FieldErrors{}
		f.Add("amount", "invalid_amount")
		return nil, f.Err()
	}
	minor, err := pricing.ToMinor(amount, b.Currency)
	if err != nil {
		f := FieldErrors{}
		f.Add("amount", "invalid_amount")
		return nil, f.Err()
	}
	pay, err := s.bookingPayments(ctx, b.ID)
	if err != nil {
		return nil, err
	}
	saved, ok := pay.(payment.SavedCards)
	if !ok {
		return nil, errors.New("the payment provider cannot capture part of a hold")
	}
	key := "deposit-claim:" + t.DepositIntentID
	in, err := saved.CaptureAmount(ctx, t.DepositIntentID, minor, key)
	if err != nil {
		cur, gerr := pay.GetIntent(ctx, t.DepositIntentID)
		switch {
		case gerr != nil:
			return nil, paymentUnavailable("capture", "The deposit could not be claimed. Please try again in a moment.", errors.Join(err, gerr))
		case cur.Status == payment.StatusSucceeded:
			in = cur // claimed, answer lost
		case cur.Status == payment.StatusAuthorized:
			return nil, paymentUnavailable("capture", "The deposit could not be claimed. Please try again in a moment.", err)
		default:
			return nil, &Error{Code: CodeBookingClosed, Message: "The security deposit hold is no longer valid.", Err: err,
				Params: map[string]string{"status": string(cur.Status)}}
		}
	}
	now := s.clock.Now()
	recorded, err := s.store.RecordLedger(context.WithoutCancel(ctx), []ledger.Entry{{BookingID: b.ID, Kind: ledger.KindDepositClaim,
		IntentID: in.ID, Amount: in.AmountReceived, Currency: b.Currency, Key: key, Reason: ledger.ReasonSecurity,
		Status: ledger.StatusSucceeded}}, now)
	if err != nil {
		return nil, fmt.Errorf("record deposit claim of booking %d: %w", b.ID, err)
	}
	claimed := pricing.FromMinor(in.AmountReceived, b.Currency)
	t, err = s.updateTerms(ctx, b.ID, now, func(t *Terms) { t.DepositStatus, t.DepositClaimed = DepositClaimed, claimed })
	if err != nil {
		return nil, err
	}
	s.notifyEntry(ctx, NotifyDepositClaimed, org, b, &recorded[0])
	return t, nil
}
