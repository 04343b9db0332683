package money

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
)

// HandlePaymentEvent applies a verified provider event. Providers neither
// order nor deduplicate deliveries, so an intent event is a trigger: the
// intent's current state is read from the provider and reconciled with the
// booking (booking.Service.Reconcile), whatever the event's snapshot said.
// A guest who closes the tab after paying still gets a confirmed booking;
// a late event cannot revive a booking that ended. Refund and dispute
// events update the ledger and tell the host, refunds made from the
// provider's dashboard included. Each event id is applied once; events
// about intents staykit does not know are ignored, and so is
// account.updated: package connect applies it
// (connect.Service.HandleWebhook). An error means the event was not
// applied and the provider should send it again.
func (s *Service) HandlePaymentEvent(ctx context.Context, ev payment.Event) error {
	if ev.ID == "" || (ev.Intent == nil && ev.Refund == nil && ev.Dispute == nil) {
		return nil
	}
	done, err := s.store.EventProcessed(ctx, ev.ID)
	if err != nil {
		return fmt.Errorf("check event %s: %w", ev.ID, err)
	}
	if done {
		return nil
	}
	if err := s.applyEvent(ctx, ev); err != nil {
		return err
	}
	if _, err := s.store.MarkEventProcessed(ctx, ev.ID, s.clock.Now()); err != nil {
		return fmt.Errorf("record event %s: %w", ev.ID, err)
	}
	return nil
}

// HandleWebhook verifies a provider's webhook payload and applies its event.
// Errors: CodeInvalid when the signature or payload is not valid (the
// provider should not retry); any other error means it should.
func (s *Service) HandleWebhook(ctx context.Context, payload []byte, signature string) error {
	ev, err := s.payments.ParseWebhook(payload, signature)
	if err != nil {
		return &booking.Error{Code: booking.CodeInvalid, Message: "The webhook signature or payload is invalid.", Err: err}
	}
	return s.HandlePaymentEvent(ctx, *ev)
}

func (s *Service) applyEvent(ctx context.Context, ev payment.Event) error {
	switch ev.Type {
	case payment.EventSucceeded, payment.EventAuthorized, payment.EventFailed, payment.EventCanceled:
		return s.applyIntentEvent(ctx, ev.Intent.ID, ev.Account)
	case payment.EventRefunded:
		return s.applyRefundedEvent(ctx, ev)
	case payment.EventRefundUpdated:
		return s.applyRefundUpdate(ctx, ev.Refund, ev.Account)
	case payment.EventDisputed:
		return s.applyDispute(ctx, ev)
	}
	return nil
}

// eventBooking finds the booking of an intent named by an event of
// account; nil when staykit does not know the intent, or the intent is not
// that account's (an event from one account never touches another
// account's bookings).
func (s *Service) eventBooking(ctx context.Context, intentID, account string) (*booking.Organization, *booking.Booking, error) {
	b, err := s.store.BookingByIntent(ctx, intentID)
	if err != nil {
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("find booking of intent %s: %w", intentID, err)
	}
	if ok, err := s.eventMatches(ctx, b.ID, account); err != nil || !ok {
		return nil, nil, err
	}
	org, err := s.organizationByID(ctx, b.OrgID)
	if err != nil {
		return nil, nil, err
	}
	return org, b, nil
}

func (s *Service) applyIntentEvent(ctx context.Context, intentID, account string) error {
	org, b, err := s.eventBooking(ctx, intentID, account)
	if err != nil {
		return err
	}
	if b == nil {
		return s.applySavedCardEvent(ctx, intentID, account)
	}
	pay, err := s.accounts.ForBooking(ctx, b.ID)
	if err != nil {
		return err
	}
	in, err := pay.GetIntent(ctx, intentID)
	if err != nil {
		return fmt.Errorf("read intent %s: %w", intentID, err)
	}
	_, err = s.bookings.Reconcile(ctx, org, b, in, s.clock.Now())
	switch booking.ErrorCode(err) {
	case "", booking.CodePaymentNotConfirmed, booking.CodePaymentLate, booking.CodeBookingClosed, booking.CodePaymentProcessing:
		return nil // settled, or nothing this event can change
	}
	return err
}

// applySavedCardEvent handles an event about an intent that is no
// booking's own payment: a balance, a change's charge or a security
// deposit hold, settled at once through its ledger entry.
func (s *Service) applySavedCardEvent(ctx context.Context, intentID, account string) error {
	e, err := s.store.LedgerEntryByProviderID(ctx, intentID)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		return nil
	case err != nil:
		return fmt.Errorf("find ledger entry of intent %s: %w", intentID, err)
	}
	if ok, err := s.eventMatches(ctx, e.BookingID, account); err != nil || !ok {
		return err
	}
	if (e.Kind != ledger.KindBalance && e.Kind != ledger.KindChangeCharge) || e.Status != ledger.StatusPending {
		return nil
	}
	_, err = s.send(ctx, e)
	return err
}

// applyRefundedEvent matches an intent's refunds, as the provider lists
// them, to the ledger: a refund carrying the key of one of our entries
// (or its provider id) settles that entry, whether the event arrived
// before the refund call's answer, after it, or instead of it (a crash, a
// lost answer); a refund with no key of ours was made outside staykit (the
// provider's dashboard) and is recorded once, by its own id, and the host
// told. Nothing is matched by timing or by amounts.
func (s *Service) applyRefundedEvent(ctx context.Context, ev payment.Event) error {
	intentID := ""
	switch {
	case ev.Intent != nil:
		intentID = ev.Intent.ID
	case ev.Refund != nil:
		intentID = ev.Refund.IntentID
	}
	if intentID == "" {
		return nil
	}
	b, err := s.intentBooking(ctx, intentID, ev.Account)
	if err != nil || b == nil {
		return err
	}
	return s.matchRefunds(ctx, b, intentID)
}

// intentBooking finds the booking an intent belongs to: the one it paid,
// or the one whose ledger names it (a balance, a security deposit); nil
// when staykit does not know it, or it is another account's.
func (s *Service) intentBooking(ctx context.Context, intentID, account string) (*booking.Booking, error) {
	_, b, err := s.eventBooking(ctx, intentID, account)
	if err != nil || b != nil {
		return b, err
	}
	e, err := s.store.LedgerEntryByProviderID(ctx, intentID)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("find ledger entry of intent %s: %w", intentID, err)
	}
	if ok, err := s.eventMatches(ctx, e.BookingID, account); err != nil || !ok {
		return nil, err
	}
	return s.store.BookingByID(ctx, e.BookingID)
}

// matchRefunds brings a booking's refund entries of one intent in line
// with the intent's refunds at the provider (see applyRefundedEvent).
func (s *Service) matchRefunds(ctx context.Context, b *booking.Booking, intentID string) error {
	pay, err := s.accounts.ForBooking(ctx, b.ID)
	if err != nil {
		return err
	}
	refunds, err := pay.ListRefunds(ctx, intentID)
	if err != nil {
		return fmt.Errorf("list refunds of intent %s: %w", intentID, err)
	}
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	now := s.clock.Now()
	for i := range refunds {
		r := &refunds[i]
		if e := refundEntry(entries, r); e != nil {
			if err := s.settleRefundEntry(ctx, e, r); err != nil {
				return err
			}
			continue
		}
		if r.Key() != "" {
			continue // ours, from an entry of another booking's ledger: never ours to count
		}
		recorded, err := s.store.RecordLedger(ctx, []ledger.Entry{{BookingID: b.ID, Kind: ledger.KindRefund, IntentID: intentID,
			Amount: r.Amount, Currency: b.Currency, Key: "dashboard:" + r.ID, Reason: ledger.ReasonDashboard,
			Status: refundStatus(r.Status), ProviderID: r.ID}}, now)
		if err != nil {
			return fmt.Errorf("record dashboard refund of booking %d: %w", b.ID, err)
		}
		if recorded[0].Status == ledger.StatusSucceeded {
			if org, err := s.organizationByID(ctx, b.OrgID); err == nil {
				s.notifyEntry(ctx, booking.NotifyRefunded, org, b, &recorded[0])
			}
		}
	}
	return nil
}

// refundEntry is the entry of entries that made refund r: by key, or by
// the provider's id once known.
func refundEntry(entries []ledger.Entry, r *payment.Refund) *ledger.Entry {
	for i := range entries {
		e := &entries[i]
		if e.Kind == ledger.KindRefund && ((r.Key() != "" && e.Key == r.Key()) || e.ProviderID == r.ID) {
			return e
		}
	}
	return nil
}

// refundStatus is the ledger status of a refund in status st.
func refundStatus(st payment.RefundStatus) ledger.Status {
	switch st {
	case payment.RefundSucceeded:
		return ledger.StatusSucceeded
	case payment.RefundFailed, payment.RefundCanceled:
		return ledger.StatusFailed
	}
	return ledger.StatusSubmitted
}

// settleRefundEntry records what the provider says of one of our refunds:
// it reached the provider (an entry still pending learns its id), went
// through, or failed, in which case the money is owed again.
func (s *Service) settleRefundEntry(ctx context.Context, e *ledger.Entry, r *payment.Refund) error {
	status := refundStatus(r.Status)
	if e.Status == status && e.ProviderID == r.ID {
		return nil
	}
	if e.Status == ledger.StatusFailed {
		return nil // replaced already by the refund that owes it again
	}
	e.ProviderID, e.Status, e.UpdatedAt = r.ID, status, s.clock.Now()
	if status == ledger.StatusFailed {
		e.LastError = "the refund " + string(r.Status) + " at the provider"
	}
	if err := s.saveEntry(ctx, e); err != nil {
		return fmt.Errorf("update ledger entry %d: %w", e.ID, err)
	}
	return nil
}

// applyRefundUpdate settles a refund of ours whose status changed: it went
// through, or failed days later (the money is back on the account, and
// owed again).
func (s *Service) applyRefundUpdate(ctx context.Context, r *payment.Refund, account string) error {
	if r == nil {
		return nil
	}
	e, err := s.store.LedgerEntryByProviderID(ctx, r.ID)
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		if r.IntentID == "" {
			return nil
		}
		// Not known by its id yet: the intent's refunds tell.
		b, err := s.intentBooking(ctx, r.IntentID, account)
		if err != nil || b == nil {
			return err
		}
		return s.matchRefunds(ctx, b, r.IntentID)
	case err != nil:
		return fmt.Errorf("find ledger entry of refund %s: %w", r.ID, err)
	}
	if ok, err := s.eventMatches(ctx, e.BookingID, account); err != nil || !ok {
		return err
	}
	// The event's snapshot may be stale: the provider's refund decides.
	b, err := s.store.BookingByID(ctx, e.BookingID)
	if err != nil {
		return fmt.Errorf("find booking of refund %s: %w", r.ID, err)
	}
	return s.matchRefunds(ctx, b, e.IntentID)
}

// applyDispute records a dispute and tells the host.
func (s *Service) applyDispute(ctx context.Context, ev payment.Event) error {
	d := ev.Dispute
	if d == nil {
		return nil
	}
	org, b, err := s.eventBooking(ctx, d.IntentID, ev.Account)
	if err != nil || b == nil {
		return err
	}
	recorded, err := s.store.RecordLedger(ctx, []ledger.Entry{{BookingID: b.ID, Kind: ledger.KindDispute, IntentID: d.IntentID,
		Amount: d.Amount, Currency: b.Currency, Key: "dispute:" + d.ID, Reason: d.Reason, ProviderID: d.ID,
		Status: ledger.StatusSucceeded}}, s.clock.Now())
	if err != nil {
		return fmt.Errorf("record dispute of booking %d: %w", b.ID, err)
	}
	s.notifyEntry(ctx, booking.NotifyDisputed, org, b, &recorded[0])
	return nil
}
