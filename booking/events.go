package booking

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
)

// HandlePaymentEvent applies a verified provider event. Providers neither
// order nor deduplicate deliveries, so an intent event is a trigger: the
// intent's current state is read from the provider and reconciled with the
// booking (see reconcile), whatever the event's snapshot said. A guest who
// closes the tab after paying still gets a confirmed booking; a late event
// cannot revive a booking that ended. Refund and dispute events update the
// ledger and tell the host, refunds made from the provider's dashboard
// included. Each event id is applied once; events about intents staykit
// does not know are ignored. An error means the event was not applied and
// the provider should send it again.
func (s *Service) HandlePaymentEvent(ctx context.Context, ev payment.Event) error {
	if ev.ID == "" || (ev.Intent == nil && ev.Refund == nil && ev.Dispute == nil && ev.Connected == nil) {
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

func (s *Service) applyEvent(ctx context.Context, ev payment.Event) error {
	switch ev.Type {
	case payment.EventSucceeded, payment.EventAuthorized, payment.EventFailed, payment.EventCanceled:
		return s.applyIntentEvent(ctx, ev.Intent.ID, ev.Account)
	case payment.EventRefunded:
		return s.applyRefundedEvent(ctx, ev)
	case payment.EventRefundUpdated:
		return s.applyRefundUpdate(ctx, ev.Refund, ev.Account)
	case payment.EventAccountUpdated:
		return s.applyAccountUpdated(ctx, ev)
	case payment.EventDisputed:
		return s.applyDispute(ctx, ev)
	}
	return nil
}

// eventBooking finds the booking of an intent named by an event of
// account; nil when staykit does not know the intent, or the intent is not
// that account's (an event from one account never touches another
// account's bookings).
func (s *Service) eventBooking(ctx context.Context, intentID, account string) (*Organization, *Booking, error) {
	b, err := s.store.BookingByIntent(ctx, intentID)
	if err != nil {
		if ErrorCode(err) == CodeNotFound {
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
	pay, err := s.bookingPayments(ctx, b.ID)
	if err != nil {
		return err
	}
	in, err := pay.GetIntent(ctx, intentID)
	if err != nil {
		return fmt.Errorf("read intent %s: %w", intentID, err)
	}
	_, err = s.reconcile(ctx, org, b, in, s.clock.Now())
	switch ErrorCode(err) {
	case "", CodePaymentNotConfirmed, CodePaymentLate, CodeBookingClosed, CodePaymentProcessing:
		return nil // settled, or nothing this event can change
	}
	return err
}

// applyRefundedEvent records money that went back without a ledger entry of
// ours (a refund from the provider's dashboard) and tells the host.
func (s *Service) applyRefundedEvent(ctx context.Context, ev payment.Event) error {
	if ev.Refund != nil {
		if err := s.applyRefundUpdate(ctx, ev.Refund, ev.Account); err != nil {
			return err
		}
	}
	if ev.Intent == nil {
		return nil
	}
	org, b, err := s.eventBooking(ctx, ev.Intent.ID, ev.Account)
	if err != nil || b == nil {
		return err
	}
	pay, err := s.bookingPayments(ctx, b.ID)
	if err != nil {
		return err
	}
	in, err := pay.GetIntent(ctx, ev.Intent.ID)
	if err != nil {
		return fmt.Errorf("read intent %s: %w", ev.Intent.ID, err)
	}
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	var ours int64
	for _, e := range entries {
		// Ours as soon as it may have reached the provider.
		if e.Kind == ledger.KindRefund && e.Status != ledger.StatusFailed && (e.Status != ledger.StatusPending || e.Attempts > 0) {
			ours += e.Amount
		}
	}
	unknown := in.AmountRefunded - ours
	if unknown <= 0 {
		return nil
	}
	now := s.clock.Now()
	recorded, err := s.store.RecordLedger(ctx, []ledger.Entry{{BookingID: b.ID, Kind: ledger.KindRefund, IntentID: in.ID,
		Amount: unknown, Currency: b.Currency, Key: "dashboard:" + ev.ID, Reason: ledger.ReasonDashboard,
		Status: ledger.StatusSucceeded}}, now)
	if err != nil {
		return fmt.Errorf("record dashboard refund of booking %d: %w", b.ID, err)
	}
	s.notifyEntry(ctx, NotifyRefunded, org, b, &recorded[0])
	return nil
}

// applyRefundUpdate settles a refund of ours: it went through, or failed
// days later (the money is back on the account and the host must act).
func (s *Service) applyRefundUpdate(ctx context.Context, r *payment.Refund, account string) error {
	if r == nil {
		return nil
	}
	e, err := s.store.LedgerEntryByProviderID(ctx, r.ID)
	if err != nil {
		if ErrorCode(err) == CodeNotFound {
			return nil // not ours: charge.refunded records it
		}
		return fmt.Errorf("find ledger entry of refund %s: %w", r.ID, err)
	}
	if ok, err := s.eventMatches(ctx, e.BookingID, account); err != nil || !ok {
		return err
	}
	status := e.Status
	switch r.Status {
	case payment.RefundSucceeded:
		status = ledger.StatusSucceeded
	case payment.RefundFailed, payment.RefundCanceled:
		status = ledger.StatusFailed
		e.LastError = "the refund " + string(r.Status) + " at the provider"
	}
	if status == e.Status {
		return nil
	}
	e.Status, e.UpdatedAt = status, s.clock.Now()
	if err := s.saveEntry(ctx, e); err != nil {
		return fmt.Errorf("update ledger entry %d: %w", e.ID, err)
	}
	return nil
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
	s.notifyEntry(ctx, NotifyDisputed, org, b, &recorded[0])
	return nil
}

// HandleWebhook verifies a provider's webhook payload and applies its event.
// Errors: CodeInvalid when the signature or payload is not valid (the
// provider should not retry); any other error means it should.
func (s *Service) HandleWebhook(ctx context.Context, payload []byte, signature string) error {
	ev, err := s.payments.ParseWebhook(payload, signature)
	if err != nil {
		return &Error{Code: CodeInvalid, Message: "The webhook signature or payload is invalid.", Err: err}
	}
	return s.HandlePaymentEvent(ctx, *ev)
}
