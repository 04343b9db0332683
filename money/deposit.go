package money

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
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

// offSessionAuthorization is how long an off-session (merchant-initiated)
// authorisation lasts when the provider does not say (Visa's 4 days 18
// hours, the shortest of the networks').
const offSessionAuthorization = 4*24*time.Hour + 18*time.Hour

// sendDepositHold places the hold, once, with the entry's key in its
// idempotency key and metadata; an earlier attempt that may have reached
// the provider is looked up first. A booking no longer confirmed gets no
// hold, and one found placed is voided.
func (s *Service) sendDepositHold(ctx context.Context, e *ledger.Entry, reached bool, now time.Time) error {
	b, t, pay, in, err := s.offSessionEntry(ctx, e, reached)
	if err != nil {
		return err
	}
	if b.Status != booking.StatusConfirmed {
		if in != nil {
			e.ProviderID = in.ID
			if in.Status != payment.StatusCanceled && in.Status != payment.StatusSucceeded {
				if _, err := pay.CancelIntent(ctx, in.ID, "release:"+in.ID); err != nil {
					return fmt.Errorf("%w: void the deposit hold of a closed booking: %w", errRetry, err)
				}
			}
		}
		e.Status = ledger.StatusSkipped
		_, err := s.updateTerms(ctx, b.ID, now, func(t *booking.Terms) { t.DepositStatus = booking.DepositCancelled })
		return err
	}
	if in == nil {
		saved, card, err := s.savedCard(ctx, e)
		if err != nil {
			return err
		}
		in, err = saved.ChargeSaved(ctx, payment.SavedChargeParams{Customer: t.Customer, PaymentMethod: card,
			Amount: e.Amount, Currency: e.Currency, ManualCapture: true, IdempotencyKey: e.Key,
			Metadata: map[string]string{"booking_token": b.Token, "purpose": "security_deposit", payment.MetadataKey: e.Key}})
		if err != nil {
			return offSessionError(err)
		}
	}
	e.ProviderID = in.ID
	if in.Status != payment.StatusAuthorized {
		if _, err := s.updateTerms(ctx, b.ID, now, func(t *booking.Terms) { t.DepositStatus, t.DepositIntentID = booking.DepositFailed, in.ID }); err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		return fmt.Errorf("the security deposit could not be held: the intent is %s (%s)", in.Status, in.LastPaymentError)
	}
	org, err := s.organizationByID(ctx, b.OrgID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	// Released on its day, or just before the card's authorisation runs
	// out if that comes first.
	releaseAt := b.CheckOut.AddDays(t.DepositReleaseDays).In(org.Location())
	release := ledger.Entry{BookingID: b.ID, Kind: ledger.KindDepositRelease, IntentID: in.ID, Currency: b.Currency,
		Key: "deposit-release:" + in.ID, Reason: ledger.ReasonSecurity, Status: ledger.StatusPending,
		NextAttemptAt: earlier(releaseAt, holdLapses(in))}
	if _, err := s.store.RecordLedger(context.WithoutCancel(ctx), []ledger.Entry{release}, now); err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	if _, err := s.updateTerms(ctx, b.ID, now, func(t *booking.Terms) { t.DepositStatus, t.DepositIntentID = booking.DepositHeld, in.ID }); err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	e.Status = ledger.StatusSucceeded
	return nil
}

// holdLapses is when the engine lets an off-session hold go, a margin
// before the authorisation runs out: at the provider's capture_before when
// it says, else the shortest network window from the hold's creation.
func holdLapses(in *payment.Intent) time.Time {
	end := in.CaptureBefore
	if end.IsZero() {
		end = in.Created.Add(offSessionAuthorization)
	}
	return end.Add(-booking.AuthorizationMargin)
}

// sendDepositRelease voids the hold unless the host claimed it (a claim
// recorded, even one still on its way, keeps it). A release that comes
// before the booking's release date is the authorisation running out: the
// hold is let go, marked lapsed, and the host told, so that nobody
// believes a deposit is held that the card network no longer holds.
func (s *Service) sendDepositRelease(ctx context.Context, e *ledger.Entry, now time.Time) error {
	entries, err := s.store.LedgerEntries(ctx, e.BookingID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	for _, c := range entries {
		if c.Kind == ledger.KindDepositClaim && c.IntentID == e.IntentID && c.Status != ledger.StatusFailed {
			e.Status = ledger.StatusSkipped
			return nil
		}
	}
	b, err := s.store.BookingByID(ctx, e.BookingID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	org, err := s.organizationByID(ctx, b.OrgID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	t, err := s.store.Terms(ctx, b.ID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	releaseAt := b.CheckOut.AddDays(t.DepositReleaseDays).In(org.Location())
	lapsing := b.Status == booking.StatusConfirmed && now.Before(releaseAt)
	pay, err := s.accounts.ForBooking(ctx, e.BookingID)
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
	if _, err := s.updateTerms(ctx, e.BookingID, now, func(t *booking.Terms) {
		if t.DepositStatus == booking.DepositHeld {
			t.DepositStatus = booking.DepositReleased
			if lapsing {
				t.DepositStatus = booking.DepositLapsed
			}
		}
	}); err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	if lapsing {
		return fmt.Errorf("the card authorisation of the security deposit ran out before its release date (%s): the hold was let go and can no longer be claimed", releaseAt.Format(time.DateOnly))
	}
	e.Status = ledger.StatusSucceeded
	return nil
}

// sendDepositClaim captures a claimed part of a hold with the claim's key;
// the rest of the hold is released by the capture. A capture that went
// through with its answer lost is read back (the key replays it within the
// provider's window; after it, the intent is found captured).
func (s *Service) sendDepositClaim(ctx context.Context, e *ledger.Entry, now time.Time) error {
	pay, err := s.accounts.ForBooking(ctx, e.BookingID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	saved, ok := pay.(payment.SavedCards)
	if !ok {
		return errors.New("the payment provider cannot capture part of a hold")
	}
	in, err := saved.CaptureAmount(ctx, e.IntentID, e.Amount, e.Key)
	if err != nil {
		if errors.Is(err, payment.ErrUnavailable) {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		cur, gerr := pay.GetIntent(ctx, e.IntentID)
		switch {
		case gerr != nil:
			return fmt.Errorf("%w: %w", errRetry, errors.Join(err, gerr))
		case cur.Status == payment.StatusSucceeded:
			in = cur // claimed, answer lost
		case cur.Status == payment.StatusAuthorized:
			return fmt.Errorf("%w: %w", errRetry, err)
		default:
			_, _ = s.updateTerms(ctx, e.BookingID, now, func(t *booking.Terms) {
				if t.DepositStatus == booking.DepositHeld {
					t.DepositStatus = booking.DepositLapsed
				}
			})
			return fmt.Errorf("the security deposit hold is %s and can no longer be claimed: %w", cur.Status, err)
		}
	}
	claimed := pricing.FromMinor(in.AmountReceived, e.Currency)
	if _, err := s.updateTerms(ctx, e.BookingID, now, func(t *booking.Terms) { t.DepositStatus, t.DepositClaimed = booking.DepositClaimed, claimed }); err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	e.Status = ledger.StatusSucceeded
	b, err := s.store.BookingByID(ctx, e.BookingID)
	if err != nil {
		return nil // claimed; the host's e-mail is not worth a second capture
	}
	if org, err := s.organizationByID(ctx, b.OrgID); err == nil {
		s.notifyEntry(ctx, booking.NotifyDepositClaimed, org, b, e)
	}
	return nil
}
