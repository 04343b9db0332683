package booking

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// reconcile brings a booking in line with its payment intent's current
// state, read from the provider by the caller. It is the one place where a
// payment moves a booking: confirm, payment events, the periodic jobs and
// approve all come here, so a lost response, a duplicate or late event,
// or a crash between two steps ends the same way whichever path sees the
// intent first:
//
//   - money (or, in request mode, an authorisation) for a pending booking,
//     or for one whose unpaid hold lapsed: confirmed (requested) if the
//     dates are free, else the money goes back (CodePaymentLate);
//   - a captured intent of a requested booking: confirmed (a capture whose
//     response was lost);
//   - a voided intent of a pending or requested booking: expired;
//   - money or an authorisation for a booking that ended (expired,
//     declined, cancelled): a refund or release in the ledger, never kept.
//
// No booking is ever confirmed on an intent whose money was refunded,
// wholly or partly. Errors: CodePaymentNotConfirmed, CodePaymentProcessing,
// CodePaymentLate, CodeBookingClosed, or a store error.
func (s *Service) reconcile(ctx context.Context, org *Organization, b *Booking, in *payment.Intent, now time.Time) (*Booking, error) {
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	paid := in.Status == payment.StatusSucceeded
	held := paid || in.Status == payment.StatusAuthorized
	switch b.Status {
	case StatusPending, StatusExpired:
		switch {
		case b.Status == StatusExpired && held && !ledger.Revivable(entries):
			return nil, s.returnMoney(ctx, b, in, ledger.ReasonClosed, now)
		case held && (in.Refunded() || ledger.Returned(entries)):
			// Money went back (from the dashboard, or by the late-payment
			// rule): never confirmed; whatever is left goes back too.
			return nil, s.closeAndReturn(ctx, org, b, in, now)
		case held:
			return s.applyIntent(ctx, org, b, in, now)
		case in.Status == payment.StatusProcessing && b.Status == StatusPending:
			return nil, s.keepProcessingHold(ctx, org, b, now)
		case in.Status == payment.StatusCanceled && b.Status == StatusPending:
			return nil, s.expireVoided(ctx, org, b, now)
		}
		return nil, errNotPaid(b)
	case StatusRequested:
		switch in.Status {
		case payment.StatusSucceeded:
			return s.confirmCaptured(ctx, org, b, in, now)
		case payment.StatusCanceled:
			return nil, s.expireVoided(ctx, org, b, now)
		}
		return b, nil
	case StatusDeclined, StatusCancelled:
		if held {
			return nil, s.returnMoney(ctx, b, in, ledger.ReasonClosed, now)
		}
		return nil, errClosedNow(b)
	}
	return b, nil // confirmed: refunds and disputes come as their own events
}

func errClosedNow(b *Booking) error {
	return &Error{Code: CodeBookingClosed, Message: "This booking was " + string(b.Status) + " and can no longer be confirmed.",
		Params: map[string]string{"status": string(b.Status)}}
}

// keepProcessingHold extends the hold of a booking whose payment the
// provider is still working on, so the dates are not given away meanwhile.
// A hold that lapsed before anyone saw the payment processing gave its
// dates away: it takes them again as a checkout would (the store checks
// overlaps, preparation days and closed nights), or not at all, and then
// the payment, if it goes through, is returned as a late one (applyIntent).
func (s *Service) keepProcessingHold(ctx context.Context, org *Organization, b *Booking, now time.Time) error {
	expires := now.Add(time.Duration(org.HoldMinutes) * time.Minute)
	if expires.After(b.ExpiresAt) {
		t := Transition{From: []Status{StatusPending}, To: StatusPending, At: now, ExpiresAt: &expires}
		if !b.ExpiresAt.After(now) {
			g, err := s.claimGuard(ctx, b)
			if err != nil {
				return err
			}
			t.ClaimDates, t.DateGuard = true, g
		}
		_, err := s.store.Transition(ctx, b.ID, t)
		switch {
		case err == nil, ErrorCode(err) == CodeConflict:
		case ErrorCode(err) == CodeUnavailable:
			return &Error{Code: CodePaymentProcessing, Message: "The payment is still being processed, but the hold lapsed and the dates were booked meanwhile: if the payment goes through, it will be refunded."}
		default:
			return fmt.Errorf("extend hold of booking %d: %w", b.ID, err)
		}
	}
	return &Error{Code: CodePaymentProcessing, Message: "The payment is still being processed; the dates stay held meanwhile. Please check again in a moment."}
}

// expireVoided expires a pending or requested booking whose intent was
// voided at the provider (an authorisation that lapsed, a cancellation from
// the dashboard): nothing is left to release.
func (s *Service) expireVoided(ctx context.Context, org *Organization, b *Booking, now time.Time) error {
	updated, err := s.store.Transition(ctx, b.ID, Transition{From: []Status{b.Status}, To: StatusExpired, At: now, ExpiresAt: &time.Time{}, Outbox: tell(NotifyExpired, b)})
	switch {
	case err == nil:
		s.notify(ctx, NotifyExpired, org, updated)
		return errClosedNow(updated)
	case ErrorCode(err) == CodeConflict:
		return errClosedNow(b)
	}
	return fmt.Errorf("expire booking %d with a voided payment: %w", b.ID, err)
}

// confirmCaptured confirms a requested booking whose authorisation was
// captured, recording the capture in the ledger with the status change.
// When the booking ended meanwhile, the money goes back.
func (s *Service) confirmCaptured(ctx context.Context, org *Organization, b *Booking, in *payment.Intent, now time.Time) (*Booking, error) {
	// A capture takes the whole authorisation, which matched the charge
	// when the request was made.
	paid := b.ChargeAmount
	captured := in.AmountReceived
	if captured == 0 {
		// A provider that does not say (the host commands' detached fake)
		// took the authorisation, which was the charge.
		var err error
		if captured, err = pricing.ToMinor(paid, b.Currency); err != nil {
			return nil, fmt.Errorf("convert charge of booking %d: %w", b.ID, err)
		}
	}
	jobs, err := s.jobsOnConfirm(ctx, org, b, now)
	if err != nil {
		return nil, err
	}
	updated, err := s.store.Transition(ctx, b.ID, Transition{
		From: []Status{StatusRequested}, To: StatusConfirmed, At: now,
		Confirmed: true, PaidAmount: &paid, ExpiresAt: &time.Time{},
		Record: append([]ledger.Entry{{Kind: ledger.KindCapture, IntentID: in.ID, Amount: captured, Currency: b.Currency,
			Key: captureKey(in.ID), Reason: ledger.ReasonApproved, Status: ledger.StatusSucceeded}}, jobs...),
		Outbox: tell(NotifyConfirmed, b),
	})
	if err == nil {
		s.notify(ctx, NotifyConfirmed, org, updated)
		return updated, nil
	}
	if ErrorCode(err) != CodeConflict {
		return nil, fmt.Errorf("confirm captured booking %d: %w", b.ID, err)
	}
	current, rerr := s.store.BookingByID(ctx, b.ID)
	if rerr != nil {
		return nil, fmt.Errorf("re-read booking %d: %w", b.ID, rerr)
	}
	if current.Status == StatusConfirmed {
		return current, nil
	}
	return nil, s.returnMoney(ctx, current, in, ledger.ReasonClosed, now)
}

// returnMoney makes sure that the money of a booking that closed is what
// its decision keeps: money received on in is recorded as a receipt, and
// the refunds the decision calls for (nothing kept without one: never
// more than what was received beyond it) are written in the same step and
// sent at once; an authorisation is released. The worker retries them
// until the provider has them. It returns the booking's closed error
// (CodePaymentLate for a late payment).
func (s *Service) returnMoney(ctx context.Context, b *Booking, in *payment.Intent, reason string, now time.Time) error {
	if in.AmountRefunded > 0 {
		// Refunds the ledger may not know of yet (the provider's
		// dashboard) are learnt before anything is owed.
		if err := s.matchRefunds(ctx, b, in.ID); err != nil {
			return err
		}
	}
	var record []ledger.Entry
	switch {
	case in.Status == payment.StatusSucceeded && in.AmountReceived > 0:
		record = append(record, receiptEntry(b, in, reason))
	case in.Status != payment.StatusSucceeded && in.Status != payment.StatusCanceled:
		record = append(record, releaseEntry(b, in.ID, reason))
	}
	if err := s.settleClosed(ctx, b, record, reason, now); err != nil {
		return err
	}
	if reason == ledger.ReasonLatePayment {
		return &Error{Code: CodePaymentLate, Message: "The payment arrived after the hold on these dates lapsed, and they have been booked since. The payment is being returned."}
	}
	return errClosedNow(b)
}

// settleClosed writes, in one step, record (receipts, releases) and the
// refunds that bring a closed booking's money to its decision
// (ledger.Corrections over its entries as record changes them), then sends
// them at once. A new receipt of an intent the ledger has a receipt of
// already is dropped: one receipt per intent. Keys make it safe to run
// twice, or on two replicas: the same ledger gives the same entries,
// stored once.
func (s *Service) settleClosed(ctx context.Context, b *Booking, record []ledger.Entry, reason string, now time.Time) error {
	ctx = context.WithoutCancel(ctx)
	// The stored status decides: only a closed booking's money is brought
	// to its decision; a live one keeps what it paid.
	id := b.ID
	b, err := s.store.BookingByID(ctx, id)
	if err != nil {
		return fmt.Errorf("re-read booking %d: %w", id, err)
	}
	entries, err := s.ledgerOf(ctx, b)
	if err != nil {
		return err
	}
	// An entry of record that is stored already is one the worker is
	// sending (a balance found charged): its outcome is saved after this
	// returns, so the refunds are left to the worker rather than sent now,
	// when a failure would be owed again on a ledger that does not show
	// the money yet.
	inFlight := false
	kept := record[:0:0]
	for _, e := range record {
		e.BookingID = b.ID
		if in, ok := e.ReceivedOn(); ok && e.Kind == ledger.KindCharge && received(entries, in) {
			continue
		}
		var stored bool
		entries, stored = upsertEntry(entries, e)
		inFlight = inFlight || stored
		kept = append(kept, e)
	}
	record = kept
	if b.Closed() {
		record = append(record, ledger.Corrections(entries, b.ID, b.Currency, reason, now)...)
	}
	if len(record) == 0 {
		return nil
	}
	recorded, err := s.store.RecordLedger(ctx, record, now)
	if err != nil {
		return fmt.Errorf("record the money owed by closed booking %d: %w", b.ID, err)
	}
	if !inFlight {
		s.sendNow(ctx, recorded)
	}
	return nil
}

// upsertEntry is entries with e in place of the entry of its key, or
// added; stored says whether there was one.
func upsertEntry(entries []ledger.Entry, e ledger.Entry) (_ []ledger.Entry, stored bool) {
	for i := range entries {
		if entries[i].Key == e.Key {
			entries[i] = e
			return entries, true
		}
	}
	return append(entries, e), false
}

// received reports whether the ledger records the receipt of intent.
func received(entries []ledger.Entry, intent string) bool {
	_, ok := ledger.PositionOf(entries).Received[intent]
	return ok
}

// closeAndReturn expires a pending booking that can no longer be confirmed
// on its payment, and returns what is left of the money.
func (s *Service) closeAndReturn(ctx context.Context, org *Organization, b *Booking, in *payment.Intent, now time.Time) error {
	if b.Status == StatusPending {
		updated, err := s.store.Transition(ctx, b.ID, Transition{From: []Status{StatusPending}, To: StatusExpired, At: now, ExpiresAt: &time.Time{},
			Outbox: tell(NotifyExpired, b)})
		switch {
		case err == nil:
			s.notify(ctx, NotifyExpired, org, updated)
			b = updated
		case ErrorCode(err) != CodeConflict:
			return fmt.Errorf("expire booking %d paid with refunded money: %w", b.ID, err)
		}
	}
	return s.returnMoney(ctx, b, in, ledger.ReasonClosed, now)
}

// receiptEntry records that intent in received its money for booking b:
// one per intent, whichever path finds it first.
func receiptEntry(b *Booking, in *payment.Intent, reason string) ledger.Entry {
	return ledger.Entry{BookingID: b.ID, Kind: ledger.KindCharge, IntentID: in.ID, Amount: in.AmountReceived, Currency: b.Currency,
		Key: "charge:" + in.ID, Reason: reason, Status: ledger.StatusSucceeded}
}

// ledgerOf is a booking's ledger as the money rules read it. A booking
// confirmed before the ledger recorded charges has no receipt of its first
// payment: one is read from its paid amount (not stored), so that a
// cancellation refunds what it paid.
func (s *Service) ledgerOf(ctx context.Context, b *Booking) ([]ledger.Entry, error) {
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	if b.ConfirmedAt.IsZero() || b.PaymentIntentID == "" || b.PaymentMode == pricing.ModeRequest {
		return entries, nil
	}
	p := ledger.PositionOf(entries)
	if _, ok := p.Received[b.PaymentIntentID]; ok {
		return entries, nil
	}
	paid, err := pricing.ToMinor(b.PaidAmount, b.Currency)
	if err != nil {
		return nil, fmt.Errorf("convert paid amount of booking %d: %w", b.ID, err)
	}
	paid -= p.Charged()
	if paid <= 0 {
		return entries, nil
	}
	legacy := receiptEntry(b, &payment.Intent{ID: b.PaymentIntentID, AmountReceived: paid}, ledger.ReasonPaid)
	return append([]ledger.Entry{legacy}, entries...), nil
}

// releaseEntry is the ledger entry that voids a booking's intent. One per
// intent: its key is derived from the intent, so every path that closes
// the booking writes the same entry.
func releaseEntry(b *Booking, intentID, reason string) ledger.Entry {
	return ledger.Entry{BookingID: b.ID, Kind: ledger.KindRelease, IntentID: intentID, Currency: b.Currency,
		Key: "release:" + intentID, Reason: reason, Status: ledger.StatusPending}
}

// Idempotency keys of provider calls, derived from stored state so that a
// retry by staykit, by the host or by another replica is applied once.
func captureKey(intentID string) string { return "capture:" + intentID }

// chargeMatches reports whether an intent is the booking's and for the
// amount and currency it must pay now.
func chargeMatches(b *Booking, in *payment.Intent) (bool, error) {
	want, err := pricing.ToMinor(b.ChargeAmount, b.Currency)
	if err != nil {
		return false, fmt.Errorf("convert charge of booking %d: %w", b.ID, err)
	}
	return in.ID == b.PaymentIntentID && in.Amount == want && strings.EqualFold(in.Currency, b.Currency), nil
}

// checkChargeable asks the provider, when it can tell (payment.AmountChecker),
// whether the amount due now can be charged, so that a quote says so
// before the guest fills in the form. Errors: CodeAmountNotChargeable.
func (s *Service) checkChargeable(q pricing.Quote) error {
	checker, ok := s.payments.(payment.AmountChecker)
	if !ok || !q.Charge.IsPositive() {
		return nil
	}
	amount, err := pricing.ToMinor(q.Charge, q.Currency)
	if err != nil {
		return fmt.Errorf("convert charge: %w", err)
	}
	if err := checker.CheckAmount(amount, q.Currency); err != nil {
		return errNotChargeable(err)
	}
	return nil
}

// chargeDecimals is how many decimals of the currency the payment provider
// can charge, when fewer than its minor units; nil otherwise.
func (s *Service) chargeDecimals(currency string) *int32 {
	if p, ok := s.payments.(payment.ChargePrecision); ok {
		if d, fewer := p.ChargeDecimals(currency); fewer {
			return &d
		}
	}
	return nil
}
