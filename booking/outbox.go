package booking

import (
	"context"
	"fmt"
	"strconv"

	"github.com/staykit/staykit/outbox"
)

// NotifyReminder: the stay starts in a few days (Service.QueueReminders).
const NotifyReminder = "booking.reminder"

// OutboxStore is the outbox's store seam (outbox.Store), named here for
// the field of Stores.
type OutboxStore = outbox.Store

// tell is the outbox event of a booking's status change: one per kind and
// booking, as a booking reaches each status once.
func tell(kind string, b *Booking) []outbox.Event {
	return []outbox.Event{{Key: kind + ":" + strconv.FormatInt(b.ID, 10), Kind: kind, OrgID: b.OrgID, BookingID: b.ID}}
}

// QueueReminders records a reminder for each confirmed booking whose stay
// starts in days days, in its organisation's time zone. Each booking is
// reminded once (the event's key), so running it often is harmless. It
// returns how many reminders it recorded or found recorded.
func (s *Service) QueueReminders(ctx context.Context, days int) (int, error) {
	orgs, err := s.store.Organizations(ctx)
	if err != nil {
		return 0, fmt.Errorf("list organisations: %w", err)
	}
	now := s.clock.Now()
	n := 0
	for i := range orgs {
		org := &orgs[i]
		arrival := s.today(org, now).AddDays(days)
		bookings, err := s.store.BookingsArriving(ctx, org.ID, arrival, StatusConfirmed)
		if err != nil {
			return n, fmt.Errorf("list bookings of organisation %d arriving %s: %w", org.ID, arrival, err)
		}
		var events []outbox.Event
		for j := range bookings {
			events = append(events, tell(NotifyReminder, &bookings[j])...)
		}
		if len(events) == 0 {
			continue
		}
		if _, err := s.store.RecordOutbox(ctx, events, now); err != nil {
			return n, fmt.Errorf("record reminders of organisation %d: %w", org.ID, err)
		}
		n += len(events)
	}
	return n, nil
}
