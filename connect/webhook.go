package connect

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/payment"
)

// HandleWebhook verifies a payload of the platform's Connect webhook
// endpoint and applies its event, scoped to the event's account:
// account.updated keeps the organisation's account current, and the
// payments of connected accounts go to Options.Events. Each event id is
// applied once. Errors: booking.CodeInvalid when the signature or payload
// is not valid, or the engine is not a Connect platform; any other error
// means the provider should send it again.
func (s *Service) HandleWebhook(ctx context.Context, payload []byte, signature string) error {
	if s.platform == nil {
		return &booking.Error{Code: booking.CodeInvalid, Message: "This server takes no Connect webhooks."}
	}
	ev, err := s.platform.ParseConnectWebhook(payload, signature)
	if err != nil {
		return &booking.Error{Code: booking.CodeInvalid, Message: "The webhook signature or payload is invalid.", Err: err}
	}
	if ev.Account == "" {
		return &booking.Error{Code: booking.CodeInvalid, Message: "The Connect event names no account."}
	}
	if ev.Type != payment.EventAccountUpdated {
		return s.events.HandlePaymentEvent(ctx, *ev)
	}
	return s.accountUpdated(ctx, *ev)
}

// accountUpdated applies an account.updated event once, as
// money.Service.HandlePaymentEvent applies the others.
func (s *Service) accountUpdated(ctx context.Context, ev payment.Event) error {
	if ev.ID == "" || ev.Connected == nil {
		return nil
	}
	done, err := s.store.EventProcessed(ctx, ev.ID)
	if err != nil {
		return fmt.Errorf("check event %s: %w", ev.ID, err)
	}
	if done {
		return nil
	}
	if err := s.applyAccountUpdated(ctx, ev); err != nil {
		return err
	}
	if _, err := s.store.MarkEventProcessed(ctx, ev.ID, s.clock.Now()); err != nil {
		return fmt.Errorf("record event %s: %w", ev.ID, err)
	}
	return nil
}

// applyAccountUpdated keeps an organisation's ChargesEnabled and state
// current; an account staykit does not know is ignored.
func (s *Service) applyAccountUpdated(ctx context.Context, ev payment.Event) error {
	c := ev.Connected
	if c == nil || c.ID == "" || (ev.Account != "" && ev.Account != c.ID) {
		return nil
	}
	a, err := s.store.PaymentAccountByAccountID(ctx, c.ID)
	if err != nil {
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return nil
		}
		return fmt.Errorf("find organisation of account %s: %w", c.ID, err)
	}
	a.ChargesEnabled, a.State, a.UpdatedAt = c.ChargesEnabled, onboardingState(c), s.clock.Now()
	if err := s.store.SavePaymentAccount(ctx, a); err != nil {
		return fmt.Errorf("save payment account of organisation %d: %w", a.OrgID, err)
	}
	return nil
}
