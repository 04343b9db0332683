package money

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
)

// DateChanges is the store side of a guest's change of dates or party
// (package datechange implements it): what a change's charge
// (ledger.KindChangeCharge) is for, and what its outcome does to the
// change. The provider calls are this package's.
type DateChanges interface {
	// ChangeCharge says how the charge of entry e is to be made.
	ChangeCharge(ctx context.Context, e *ledger.Entry) (*ChangeCharge, error)
	// ChangePaid applies the change whose charge e took through in (the
	// new dates taken, the booking's new amounts), saving e succeeded in
	// the same write; when the change can no longer apply (its dates
	// were taken meanwhile) it records e succeeded with the refunds that
	// give the charge back, in one write. It sets e's status to what it
	// saved. A booking that is no longer confirmed is
	// booking.CodeBookingClosed: the money is returned as a closed
	// booking's.
	ChangePaid(ctx context.Context, e *ledger.Entry, in *payment.Intent, now time.Time) error
	// ChangeDropped ends the change of e without applying it (status
	// expired), e having taken nothing.
	ChangeDropped(ctx context.Context, e *ledger.Entry, reason string, now time.Time) error
}

// ChangeCharge is how a change's charge is made.
type ChangeCharge struct {
	// Open: the change still waits for its charge. A closed one (expired,
	// refused, or its booking cancelled) takes nothing: an intent found
	// open is voided, money found taken is given back.
	Open bool
	// Customer is the provider's customer the charge belongs to (where an
	// intent whose answer was lost is looked up by its key).
	Customer string
	// PaymentMethod, when set, is the card saved with the guest's consent
	// (a deposit's or security deposit's): the charge is made off
	// session. Empty: an intent the guest pays on the booking page.
	PaymentMethod string
	// Since and Hold make the charge's deadline: once an intent asks for
	// the guest (3-D Secure, a card to enter), they have Hold from the
	// later of Since and the intent's creation to complete it; then it is
	// voided and the change expires. The new dates are not held
	// meanwhile.
	Since time.Time
	Hold  time.Duration
}

// dateChanges holds the DateChanges of a Service.
type dateChanges struct{ DateChanges }

// SetDateChanges makes d the store side of date changes' charges:
// datechange.New calls it. Until it is set, a change's charge is left
// pending (retried later).
func (s *Service) SetDateChanges(d DateChanges) { s.changes.Store(&dateChanges{d}) }

// changePoll is how often the worker looks at a change's charge waiting
// for the guest (the booking page or a webhook usually settles it first).
const changePoll = 5 * time.Minute

// sendChangeCharge makes the charge of a change of dates, or looks at the
// one made already: the intent is created once, with the entry's key as
// its idempotency key and in its metadata, and only read after that (by
// its id once known, by its key on the customer when an earlier attempt
// may have reached the provider). Paid, the change is applied (or, its
// dates gone, the charge given back) in the write that settles the entry;
// waiting for the guest past the deadline, the intent is voided and the
// change expires; a change that closed takes nothing.
func (s *Service) sendChangeCharge(ctx context.Context, e *ledger.Entry, reached bool, now time.Time) error {
	d := s.changes.Load()
	if d == nil {
		return fmt.Errorf("%w: no date change service", errRetry)
	}
	cc, err := d.ChangeCharge(ctx, e)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	b, err := s.store.BookingByID(ctx, e.BookingID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	pay, err := s.accounts.ForBooking(ctx, e.BookingID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	in, err := s.offSessionIntent(ctx, pay, cc.Customer, e, reached)
	if err != nil {
		return err
	}
	if !cc.Open || b.Status != booking.StatusConfirmed {
		return s.dropChangeCharge(ctx, d, pay, b, e, in, now)
	}
	if in == nil {
		if in, err = s.startChangeCharge(ctx, pay, b, cc, e); err != nil {
			return err
		}
	}
	e.ProviderID = in.ID
	switch in.Status {
	case payment.StatusSucceeded:
		return s.changePaid(ctx, d, b, e, in, now)
	case payment.StatusCanceled:
		e.Status = ledger.StatusSkipped
		return d.ChangeDropped(ctx, e, "the payment was cancelled", now)
	}
	deadline := cc.Since
	if in.Created.After(deadline) {
		deadline = in.Created
	}
	deadline = deadline.Add(cc.Hold)
	if !now.Before(deadline) {
		return s.expireChangeCharge(ctx, d, pay, b, e, in, now)
	}
	return &retryLater{at: earlier(now.Add(changePoll), deadline), why: "waiting for the guest to pay the change (" + string(in.Status) + ")"}
}

// startChangeCharge creates the change's intent: off session on the saved
// card, or for the guest to pay on the booking page.
func (s *Service) startChangeCharge(ctx context.Context, pay payment.Provider, b *booking.Booking, cc *ChangeCharge, e *ledger.Entry) (*payment.Intent, error) {
	fee, err := s.accounts.ApplicationFee(ctx, b.OrgID, e.Amount)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errRetry, err)
	}
	meta := map[string]string{"booking_token": b.Token, "purpose": "date_change", payment.MetadataKey: e.Key}
	if saved, ok := pay.(payment.SavedCards); ok && cc.PaymentMethod != "" && cc.Customer != "" {
		in, err := saved.ChargeSaved(ctx, payment.SavedChargeParams{Customer: cc.Customer, PaymentMethod: cc.PaymentMethod,
			Amount: e.Amount, Currency: e.Currency, IdempotencyKey: e.Key, ApplicationFee: fee, Metadata: meta})
		if err != nil {
			return nil, offSessionError(err)
		}
		return in, nil
	}
	in, err := pay.CreateIntent(ctx, payment.CreateParams{Amount: e.Amount, Currency: e.Currency, IdempotencyKey: e.Key,
		Metadata: meta, Customer: cc.Customer, ApplicationFee: fee})
	if err != nil {
		return nil, offSessionError(err)
	}
	return in, nil
}

// changePaid applies the change whose charge succeeded; a booking closed
// meanwhile gets the money back beyond its decision.
func (s *Service) changePaid(ctx context.Context, d DateChanges, b *booking.Booking, e *ledger.Entry, in *payment.Intent, now time.Time) error {
	if in.AmountRefunded > 0 {
		if err := s.matchRefunds(ctx, b, in.ID); err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
	}
	err := d.ChangePaid(ctx, e, in, now)
	if booking.ErrorCode(err) == booking.CodeBookingClosed {
		if err := s.receiveClosed(ctx, b, e, in, now); err != nil {
			return err
		}
		return d.ChangeDropped(ctx, e, "the booking was cancelled", now)
	}
	if err != nil {
		e.Status = ledger.StatusPending
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	return nil
}

// dropChangeCharge settles the charge of a change that will not apply (it
// expired, or its booking closed): an intent still open is voided, money
// it took goes back.
func (s *Service) dropChangeCharge(ctx context.Context, d DateChanges, pay payment.Provider, b *booking.Booking, e *ledger.Entry, in *payment.Intent, now time.Time) error {
	if in != nil {
		e.ProviderID = in.ID
		switch in.Status {
		case payment.StatusSucceeded:
			if b.Status == booking.StatusConfirmed {
				// A change that expired while the guest paid: applied
				// if its dates are still free, else given back.
				return s.changePaid(ctx, d, b, e, in, now)
			}
			if err := s.receiveClosed(ctx, b, e, in, now); err != nil {
				return err
			}
			return d.ChangeDropped(ctx, e, "the booking was cancelled", now)
		case payment.StatusCanceled:
		default:
			if _, err := pay.CancelIntent(ctx, in.ID, "release:"+in.ID); err != nil {
				if !errors.Is(err, payment.ErrState) {
					return fmt.Errorf("%w: void the charge of a change that will not apply: %w", errRetry, err)
				}
				return fmt.Errorf("%w: the charge of a change changed state while being voided: %w", errRetry, err)
			}
		}
	}
	e.Status = ledger.StatusSkipped
	return d.ChangeDropped(ctx, e, "the change did not apply", now)
}

// expireChangeCharge voids the intent of a change the guest did not pay
// in time, and expires the change; should the guest have paid at the last
// moment, it is applied (or given back).
func (s *Service) expireChangeCharge(ctx context.Context, d DateChanges, pay payment.Provider, b *booking.Booking, e *ledger.Entry, in *payment.Intent, now time.Time) error {
	if _, err := pay.CancelIntent(ctx, in.ID, "release:"+in.ID); err != nil {
		if !errors.Is(err, payment.ErrState) {
			return fmt.Errorf("%w: void the change's unpaid charge: %w", errRetry, err)
		}
		cur, gerr := pay.GetIntent(ctx, in.ID)
		if gerr != nil {
			return fmt.Errorf("%w: %w", errRetry, gerr)
		}
		switch cur.Status {
		case payment.StatusCanceled:
		case payment.StatusSucceeded:
			return s.changePaid(ctx, d, b, e, cur, now)
		default:
			return fmt.Errorf("%w: the change's unpaid charge is %s", errRetry, cur.Status)
		}
	}
	e.Status = ledger.StatusSkipped
	return d.ChangeDropped(ctx, e, "the payment was not completed in time", now)
}

// ChangeIntent reads the intent of a change's charge entry, nil before
// one exists: what the booking page needs to let the guest complete it.
// Errors: booking.CodePaymentUnavailable.
func (s *Service) ChangeIntent(ctx context.Context, e *ledger.Entry) (*payment.Intent, error) {
	if e.ProviderID == "" {
		return nil, nil
	}
	pay, err := s.accounts.ForBooking(ctx, e.BookingID)
	if err != nil {
		return nil, err
	}
	in, err := pay.GetIntent(ctx, e.ProviderID)
	if err != nil {
		return nil, &booking.Error{Code: booking.CodePaymentUnavailable, Message: "The payment could not be checked. Please try again in a moment.",
			Params: map[string]string{booking.ParamStep: "check"}, Err: err}
	}
	return in, nil
}

// ChangeCustomer returns the provider's customer a change's charge of
// booking b belongs to: the one its card was saved on, else one created
// now with a key derived from the booking (so the same one every time),
// so that an intent whose answer was lost can be found by its key; ""
// when the provider keeps no customers. Errors:
// booking.CodePaymentUnavailable.
func (s *Service) ChangeCustomer(ctx context.Context, b *booking.Booking, t *booking.Terms) (string, error) {
	if t != nil && t.Customer != "" {
		return t.Customer, nil
	}
	pay, err := s.accounts.ForBooking(ctx, b.ID)
	if err != nil {
		return "", err
	}
	saved, ok := pay.(payment.SavedCards)
	if !ok {
		return "", nil
	}
	id, err := saved.CreateCustomer(ctx, payment.CustomerParams{Email: b.GuestEmail, Name: b.GuestName,
		IdempotencyKey: "customer-" + b.Token, Metadata: map[string]string{"booking_token": b.Token}})
	if err != nil {
		return "", &booking.Error{Code: booking.CodePaymentUnavailable, Message: "The payment could not be started. Please try again in a moment.",
			Params: map[string]string{booking.ParamStep: "start"}, Err: err}
	}
	return id, nil
}

// SavedCard returns the card a booking's charges may be made with off
// session: its first payment's, when the guest agreed to have it kept (a
// customer in its terms); "" otherwise. Errors:
// booking.CodePaymentUnavailable.
func (s *Service) SavedCard(ctx context.Context, b *booking.Booking, t *booking.Terms) (string, error) {
	if t == nil || t.Customer == "" || b.PaymentIntentID == "" {
		return "", nil
	}
	pay, err := s.accounts.ForBooking(ctx, b.ID)
	if err != nil {
		return "", err
	}
	if _, ok := pay.(payment.SavedCards); !ok {
		return "", nil
	}
	in, err := pay.GetIntent(ctx, b.PaymentIntentID)
	if err != nil {
		return "", &booking.Error{Code: booking.CodePaymentUnavailable, Message: "The payment could not be started. Please try again in a moment.",
			Params: map[string]string{booking.ParamStep: "start"}, Err: err}
	}
	return in.PaymentMethod, nil
}
