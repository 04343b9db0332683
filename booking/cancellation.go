package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/pricing"
)

// CancellationPreview is what cancelling a booking now would give back,
// under the policy it was sold with.
type CancellationPreview struct {
	Policy policy.Policy
	// Cancellable: the guest may cancel it (confirmed, stay not over).
	Cancellable bool
	// Paid is what the guest paid; Refund what cancelling now gives back
	// of it (nothing already refunded is counted twice).
	Paid   Money
	Refund Money
	// Percent of the refundable total the current tier gives back, until
	// Until (zero when no tier applies any more); NextPercent after.
	Percent     decimal.Decimal
	Until       time.Time
	NextPercent decimal.Decimal
}

// RefundRule is how much of what a guest paid a host's cancellation gives
// back.
type RefundRule string

// Refund rules of CancelWithOptions.
const (
	// RefundPolicy: what the booking's cancellation policy says.
	RefundPolicy RefundRule = "policy"
	// RefundFull: everything paid and not refunded yet.
	RefundFull RefundRule = "full"
	// RefundNone: nothing.
	RefundNone RefundRule = "none"
	// RefundAmount: CancelOptions.Amount.
	RefundAmount RefundRule = "amount"
)

// CancelOptions say what a host's cancellation refunds.
type CancelOptions struct {
	Refund RefundRule
	// Amount is refunded with RefundAmount; it must not exceed what is
	// left to refund.
	Amount Money
}

// CancellationPreview tells a guest what cancelling now would refund.
// Errors: CodeNotFound.
func (s *Service) CancellationPreview(ctx context.Context, slug, token string) (*CancellationPreview, error) {
	org, err := s.Organization(ctx, slug)
	if err != nil {
		return nil, err
	}
	b, err := s.bookingByToken(ctx, org, token)
	if err != nil {
		return nil, err
	}
	// A balance the booking counts as paid but the ledger lacks (a crash
	// between the two writes) is recorded first, as a cancellation does
	// before it decides: what the preview offers is what cancelling gives.
	s.learnBalance(ctx, b)
	return s.preview(ctx, org, b, s.clock.Now())
}

// preview computes the policy refund of b at now: what cancelling now
// gives back of what the booking holds at the provider.
func (s *Service) preview(ctx context.Context, org *Organization, b *Booking, now time.Time) (*CancellationPreview, error) {
	t, err := s.bookingTerms(ctx, b)
	if err != nil {
		return nil, err
	}
	pol := policy.Policy{Name: policy.NonRefundable}
	if t != nil {
		pol = t.Policy
	} else if p, err := policy.Preset(DefaultPolicy); err == nil {
		pol = p
	}
	decimals := pricing.MinorUnits(b.Currency)
	// A booking whose dates changed counts from its earliest check-in.
	out := pol.Evaluate(b.TotalAmount, PolicyAnchor(b, t), s.location(org), now, decimals)
	entries, err := s.ledgerOf(ctx, b)
	if err != nil {
		return nil, err
	}
	pos := ledger.PositionOf(entries)
	pv := &CancellationPreview{Policy: pol, Paid: pricing.FromMinor(pos.Charged(), b.Currency), Percent: out.Percent, Until: out.Until, NextPercent: out.Next,
		Cancellable: b.Status == StatusConfirmed && s.today(org, now).Before(b.CheckOut)}
	// The guest keeps what the policy refunds of the total; the host keeps
	// the rest, out of what is held.
	kept, err := pricing.ToMinor(b.TotalAmount.Sub(out.Refund), b.Currency)
	if err != nil {
		return nil, fmt.Errorf("convert kept amount of booking %d: %w", b.ID, err)
	}
	refund := min(max(0, pos.Charged()-pos.Returned()-kept), pos.RefundableTotal())
	if !pv.Cancellable {
		refund = 0
	}
	pv.Refund = pricing.FromMinor(refund, b.Currency)
	return pv, nil
}

// CancelByGuest cancels a confirmed booking from its page and refunds what
// its policy gives back at this moment (the preview's amount), written to
// the ledger with the cancellation and sent by the worker. Two requests at
// once cancel and refund once. Errors: CodeNotFound, CodeBookingClosed
// (not confirmed, or the stay is over).
func (s *Service) CancelByGuest(ctx context.Context, slug, token string) (*Details, error) {
	org, err := s.Organization(ctx, slug)
	if err != nil {
		return nil, err
	}
	b, err := s.bookingByToken(ctx, org, token)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	s.learnMoney(ctx, b)
	pv, err := s.preview(ctx, org, b, now)
	if err != nil {
		return nil, err
	}
	if !pv.Cancellable {
		return nil, errClosed(b, "cancelled")
	}
	refund, err := pricing.ToMinor(pv.Refund, b.Currency)
	if err != nil {
		return nil, fmt.Errorf("convert refund of booking %d: %w", b.ID, err)
	}
	updated, err := s.cancelConfirmed(ctx, org, b, refund, ledger.ReasonGuestCancel, now)
	if err != nil {
		return nil, err
	}
	return s.details(ctx, updated)
}

// CancelWithOptions cancels a pending, requested or confirmed booking as a
// host, refunding what o says of a confirmed one: by its policy, in full,
// nothing, or an amount. Errors: CodeNotFound, CodeBookingClosed,
// CodeInvalid (an amount above what is left to refund, or an unknown
// rule).
func (s *Service) CancelWithOptions(ctx context.Context, slug, token string, o CancelOptions) (*Booking, error) {
	org, b, err := s.hostBooking(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	if b.Status != StatusConfirmed {
		t := Transition{From: []Status{b.Status}, To: StatusCancelled, At: now, ExpiresAt: &time.Time{},
			Record: releaseRecord(b, ledger.ReasonCancelled)}
		if b.Status != StatusPending && b.Status != StatusRequested {
			return nil, errClosed(b, "cancelled")
		}
		return s.finishCancel(ctx, org, b, t)
	}
	s.learnMoney(ctx, b)
	entries, err := s.ledgerOf(ctx, b)
	if err != nil {
		return nil, err
	}
	pos := ledger.PositionOf(entries)
	var refund int64
	switch o.Refund {
	case RefundNone:
	case RefundFull, "":
		refund = pos.RefundableTotal()
	case RefundPolicy:
		pv, err := s.preview(ctx, org, b, now)
		if err != nil {
			return nil, err
		}
		if refund, err = pricing.ToMinor(pv.Refund, b.Currency); err != nil {
			return nil, fmt.Errorf("convert refund of booking %d: %w", b.ID, err)
		}
	case RefundAmount:
		want, err := pricing.ToMinor(pricing.Round(o.Amount, b.Currency), b.Currency)
		if err != nil || !o.Amount.IsPositive() || want > pos.RefundableTotal() {
			f := FieldErrors{}
			f.Add("amount", "invalid_amount")
			return nil, f.Err()
		}
		refund = want
	default:
		f := FieldErrors{}
		f.Add("refund", "invalid_choice")
		return nil, f.Err()
	}
	return s.cancelConfirmed(ctx, org, b, refund, ledger.ReasonCancelled, now)
}

// cancelConfirmed cancels a confirmed booking and decides its money once,
// in the same transition: it keeps what it holds less refund (capped at
// what can be refunded), written as its decision (ledger.KindDecision),
// with the refunds that give the rest back, the release of a security
// deposit held for it and of a balance intent still open. Afterwards
// nothing refunds below the decision; money that reaches the provider
// later (a balance whose answer was lost, a 3-D Secure completed late) is
// received beyond it and goes back. Of two cancellations at once, one wins
// and the other is CodeBookingClosed.
func (s *Service) cancelConfirmed(ctx context.Context, org *Organization, b *Booking, refund int64, reason string, now time.Time) (*Booking, error) {
	entries, err := s.ledgerOf(ctx, b)
	if err != nil {
		return nil, err
	}
	record := ledger.Decide(entries, b.ID, b.Currency, reason, refund)
	terms, err := s.bookingTerms(ctx, b)
	if err != nil {
		return nil, err
	}
	if terms != nil {
		if terms.DepositStatus == DepositHeld {
			record = append(record, ledger.Entry{Kind: ledger.KindDepositRelease, IntentID: terms.DepositIntentID, Currency: b.Currency,
				Key: "deposit-release:" + terms.DepositIntentID + ":cancelled", Reason: ledger.ReasonSecurity, Status: ledger.StatusPending})
		}
		if open := terms.BalanceIntentID; open != "" && terms.BalanceStatus != BalancePaid {
			record = append(record, ReleaseEntry(b, open, reason))
		}
	}
	updated, err := s.finishCancel(ctx, org, b, Transition{From: []Status{StatusConfirmed}, To: StatusCancelled, At: now,
		ExpiresAt: &time.Time{}, Record: record})
	if err != nil {
		return nil, err
	}
	if terms != nil {
		if _, err := s.updateTerms(ctx, b.ID, now, func(t *Terms) {
			switch t.BalanceStatus {
			case BalanceScheduled, BalanceRetrying, BalanceActionRequired:
				t.BalanceStatus = BalanceCancelled
			}
			if t.DepositStatus == DepositScheduled {
				t.DepositStatus = DepositCancelled
			}
		}); err != nil {
			s.logger.WarnContext(ctx, "mark terms cancelled; the worker does it", "booking_id", b.ID, "err", err)
		}
	}
	return updated, nil
}

// finishCancel stores a cancellation, sends its ledger entries and tells
// the host.
func (s *Service) finishCancel(ctx context.Context, org *Organization, b *Booking, t Transition) (*Booking, error) {
	t.Outbox = tell(NotifyCancelled, b)
	updated, err := s.store.Transition(ctx, b.ID, t)
	if err != nil {
		if ErrorCode(err) == CodeConflict {
			current, rerr := s.store.BookingByID(ctx, b.ID)
			if rerr != nil {
				return nil, fmt.Errorf("re-read booking %d: %w", b.ID, rerr)
			}
			return nil, errClosed(current, "cancelled")
		}
		return nil, fmt.Errorf("cancel booking %d: %w", b.ID, err)
	}
	s.sendBookingEntries(ctx, updated.ID)
	s.notify(ctx, NotifyCancelled, org, updated)
	return updated, nil
}
