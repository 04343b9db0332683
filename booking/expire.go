package booking

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
)

// sweepBatch is how many lapsed holds ExpireHolds reads at a time.
const sweepBatch = 100

// ExpireHolds expires pending and requested bookings whose hold has lapsed,
// releasing their payment intents through the ledger. Lapsed holds stop
// blocking dates whether or not this runs; it tidies statuses, releases
// card authorisations and tells the host. Before expiring a booking with an
// intent it reads the intent: a pending booking found paid is confirmed by
// the late-payment rule, a requested one found captured is confirmed, one
// still processing keeps its hold, and when the provider cannot be reached
// the booking is left for the next sweep rather than expired on a guess. A
// failure with one booking does not stop the sweep: the errors are joined
// and returned with the number of bookings expired.
func (s *Service) ExpireHolds(ctx context.Context) (int, error) {
	now := s.clock.Now()
	expired := 0
	seen := map[int64]bool{}
	var errs []error
	for {
		holds, err := s.store.LapsedHolds(ctx, now, sweepBatch)
		if err != nil {
			return expired, errors.Join(append(errs, fmt.Errorf("list lapsed holds: %w", err))...)
		}
		progress := false
		for i := range holds {
			b := &holds[i]
			if seen[b.ID] {
				continue
			}
			seen[b.ID], progress = true, true
			var ok bool
			err := s.recovered(ctx, "expire booking "+strconv.FormatInt(b.ID, 10), func() (err error) {
				ok, err = s.expire(ctx, b, now)
				return err
			})
			if err != nil {
				errs = append(errs, fmt.Errorf("expire booking %d: %w", b.ID, err))
			}
			if ok {
				expired++
			}
		}
		if len(holds) < sweepBatch || !progress {
			return expired, errors.Join(errs...)
		}
	}
}

// expire expires one lapsed hold, unless its payment says otherwise.
func (s *Service) expire(ctx context.Context, b *Booking, now time.Time) (bool, error) {
	org, err := s.organizationByID(ctx, b.OrgID)
	if err != nil {
		return false, err
	}
	if b.PaymentIntentID != "" {
		pay, err := s.accounts.ForBooking(ctx, b.ID)
		if err != nil {
			return false, err
		}
		in, err := pay.GetIntent(ctx, b.PaymentIntentID)
		if err != nil {
			return false, fmt.Errorf("read payment intent %s (left for the next sweep): %w", b.PaymentIntentID, err)
		}
		if in.Status != payment.StatusRequiresPayment && in.Status != payment.StatusRequiresAction &&
			!(in.Status == payment.StatusAuthorized && b.Status == StatusRequested) {
			// Paid, captured, authorised late, processing or voided:
			// the payment decides.
			updated, err := s.Reconcile(ctx, org, b, in, now)
			switch code := ErrorCode(err); {
			case code == CodeInternal:
				return false, err
			case updated != nil && updated.Status != StatusExpired, code == CodePaymentProcessing:
				return false, nil
			}
			current, err := s.store.BookingByID(ctx, b.ID)
			if err != nil {
				return false, err
			}
			return current.Status == StatusExpired && b.Status != StatusExpired, nil
		}
	}
	reason := ledger.ReasonHoldLapsed
	if b.Status == StatusRequested {
		reason = ledger.ReasonRequestLapsed
	}
	updated, err := s.store.Transition(ctx, b.ID, Transition{
		From: []Status{b.Status}, To: StatusExpired, At: now, OnlyExpired: true,
		Record: releaseRecord(b, reason), Outbox: tell(NotifyExpired, b),
	})
	if err != nil {
		if ErrorCode(err) == CodeConflict {
			return false, nil // moved on meanwhile (paid, approved, declined)
		}
		return false, fmt.Errorf("expire booking %d: %w", b.ID, err)
	}
	s.sendBookingEntries(ctx, updated.ID)
	s.notify(ctx, NotifyExpired, org, updated)
	return true, nil
}

// recovered runs fn and turns a panic into an error, logged with what, so
// that one booking cannot stop the sweep.
func (s *Service) recovered(ctx context.Context, what string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.logger.ErrorContext(ctx, "recovered from a panic; retried later", "what", what, "panic", r)
			err = fmt.Errorf("will retry: %s panicked: %v", what, r)
		}
	}()
	return fn()
}
