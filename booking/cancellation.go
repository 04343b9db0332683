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
	p, _, err := s.preview(ctx, org, b, s.clock.Now())
	return p, err
}

// preview computes the policy refund of b at now, and the ledger entries
// that would pay it back.
func (s *Service) preview(ctx context.Context, org *Organization, b *Booking, now time.Time) (*CancellationPreview, []ledger.Entry, error) {
	t, err := s.bookingTerms(ctx, b)
	if err != nil {
		return nil, nil, err
	}
	pol := policy.Policy{Name: policy.NonRefundable}
	if t != nil {
		pol = t.Policy
	} else if p, err := policy.Preset(DefaultPolicy); err == nil {
		pol = p
	}
	decimals := pricing.MinorUnits(b.Currency)
	out := pol.Evaluate(b.TotalAmount, b.CheckIn, s.location(org), now, decimals)
	pv := &CancellationPreview{Policy: pol, Paid: b.PaidAmount, Percent: out.Percent, Until: out.Until, NextPercent: out.Next,
		Cancellable: b.Status == StatusConfirmed && s.today(org, now).Before(b.CheckOut)}
	// The guest keeps what the policy refunds of the total; the host keeps
	// the rest, out of what was paid.
	kept := b.TotalAmount.Sub(out.Refund)
	refund := b.PaidAmount.Sub(kept)
	entries, err := s.refundEntries(ctx, b, t, refund, ledger.ReasonGuestCancel)
	if err != nil {
		return nil, nil, err
	}
	pv.Refund = pricing.FromMinor(sumEntries(entries), b.Currency)
	if !pv.Cancellable {
		pv.Refund = pricing.FromMinor(0, b.Currency)
	}
	return pv, entries, nil
}

func sumEntries(entries []ledger.Entry) int64 {
	var n int64
	for _, e := range entries {
		n += e.Amount
	}
	return n
}

// refundEntries are the refunds that give back amount of what the booking
// paid (capped at what is left), the balance's intent first, then the
// first payment's. Nothing when amount is not positive.
func (s *Service) refundEntries(ctx context.Context, b *Booking, t *Terms, amount Money, reason string) ([]ledger.Entry, error) {
	if !amount.IsPositive() {
		return nil, nil
	}
	want, err := pricing.ToMinor(pricing.Round(amount, b.Currency), b.Currency)
	if err != nil {
		return nil, fmt.Errorf("convert refund of booking %d: %w", b.ID, err)
	}
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	paidTotal, err := pricing.ToMinor(b.PaidAmount, b.Currency)
	if err != nil {
		return nil, fmt.Errorf("convert paid amount of booking %d: %w", b.ID, err)
	}
	type source struct {
		intent string
		paid   int64
	}
	var sources []source
	for _, e := range entries {
		if e.Kind == ledger.KindBalance && e.Status == ledger.StatusSucceeded && e.ProviderID != "" {
			sources = append(sources, source{e.ProviderID, e.Amount})
			paidTotal -= e.Amount
		}
	}
	if b.PaymentIntentID != "" {
		sources = append(sources, source{b.PaymentIntentID, paidTotal})
	}
	var out []ledger.Entry
	for _, src := range sources {
		left := src.paid
		for _, e := range entries {
			if e.Kind == ledger.KindRefund && e.IntentID == src.intent && e.Status != ledger.StatusFailed {
				left -= e.Amount
			}
		}
		n := min(left, want)
		if n <= 0 {
			continue
		}
		out = append(out, ledger.Entry{BookingID: b.ID, Kind: ledger.KindRefund, IntentID: src.intent, Amount: n,
			Currency: b.Currency, Key: refundKey(src.intent, reason), Reason: reason, Status: ledger.StatusPending})
		want -= n
	}
	return out, nil
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
	pv, refunds, err := s.preview(ctx, org, b, now)
	if err != nil {
		return nil, err
	}
	if !pv.Cancellable {
		return nil, errClosed(b, "cancelled")
	}
	updated, err := s.cancelConfirmed(ctx, org, b, refunds, now)
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
	terms, err := s.bookingTerms(ctx, b)
	if err != nil {
		return nil, err
	}
	var refunds []ledger.Entry
	switch o.Refund {
	case RefundNone:
	case RefundFull, "":
		refunds, err = s.refundEntries(ctx, b, terms, b.PaidAmount, ledger.ReasonCancelled)
	case RefundPolicy:
		var pv *CancellationPreview
		if pv, _, err = s.preview(ctx, org, b, now); err == nil {
			refunds, err = s.refundEntries(ctx, b, terms, pv.Refund, ledger.ReasonCancelled)
		}
	case RefundAmount:
		refunds, err = s.refundEntries(ctx, b, terms, o.Amount, ledger.ReasonCancelled)
		if err == nil {
			want, cerr := pricing.ToMinor(pricing.Round(o.Amount, b.Currency), b.Currency)
			if cerr != nil || !o.Amount.IsPositive() || sumEntries(refunds) != want {
				f := FieldErrors{}
				f.Add("amount", "invalid_amount")
				return nil, f.Err()
			}
		}
	default:
		f := FieldErrors{}
		f.Add("refund", "invalid_choice")
		return nil, f.Err()
	}
	if err != nil {
		return nil, err
	}
	return s.cancelConfirmed(ctx, org, b, refunds, now)
}

// cancelConfirmed cancels a confirmed booking with its refunds, and
// releases a security deposit held for it, in one transition: of two
// cancellations at once, one wins and the other is CodeBookingClosed.
func (s *Service) cancelConfirmed(ctx context.Context, org *Organization, b *Booking, refunds []ledger.Entry, now time.Time) (*Booking, error) {
	record := refunds
	terms, err := s.bookingTerms(ctx, b)
	if err != nil {
		return nil, err
	}
	if terms != nil && terms.DepositStatus == DepositHeld {
		record = append(record, ledger.Entry{Kind: ledger.KindDepositRelease, IntentID: terms.DepositIntentID, Currency: b.Currency,
			Key: "deposit-release:" + terms.DepositIntentID + ":cancelled", Reason: ledger.ReasonSecurity, Status: ledger.StatusPending})
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
