package booking

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/payment"
)

// sweepBatch is how many lapsed holds ExpireHolds reads at a time.
const sweepBatch = 100

// ExpireHolds expires pending and requested bookings whose hold has lapsed,
// cancelling their payment intents. Lapsed holds stop blocking dates
// whether or not this runs; it tidies statuses, releases card authorisations
// and tells the host. A pending booking found paid is confirmed instead, by
// the late-payment rule. It returns how many bookings it expired.
func (s *Service) ExpireHolds(ctx context.Context) (int, error) {
	now := s.clock.Now()
	expired := 0
	seen := map[int64]bool{}
	for {
		holds, err := s.store.LapsedHolds(ctx, now, sweepBatch)
		if err != nil {
			return expired, fmt.Errorf("list lapsed holds: %w", err)
		}
		progress := false
		for i := range holds {
			b := &holds[i]
			if seen[b.ID] {
				continue
			}
			seen[b.ID], progress = true, true
			ok, err := s.expire(ctx, b)
			if err != nil {
				return expired, err
			}
			if ok {
				expired++
			}
		}
		if len(holds) < sweepBatch || !progress {
			return expired, nil
		}
	}
}

// expire expires one lapsed hold, unless the guest paid meanwhile.
func (s *Service) expire(ctx context.Context, b *Booking) (bool, error) {
	now := s.clock.Now()
	org, err := s.organizationByID(ctx, b.OrgID)
	if err != nil {
		return false, err
	}
	if b.Status == StatusPending && b.PaymentIntentID != "" {
		intent, err := s.payments.GetIntent(ctx, b.PaymentIntentID)
		if err == nil && (intent.Status == payment.StatusSucceeded || intent.Status == payment.StatusAuthorized) {
			if _, err := s.applyIntent(ctx, org, b, intent, now); err == nil {
				return false, nil
			}
			// Late and the dates went: applyIntent returned the money
			// and expired the booking.
			return true, nil
		}
	}
	updated, err := s.store.Transition(ctx, b.ID, Transition{
		From: []Status{b.Status}, To: StatusExpired, At: now, OnlyExpired: true,
	})
	if err != nil {
		if ErrorCode(err) == CodeConflict {
			return false, nil // moved on meanwhile (paid, approved, declined)
		}
		return false, fmt.Errorf("expire booking %d: %w", b.ID, err)
	}
	s.voidIntent(ctx, updated)
	s.notify(ctx, NotifyExpired, org, updated)
	return true, nil
}
