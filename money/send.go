package money

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// ledgerLease is how long a claimed entry is left to the worker that
// claimed it before another may take it: longer than one provider call with
// its retries.
const ledgerLease = 2 * time.Minute

// ledgerBatch is how many entries ProcessPayments claims at a time.
const ledgerBatch = 50

// ProcessPayments does all of the ledger's due work now, in this
// goroutine: it sends the due entries (refunds and releases) to
// the payment provider, each with its own idempotency key, and records the
// outcome: done, refused for good (the host is told), or due again after a
// backoff, until no entry is due. Entries are leased, so replicas running
// it at once do not send the same entry at the same moment (and the key
// makes a double send harmless). It returns how many entries it settled;
// errors of single entries are joined, and the rest are still sent.
//
// Production does not call it: package jobs sends each entry in its own
// job (SendLedgerEntry) as soon as it is due. It serves tests, tools and
// an operator's "send what is due now", and leases entries as the jobs'
// River claims do not need to.
func (s *Service) ProcessPayments(ctx context.Context) (int, error) {
	settled := 0
	var errs []error
	for {
		now := s.clock.Now()
		entries, err := s.store.ClaimLedgerEntries(ctx, now, now.Add(ledgerLease), ledgerBatch)
		if err != nil {
			return settled, errors.Join(append(errs, fmt.Errorf("claim ledger entries: %w", err))...)
		}
		for i := range entries {
			done, err := s.send(ctx, &entries[i])
			if err != nil {
				errs = append(errs, err)
			}
			if done {
				settled++
			}
		}
		// Until nothing is due: sending an entry may write others due
		// at once (the refund of a balance found charged for a booking
		// that closed), and the claimed ones are leased, so each turn
		// takes new work only.
		if len(entries) == 0 {
			return settled, errors.Join(errs...)
		}
	}
}

// SendLedgerEntry is the job engine's step for one entry of the payments
// ledger (package jobs runs it): when the entry is pending and due, it
// sends it as ProcessPayments would, with its idempotency key. It returns
// when the entry is due again: zero when nothing is left to do (settled,
// or not pending), the entry's NextAttemptAt while it is pending (not due
// yet, or retried after a backoff). An error means the outcome could not
// be read or saved; the job is retried.
func (s *Service) SendLedgerEntry(ctx context.Context, bookingID, entryID int64) (time.Time, error) {
	e, err := s.ledgerEntry(ctx, bookingID, entryID)
	if err != nil || e == nil || e.Status != ledger.StatusPending {
		return time.Time{}, err
	}
	if e.NextAttemptAt.After(s.clock.Now()) {
		return e.NextAttemptAt, nil
	}
	now := s.clock.Now()
	_, err = s.send(ctx, e)
	switch {
	case e.Status != ledger.StatusPending:
		if err != nil {
			// Settled, but what follows failed (a refund owed again):
			// logged as ProcessPayments does; the entry is not sent again.
			s.logger.ErrorContext(ctx, "settle ledger entry", "entry", e.ID, "err", err)
		}
		return time.Time{}, nil
	case e.NextAttemptAt.After(now):
		if err != nil {
			s.logger.WarnContext(ctx, "send ledger entry; retried later", "entry", e.ID, "err", err)
		}
		return e.NextAttemptAt, nil
	case err != nil:
		return time.Time{}, err // not saved: the job's retry
	}
	return e.NextAttemptAt, nil
}

// ledgerEntry finds an entry of a booking; nil when there is none (the
// booking or the entry is gone).
func (s *Service) ledgerEntry(ctx context.Context, bookingID, entryID int64) (*ledger.Entry, error) {
	entries, err := s.store.LedgerEntries(ctx, bookingID)
	if err != nil {
		return nil, fmt.Errorf("ledger of booking %d: %w", bookingID, err)
	}
	for i := range entries {
		if entries[i].ID == entryID {
			return &entries[i], nil
		}
	}
	return nil, nil
}

// SendNow sends freshly recorded entries that are due at once, so a host
// or guest sees the outcome without waiting for the jobs; failures, and
// entries due later, are left to them (the lifecycle's
// booking.MoneyMover: a cancellation's refunds, a decline's release).
func (s *Service) SendNow(ctx context.Context, entries []ledger.Entry) {
	ctx = context.WithoutCancel(ctx)
	now := s.clock.Now()
	for i := range entries {
		if entries[i].Status != ledger.StatusPending || entries[i].NextAttemptAt.After(now) {
			continue
		}
		if _, err := s.send(ctx, &entries[i]); err != nil {
			s.logger.WarnContext(ctx, "send ledger entry; the worker retries", "entry", entries[i].ID, "err", err)
		}
	}
}

// Send carries out one pending entry now and saves the outcome, as the
// jobs do (the lifecycle's booking.MoneyMover: a host's deposit claim, a
// guest's balance after 3-D Secure). It reports whether the entry was
// settled; e holds the outcome.
func (s *Service) Send(ctx context.Context, e *ledger.Entry) (bool, error) { return s.send(ctx, e) }

// send carries out one pending entry and saves the outcome. It reports
// whether the entry was settled (not left for a retry). The attempt is
// counted, and saved, before the provider is called: an entry with
// attempts may have reached the provider, whatever happened after (an
// answer lost, a crash), and is resolved there before it is sent again. A
// panic while sending is the entry's failure, not the worker's: the entry
// is left for a retry and the worker goes on with the next.
func (s *Service) send(ctx context.Context, e *ledger.Entry) (bool, error) {
	now := s.clock.Now()
	reached := e.Attempts > 0
	e.Attempts++
	e.UpdatedAt = now
	if err := s.store.UpdateLedgerEntry(context.WithoutCancel(ctx), e); err != nil {
		return false, fmt.Errorf("count attempt of ledger entry %d: %w", e.ID, err)
	}
	outcome := s.carryOut(ctx, e, reached, now)
	var later *retryLater
	if outcome != nil {
		e.LastError = outcome.Error()
		if errors.As(outcome, &later) {
			e.NextAttemptAt = later.at // scheduled, not a failure
			e.Status = ledger.StatusPending
		} else if errors.Is(outcome, errRetry) {
			e.NextAttemptAt = now.Add(ledger.Backoff(e.Attempts))
			// Whatever the attempt set before it gave up (a balance
			// marked succeeded, then a panic recovered before the
			// booking recorded it) is not saved: the entry is sent
			// again, and finds its intent by its key.
			e.Status = ledger.StatusPending
		} else {
			e.Status = ledger.StatusFailed
		}
	}
	e.UpdatedAt = now
	if err := s.saveEntry(context.WithoutCancel(ctx), e); err != nil {
		return false, fmt.Errorf("save ledger entry %d: %w", e.ID, err)
	}
	if e.Status == ledger.StatusPending {
		if later != nil {
			return false, nil
		}
		return false, fmt.Errorf("ledger entry %d (%s %s): %w", e.ID, e.Kind, e.IntentID, outcome)
	}
	return true, nil
}

// carryOut makes the provider call of a pending entry; reached says an
// earlier attempt may have reached the provider. A panic is recovered as
// an outcome to retry.
func (s *Service) carryOut(ctx context.Context, e *ledger.Entry, reached bool, now time.Time) error {
	return s.recovered(ctx, "ledger entry "+strconv.FormatInt(e.ID, 10), func() error {
		switch e.Kind {
		case ledger.KindRefund:
			return s.sendRefund(ctx, e, reached)
		case ledger.KindRelease:
			return s.sendRelease(ctx, e, now)
		case ledger.KindBalance:
			return s.sendBalance(ctx, e, reached, now)
		case ledger.KindDepositHold:
			return s.sendDepositHold(ctx, e, reached, now)
		case ledger.KindDepositRelease:
			return s.sendDepositRelease(ctx, e, now)
		case ledger.KindDepositClaim:
			return s.sendDepositClaim(ctx, e, now)
		case ledger.KindChangeCharge:
			return s.sendChangeCharge(ctx, e, reached, now)
		}
		e.Status = ledger.StatusSkipped // records (charges, captures, decisions, disputes), not tasks
		return nil
	})
}

// recovered runs fn and turns a panic into an error to retry, logged with
// what, so that one booking or one entry cannot stop a worker.
func (s *Service) recovered(ctx context.Context, what string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.logger.ErrorContext(ctx, "recovered from a panic; retried later", "what", what, "panic", r)
			err = fmt.Errorf("%w: %s panicked: %v", errRetry, what, r)
		}
	}()
	return fn()
}

// errRetry marks an outcome worth another attempt later.
var errRetry = errors.New("will retry")

// sendRefund sends a refund with the entry's key and, in metadata, the
// same key. When an earlier attempt may have reached the provider, the
// intent's refunds are read first: the refund found by its key is this
// entry's (a lost answer, or a key the provider forgot after its
// idempotency window), and nothing is sent again.
func (s *Service) sendRefund(ctx context.Context, e *ledger.Entry, reached bool) error {
	pay, err := s.accounts.ForBooking(ctx, e.BookingID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	var r *payment.Refund
	if reached {
		if r, err = findRefund(ctx, pay, e); err != nil {
			return err
		}
	}
	if r == nil {
		r, err = pay.Refund(ctx, payment.RefundParams{IntentID: e.IntentID, Amount: e.Amount, IdempotencyKey: e.Key,
			Metadata: map[string]string{payment.MetadataKey: e.Key}})
	}
	switch {
	case err == nil:
		settleRefund(e, r)
		return nil
	case errors.Is(err, payment.ErrUnavailable), errors.Is(err, payment.ErrState):
		// Unreachable, or the payment is not settled yet: try again.
		return fmt.Errorf("%w: %w", errRetry, err)
	case errors.Is(err, payment.ErrInvalid):
		// More than is left: refunds the ledger does not know of (the
		// provider's dashboard) are learnt first, so that what is owed
		// again counts them.
		if b, berr := s.store.BookingByID(ctx, e.BookingID); berr == nil {
			if merr := s.matchRefunds(ctx, b, e.IntentID); merr != nil {
				return fmt.Errorf("%w: %w", errRetry, errors.Join(err, merr))
			}
		}
	}
	return err // not found, invalid: owed again by the decision
}

// findRefund looks at the provider for the refund an entry may have made:
// nil when there is none.
func findRefund(ctx context.Context, pay payment.Provider, e *ledger.Entry) (*payment.Refund, error) {
	refunds, err := pay.ListRefunds(ctx, e.IntentID)
	if err != nil {
		return nil, fmt.Errorf("%w: look up refund %s: %w", errRetry, e.Key, err)
	}
	for i := range refunds {
		if refunds[i].Key() == e.Key || (e.ProviderID != "" && refunds[i].ID == e.ProviderID) {
			return &refunds[i], nil
		}
	}
	return nil, nil
}

// settleRefund records what the provider says of an entry's refund.
func settleRefund(e *ledger.Entry, r *payment.Refund) {
	e.ProviderID = r.ID
	switch r.Status {
	case payment.RefundSucceeded:
		e.Status = ledger.StatusSucceeded
	case payment.RefundPending:
		e.Status = ledger.StatusSubmitted
	default:
		e.Status = ledger.StatusFailed
		e.LastError = "the provider answered " + string(r.Status)
	}
}

// sendRelease voids an intent that must not be paid. When the guest paid
// meanwhile the money is not kept: the booking's first payment still gets
// the late-payment rule (confirmed if its dates are free), and money on any
// other intent (a balance whose 3-D Secure the guest completed after the
// cancellation) is recorded and returned beyond the booking's decision.
func (s *Service) sendRelease(ctx context.Context, e *ledger.Entry, now time.Time) error {
	pay, err := s.accounts.ForBooking(ctx, e.BookingID)
	if err != nil {
		return fmt.Errorf("%w: %w", errRetry, err)
	}
	_, err = pay.CancelIntent(ctx, e.IntentID, e.Key)
	switch {
	case err == nil:
		e.Status = ledger.StatusSucceeded
		return nil
	case errors.Is(err, payment.ErrUnavailable):
		return fmt.Errorf("%w: %w", errRetry, err)
	case !errors.Is(err, payment.ErrState):
		return err
	}
	in, gerr := pay.GetIntent(ctx, e.IntentID)
	if gerr != nil {
		return fmt.Errorf("%w: %w", errRetry, gerr)
	}
	switch in.Status {
	case payment.StatusCanceled:
		e.Status = ledger.StatusSucceeded // void already
		return nil
	case payment.StatusSucceeded:
	default:
		return fmt.Errorf("%w: cannot release an intent that is %s: %w", errRetry, in.Status, err)
	}
	b, berr := s.store.BookingByID(ctx, e.BookingID)
	if berr != nil {
		return fmt.Errorf("%w: %w", errRetry, berr)
	}
	if in.ID != b.PaymentIntentID {
		// Money on another intent (a balance): recorded once, then
		// returned beyond the decision.
		if err := s.settleClosed(ctx, b, []ledger.Entry{booking.ReceiptEntry(b, in, ledger.ReasonClosed)}, ledger.ReasonClosed, now); err != nil {
			return fmt.Errorf("%w: %w", errRetry, err)
		}
		e.Status = ledger.StatusSkipped
		return nil
	}
	org, oerr := s.organizationByID(ctx, b.OrgID)
	if oerr != nil {
		return fmt.Errorf("%w: %w", errRetry, oerr)
	}
	if _, rerr := s.bookings.Reconcile(ctx, org, b, in, now); rerr != nil && booking.ErrorCode(rerr) == booking.CodeInternal {
		return fmt.Errorf("%w: %w", errRetry, rerr)
	}
	// The money is settled by the late-payment rule or by its own refund
	// entry; nothing is left to release.
	e.Status = ledger.StatusSkipped
	return nil
}

// entryKind is the event a saved ledger entry calls for: a refund that
// went through, or an entry the provider refused for good; "" for none.
func entryKind(e *ledger.Entry) string {
	switch {
	case e.Status == ledger.StatusFailed:
		return booking.NotifyPaymentFailed
	case e.Kind == ledger.KindRefund && e.Status == ledger.StatusSucceeded:
		return booking.NotifyRefunded
	}
	return ""
}

// saveEntry saves what happened to a ledger entry and, in the same atomic
// step, the outbox event it calls for and, when a closed booking's refund
// failed, the refund that owes its money again: a crash can neither settle
// a refund without telling the guest and the host nor leave a failed
// refund that nothing will send again. The Notifier is told after.
func (s *Service) saveEntry(ctx context.Context, e *ledger.Entry) error {
	kind := entryKind(e)
	if kind == "" {
		return s.store.UpdateLedgerEntry(ctx, e)
	}
	b, err := s.store.BookingByID(ctx, e.BookingID)
	if err != nil {
		return fmt.Errorf("find booking of ledger entry %d: %w", e.ID, err)
	}
	now := s.clock.Now()
	owed, err := s.owedAgain(ctx, b, e, now)
	if err != nil {
		return err
	}
	ev := outbox.Event{Key: kind + ":" + e.Key, Kind: kind, OrgID: b.OrgID, BookingID: b.ID, EntryID: e.ID}
	if err := s.store.SettleLedgerEntry(ctx, e, owed, []outbox.Event{ev}, now); err != nil {
		return err
	}
	if kind == booking.NotifyPaymentFailed {
		s.logger.ErrorContext(ctx, "payment provider refused a ledger entry; the host must act", "entry", e.ID,
			"kind", e.Kind, "booking_id", e.BookingID, "err", e.LastError)
	}
	org, err := s.organizationByID(ctx, b.OrgID)
	if err != nil {
		s.logger.ErrorContext(ctx, "find organisation of ledger entry", "entry", e.ID, "err", err)
		return nil
	}
	n := booking.Notification{Kind: kind, Organization: *org, Booking: *b, Entry: e}
	if err := s.notifier.Notify(ctx, n); err != nil {
		s.logger.ErrorContext(ctx, "notify host", "kind", kind, "booking_id", b.ID, "err", err)
	}
	return nil
}

// owedAgain is what a closed booking owes once its refund e has failed:
// the booking's decision still asks for the money, so a new refund
// (ledger.Corrections, under a new key) is written with e's failure, due
// after a wait that grows with each failure. A live booking's refund of a
// change of dates is owed again the same way (ledger.Reissue). None for
// any other entry.
func (s *Service) owedAgain(ctx context.Context, b *booking.Booking, e *ledger.Entry, now time.Time) ([]ledger.Entry, error) {
	change := e.Reason == ledger.ReasonDateChange || e.Reason == ledger.ReasonChangeRefused
	if e.Kind != ledger.KindRefund || e.Status != ledger.StatusFailed || (!b.Closed() && !change) {
		return nil, nil
	}
	entries, err := s.ledgerOf(ctx, b)
	if err != nil {
		return nil, err
	}
	entries, _ = upsertEntry(entries, *e)
	if !b.Closed() {
		// A live booking's change of dates gave this back: it is owed
		// again, as a closed booking's decision would be. A change that
		// cost less owes what is held beyond the stay's price, no more:
		// what the host refunded from the provider's dashboard since
		// counts toward it. A refused change owes its whole charge back.
		owed := e.Amount
		if e.Reason == ledger.ReasonDateChange {
			total, err := pricing.ToMinor(b.TotalAmount, b.Currency)
			if err != nil {
				return nil, fmt.Errorf("convert total of booking %d: %w", b.ID, err)
			}
			p := ledger.PositionOf(entries)
			owed = max(0, p.Charged()-p.Returned()-total)
		}
		return ledger.Reissue(entries, b.ID, b.Currency, e, owed, now), nil
	}
	return ledger.Corrections(entries, b.ID, b.Currency, e.Reason, now), nil
}

// notifyEntry is notify with the ledger entry attached.
func (s *Service) notifyEntry(ctx context.Context, kind string, org *booking.Organization, b *booking.Booking, e *ledger.Entry) {
	s.tellLater(ctx, kind, kind+":"+e.Key, b, e.ID)
	n := booking.Notification{Kind: kind, Organization: *org, Booking: *b, Entry: e}
	if err := s.notifier.Notify(ctx, n); err != nil {
		s.logger.ErrorContext(ctx, "notify host", "kind", kind, "booking_id", b.ID, "err", err)
	}
}
