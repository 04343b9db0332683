package money

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// BalanceRetries are the waits after each declined balance charge before
// the next attempt; after the last the balance is failed and the host told
// (payment.failed with the balance's entry).
var BalanceRetries = []time.Duration{24 * time.Hour, 48 * time.Hour, 72 * time.Hour}

// actionPoll is how often the worker looks at a balance waiting for the
// guest to authenticate (a webhook or the booking page usually settles it
// first).
const actionPoll = 6 * time.Hour

// retryLater is an outcome that leaves an entry pending until at, for a
// reason that is not a failure (a decline to retry on schedule, a guest to
// wait for).
type retryLater struct {
	at  time.Time
	why string
}

func (r *retryLater) Error() string { return r.why }

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// savedCard returns the provider's SavedCards and the card of the booking's
// first payment (the one the guest agreed to have kept).
func (s *Service) savedCard(ctx context.Context, e *ledger.Entry) (payment.SavedCards, string, error) {
	pay, err := s.accounts.ForBooking(ctx, e.BookingID)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", errRetry, err)
	}
	saved, ok := pay.(payment.SavedCards)
	if !ok {
		return nil, "", errors.New("the payment provider cannot charge saved cards")
	}
	src, err := pay.GetIntent(ctx, e.IntentID)
	if err != nil {
		return nil, "", fmt.Errorf("%w: read the intent whose card is saved: %w", errRetry, err)
	}
	return saved, src.PaymentMethod, nil
}

// sendBalance charges a booking's balance off session, or looks at the
// charge made already: an entry's intent is created once, with the entry's
// key in its idempotency key and its metadata, and after that only read, or
// tried again with a key per decline. Before anything else the intent is
// found: by its id once known, or, when an earlier attempt may have reached
// the provider with its answer lost, by its key on the customer. A booking
// that is no longer confirmed is not charged: an intent found open is
// voided, and money found taken is recorded and returned beyond the
// booking's decision.
func (s *Service) sendBalance(ctx context.Context, e *ledger.Entry, reached bool, now time.Time) error {
	b, t, pay, in, err := s.offSessionEntry(ctx, e, reached)
	if err != nil {
		return err
	}
	if b.Status != booking.StatusConfirmed {
		return s.dropBalance(ctx, pay, b, e, in, now)
	}
	saved, card, err := s.savedCard(ctx, e)
	if err != nil {
		return err
	}
	attempted := false
	switch {
	case in == nil:
		fee, err := s.accounts.ApplicationFee(ctx, b.OrgID, e.Amount)
		if err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		in, err = saved.ChargeSaved(ctx, payment.SavedChargeParams{Customer: t.Customer, PaymentMethod: card,
			Amount: e.Amount, Currency: e.Currency, IdempotencyKey: e.Key, ApplicationFee: fee,
			Metadata: map[string]string{"booking_token": b.Token, "purpose": "balance", payment.MetadataKey: e.Key}})
		if err != nil {
			return offSessionError(err)
		}
		attempted = true
	case in.Status == payment.StatusRequiresPayment && t.BalanceStatus == booking.BalanceRetrying:
		// Declined before and due again: try the card once more.
		if in, err = saved.ConfirmSaved(ctx, in.ID, card, e.Key+":retry:"+strconv.Itoa(t.BalanceDeclines)); err != nil {
			return offSessionError(err)
		}
		attempted = true
	case in.Status == payment.StatusRequiresPayment:
		// Declined by the attempt whose answer was lost: counted now.
		attempted = true
	}
	e.ProviderID = in.ID
	return s.balanceOutcome(ctx, b, e, in, attempted, now)
}

// offSessionEntry reads what sending an off-session entry (a balance, a
// security deposit hold) needs: its booking and terms, the booking's
// payments, and the intent the entry made, if any (offSessionIntent).
// Errors are to retry.
func (s *Service) offSessionEntry(ctx context.Context, e *ledger.Entry, reached bool) (*booking.Booking, *booking.Terms, payment.Provider, *payment.Intent, error) {
	b, err := s.store.BookingByID(ctx, e.BookingID)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("%w: %w", errRetry, err)
	}
	t, err := s.store.Terms(ctx, b.ID)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("%w: %w", errRetry, err)
	}
	pay, err := s.accounts.ForBooking(ctx, e.BookingID)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("%w: %w", errRetry, err)
	}
	in, err := s.offSessionIntent(ctx, pay, t.Customer, e, reached)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return b, t, pay, in, nil
}

// offSessionIntent finds the intent of an off-session entry (a balance, a
// security deposit hold): by its id once known, by its key when an earlier
// attempt may have reached the provider, else nil (never created).
func (s *Service) offSessionIntent(ctx context.Context, pay payment.Provider, customer string, e *ledger.Entry, reached bool) (*payment.Intent, error) {
	var in *payment.Intent
	var err error
	switch {
	case e.ProviderID != "":
		in, err = pay.GetIntent(ctx, e.ProviderID)
	case reached:
		in, err = pay.IntentByKey(ctx, customer, e.Key)
		if errors.Is(err, payment.ErrNotFound) {
			return nil, nil
		}
	default:
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: find intent of %s: %w", errRetry, e.Key, err)
	}
	return in, nil
}

// offSessionError classes an off-session call's error: unreachable or
// in the wrong state for now is retried; anything else is final.
func offSessionError(err error) error {
	if errors.Is(err, payment.ErrUnavailable) || errors.Is(err, payment.ErrState) {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	return err
}

// dropBalance settles the balance entry of a booking that will not happen:
// an intent still open is voided; money it took is recorded as received
// and returned beyond the booking's decision.
func (s *Service) dropBalance(ctx context.Context, pay payment.Provider, b *booking.Booking, e *ledger.Entry, in *payment.Intent, now time.Time) error {
	if in != nil {
		e.ProviderID = in.ID
		switch in.Status {
		case payment.StatusSucceeded:
			return s.receiveClosed(ctx, b, e, in, now)
		case payment.StatusCanceled:
		default:
			if _, err := pay.CancelIntent(ctx, in.ID, "release:"+in.ID); err != nil {
				return fmt.Errorf("%w: void the balance of a closed booking: %w", errRetry, err)
			}
		}
	}
	e.Status = ledger.StatusSkipped
	_, err := s.updateTerms(ctx, b.ID, now, func(t *booking.Terms) {
		if t.BalanceStatus != booking.BalancePaid {
			t.BalanceStatus = booking.BalanceCancelled
		}
	})
	return err
}

// receiveClosed records the balance entry e, whose intent in took money
// for a booking that closed, as that money's receipt (skipped when another
// entry recorded it already: one receipt per intent), with the refunds
// that return it beyond the booking's decision.
func (s *Service) receiveClosed(ctx context.Context, b *booking.Booking, e *ledger.Entry, in *payment.Intent, now time.Time) error {
	entries, err := s.ledgerOf(ctx, b)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	e.Status = ledger.StatusSucceeded
	if received(entries, in.ID) {
		e.Status = ledger.StatusSkipped
	}
	if err := s.settleClosed(ctx, b, []ledger.Entry{*e}, ledger.ReasonClosed, now); err != nil {
		e.Status = ledger.StatusPending
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	return nil
}

// balanceOutcome records what a balance charge came to.
func (s *Service) balanceOutcome(ctx context.Context, b *booking.Booking, e *ledger.Entry, in *payment.Intent, attempted bool, now time.Time) error {
	org, err := s.organizationByID(ctx, b.OrgID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	switch in.Status {
	case payment.StatusSucceeded:
		if in.AmountRefunded > 0 {
			// Refunds made before the entry knew its intent (its answer
			// lost, a dashboard refund whose event found no entry to
			// match) are learnt before the balance is settled.
			if err := s.matchRefunds(ctx, b, in.ID); err != nil {
				return fmt.Errorf("%w: %w", errRetry, err)
			}
		}
		// The checkout's charge and the balance: the same figure however
		// often this runs (a crash after the transition, a retry).
		paid := pricing.Round(b.ChargeAmount.Add(pricing.FromMinor(in.AmountReceived, b.Currency)), b.Currency)
		e.Status = ledger.StatusSucceeded
		updated, err := s.store.Transition(ctx, b.ID, booking.Transition{From: []booking.Status{booking.StatusConfirmed}, To: booking.StatusConfirmed, At: now, PaidAmount: &paid})
		switch {
		case booking.ErrorCode(err) == booking.CodeConflict:
			// Cancelled while the charge went through: the money goes
			// back beyond the cancellation's decision.
			if err := s.receiveClosed(ctx, b, e, in, now); err != nil {
				return err
			}
		case err != nil:
			e.Status = ledger.StatusPending
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		if _, err := s.updateTerms(ctx, b.ID, now, func(t *booking.Terms) { t.BalanceStatus, t.BalanceIntentID = booking.BalancePaid, in.ID }); err != nil {
			e.Status = ledger.StatusPending
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		if updated != nil {
			s.tellLater(ctx, booking.NotifyBalancePaid, booking.NotifyBalancePaid+":"+e.Key, updated, e.ID)
			s.notify(ctx, booking.NotifyBalancePaid, org, updated)
		}
		return nil
	case payment.StatusRequiresAction:
		deadline := s.balanceDeadline(org, b)
		if !now.Before(deadline) {
			return s.expireBalanceAction(ctx, b, e, in, now)
		}
		first := false
		if _, err := s.updateTerms(ctx, b.ID, now, func(t *booking.Terms) {
			first = t.BalanceStatus != booking.BalanceActionRequired
			t.BalanceIntentID, t.BalanceStatus = in.ID, booking.BalanceActionRequired
		}); err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		if first {
			s.tellLater(ctx, booking.NotifyBalanceActionRequired, booking.NotifyBalanceActionRequired+":"+in.ID, b, e.ID)
			s.notify(ctx, booking.NotifyBalanceActionRequired, org, b)
		}
		return &retryLater{at: earlier(now.Add(actionPoll), deadline), why: "waiting for the guest to authenticate the balance"}
	case payment.StatusRequiresPayment:
		if !attempted {
			return fmt.Errorf("%w: the balance intent is not paid yet", errRetry)
		}
		t, err := s.updateTerms(ctx, b.ID, now, func(t *booking.Terms) {
			t.BalanceDeclines++
			t.BalanceIntentID = in.ID
			t.BalanceStatus = booking.BalanceRetrying
			if t.BalanceDeclines > len(BalanceRetries) {
				t.BalanceStatus = booking.BalanceFailed
			}
		})
		if err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		if t.BalanceStatus == booking.BalanceFailed {
			return fmt.Errorf("the balance was declined %d times (%s)", t.BalanceDeclines, in.LastPaymentError)
		}
		return &retryLater{at: now.Add(BalanceRetries[t.BalanceDeclines-1]), why: "declined (" + in.LastPaymentError + "); tried again later"}
	case payment.StatusCanceled:
		if _, err := s.updateTerms(ctx, b.ID, now, func(t *booking.Terms) { t.BalanceStatus = booking.BalanceFailed }); err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		return errors.New("the balance intent was canceled at the provider")
	}
	return fmt.Errorf("%w: the balance intent is %s", errRetry, in.Status)
}

// balanceDeadline is when a balance waiting for the guest's 3-D Secure
// gives up: the start of the check-in day in the organisation's zone. The
// host then collects it on arrival.
func (s *Service) balanceDeadline(org *booking.Organization, b *booking.Booking) time.Time {
	return b.CheckIn.In(org.Location())
}

// expireBalanceAction ends a balance the guest did not authenticate by
// its deadline: the open intent is voided (so a late authentication
// cannot take money nobody records), the balance is failed and the host
// told. Should the guest have paid at the last moment, it is paid.
func (s *Service) expireBalanceAction(ctx context.Context, b *booking.Booking, e *ledger.Entry, in *payment.Intent, now time.Time) error {
	pay, err := s.accounts.ForBooking(ctx, b.ID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	if _, err := pay.CancelIntent(ctx, in.ID, "release:"+in.ID); err != nil {
		if !errors.Is(err, payment.ErrState) {
			return fmt.Errorf("%w: void the unauthenticated balance: %w", errRetry, err)
		}
		cur, gerr := pay.GetIntent(ctx, in.ID)
		if gerr != nil {
			return fmt.Errorf("%w: %w", errRetry, gerr)
		}
		switch cur.Status {
		case payment.StatusCanceled:
		case payment.StatusSucceeded:
			return s.balanceOutcome(ctx, b, e, cur, false, now)
		default:
			return fmt.Errorf("%w: the unauthenticated balance is %s", errRetry, cur.Status)
		}
	}
	if _, err := s.updateTerms(ctx, b.ID, now, func(t *booking.Terms) { t.BalanceStatus = booking.BalanceFailed }); err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	return errors.New("the guest did not authenticate the balance before check-in; collect it on arrival")
}
