package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// Notification kinds of balances and security deposits.
const (
	// NotifyBalancePaid: the balance was charged; the booking is paid in
	// full (tell the host and the guest).
	NotifyBalancePaid = "balance.paid"
	// NotifyBalanceActionRequired: the guest's bank asks the guest to
	// authenticate the balance; the booking page lets them (tell the
	// guest).
	NotifyBalanceActionRequired = "balance.action_required"
	// NotifyDepositClaimed: the host took part or all of the security
	// deposit (Notification.Entry says how much).
	NotifyDepositClaimed = "deposit.claimed"
)

// foldSmallBalance charges everything at checkout when the balance alone
// would be below what the provider can charge: it could never be
// collected later.
func (s *Service) foldSmallBalance(q pricing.Quote) pricing.Quote {
	checker, ok := s.payments.(payment.AmountChecker)
	if !ok || !q.Balance.IsPositive() {
		return q
	}
	amount, err := pricing.ToMinor(q.Balance, q.Currency)
	if err == nil && checker.CheckAmount(amount, q.Currency) == nil {
		return q
	}
	q.Charge, q.Balance, q.BalanceDueDate = q.Total, q.Balance.Sub(q.Balance), civil.Date{}
	return q
}

// jobsOnConfirm are the ledger entries a booking's confirmation schedules,
// written with it: the balance charge on its due date and the security
// deposit hold before arrival.
func (s *Service) jobsOnConfirm(ctx context.Context, org *Organization, b *Booking, now time.Time) ([]ledger.Entry, error) {
	t, err := s.bookingTerms(ctx, b)
	if err != nil || t == nil {
		return nil, err
	}
	loc := s.location(org)
	var out []ledger.Entry
	if t.BalanceStatus == BalanceScheduled && b.BalanceAmount.IsPositive() {
		amount, err := pricing.ToMinor(b.BalanceAmount, b.Currency)
		if err != nil {
			return nil, fmt.Errorf("convert balance of booking %d: %w", b.ID, err)
		}
		out = append(out, ledger.Entry{Kind: ledger.KindBalance, IntentID: b.PaymentIntentID, Amount: amount,
			Currency: b.Currency, Key: "balance:" + b.PaymentIntentID, Reason: ledger.ReasonBalanceDue,
			Status: ledger.StatusPending, NextAttemptAt: later(now, b.BalanceDueDate.In(loc))})
	}
	if t.DepositStatus == DepositScheduled && t.Deposit.IsPositive() {
		amount, err := pricing.ToMinor(t.Deposit, b.Currency)
		if err != nil {
			return nil, fmt.Errorf("convert security deposit of booking %d: %w", b.ID, err)
		}
		out = append(out, ledger.Entry{Kind: ledger.KindDepositHold, IntentID: b.PaymentIntentID, Amount: amount,
			Currency: b.Currency, Key: "deposit-hold:" + b.PaymentIntentID, Reason: ledger.ReasonSecurity,
			Status: ledger.StatusPending, NextAttemptAt: later(now, b.CheckIn.AddDays(-t.DepositHoldDays).In(loc))})
	}
	return out, nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// BalanceState is what a guest sees of a booking's balance.
type BalanceState struct {
	Status  BalanceStatus
	Amount  Money
	DueDate civil.Date
	// ClientSecret lets the guest's browser authenticate the open balance
	// intent; set only when Status is BalanceActionRequired.
	ClientSecret string
}

// BalancePayment is the guest's side of a balance the bank wants them to
// authenticate: it first settles the balance if the guest completed it
// already (its entry sent at once through the MoneyMover; without one the
// jobs settle it), then returns its state, with the client secret of the
// open intent while action is required. Errors: CodeNotFound,
// CodePaymentUnavailable.
func (s *Service) BalancePayment(ctx context.Context, slug, token string) (*BalanceState, error) {
	org, err := s.Organization(ctx, slug)
	if err != nil {
		return nil, err
	}
	b, err := s.bookingByToken(ctx, org, token)
	if err != nil {
		return nil, err
	}
	t, err := s.bookingTerms(ctx, b)
	if err != nil {
		return nil, err
	}
	if t == nil || t.BalanceStatus != BalanceActionRequired {
		return BalanceOf(b, t), nil
	}
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	for i := range entries {
		if e := &entries[i]; e.Kind == ledger.KindBalance && e.Status == ledger.StatusPending && e.ProviderID != "" {
			if err := s.sendEntry(ctx, e); err != nil {
				s.logger.WarnContext(ctx, "settle balance; the worker retries", "booking_id", b.ID, "err", err)
			}
		}
	}
	if b, err = s.store.BookingByID(ctx, b.ID); err != nil {
		return nil, fmt.Errorf("re-read booking: %w", err)
	}
	if t, err = s.bookingTerms(ctx, b); err != nil {
		return nil, err
	}
	st := BalanceOf(b, t)
	if st.Status == BalanceActionRequired {
		pay, err := s.accounts.ForBooking(ctx, b.ID)
		if err != nil {
			return nil, err
		}
		in, err := pay.GetIntent(ctx, t.BalanceIntentID)
		if err != nil {
			return nil, paymentUnavailable("check", "The payment could not be checked. Please try again in a moment.", err)
		}
		st.ClientSecret = in.ClientSecret
	}
	return st, nil
}

// BalanceOf is where a booking's balance stands by its terms (nil for a
// booking made before terms existed).
func BalanceOf(b *Booking, t *Terms) *BalanceState {
	st := &BalanceState{Status: BalanceNone, Amount: b.BalanceAmount, DueDate: b.BalanceDueDate}
	switch {
	case t != nil:
		st.Status = t.BalanceStatus
	case b.BalanceAmount.IsPositive():
		st.Status = BalanceManual
	}
	return st
}

// PaymentPublicKey is the key the guest's browser uses with the payment
// provider.
func (s *Service) PaymentPublicKey() string { return s.payments.PublicKey() }
