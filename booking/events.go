package booking

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/payment"
)

// HandlePaymentEvent applies a verified provider event: a succeeded or
// authorised intent drives the same transitions as Confirm, so a guest who
// closes the tab after paying still gets a confirmed booking; a cancelled
// intent expires its booking's hold. Each event id is applied once; events
// about intents staykit does not know are ignored. An error means the event
// was not applied and the provider should send it again.
func (s *Service) HandlePaymentEvent(ctx context.Context, ev payment.Event) error {
	if ev.Intent == nil || ev.ID == "" {
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
	b, err := s.store.BookingByIntent(ctx, ev.Intent.ID)
	if err != nil {
		if ErrorCode(err) == CodeNotFound {
			return nil
		}
		return fmt.Errorf("find booking of intent %s: %w", ev.Intent.ID, err)
	}
	org, err := s.organizationByID(ctx, b.OrgID)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	switch ev.Type {
	case payment.EventSucceeded, payment.EventAuthorized:
		if b.Status != StatusPending && b.Status != StatusExpired {
			return nil // already settled (a capture on approval also sends succeeded)
		}
		_, err := s.applyIntent(ctx, org, b, ev.Intent, now)
		switch ErrorCode(err) {
		case "", CodePaymentNotConfirmed, CodePaymentLate, CodeBookingClosed:
			return nil // settled, or nothing this event can change
		}
		return err
	case payment.EventCanceled:
		if b.Status != StatusPending && b.Status != StatusRequested {
			return nil
		}
		updated, err := s.store.Transition(ctx, b.ID, Transition{From: []Status{b.Status}, To: StatusExpired, At: now})
		if err != nil {
			if ErrorCode(err) == CodeConflict {
				return nil
			}
			return fmt.Errorf("expire booking %d after cancelled payment: %w", b.ID, err)
		}
		s.notify(ctx, NotifyExpired, org, updated)
	case payment.EventFailed:
		// The guest may try another card while the hold lasts.
		s.logger.InfoContext(ctx, "payment attempt failed", "booking_id", b.ID, "intent", ev.Intent.ID)
	}
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
