package booking

import (
	"context"
	"errors"
	"fmt"
	"strconv"
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

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// savedCard returns the provider's SavedCards and the card of the booking's
// first payment (the one the guest agreed to have kept).
func (s *Service) savedCard(ctx context.Context, e *ledger.Entry) (payment.SavedCards, string, error) {
	pay, err := s.bookingPayments(ctx, e.BookingID)
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
	if b.Status != StatusConfirmed {
		return s.dropBalance(ctx, pay, b, e, in, now)
	}
	saved, card, err := s.savedCard(ctx, e)
	if err != nil {
		return err
	}
	attempted := false
	switch {
	case in == nil:
		fee, err := s.applicationFee(ctx, b.OrgID, e.Amount)
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
	case in.Status == payment.StatusRequiresPayment && t.BalanceStatus == BalanceRetrying:
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
func (s *Service) offSessionEntry(ctx context.Context, e *ledger.Entry, reached bool) (*Booking, *Terms, payment.Provider, *payment.Intent, error) {
	b, err := s.store.BookingByID(ctx, e.BookingID)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("%w: %w", errRetry, err)
	}
	t, err := s.store.Terms(ctx, b.ID)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("%w: %w", errRetry, err)
	}
	pay, err := s.bookingPayments(ctx, e.BookingID)
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
func (s *Service) dropBalance(ctx context.Context, pay payment.Provider, b *Booking, e *ledger.Entry, in *payment.Intent, now time.Time) error {
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
	_, err := s.updateTerms(ctx, b.ID, now, func(t *Terms) {
		if t.BalanceStatus != BalancePaid {
			t.BalanceStatus = BalanceCancelled
		}
	})
	return err
}

// receiveClosed records the balance entry e, whose intent in took money
// for a booking that closed, as that money's receipt (skipped when another
// entry recorded it already: one receipt per intent), with the refunds
// that return it beyond the booking's decision.
func (s *Service) receiveClosed(ctx context.Context, b *Booking, e *ledger.Entry, in *payment.Intent, now time.Time) error {
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
func (s *Service) balanceOutcome(ctx context.Context, b *Booking, e *ledger.Entry, in *payment.Intent, attempted bool, now time.Time) error {
	org, err := s.organizationByID(ctx, b.OrgID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	switch in.Status {
	case payment.StatusSucceeded:
		// The checkout's charge and the balance: the same figure however
		// often this runs (a crash after the transition, a retry).
		paid := pricing.Round(b.ChargeAmount.Add(pricing.FromMinor(in.AmountReceived, b.Currency)), b.Currency)
		e.Status = ledger.StatusSucceeded
		updated, err := s.store.Transition(ctx, b.ID, Transition{From: []Status{StatusConfirmed}, To: StatusConfirmed, At: now, PaidAmount: &paid})
		switch {
		case ErrorCode(err) == CodeConflict:
			// Cancelled while the charge went through: the money goes
			// back beyond the cancellation's decision.
			if err := s.receiveClosed(ctx, b, e, in, now); err != nil {
				return err
			}
		case err != nil:
			e.Status = ledger.StatusPending
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		if _, err := s.updateTerms(ctx, b.ID, now, func(t *Terms) { t.BalanceStatus, t.BalanceIntentID = BalancePaid, in.ID }); err != nil {
			e.Status = ledger.StatusPending
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		if updated != nil {
			s.tellLater(ctx, NotifyBalancePaid, NotifyBalancePaid+":"+e.Key, updated, e.ID)
			s.notify(ctx, NotifyBalancePaid, org, updated)
		}
		return nil
	case payment.StatusRequiresAction:
		deadline := s.balanceDeadline(org, b)
		if !now.Before(deadline) {
			return s.expireBalanceAction(ctx, b, e, in, now)
		}
		first := false
		if _, err := s.updateTerms(ctx, b.ID, now, func(t *Terms) {
			first = t.BalanceStatus != BalanceActionRequired
			t.BalanceIntentID, t.BalanceStatus = in.ID, BalanceActionRequired
		}); err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		if first {
			s.tellLater(ctx, NotifyBalanceActionRequired, NotifyBalanceActionRequired+":"+in.ID, b, e.ID)
			s.notify(ctx, NotifyBalanceActionRequired, org, b)
		}
		return &retryLater{at: earlier(now.Add(actionPoll), deadline), why: "waiting for the guest to authenticate the balance"}
	case payment.StatusRequiresPayment:
		if !attempted {
			return fmt.Errorf("%w: the balance intent is not paid yet", errRetry)
		}
		t, err := s.updateTerms(ctx, b.ID, now, func(t *Terms) {
			t.BalanceDeclines++
			t.BalanceIntentID = in.ID
			t.BalanceStatus = BalanceRetrying
			if t.BalanceDeclines > len(BalanceRetries) {
				t.BalanceStatus = BalanceFailed
			}
		})
		if err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		if t.BalanceStatus == BalanceFailed {
			return fmt.Errorf("the balance was declined %d times (%s)", t.BalanceDeclines, in.LastPaymentError)
		}
		return &retryLater{at: now.Add(BalanceRetries[t.BalanceDeclines-1]), why: "declined (" + in.LastPaymentError + "); tried again later"}
	case payment.StatusCanceled:
		if _, err := s.updateTerms(ctx, b.ID, now, func(t *Terms) { t.BalanceStatus = BalanceFailed }); err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		return errors.New("the balance intent was canceled at the provider")
	}
	return fmt.Errorf("%w: the balance intent is %s", errRetry, in.Status)
}

// balanceDeadline is when a balance waiting for the guest's 3-D Secure
// gives up: the start of the check-in day in the organisation's zone. The
// host then collects it on arrival.
func (s *Service) balanceDeadline(org *Organization, b *Booking) time.Time {
	return b.CheckIn.In(s.location(org))
}

// expireBalanceAction ends a balance the guest did not authenticate by
// its deadline: the open intent is voided (so a late authentication
// cannot take money nobody records), the balance is failed and the host
// told. Should the guest have paid at the last moment, it is paid.
func (s *Service) expireBalanceAction(ctx context.Context, b *Booking, e *ledger.Entry, in *payment.Intent, now time.Time) error {
	pay, err := s.bookingPayments(ctx, b.ID)
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
	if _, err := s.updateTerms(ctx, b.ID, now, func(t *Terms) { t.BalanceStatus = BalanceFailed }); err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	return errors.New("the guest did not authenticate the balance before check-in; collect it on arrival")
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
// already, then returns its state, with the client secret of the open
// intent while action is required. Errors: CodeNotFound,
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
			if _, err := s.send(ctx, e); err != nil {
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
		pay, err := s.bookingPayments(ctx, b.ID)
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

// applySavedCardEvent handles an event about an intent that is no
// booking's own payment: a balance or a security deposit hold, settled at
// once through its ledger entry.
func (s *Service) applySavedCardEvent(ctx context.Context, intentID, account string) error {
	e, err := s.store.LedgerEntryByProviderID(ctx, intentID)
	switch {
	case ErrorCode(err) == CodeNotFound:
		return nil
	case err != nil:
		return fmt.Errorf("find ledger entry of intent %s: %w", intentID, err)
	}
	if ok, err := s.eventMatches(ctx, e.BookingID, account); err != nil || !ok {
		return err
	}
	if e.Kind != ledger.KindBalance || e.Status != ledger.StatusPending {
		return nil
	}
	_, err = s.send(ctx, e)
	return err
}

// PaymentPublicKey is the key the guest's browser uses with the payment
// provider.
func (s *Service) PaymentPublicKey() string { return s.payments.PublicKey() }
