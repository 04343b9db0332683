package booking

import (
	"context"
	"errors"
	"fmt"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/pricing"
)

// A security deposit is held (authorised, not taken) on the guest's saved
// card DepositHoldDays before arrival, and released DepositReleaseDays
// after check-out unless the host claims part or all of it first. Card
// authorisations lapse after about seven days, so the hold is placed close
// to arrival, never at checkout; a stay whose hold, nights and release
// days exceed that relies on the host claiming before the lapse.

// ClaimDeposit takes amount of a booking's held security deposit for the
// host (damage); the rest is released at once. The claim is written to the
// ledger before the provider is asked, with a key derived from the hold, so
// a crash or a lost answer leaves it owed and the jobs complete it, and a
// retry claims once; it is sent at once through the MoneyMover. Errors:
// CodeNotFound, CodeInvalid (amount not positive or above the deposit),
// CodeBookingClosed (the booking is not confirmed, or no deposit is held:
// not yet placed, released, lapsed or claimed), CodePaymentUnavailable
// (the claim is recorded and sent later).
func (s *Service) ClaimDeposit(ctx context.Context, slug, token string, amount Money) (*Terms, error) {
	_, b, err := s.hostBooking(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	if b.Status != StatusConfirmed {
		return nil, errClosed(b, "charged a security deposit")
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
	recorded, err := s.store.RecordLedger(context.WithoutCancel(ctx), []ledger.Entry{{BookingID: b.ID, Kind: ledger.KindDepositClaim,
		IntentID: t.DepositIntentID, Amount: minor, Currency: b.Currency, Key: "deposit-claim:" + t.DepositIntentID,
		Reason: ledger.ReasonSecurity, Status: ledger.StatusPending}}, s.clock.Now())
	if err != nil {
		return nil, fmt.Errorf("record deposit claim of booking %d: %w", b.ID, err)
	}
	e := recorded[0]
	if e.Status == ledger.StatusPending {
		if err := s.sendEntry(ctx, &e); err != nil {
			s.logger.WarnContext(ctx, "claim deposit; the worker retries", "booking_id", b.ID, "err", err)
		}
	}
	switch e.Status {
	case ledger.StatusSucceeded:
		return s.bookingTerms(ctx, b)
	case ledger.StatusFailed:
		return nil, &Error{Code: CodeBookingClosed, Message: "The security deposit hold is no longer valid.",
			Params: map[string]string{"status": string(DepositLapsed)}}
	}
	return nil, paymentUnavailable("capture", "The deposit claim is recorded but could not reach the payment provider yet; it is retried automatically.", errors.New(e.LastError))
}
